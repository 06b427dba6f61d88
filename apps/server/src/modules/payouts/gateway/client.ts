/**
 * The payout gateway adapter: PayDesk's client of a RazorpayX-style Payouts API, used for the payout
 * accounts of products 2002 (India auto payout) and 2003 (gateway payout). Its contract:
 *
 * - `createGatewayPayout(creds, input, opts)` sends POST {baseUrl}/v1/payouts, a composite payout (the
 *   payee's bank account travels in the request), with basic auth keyId:keySecret and the header
 *   `X-Payout-Idempotency: input.idempotencyKey` (the payout's code). It never throws; it answers
 *   - `accepted`: the gateway holds a payout (`gatewayId`) and said its status, which may already be
 *     final (a payout rejected at once is accepted with status.state 'failed');
 *   - `failed`: the gateway refused the request (a 4xx, with its description), or the input is one the
 *     gateway cannot take (checked before sending): this attempt created no payout;
 *   - `unknown`: no answer within the timeout, a network error, a 5xx, a 408/409/425/429, or an answer
 *     that cannot be read: the payout may or may not exist. Send it again with the same key (the
 *     gateway answers with the payout it already has, never a second one), or wait for the webhook;
 *     never with a new key while the first may still be paid.
 * - `fetchGatewayPayout(creds, gatewayId, opts)` sends GET /v1/payouts/:id and answers `accepted` with
 *   the payout's status, or `unknown`. A refused fetch (4xx) is unknown, not failed: a refused question
 *   says nothing about the payout, and taking it for a failure would give the merchant its funds back
 *   while the gateway still pays.
 * - `normaliseStatus` (status.ts) maps the gateway's statuses to inProgress / completed / failed;
 *   `verifyWebhook` and `parseWebhook` (webhook.ts) check and read the gateway's webhooks.
 *
 * The exchange is bounded by `opts.timeoutMs` (10 s by default) and cut short by `opts.signal` (a job
 * stopping); both end as unknown. `opts.dispatcher` is the undici dispatcher to connect through: pass
 * the SSRF-checking agent, the gateway's URL being an account's setting. Redirects are not followed.
 * Secrets: the key secret travels only in the Authorization header; every reason this module answers
 * is scrubbed of both secrets and of that header's value, and nothing here logs.
 *
 * What RazorpayX would refuse that the fake takes: the payee is always a bank account, and RazorpayX
 * pays a bank account by IMPS, NEFT or RTGS, UPI only to a VPA. The narration is reduced to what
 * RazorpayX takes (30 letters, digits and spaces). queue_if_low_balance is off: a gateway account
 * short of funds refuses the payout at once (failed, in the gateway's words) instead of holding it.
 */
import { IFSC_PATTERN } from '@paydesk/contract';
import { type Dispatcher, request } from 'undici';
import { z } from 'zod';
import type { GatewayCredentials } from './credentials.js';
import { type GatewayStatus, normaliseStatus } from './status.js';

export const PAYOUT_MODES = ['IMPS', 'NEFT', 'RTGS', 'UPI'] as const;
export type PayoutMode = (typeof PAYOUT_MODES)[number];

/** One payout as PayDesk asks the gateway for it. */
export const gatewayPayoutInputSchema = z.object({
  /** The payout's code: the gateway's idempotency key (4 to 36 letters, digits, -, _ or spaces). */
  idempotencyKey: z.string().regex(/^[A-Za-z0-9_\- ]{4,36}$/, '4 to 36 letters, digits, -, _ or spaces'),
  /** Integer paise. */
  amount: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  currency: z.literal('INR'),
  mode: z.enum(PAYOUT_MODES),
  payee: z.object({
    name: z.string().trim().min(1).max(120),
    accountNumber: z.string().regex(/^[A-Za-z0-9]{5,35}$/, '5 to 35 letters or digits'),
    ifsc: z.string().regex(IFSC_PATTERN, 'an IFSC: 4 capitals, 0, 6 capitals or digits'),
  }),
  /** Shown on the payee's bank statement (reduced to what the gateway takes). */
  narration: z.string().max(500),
  /** Our reference the gateway echoes back (reference_id), e.g. the payout's code. */
  referenceId: z.string().min(1).max(40),
});
export type GatewayPayoutInput = z.infer<typeof gatewayPayoutInputSchema>;

