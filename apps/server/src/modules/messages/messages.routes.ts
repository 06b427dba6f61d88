import type { endpoints } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { MessagesService } from './messages.service.js';

export function messagesHandlers(messages: MessagesService) {
  return {
    init: (_input, ctx) => messages.init(ctx.user.userId),
    content: (input, ctx) => messages.content(ctx.user.userId, input.msg_id),
    hasRead: async (input, ctx) => {
      await messages.move(ctx.user.userId, input.msg_id, 'hasRead');
      return null;
    },
    removeReaded: async (input, ctx) => {
      await messages.move(ctx.user.userId, input.msg_id, 'removeReaded');
      return null;
    },
    restore: async (input, ctx) => {
      await messages.move(ctx.user.userId, input.msg_id, 'restore');
      return null;
    },
    unreadCount: (_input, ctx) => messages.unreadCount(ctx.user.userId),
    send: (input, ctx) => messages.send(input, ctx.actor),
  } satisfies Handlers<typeof endpoints.messages>;
}
