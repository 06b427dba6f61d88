import type { endpoints } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { SuppliersService } from './suppliers.service.js';

export function suppliersHandlers(_suppliers: SuppliersService) {
  return {} satisfies Handlers<typeof endpoints.suppliers>;
}
