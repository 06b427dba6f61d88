import type { endpoints } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { MerchantsService } from './merchants.service.js';

export function merchantsHandlers(_merchants: MerchantsService) {
  return {} satisfies Handlers<typeof endpoints.merchants>;
}
