import { createHash, createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A payout gateway in memory, speaking the RazorpayX Payouts API's shape (POST /v1/payouts with basic
 * auth and X-Payout-Idempotency, GET /v1/payouts/:id, signed webhooks) for the tests, the demo and the
 * simulator. It keeps no file and calls no bank: what becomes of a payout is its outcome (see README.md).
 * It only depends on Node, so the server's tests can start it in-process.
 */

/**
 * What becomes of a payout: succeed (queued -> processing -> processed with a 12-digit UTR), fail
 * (accepted, then failed), reverse (accepted, processing, then reversed), refuse (the create answers
 * 400 with the reason, no payout), slow (as succeed, but the create's answer waits slowMs), error (the
 * create answers 500, no payout).
 */
export const FAKE_OUTCOMES = ['succeed', 'fail', 'reverse', 'refuse', 'slow', 'error'] as const;
export type FakeOutcome = (typeof FAKE_OUTCOMES)[number];

export interface FakeBehaviour {
  /** The outcome of a payout whose payee name and narration name none. */
  outcome: FakeOutcome;
  /** Milliseconds from queued to processing, and again from processing to the final status. */
  stepMs: number;
  /** How long a slow payout's create waits before answering (longer than the client's timeout). */
  slowMs: number;
  /** The reason a refused, failed or reversed payout gives. */
  failReason: string;
}

export interface FakeGatewayOptions {
  /** 0 (the default): any free port. */
  port?: number;
  /** 127.0.0.1 by default. */
  host?: string;
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** Where webhooks are POSTed; none are sent without it. */
  webhookUrl?: string | undefined;
  /** Only this business account may pay (account_number); any when unset. */
  accountNumber?: string | undefined;
  behaviour?: Partial<FakeBehaviour>;
  /** A line per payout created, moved or notified (main.ts prints them). */
  log?: (line: string) => void;
}

type PayoutStatus = 'queued' | 'processing' | 'processed' | 'failed' | 'reversed';

export interface FakePayout {
  id: string;
  idempotencyKey: string;
  outcome: FakeOutcome;
  status: PayoutStatus;
  amount: number;
  currency: string;
  mode: string;
  accountNumber: string;
  payee: { name: string; accountNumber: string; ifsc: string };
  referenceId: string | null;
  narration: string | null;
  utr: string | null;
  reason: string | null;
  createdAt: number;
}

export interface FakeWebhookDelivery {
  event: string;
  payoutId: string;
  /** The receiver's HTTP status; null when it did not answer. */
  httpStatus: number | null;
  error: string | null;
}

export interface FakeGateway {
  /** http://host:port, the baseUrl to give the adapter. */
  url: string;
  /** The payouts by id (live: read, do not change). */
  payouts: ReadonlyMap<string, FakePayout>;
  /** The webhooks sent, in order, with what the receiver answered. */
  webhooks: readonly FakeWebhookDelivery[];
  /** Changes the behaviour of payouts created from now on (and the next moves' step). */
  setBehaviour(change: Partial<FakeBehaviour>): void;
  /**
   * Where webhooks go: of the payouts of business account `accountNumber` when given (a gateway that
   * pays several accounts notifies each one's receiver), else of every other payout.
   */
  setWebhookUrl(url: string | undefined, accountNumber?: string): void;
  /** Stops moving payouts, drops open connections and webhooks in flight, and stops listening. */
  close(): Promise<void>;
}

const DEFAULT_BEHAVIOUR: FakeBehaviour = {
  outcome: 'succeed',
  stepMs: 1000,
  slowMs: 15_000,
  failReason: 'Beneficiary bank rejected the transfer: invalid account',
};

const MODES = new Set(['IMPS', 'NEFT', 'RTGS', 'UPI']);
const IDEMPOTENCY_KEY = /^[A-Za-z0-9_\- ]{4,36}$/;
const IFSC = /^[A-Z]{4}0[A-Z0-9]{6}$/;
const BODY_LIMIT = 64 * 1024;

