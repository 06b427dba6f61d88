import { Code } from '@paydesk/contract';
import type { FastifyInstance } from 'fastify';
import { WEBHOOK_SIGNATURE_HEADER } from './gateway/webhook.js';
import type { GatewayPayouts } from './gateway-payouts.js';

/** Where a gateway account's webhooks are POSTed: the account's id is in the path (its secret checks them). */
export const GATEWAY_WEBHOOK_PATH = '/v1.0/gateway/webhook/:resourceId';

/** The webhook URL to give the gateway for account `resourceId`, under the server's public origin. */
export const gatewayWebhookPath = (resourceId: number) =>
  GATEWAY_WEBHOOK_PATH.replace(':resourceId', String(resourceId));

/** A gateway's webhook body is a small JSON event; more is not one. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;

/**
 * The public webhook route of payout gateways (no session: the gateway signs). Its body is kept as the
 * bytes received, whatever their content type: the signature is over those bytes, and a body parsed
 * and serialised again is not the body that was signed. A wrong or missing signature (or an account
 * that is not a gateway account) answers 401 and moves nothing; a signed body that is not a payout
 * event 400; anything else 200, also for a payout this server does not know, so the gateway does not
 * send it again and again.
 */
export async function installGatewayWebhook(app: FastifyInstance, gateway: GatewayPayouts): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    scope.post<{ Params: { resourceId: string } }>(
      GATEWAY_WEBHOOK_PATH,
      { schema: { hide: true } },
      async (req, reply) => {
        const resourceId = /^\d{1,9}$/.test(req.params.resourceId) ? Number(req.params.resourceId) : null;
        const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const header = req.headers[WEBHOOK_SIGNATURE_HEADER];
        const signature = Array.isArray(header) ? header[0] : header;
        const outcome =
          resourceId === null
            ? ({ kind: 'unauthorised' } as const)
            : await gateway.handleWebhook(resourceId, raw, signature);
        if (outcome.kind === 'unauthorised') {
          return reply.status(401).send({ code: Code.badSignature, msg: 'signature does not match', data: null });
        }
        if (outcome.kind === 'malformed') {
          return reply.status(400).send({ code: Code.invalidInput, msg: outcome.reason, data: null });
        }
        return { code: Code.success, msg: 'ok', data: { state: outcome.state } };
      },
    );
  });
}
