import { Code } from '@paydesk/contract';
import type { FastifyInstance } from 'fastify';
import { installSignedWebhook } from '../../platform/signed-webhook.js';
import type { PayNotify } from './pay-notify.js';

/** Where a collectionNotify pay gateway POSTs its notifications: the gateway's id is in the path. */
export const PAY_NOTIFY_PATH = '/v1.0/pay/notify/:gatewayId';

/** The notification URL to give gateway `gatewayId`, under the server's public origin. */
export const payNotifyPath = (gatewayId: number) => PAY_NOTIFY_PATH.replace(':gatewayId', String(gatewayId));

/**
 * The public route of pay gateways' collection notifications (no session: the gateway signs; the body
 * kept as the bytes received, platform/signed-webhook.ts). 401 for anything not signed by an enabled
 * collectionNotify gateway's webhook secret, 400 for a signed notification its script cannot read,
 * else 200 with what became of it (also when nothing moved: an unknown order, another amount, a repeat),
 * so the gateway stops sending it.
 */
export async function installPayNotify(app: FastifyInstance, notify: PayNotify): Promise<void> {
  await installSignedWebhook<{ gatewayId: string }>(
    app,
    PAY_NOTIFY_PATH,
    async ({ params, rawBody, signature, request, reply }) => {
      const gatewayId = /^\d{1,9}$/.test(params.gatewayId) ? Number(params.gatewayId) : null;
      const outcome =
        gatewayId === null
          ? ({ kind: 'unauthorised' } as const)
          : await notify.handle({ gatewayId, rawBody, signature, headers: request.headers, ip: request.ip });
      if (outcome.kind === 'unauthorised') {
        return reply.status(401).send({ code: Code.badSignature, msg: 'signature does not match', data: null });
      }
      if (outcome.kind === 'invalid') {
        request.log.warn({ gatewayId, recordId: outcome.recordId, reason: outcome.reason }, 'pay notification refused');
        return reply.status(400).send({ code: Code.invalidInput, msg: outcome.reason, data: null });
      }
      const facts = {
        gatewayId: outcome.gateway.id,
        gateway: outcome.gateway.name,
        orderCode: outcome.orderCode,
        amount: outcome.parsed.amount,
        utr: outcome.parsed.utr,
        recordId: outcome.recordId,
      };
      if (outcome.outcome === 'amountMismatch') {
        request.log.warn({ ...facts, orderAmount: outcome.orderAmount }, 'pay notification of another amount: ignored');
      } else if (
        outcome.outcome === 'locked' ||
        outcome.outcome === 'utrUsed' ||
        outcome.outcome === 'notAwaitingPayment'
      ) {
        request.log.warn({ ...facts, outcome: outcome.outcome }, 'pay notification not applied');
      } else if (outcome.outcome === 'alreadyPaid') {
        request.log.info(facts, 'pay notification for an order paid already');
      }
      return {
        code: Code.success,
        msg: 'ok',
        data: { outcome: outcome.outcome, orderCode: outcome.orderCode, state: outcome.state },
      };
    },
  );
}
