import type { Db } from '../../db/client.js';
import type { Clock } from '../../platform/clock.js';

export interface FundsDeps {
  db: Db;
  clock: Clock;
}

export class FundsService {
  constructor(readonly deps: FundsDeps) {}
}
