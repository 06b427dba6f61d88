import { type endpoints, pageSizeOf } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { MerchantsService } from './merchants.service.js';

export function merchantsHandlers(merchants: MerchantsService) {
  return {
    getList: (input, ctx) => merchants.getList(ctx.scope, { ...input, pageSize: pageSizeOf(input) }, ctx.role),
    exportList: (input, ctx) => merchants.exportList(ctx.scope, input),
    getDetail: (input, ctx) => merchants.getDetail(ctx.scope, input.id, ctx.role),
    getMine: (_input, ctx) => merchants.getMine(ctx.user.userId),
    create: (input, ctx) => merchants.create(ctx.role, input, ctx.actor),
    update: async ({ id, ...settings }, ctx) => {
      await merchants.update(id, { ...settings, notifyUrl: settings.notifyUrl ?? null }, ctx.actor);
      return null;
    },
    setEnabled: async (input, ctx) => {
      await merchants.setEnabled(input.id, input.enabled, ctx.actor);
      return null;
    },
    revealSecret: (input, ctx) => merchants.revealSecret(ctx.scope, input.id, ctx.actor),
    rotateSecret: (input, ctx) => merchants.rotateSecret(ctx.scope, input.id, ctx.actor),
  } satisfies Handlers<typeof endpoints.merchants>;
}
