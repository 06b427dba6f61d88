import type { endpoints } from '@paydesk/contract';
import type { Handlers, UserContext } from '../../platform/context.js';
import type { TodoService } from './todo.service.js';

const callerOf = (ctx: UserContext) => ({ role: ctx.role, userId: ctx.user.userId, scope: ctx.scope });

export function todoHandlers(todo: TodoService): Handlers<typeof endpoints.todo> {
  return {
    counts: (_input, ctx) => todo.counts(callerOf(ctx)),
    getList: (input, ctx) => todo.list(callerOf(ctx), input),
    export: (input, ctx) => todo.exportRows(callerOf(ctx), input),
  };
}
