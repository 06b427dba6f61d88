import type { Db } from '../../db/client.js';
import type { Clock } from '../../platform/clock.js';

export interface ProductsDeps {
  db: Db;
  clock: Clock;
}

export class ProductsService {
  constructor(readonly deps: ProductsDeps) {}
}
