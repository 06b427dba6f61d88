import { type endpoints, pageSizeOf } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { CallbackQueries } from './callbacks.query.js';
import type { CallbacksService } from './callbacks.service.js';

export function callbacksHandlers(callbacks: CallbacksService, queries: CallbackQueries) {
  return {
    getList: (input) => queries.getList({ ...input, pageSize: pageSizeOf(input) }),
    exportList: (input) => queries.exportList(input),
    getDetailList: (input) => queries.getDetailList({ ...input, pageSize: pageSizeOf(input) }),
    exportDetailList: (input) => queries.exportDetailList(input),
    delete: (input, ctx) => callbacks.remove(input.ids, ctx.actor),
    replay: (input, ctx) => callbacks.replay(input.id, ctx.actor),
    sendTest: (input, ctx) => callbacks.sendTest(input, ctx.actor),
  } satisfies Handlers<typeof endpoints.callbacks>;
}