/** The gateway holds the payout. */
export interface GatewayAccepted {
  kind: 'accepted';
  gatewayId: string;
  status: GatewayStatus;
}
/** The gateway refused the request: this attempt created no payout. */
export interface GatewayRefused {
  kind: 'failed';
  reason: string;
  /** The gateway's HTTP status; null when the input was refused before sending. */
  httpStatus: number | null;
}
/** No telling whether the gateway holds the payout: retry with the same key, or poll. */
export interface GatewayUnknown {
  kind: 'unknown';
  reason: string;
}
export type CreatePayoutAnswer = GatewayAccepted | GatewayRefused | GatewayUnknown;
export type FetchPayoutAnswer = GatewayAccepted | GatewayUnknown;

export interface GatewayCallOptions {
  /** The whole exchange's limit, 10 s by default. */
  timeoutMs?: number | undefined;
  /** Cuts the exchange short (the caller stopping): the answer is unknown. */
  signal?: AbortSignal | undefined;
  /** The undici dispatcher to connect through (the SSRF-checking agent); undici's global one otherwise. */
  dispatcher?: Dispatcher | undefined;
}

export const DEFAULT_GATEWAY_TIMEOUT_MS = 10_000;

/** No gateway answer is this long: reading stops here and the answer counts as unreadable. */
const READ_LIMIT = 256 * 1024;
/** A reason is a line of a timeline, not the gateway's whole answer. */
const REASON_LIMIT = 500;

/** The fields of a payout entity this adapter reads. */
const payoutEntitySchema = z.object({
  id: z.string().min(1),
  status: z.string(),
  utr: z.string().nullish(),
  status_details: z
    .object({ description: z.string().nullish(), reason: z.string().nullish(), source: z.string().nullish() })
    .nullish(),
  failure_reason: z.string().nullish(),
});

/** RazorpayX's error answer: {error: {code, description, field, ...}}. */
const errorAnswerSchema = z.object({
  error: z.object({ code: z.string().nullish(), description: z.string().nullish(), field: z.string().nullish() }),
});

