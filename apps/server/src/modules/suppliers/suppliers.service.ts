import type { Db } from '../../db/client.js';
import type { Clock } from '../../platform/clock.js';

export interface SuppliersDeps {
  db: Db;
  clock: Clock;
}

export class SuppliersService {
  constructor(readonly deps: SuppliersDeps) {}
}
