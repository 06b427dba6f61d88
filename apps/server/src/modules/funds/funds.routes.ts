import type { endpoints } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { FundsService } from './funds.service.js';

export function fundsHandlers(_funds: FundsService) {
  return {} satisfies Handlers<typeof endpoints.funds>;
}