/** The outcome a payee name or narration asks for: the word itself, e.g. payee "Asha Slow". */
function outcomeNamed(...texts: Array<string | null>): FakeOutcome | null {
  for (const text of texts) {
    for (const word of (text ?? '').toLowerCase().split(/[^a-z]+/)) {
      if ((FAKE_OUTCOMES as readonly string[]).includes(word)) return word as FakeOutcome;
    }
  }
  return null;
}

const alphanumeric = (length: number) => {
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from({ length }, () => letters[randomInt(letters.length)]).join('');
};
/** 12 digits, not starting with 0 (an IMPS reference's shape). */
const newUtr = () => `${randomInt(1, 10)}${String(randomInt(0, 100_000_000_000)).padStart(11, '0')}`;

/** The payout as the API shows it (RazorpayX's payout entity). */
function entityOf(p: FakePayout) {
  const failed = p.status === 'failed' || p.status === 'reversed';
  return {
    id: p.id,
    entity: 'payout',
    fund_account_id: `fa_${p.id.slice(5)}`,
    amount: p.amount,
    currency: p.currency,
    notes: {},
    fees: p.status === 'queued' ? 0 : 590,
    tax: p.status === 'queued' ? 0 : 90,
    status: p.status,
    utr: p.utr,
    mode: p.mode,
    purpose: 'payout',
    reference_id: p.referenceId,
    narration: p.narration,
    batch_id: null,
    failure_reason: failed ? p.reason : null,
    status_details: failed
      ? { description: p.reason, source: 'beneficiary_bank', reason: 'beneficiary_bank_rejected' }
      : null,
    created_at: Math.floor(p.createdAt / 1000),
  };
}

interface Answer {
  status: number;
  body: unknown;
}
const apiError = (status: number, description: string, field: string | null = null): Answer => ({
  status,
  body: {
    error: {
      code: status >= 500 ? 'SERVER_ERROR' : 'BAD_REQUEST_ERROR',
      description,
      source: status >= 500 ? 'internal' : 'business',
      step: null,
      reason: null,
      metadata: {},
      field,
    },
  },
});

function send(res: ServerResponse, answer: Answer) {
  if (res.writableEnded || res.destroyed) return;
  const body = JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).byteLength;
    if (size > BODY_LIMIT) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The create request's fields, or the 400 the real API would give. */
