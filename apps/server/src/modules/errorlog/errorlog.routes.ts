import { type endpoints, pageSizeOf } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { ErrorLogService } from './errorlog.service.js';

export function errorLogHandlers(errorLog: ErrorLogService) {
  return {
    save: async (input, ctx) => {
      await errorLog.save(ctx.user, input, ctx.ip);
      return null;
    },
    getList: (input) => errorLog.getList({ ...input, pageSize: pageSizeOf(input) }),
    export: (input) => errorLog.exportRows(input),
  } satisfies Handlers<typeof endpoints.errorLog>;
}
