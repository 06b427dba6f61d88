import { z } from 'zod';
import { GatewayProtocolError, type GatewayStatus, normaliseStatus } from './status.js';

/**
 * The gateway's webhooks (RazorpayX's shape): a JSON event POSTed with `X-Razorpay-Signature`, the hex
 * HMAC-SHA256 of the raw body under the account's webhook secret. The route verifies the signature
 * over the bytes as received (verifyWebhook), before parsing them (parseWebhook): a body parsed and
 * serialised again is not the body that was signed.
 */

// The signature scheme is shared with the pay gateways' collection notifications (platform/signed-webhook.ts).
export { verifyWebhook, WEBHOOK_SIGNATURE_HEADER, webhookSignature } from '../../../platform/signed-webhook.js';

/** A webhook body that is not a payout event this adapter can read; the message says what is wrong. */
export class GatewayWebhookError extends Error {
  override name = 'GatewayWebhookError';
}

/** What a payout webhook tells. */
export interface GatewayWebhook {
  /** payout.processed, payout.failed, payout.reversed, payout.initiated, payout.updated, ... */
  event: string;
  gatewayId: string;
  /** Our reference_id as sent with the payout (the payout's code); null if the gateway sent none. */
  referenceId: string | null;
  /** The payout's amount in paise as the gateway has it, to check against ours. */
  amount: number | null;
  /** The payout's status at the event, with its UTR and failure reason. */
  status: GatewayStatus;
}

const webhookSchema = z.object({
  event: z.string().regex(/^payout\./, 'a payout event (payout.*)'),
  payload: z.object({
    payout: z.object({
      entity: z.object({
        id: z.string().min(1),
        status: z.string(),
        amount: z.number().int().nullish(),
        reference_id: z.string().nullish(),
        utr: z.string().nullish(),
        status_details: z
          .object({ description: z.string().nullish(), reason: z.string().nullish(), source: z.string().nullish() })
          .nullish(),
        failure_reason: z.string().nullish(),
      }),
    }),
  }),
});

/**
 * The payout event in a (verified) webhook body. Throws GatewayWebhookError saying what is wrong when
 * the body is not JSON, not a payout event, lacks the payout, or carries a status this adapter does
 * not know.
 */
export function parseWebhook(rawBody: Buffer | string): GatewayWebhook {
  const text = typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new GatewayWebhookError('the webhook body is not JSON');
  }
  const parsed = webhookSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const event = (json as { event?: unknown } | null)?.event;
    const what = typeof event === 'string' ? `webhook '${event.slice(0, 60)}'` : 'webhook';
    throw new GatewayWebhookError(`${what}: ${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  const { event, payload } = parsed.data;
  const entity = payload.payout.entity;
  try {
    return {
      event,
      gatewayId: entity.id,
      referenceId: entity.reference_id ?? null,
      amount: entity.amount ?? null,
      status: normaliseStatus(entity),
    };
  } catch (error) {
    if (error instanceof GatewayProtocolError) throw new GatewayWebhookError(`webhook '${event}': ${error.message}`);
    throw error;
  }
}