function readCreate(
  json: unknown,
):
  | { answer: Answer }
  | { payout: Omit<FakePayout, 'id' | 'idempotencyKey' | 'outcome' | 'status' | 'utr' | 'reason' | 'createdAt'> } {
  const b = (json ?? {}) as Record<string, unknown>;
  const fa = (b.fund_account ?? {}) as Record<string, unknown>;
  const bank = (fa.bank_account ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const refuse = (field: string, description: string) => ({ answer: apiError(400, description, field) });
  if (typeof json !== 'object' || json === null) return refuse('body', 'The request body must be a JSON object.');
  if (!str(b.account_number)) return refuse('account_number', 'The account number field is required.');
  if (!Number.isSafeInteger(b.amount) || (b.amount as number) < 100)
    return refuse('amount', 'The amount must be an integer of at least 100 (paise).');
  if (b.currency !== 'INR') return refuse('currency', 'Currency is not supported.');
  if (!MODES.has(str(b.mode) ?? '')) return refuse('mode', 'The selected mode is invalid.');
  if (fa.account_type !== 'bank_account') return refuse('fund_account.account_type', 'Only bank accounts are paid.');
  const name = str(bank.name)?.trim();
  const accountNumber = str(bank.account_number);
  const ifsc = str(bank.ifsc);
  if (!name) return refuse('fund_account.bank_account.name', 'The name field is required.');
  if (!accountNumber || !/^[A-Za-z0-9]{5,35}$/.test(accountNumber))
    return refuse('fund_account.bank_account.account_number', 'The account number is invalid.');
  if (!ifsc || !IFSC.test(ifsc)) return refuse('fund_account.bank_account.ifsc', 'The ifsc must be 11 characters.');
  const narration = b.narration === undefined || b.narration === null ? null : str(b.narration);
  if (narration !== null && !/^[A-Za-z0-9 ]{0,30}$/.test(narration))
    return refuse('narration', 'The narration may only contain letters, digits and spaces, 30 at most.');
  const referenceId = b.reference_id === undefined || b.reference_id === null ? null : str(b.reference_id);
  if (referenceId !== null && referenceId.length > 40)
    return refuse('reference_id', 'The reference id may not be greater than 40 characters.');
  return {
    payout: {
      amount: b.amount as number,
      currency: 'INR',
      mode: b.mode as string,
      accountNumber: b.account_number as string,
      payee: { name, accountNumber, ifsc },
      referenceId,
      narration,
    },
  };
}

/** Starts the fake gateway on `options.port` (any free port by default); see FakeGateway. */
export async function startFakeGateway(options: FakeGatewayOptions): Promise<FakeGateway> {
  const behaviour: FakeBehaviour = { ...DEFAULT_BEHAVIOUR, ...options.behaviour };
  let webhookUrl = options.webhookUrl;
  const accountWebhookUrls = new Map<string, string | undefined>();
  const log = options.log ?? (() => {});
  const payouts = new Map<string, FakePayout>();
  /** Per idempotency key: the request's hash and what it got (the payout, or the refusal to replay). */
  const keys = new Map<string, { hash: string; payoutId: string | null; refusal: Answer | null }>();
  const webhooks: FakeWebhookDelivery[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const stopping = new AbortController();
  const expectedAuth = Buffer.from(`Basic ${Buffer.from(`${options.keyId}:${options.keySecret}`).toString('base64')}`);

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  const authorised = (header: string | undefined) => {
    const given = Buffer.from(header ?? '');
    return given.length === expectedAuth.length && timingSafeEqual(given, expectedAuth);
  };

  async function notify(event: string, payout: FakePayout) {
    const url = accountWebhookUrls.has(payout.accountNumber)
      ? accountWebhookUrls.get(payout.accountNumber)
      : webhookUrl;
    if (!url) return;
    const body = JSON.stringify({
      entity: 'event',
      account_id: 'acc_FakeGateway0001',
      event,
      contains: ['payout'],
      payload: { payout: { entity: entityOf(payout) } },
      created_at: Math.floor(Date.now() / 1000),
    });
    const delivery: FakeWebhookDelivery = { event, payoutId: payout.id, httpStatus: null, error: null };
    webhooks.push(delivery);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-razorpay-signature': createHmac('sha256', options.webhookSecret).update(body).digest('hex'),
          'x-razorpay-event-id': `evt_${alphanumeric(14)}`,
        },
        body,
        signal: AbortSignal.any([AbortSignal.timeout(5000), stopping.signal]),
      });
      delivery.httpStatus = res.status;
      await res.arrayBuffer();
    } catch (error) {
      delivery.error = (error as Error).message;
    }
    log(`webhook ${event} ${payout.id} -> ${delivery.httpStatus ?? delivery.error}`);
  }

  function move(payout: FakePayout, status: PayoutStatus) {
    payout.status = status;
    if (status === 'processed') payout.utr = newUtr();
    if (status === 'failed' || status === 'reversed') payout.reason = behaviour.failReason;
    log(`payout ${payout.id} ${status}${payout.utr ? ` utr ${payout.utr}` : ''}`);
    if (status === 'processed' || status === 'failed' || status === 'reversed') void notify(`payout.${status}`, payout);
  }

  /** queued -> processing -> the outcome's final status, a step apart. */
  function schedule(payout: FakePayout) {
    const final: PayoutStatus =
      payout.outcome === 'fail' ? 'failed' : payout.outcome === 'reverse' ? 'reversed' : 'processed';
    later(behaviour.stepMs, () => {
      move(payout, 'processing');
      later(behaviour.stepMs, () => move(payout, final));
    });
  }

  async function create(req: IncomingMessage, res: ServerResponse) {
    const text = await readBody(req);
    if (text === null) return send(res, apiError(413, 'The request body is too large.'));
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return send(res, apiError(400, 'The request body is not valid JSON.'));
    }
    const keyHeader = req.headers['x-payout-idempotency'];
    const key = Array.isArray(keyHeader) ? keyHeader[0] : keyHeader;
    if (!key)
      return send(
        res,
        apiError(
          400,
          'Idempotency key is missing. Include idempotency header and key in the request.',
          'X-Payout-Idempotency',
        ),
      );
    if (!IDEMPOTENCY_KEY.test(key))
      return send(res, apiError(400, 'The idempotency key must be 4 to 36 characters.', 'X-Payout-Idempotency'));
    const hash = createHash('sha256').update(text).digest('hex');
    const known = keys.get(key);
    if (known) {
      if (known.hash !== hash)
        return send(
          res,
          apiError(400, 'Different request body sent for the same idempotency key.', 'X-Payout-Idempotency'),
        );
      if (known.refusal) return send(res, known.refusal);
      // The same request again: the payout it made, as it is now (a slow one answers at once this time).
      return send(res, { status: 200, body: entityOf(payouts.get(known.payoutId!)!) });
    }
    const read = readCreate(json);
    if ('answer' in read) return send(res, read.answer);
    if (options.accountNumber && read.payout.accountNumber !== options.accountNumber)
      return send(res, apiError(400, 'The account number is invalid.', 'account_number'));
    const outcome = outcomeNamed(read.payout.payee.name, read.payout.narration) ?? behaviour.outcome;
    if (outcome === 'error') {
      log(`payout ${key}: answered 500`);
      return send(
        res,
        apiError(500, 'We are facing some trouble completing your request at the moment. Please try again shortly.'),
      );
    }
    if (outcome === 'refuse') {
      const refusal = apiError(400, behaviour.failReason, 'fund_account');
      keys.set(key, { hash, payoutId: null, refusal });
      log(`payout ${key}: refused`);
      return send(res, refusal);
    }
    const payout: FakePayout = {
      ...read.payout,
      id: `pout_${alphanumeric(14)}`,
      idempotencyKey: key,
      outcome,
      status: 'queued',
      utr: null,
      reason: null,
      createdAt: Date.now(),
    };
    payouts.set(payout.id, payout);
    keys.set(key, { hash, payoutId: payout.id, refusal: null });
    log(`payout ${payout.id} queued: ${payout.amount} paise to ${payout.payee.name} (${key}, ${outcome})`);
    schedule(payout);
    const answer = { status: 200, body: entityOf(payout) };
    if (outcome === 'slow') later(behaviour.slowMs, () => send(res, answer));
    else send(res, answer);
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', 'http://fake').pathname.replace(/\/+$/, '');
    if (!authorised(req.headers.authorization))
      return send(res, apiError(401, 'The api key provided is invalid', 'authorization'));
    if (req.method === 'POST' && path === '/v1/payouts') return create(req, res);
    const match = /^\/v1\/payouts\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && match) {
      const payout = payouts.get(decodeURIComponent(match[1]!));
      return send(
        res,
        payout ? { status: 200, body: entityOf(payout) } : apiError(400, 'The id provided does not exist', 'id'),
      );
    }
    return send(res, apiError(404, 'The requested URL was not found on the server.'));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, apiError(500, (error as Error).message)));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    payouts,
    webhooks,
    setBehaviour(change) {
      Object.assign(behaviour, change);
    },
    setWebhookUrl(url, accountNumber) {
      if (accountNumber === undefined) webhookUrl = url;
      else accountWebhookUrls.set(accountNumber, url);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      stopping.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
