import type { IncomingHttpHeaders } from 'node:http';
import { type PayScriptNotification, type PayScriptParsed, payScriptNotificationSchema } from '@paydesk/contract';
import type { Db } from '../../db/client.js';
import { verifyWebhook } from '../../platform/signed-webhook.js';
import type { OrdersService } from '../orders/orders.service.js';
import type { PayScriptsService } from '../payscripts/payscripts.service.js';
import type { PayGateways } from './pay-gateways.js';

/** Headers a script never gets: the caller's credentials, which a gateway has no reason to send. */
const WITHHELD_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie']);

/**
 * The notification as the script reads it (`payScriptNotificationSchema`, as a test run feeds it): the
 * headers by their lower-case names (a repeated one joined with ', '; credentials and values over the
 * interface's bounds left out) and the body as UTF-8 text.
 */
export function notificationOf(headers: IncomingHttpHeaders, rawBody: Buffer): PayScriptNotification {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || WITHHELD_HEADERS.has(name) || name.length > 128) continue;
    const text = Array.isArray(value) ? value.join(', ') : value;
    if (text.length <= 4096) kept[name.toLowerCase()] = text;
  }
  return { headers: kept, body: rawBody.toString('utf8') };
}

/** What became of a signed notification whose script read it (the 200 answers). */
export type PayNotifyDone =
  | 'paid'
  | 'alreadyPaid'
  | 'failed'
  | 'unknownOrder'
  | 'amountMismatch'
  | 'notAwaitingPayment'
  | 'locked'
  | 'utrUsed';

export type PayNotifyOutcome =
  /** Unknown gateway, not collectionNotify, switched off, no webhook secret, or a wrong signature: 401. */
  | { kind: 'unauthorised' }
  /** Signed, but not readable: no script named, a body over the interface's bounds, a failed run: 400. */
  | { kind: 'invalid'; reason: string; recordId: number | null }
  | {
      kind: 'done';
      outcome: PayNotifyDone;
      orderCode: string;
      /** The order's state after it (null: no such order). */
      state: number | null;
      /** The call record of the script's run. */
      recordId: number;
      parsed: PayScriptParsed;
      gateway: { id: number; name: string };
      /** amountMismatch: the order's own amount. */
      orderAmount?: number;
    };

/**
 * The collection notifications of pay gateways (issue 21; docs/architecture.md "Pay gateway config"):
 * `POST /v1.0/pay/notify/:gatewayId`, signed like the payout gateways' webhooks under the gateway's
 * webhook secret, read by the active version of the pay script the gateway names (recorded as a call
 * with source `notify`), and applied to the order through the order engine (`payByGateway`), which is
 * idempotent: a repeat finds the order paid and moves nothing.
 */
export class PayNotify {
  constructor(
    private readonly deps: {
      db: Db;
      gateways: PayGateways;
      scripts: Pick<PayScriptsService, 'parseNotification'>;
      orders: Pick<OrdersService, 'payByGateway'>;
    },
  ) {}

  async handle(input: {
    gatewayId: number;
    rawBody: Buffer;
    signature: string | undefined;
    headers: IncomingHttpHeaders;
    ip: string | null;
  }): Promise<PayNotifyOutcome> {
    const gateway = await this.deps.gateways.open(this.deps.db, input.gatewayId);
    if (
      gateway?.kind !== 'collectionNotify' ||
      !gateway.enabled ||
      !gateway.webhookSecret ||
      !verifyWebhook(input.rawBody, input.signature, gateway.webhookSecret)
    ) {
      return { kind: 'unauthorised' };
    }
    if (gateway.payScriptId === null) {
      return {
        kind: 'invalid',
        reason: 'this pay gateway names no pay script to read its notifications',
        recordId: null,
      };
    }
    const checked = payScriptNotificationSchema.safeParse(notificationOf(input.headers, input.rawBody));
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      return { kind: 'invalid', reason: `notification ${issue.path.join('.')}: ${issue.message}`, recordId: null };
    }
    const run = await this.deps.scripts.parseNotification(gateway.payScriptId, checked.data);
    if (!run.ok) {
      return {
        kind: 'invalid',
        reason: run.error ?? 'the pay script could not read the notification',
        recordId: run.recordId,
      };
    }
    const parsed = run.output as PayScriptParsed;
    const named = { id: gateway.id, name: gateway.name };
    const done = { kind: 'done', orderCode: parsed.orderCode, recordId: run.recordId, parsed, gateway: named } as const;
    if (parsed.status === 'failed') return { ...done, outcome: 'failed', state: null };
    const paid = await this.deps.orders.payByGateway({
      orderCode: parsed.orderCode,
      amount: parsed.amount,
      // A paid notification has a UTR (payScriptParsedSchema).
      utr: parsed.utr!,
      gateway: named,
      ip: input.ip,
    });
    switch (paid.kind) {
      case 'unknownOrder':
        return { ...done, outcome: 'unknownOrder', state: null };
      case 'amountMismatch':
        return { ...done, outcome: 'amountMismatch', state: null, orderAmount: paid.orderAmount };
      default:
        return { ...done, outcome: paid.kind, state: paid.state };
    }
  }
}
