import type { endpoints } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { ProfileService } from './profile.service.js';

export function profileHandlers(profile: ProfileService) {
  return {
    updateNickname: async (input, ctx) => {
      await profile.updateNickname(ctx.user, input.nickname, ctx.actor);
      return null;
    },
    changePassword: async (input, ctx) => {
      await profile.changePassword(ctx.user, input, ctx.actor);
      return null;
    },
    changePayPassword: async (input, ctx) => {
      // The guard checked the header (the endpoint's token2 is the service's to require: see there).
      const token2 = ctx.token2Valid ? 'valid' : ctx.reply.request.headers.token2 ? 'expired' : 'missing';
      await profile.changePayPassword(ctx.user, input, ctx.actor, token2);
      return null;
    },
  } satisfies Handlers<typeof endpoints.profile>;
}
