import type { endpoints } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { LedgerService } from './ledger.service.js';

export function ledgerHandlers(ledger: LedgerService) {
  return {
    ledgerCheck: () => ledger.check(),
  } satisfies Handlers<typeof endpoints.ledger>;
}