/** What RazorpayX takes as a narration: at most 30 letters, digits and spaces. */
function narrationFor(text: string): string | undefined {
  const cleaned = text
    .replace(/[^A-Za-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 30)
    .trim();
  return cleaned || undefined;
}

function authorization(creds: GatewayCredentials): string {
  return `Basic ${Buffer.from(`${creds.keyId}:${creds.keySecret}`).toString('base64')}`;
}

/** `text` without the credentials' secrets (nor the Authorization value), cut to a timeline line. */
function scrubbed(text: string, creds: GatewayCredentials): string {
  let out = text;
  for (const secret of [authorization(creds).slice('Basic '.length), creds.keySecret, creds.webhookSecret]) {
    if (secret) out = out.split(secret).join('[redacted]');
  }
  return out.length > REASON_LIMIT ? `${out.slice(0, REASON_LIMIT - 1)}…` : out;
}

function endpoint(creds: GatewayCredentials, path: string): string {
  return `${creds.baseUrl.trim().replace(/\/+$/, '')}${path}`;
}

/** Why an exchange ended without an answer, in a line (undici puts the connection's error in `cause`). */
function describeError(error: unknown, timeoutMs: number, signal: AbortSignal | undefined): string {
  if (signal?.aborted) return 'the request was cut short by the caller';
  const e = error as { name?: string; message?: string; code?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = e?.cause?.message ? e.cause : e;
  if (cause?.message)
    return cause.code && !cause.message.includes(cause.code) ? `${cause.code}: ${cause.message}` : cause.message;
  return String(error);
}

type Exchange = { status: number; body: string } | { error: string };

/** One request to the gateway, read to the end: its status and body, or why there was none. */
async function exchange(
  creds: GatewayCredentials,
  method: 'GET' | 'POST',
  path: string,
  extra: { body?: string; headers?: Record<string, string> },
  opts: GatewayCallOptions,
): Promise<Exchange> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_GATEWAY_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = opts.signal ? AbortSignal.any([timeout, opts.signal]) : timeout;
  try {
    const res = await request(endpoint(creds, path), {
      method,
      headers: {
        authorization: authorization(creds),
        accept: 'application/json',
        'user-agent': 'PayDesk-Payouts/1.0',
        ...(extra.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...extra.headers,
      },
      body: extra.body,
      maxRedirections: 0,
      signal,
      ...(opts.dispatcher ? { dispatcher: opts.dispatcher } : {}),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      size += bytes.byteLength;
      if (size > READ_LIMIT) {
        res.body.destroy();
        return { error: `HTTP ${res.statusCode}: an answer longer than ${READ_LIMIT / 1024} KiB` };
      }
      chunks.push(bytes);
    }
    return { status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') };
  } catch (error) {
    return { error: describeError(error, timeoutMs, opts.signal) };
  }
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/** "HTTP 400: BAD_REQUEST_ERROR: the description (field)" from an error answer, or its first bytes. */
function errorText(status: number, body: string): string {
  const parsed = errorAnswerSchema.safeParse(parseJson(body));
  if (parsed.success) {
    const { code, description, field } = parsed.data.error;
    const words = [code, description].filter(Boolean).join(': ');
    return `HTTP ${status}: ${words || 'no description'}${field ? ` (${field})` : ''}`;
  }
  const start = body.trim().slice(0, 200);
  return start ? `HTTP ${status}: ${start}` : `HTTP ${status}`;
}

/** A 2xx answer as an accepted payout, or unknown when it is not a payout this adapter understands. */
function acceptedFrom(body: string, creds: GatewayCredentials): GatewayAccepted | GatewayUnknown {
  const parsed = payoutEntitySchema.safeParse(parseJson(body));
  if (!parsed.success) return { kind: 'unknown', reason: 'the gateway answered, but not with a payout' };
  try {
    return { kind: 'accepted', gatewayId: parsed.data.id, status: normaliseStatus(parsed.data) };
  } catch (error) {
    return { kind: 'unknown', reason: scrubbed((error as Error).message, creds) };
  }
}

/** 4xx answers that say "not now" rather than "no": the payout's fate is still open. */
const RETRYABLE_4XX = new Set([408, 409, 425, 429]);

/** Asks the gateway to pay `input`; see the module's contract above. Never throws. */
export async function createGatewayPayout(
  creds: GatewayCredentials,
  input: GatewayPayoutInput,
  opts: GatewayCallOptions = {},
): Promise<CreatePayoutAnswer> {
  const checked = gatewayPayoutInputSchema.safeParse(input);
  if (!checked.success) {
    const issue = checked.error.issues[0]!;
    return {
      kind: 'failed',
      reason: `not sent to the gateway: ${issue.path.join('.') || 'input'}: ${issue.message}`,
      httpStatus: null,
    };
  }
  const payout = checked.data;
  const body = JSON.stringify({
    account_number: creds.accountNumber,
    amount: payout.amount,
    currency: payout.currency,
    mode: payout.mode,
    purpose: 'payout',
    fund_account: {
      account_type: 'bank_account',
      bank_account: { name: payout.payee.name, ifsc: payout.payee.ifsc, account_number: payout.payee.accountNumber },
      contact: { name: payout.payee.name, type: 'customer', reference_id: payout.referenceId },
    },
    queue_if_low_balance: false,
    reference_id: payout.referenceId,
    narration: narrationFor(payout.narration),
    notes: { payoutCode: payout.idempotencyKey },
  });
  const answer = await exchange(
    creds,
    'POST',
    '/v1/payouts',
    { body, headers: { 'x-payout-idempotency': payout.idempotencyKey } },
    opts,
  );
  if ('error' in answer) return { kind: 'unknown', reason: scrubbed(answer.error, creds) };
  const { status } = answer;
  if (status >= 200 && status < 300) return acceptedFrom(answer.body, creds);
  if (status >= 400 && status < 500 && !RETRYABLE_4XX.has(status)) {
    const refusal = errorText(status, answer.body);
    const reason =
      status === 401 || status === 403 ? `the gateway refused the account's API key (${refusal})` : refusal;
    return { kind: 'failed', reason: scrubbed(reason, creds), httpStatus: status };
  }
  return { kind: 'unknown', reason: scrubbed(errorText(status, answer.body), creds) };
}

/** The gateway's current status of payout `gatewayId`; see the module's contract above. Never throws. */
export async function fetchGatewayPayout(
  creds: GatewayCredentials,
  gatewayId: string,
  opts: GatewayCallOptions = {},
): Promise<FetchPayoutAnswer> {
  if (!gatewayId.trim()) return { kind: 'unknown', reason: 'no gateway payout id to fetch' };
  const answer = await exchange(creds, 'GET', `/v1/payouts/${encodeURIComponent(gatewayId)}`, {}, opts);
  if ('error' in answer) return { kind: 'unknown', reason: scrubbed(answer.error, creds) };
  if (answer.status < 200 || answer.status >= 300)
    return { kind: 'unknown', reason: scrubbed(errorText(answer.status, answer.body), creds) };
  const found = acceptedFrom(answer.body, creds);
  if (found.kind === 'accepted' && found.gatewayId !== gatewayId)
    return { kind: 'unknown', reason: `asked for payout ${gatewayId}, the gateway answered with ${found.gatewayId}` };
  return found;
}
