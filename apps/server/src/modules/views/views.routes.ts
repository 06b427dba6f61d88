import type { endpoints } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { SavedViewsService } from './views.service.js';

export function viewsHandlers(views: SavedViewsService) {
  return {
    getList: (input, ctx) => views.getList(ctx.user.userId, input.page),
    save: (input, ctx) => views.save(ctx.user.userId, input, ctx.actor),
    delete: async (input, ctx) => {
      await views.delete(ctx.user.userId, input.id, ctx.actor);
      return null;
    },
  } satisfies Handlers<typeof endpoints.views>;
}
