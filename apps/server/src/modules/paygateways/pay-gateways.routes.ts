import { type endpoints, pageSizeOf } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { PayGateways } from './pay-gateways.js';

export function payGatewaysHandlers(gateways: PayGateways) {
  return {
    getPayGateways: (input) => gateways.list({ ...input, pageSize: pageSizeOf(input) }),
    exportPayGateways: (input) => gateways.export(input),
    createPayGateway: (input, ctx) => gateways.create(input, ctx.actor),
    updatePayGateway: (input, ctx) => gateways.update(input, ctx.actor),
    setPayGatewayEnabled: (input, ctx) => gateways.setEnabled(input.id, input.enabled, ctx.actor),
    deletePayGateway: async (input, ctx) => {
      await gateways.delete(input.id, ctx.actor);
      return null;
    },
  } satisfies Handlers<typeof endpoints.payGateways>;
}
