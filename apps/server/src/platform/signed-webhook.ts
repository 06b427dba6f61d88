import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Webhooks that upstream gateways sign (RazorpayX's scheme): the body POSTed with `X-Razorpay-Signature`,
 * the hex HMAC-SHA256 of the raw body under the sender's webhook secret. Used by the payout gateways'
 * webhook (`payouts/gateway-webhook.routes.ts`) and the collection notifications of pay gateways
 * (`paygateways/pay-notify.routes.ts`). The signature is checked over the bytes as received, before
 * anything parses them: a body parsed and serialised again is not the body that was signed.
 */

/** The header the signature comes in (lower case, as Node gives headers). */
export const WEBHOOK_SIGNATURE_HEADER = 'x-razorpay-signature';

/** A gateway's webhook body is a small event; more is not one. */
export const WEBHOOK_BODY_LIMIT = 256 * 1024;

/** The hex HMAC-SHA256 of `rawBody` under `webhookSecret`: what the gateway puts in the header. */
export function webhookSignature(rawBody: Buffer | string, webhookSecret: string): string {
  return createHmac('sha256', webhookSecret).update(rawBody).digest('hex');
}

/**
 * Whether `signature` is the gateway's signature of `rawBody` under `webhookSecret`, compared in
 * constant time. A missing or malformed signature, or an empty secret, is never valid.
 */
export function verifyWebhook(rawBody: Buffer | string, signature: string | undefined, webhookSecret: string): boolean {
  if (!signature || !webhookSecret) return false;
  const given = signature.trim();
  if (!/^[0-9a-fA-F]{64}$/.test(given)) return false;
  const expected = createHmac('sha256', webhookSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

/** What a signed webhook's handler gets: the body's bytes as received and the signature header's value. */
export interface SignedWebhookRequest<P> {
  params: P;
  rawBody: Buffer;
  signature: string | undefined;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * Registers a public POST route (no session: the sender signs) whose body is kept as the bytes
 * received, whatever their content type, up to WEBHOOK_BODY_LIMIT (a larger one is a 413), and which
 * is hidden from the OpenAPI document. The handler checks the signature (`verifyWebhook`) with the
 * secret of whoever the path names and answers.
 */
export async function installSignedWebhook<P extends Record<string, string>>(
  app: FastifyInstance,
  path: string,
  handle: (req: SignedWebhookRequest<P>) => Promise<unknown>,
): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    scope.post<{ Params: P }>(path, { schema: { hide: true } }, async (request, reply) => {
      const header = request.headers[WEBHOOK_SIGNATURE_HEADER];
      return handle({
        params: request.params as P,
        rawBody: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        signature: Array.isArray(header) ? header[0] : header,
        request,
        reply,
      });
    });
  });
}
