import { type endpoints, note, pageSizeOf } from '@paydesk/contract';
import type { Handlers, UserContext } from '../../platform/context.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { PayoutQueries } from './payouts.query.js';
import type { PayoutCaller, PayoutsService } from './payouts.service.js';
import type { SignedPayouts } from './signed-payouts.js';

const caller = (ctx: UserContext): PayoutCaller => ({
  role: ctx.role,
  userId: ctx.user.userId,
  scope: ctx.scope,
  actor: ctx.actor,
});

export function payoutsHandlers(
  payouts: PayoutsService,
  signed: SignedPayouts,
  merchants: MerchantsService,
  queries: PayoutQueries,
): Handlers<typeof endpoints.payouts> {
  return {
    create: async (input, ctx) => {
      const { created: _created, ...answer } = await signed.create(input, { ip: ctx.ip });
      return answer;
    },
    query: (input, ctx) => signed.query(input, { ip: ctx.ip }),
    createInConsole: async (input, ctx) => {
      const merchant = await merchants.getMine(ctx.user.userId);
      const { created: _created, ...answer } = await payouts.createFor(merchant.id, input, {
        via: note('viaConsole', { account: ctx.user.account }),
        actor: ctx.actor,
        audit: true,
      });
      return answer;
    },
    getDetail: (input, ctx) => payouts.getDetail(input.orderId, caller(ctx)),
    claimOrder: (input, ctx) => payouts.claim(input.orderId, caller(ctx)),
    lastClaimable: (_input, ctx) => queries.lastClaimable(caller(ctx)),
    cancelClaim: (input, ctx) => payouts.cancelClaim(input.orderId, caller(ctx)),
    submit: (input, ctx) => payouts.submit(input.orderId, input.utr, input.receipt, caller(ctx)),
    receipt: (input, ctx) => payouts.receipt(input.orderId, caller(ctx)),
    confirm: (input, ctx) => payouts.confirm(input.orderId, caller(ctx)),
    reject: (input, ctx) => payouts.reject(input.orderId, input.rejectReason, caller(ctx)),
    cancel: (input, ctx) => payouts.cancel(input.orderId, caller(ctx)),
    markAbnormal: (input, ctx) => payouts.markAbnormal(input.orderId, input.reason, caller(ctx)),
    resolve: (input, ctx) => payouts.resolve(input.orderId, input.to, input.reason, caller(ctx)),
    getList: (input, ctx) => queries.getList(caller(ctx), { ...input, pageSize: pageSizeOf(input) }),
    exportList: (input, ctx) => queries.exportList(caller(ctx), input),
    getPayoutStatusList: async () => queries.getPayoutStatusList(),
  };
}
