import { Code } from '@paydesk/contract';
import type { FastifyInstance } from 'fastify';
import { installSignedWebhook } from '../../platform/signed-webhook.js';
import type { GatewayPayouts } from './gateway-payouts.js';

/** Where a gateway account's webhooks are POSTed: the account's id is in the path (its secret checks them). */
export const GATEWAY_WEBHOOK_PATH = '/v1.0/gateway/webhook/:resourceId';

/** The webhook URL to give the gateway for account `resourceId`, under the server's public origin. */
export const gatewayWebhookPath = (resourceId: number) =>
  GATEWAY_WEBHOOK_PATH.replace(':resourceId', String(resourceId));

/**
 * The public webhook route of payout gateways (no session: the gateway signs; the body kept as the
 * bytes received, platform/signed-webhook.ts). A wrong or missing signature (or an account that is not
 * a gateway account) answers 401 and moves nothing; a signed body that is not a payout event 400;
 * anything else 200, also for a payout this server does not know, so the gateway does not send it
 * again and again.
 */
export async function installGatewayWebhook(app: FastifyInstance, gateway: GatewayPayouts): Promise<void> {
  await installSignedWebhook<{ resourceId: string }>(
    app,
    GATEWAY_WEBHOOK_PATH,
    async ({ params, rawBody, signature, reply }) => {
      const resourceId = /^\d{1,9}$/.test(params.resourceId) ? Number(params.resourceId) : null;
      const outcome =
        resourceId === null
          ? ({ kind: 'unauthorised' } as const)
          : await gateway.handleWebhook(resourceId, rawBody, signature);
      if (outcome.kind === 'unauthorised') {
        return reply.status(401).send({ code: Code.badSignature, msg: 'signature does not match', data: null });
      }
      if (outcome.kind === 'malformed') {
        return reply.status(400).send({ code: Code.invalidInput, msg: outcome.reason, data: null });
      }
      return { code: Code.success, msg: 'ok', data: { state: outcome.state } };
    },
  );
}
