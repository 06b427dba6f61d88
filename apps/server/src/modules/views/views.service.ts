import type { Db } from '../../db/client.js';
import type { Clock } from '../../platform/clock.js';

export interface SavedViewsDeps {
  db: Db;
  clock: Clock;
}

export class SavedViewsService {
  constructor(readonly deps: SavedViewsDeps) {}
}
