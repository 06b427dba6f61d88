import { type endpoints, pageSizeOf } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { AuditService } from './audit.service.js';

export function auditHandlers(audit: AuditService) {
  return {
    getList: (input) => audit.getList({ ...input, pageSize: pageSizeOf(input) }),
    export: (input) => audit.exportRows(input),
    verifyChain: () => audit.verifyChain(),
  } satisfies Handlers<typeof endpoints.audit>;
}
