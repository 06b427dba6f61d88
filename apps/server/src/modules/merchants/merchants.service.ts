import type { Db } from '../../db/client.js';
import type { Clock } from '../../platform/clock.js';

export interface MerchantsDeps {
  db: Db;
  clock: Clock;
}

export class MerchantsService {
  constructor(readonly deps: MerchantsDeps) {}
}
