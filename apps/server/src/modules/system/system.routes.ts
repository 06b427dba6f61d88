import type { endpoints } from '@paydesk/contract';
import type { Db } from '../../db/client.js';
import type { Handlers } from '../../platform/context.js';
import { demoHistoryStatus } from './demo-history.js';

export function systemHandlers(db: Db) {
  return {
    demoHistory: () => demoHistoryStatus(db),
  } satisfies Handlers<typeof endpoints.system>;
}
