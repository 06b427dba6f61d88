import { type endpoints, pageSizeOf } from '@paydesk/contract';
import type { Handlers, UserContext } from '../../platform/context.js';
import type { FundOwner, FundsService } from './funds.service.js';

/** Staff read every party's fund records; a merchant or supplier only its own account's. */
const ownerOf = (ctx: UserContext): FundOwner =>
  ctx.scope.all ? { all: true } : { all: false, userId: ctx.user.userId };

export function fundsHandlers(funds: FundsService) {
  return {
    getFundRecordList: (input, ctx) => funds.getFundRecordList(ownerOf(ctx), { ...input, pageSize: pageSizeOf(input) }),
    exportFundRecords: (input, ctx) => funds.exportFundRecords(ownerOf(ctx), input),
    getTotalBalance: (_input, ctx) => funds.getTotalBalance({ userId: ctx.user.userId, role: ctx.role }),
    propose: (input, ctx) => funds.propose(input, ctx.actor, ctx.role),
    approve: (input, ctx) => funds.approve(input.id, ctx.actor),
    reject: async (input, ctx) => {
      await funds.reject(input, ctx.actor);
      return null;
    },
    cancel: async (input, ctx) => {
      await funds.cancel(input.id, ctx.actor);
      return null;
    },
    getProposalList: (input) => funds.getProposalList({ ...input, pageSize: pageSizeOf(input) }),
    exportProposals: (input) => funds.exportProposals(input),
  } satisfies Handlers<typeof endpoints.funds>;
}
