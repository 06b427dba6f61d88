import { type endpoints, pageSizeOf } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { SuppliersService } from './suppliers.service.js';

export function suppliersHandlers(suppliers: SuppliersService) {
  return {
    getList: (input, ctx) => suppliers.getList(ctx.scope, { ...input, pageSize: pageSizeOf(input) }, ctx.role),
    exportList: (input, ctx) => suppliers.exportList(ctx.scope, input),
    getDetail: (input, ctx) => suppliers.getDetail(ctx.scope, input.id, ctx.role),
    getMine: (_input, ctx) => suppliers.getMine(ctx.user.userId),
    create: (input, ctx) => suppliers.create(ctx.role, input, ctx.actor),
    update: async (input, ctx) => {
      await suppliers.update(input, ctx.actor);
      return null;
    },
    setEnabled: async (input, ctx) => {
      await suppliers.setEnabled(input, ctx.actor);
      return null;
    },
    createAgent: (input, ctx) => suppliers.createAgent(ctx.user.userId, input, ctx.actor),
    updateAgent: async (input, ctx) => {
      await suppliers.updateAgent({ userId: ctx.user.userId, role: ctx.role }, input, ctx.actor);
      return null;
    },
    getAgentCommissions: (input, ctx) =>
      suppliers.getAgentCommissions({ userId: ctx.user.userId, role: ctx.role }, input.agentId),
    setAgentCommission: async (input, ctx) => {
      await suppliers.setAgentCommission({ userId: ctx.user.userId, role: ctx.role }, input, ctx.actor);
      return null;
    },
  } satisfies Handlers<typeof endpoints.suppliers>;
}
