import { type endpoints, pageSizeOf } from '@paydesk/contract';
import type { Db } from '../../db/client.js';
import type { Handlers } from '../../platform/context.js';
import { demoHistoryStatus } from './demo-history.js';
import type { EntityData } from './entity-data.js';

export function systemHandlers(db: Db) {
  return {
    demoHistory: () => demoHistoryStatus(db),
  } satisfies Handlers<typeof endpoints.system>;
}

export function entityDataHandlers(entityData: EntityData) {
  return {
    entityTables: async () => ({ list: await entityData.tables() }),
    entityRows: (input) => entityData.rows({ ...input, pageSize: pageSizeOf(input) }),
  } satisfies Handlers<typeof endpoints.entityData>;
}
