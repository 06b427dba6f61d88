import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type FakeGateway, startFakeGateway } from '../../../../../../tools/fake-gateway/fake-gateway.js';
import { waitFor } from '../../../testing/wait.js';
import {
  createGatewayPayout,
  type FetchPayoutAnswer,
  fetchGatewayPayout,
  type GatewayAccepted,
  type GatewayPayoutInput,
} from './client.js';
import { type GatewayCredentials, gatewayCredentialsSchema } from './credentials.js';

const KEY_SECRET = 'test-key-secret-4f1c9a';
const WEBHOOK_SECRET = 'test-webhook-secret-77d2';

let gateway: FakeGateway;
let creds: GatewayCredentials;

beforeAll(async () => {
  gateway = await startFakeGateway({
    keyId: 'rzp_test_adapter',
    keySecret: KEY_SECRET,
    webhookSecret: WEBHOOK_SECRET,
    accountNumber: '7878780080316316',
    behaviour: { stepMs: 20, slowMs: 3000 },
  });
  creds = {
    baseUrl: gateway.url,
    keyId: 'rzp_test_adapter',
    keySecret: KEY_SECRET,
    webhookSecret: WEBHOOK_SECRET,
    accountNumber: '7878780080316316',
  };
});
afterAll(() => gateway.close());
afterEach(() => gateway.setBehaviour({ outcome: 'succeed' }));

let serial = 0;
/** A payout with its own code (the idempotency key), to `name` (a name can pick the fake's outcome). */
function payout(name = 'Asha Verma', change: Partial<GatewayPayoutInput> = {}): GatewayPayoutInput {
  const code = `P2601011200${String(++serial).padStart(8, '0')}`;
  return {
    idempotencyKey: code,
    amount: 150_000,
    currency: 'INR',
    mode: 'IMPS',
    payee: { name, accountNumber: '50100012345678', ifsc: 'HDFC0001234' },
    narration: `PayDesk ${code}`,
    referenceId: code,
    ...change,
  };
}

const fetchUntilFinal = (gatewayId: string) =>
  waitFor(
    `payout ${gatewayId} final`,
    () => fetchGatewayPayout(creds, gatewayId),
    (answer: FetchPayoutAnswer) => answer.kind === 'accepted' && answer.status.state !== 'inProgress',
    3000,
  );

describe('createGatewayPayout and fetchGatewayPayout against the fake gateway', () => {
  it('accepts a payout in progress, then fetches it completed with a 12-digit UTR', async () => {
    const input = payout();
    const created = await createGatewayPayout(creds, input);
    expect(created).toMatchObject({ kind: 'accepted', status: { state: 'inProgress', gatewayStatus: 'queued' } });
    const { gatewayId } = created as GatewayAccepted;
    expect(gatewayId).toMatch(/^pout_/);
    // What the gateway was asked for: the amount in paise, the payee, our reference, a narration it takes.
    expect(gateway.payouts.get(gatewayId)).toMatchObject({
      amount: 150_000,
      mode: 'IMPS',
      payee: input.payee,
      referenceId: input.referenceId,
      idempotencyKey: input.idempotencyKey,
      narration: `PayDesk ${input.idempotencyKey}`,
    });

    const final = await fetchUntilFinal(gatewayId);
    expect(final).toMatchObject({ kind: 'accepted', gatewayId, status: { state: 'completed', reason: null } });
    expect((final as GatewayAccepted).status.utr).toMatch(/^[1-9]\d{11}$/);
  });

  it('answers failed with the reason when the gateway refuses the payout', async () => {
    gateway.setBehaviour({ outcome: 'refuse' });
    const answer = await createGatewayPayout(creds, payout());
    expect(answer).toEqual({
      kind: 'failed',
      httpStatus: 400,
      reason: expect.stringContaining('Beneficiary bank rejected the transfer: invalid account'),
    });
    expect(answer.kind === 'failed' && answer.reason).toMatch(/^HTTP 400: BAD_REQUEST_ERROR: /);
  });

  it('reads a payout that fails or is reversed after being accepted as failed, with the reason', async () => {
    for (const [name, gatewayStatus] of [
      ['Ravi Fail', 'failed'],
      ['Ravi Reverse', 'reversed'],
    ] as const) {
      const created = await createGatewayPayout(creds, payout(name));
      expect(created.kind).toBe('accepted');
      const final = await fetchUntilFinal((created as GatewayAccepted).gatewayId);
      expect(final).toMatchObject({
        kind: 'accepted',
        status: { state: 'failed', gatewayStatus, reason: 'Beneficiary bank rejected the transfer: invalid account' },
      });
    }
  });

  it('answers unknown within the timeout when the gateway is slow, and a retry with the key finds the payout', async () => {
    const input = payout('Meena Slow');
    const started = performance.now();
    const answer = await createGatewayPayout(creds, input, { timeoutMs: 200 });
    const took = performance.now() - started;
    expect(answer).toEqual({ kind: 'unknown', reason: 'no answer within 0.2 s' });
    expect(took).toBeLessThan(1000);

    // The gateway made the payout meanwhile: the same key answers with it, and makes no second one.
    const before = gateway.payouts.size;
    const retried = await createGatewayPayout(creds, input);
    expect(retried.kind).toBe('accepted');
    expect(gateway.payouts.size).toBe(before);
    expect([...gateway.payouts.values()].filter((p) => p.idempotencyKey === input.idempotencyKey)).toHaveLength(1);
  });

  it('answers unknown on a 500, and the same key is sent again once the gateway recovers', async () => {
    const input = payout();
    gateway.setBehaviour({ outcome: 'error' });
    const answer = await createGatewayPayout(creds, input);
    expect(answer).toEqual({ kind: 'unknown', reason: expect.stringMatching(/^HTTP 500: SERVER_ERROR: /) });

    gateway.setBehaviour({ outcome: 'succeed' });
    expect((await createGatewayPayout(creds, input)).kind).toBe('accepted');
  });

  it('makes one payout of two creates with one key, even at once; another body with that key is refused', async () => {
    const input = payout();
    const before = gateway.payouts.size;
    const [first, second] = await Promise.all([createGatewayPayout(creds, input), createGatewayPayout(creds, input)]);
    const third = await createGatewayPayout(creds, input);
    expect(first.kind).toBe('accepted');
    expect(second).toMatchObject({ kind: 'accepted', gatewayId: (first as GatewayAccepted).gatewayId });
    expect(third).toMatchObject({ kind: 'accepted', gatewayId: (first as GatewayAccepted).gatewayId });
    expect(gateway.payouts.size).toBe(before + 1);

    const other = await createGatewayPayout(creds, { ...input, amount: input.amount + 100 });
    expect(other).toMatchObject({ kind: 'failed', httpStatus: 400, reason: expect.stringContaining('idempotency') });
    expect(gateway.payouts.size).toBe(before + 1);
  });

  it('refuses wrong credentials clearly, never with a secret in the reason', async () => {
    const wrong = { ...creds, keySecret: 'wrong-secret-value-123' };
    const created = await createGatewayPayout(wrong, payout());
    expect(created).toMatchObject({ kind: 'failed', httpStatus: 401 });
    expect(created.kind === 'failed' && created.reason).toMatch(/refused the account's API key.*HTTP 401/);

    const fetched = await fetchGatewayPayout(wrong, 'pout_0000000000001');
    // A refused question says nothing of the payout: unknown, never failed.
    expect(fetched).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/^HTTP 401/) });

    const basic = Buffer.from(`${wrong.keyId}:${wrong.keySecret}`).toString('base64');
    for (const answer of [created, fetched]) {
      const text = JSON.stringify(answer);
      for (const secret of [wrong.keySecret, KEY_SECRET, WEBHOOK_SECRET, basic]) expect(text).not.toContain(secret);
    }
  });

  it('keeps the secrets out of a reason even when the gateway echoes them', async () => {
    // A gateway that puts what it was sent into its refusal: the Authorization header and its secret.
    const echo = createServer((req, res) => {
      const auth = req.headers.authorization ?? '';
      const decoded = Buffer.from(auth.replace(/^Basic /, ''), 'base64').toString('utf8');
      res.writeHead(req.method === 'POST' ? 400 : 503, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ error: { code: 'BAD_REQUEST_ERROR', description: `${auth} ${decoded} ${WEBHOOK_SECRET}` } }),
      );
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const echoing = { ...creds, baseUrl: `http://127.0.0.1:${(echo.address() as AddressInfo).port}` };
      const created = await createGatewayPayout(echoing, payout());
      const fetched = await fetchGatewayPayout(echoing, 'pout_0000000000001');
      expect(created).toMatchObject({ kind: 'failed', reason: expect.stringContaining('[redacted]') });
      expect(fetched).toMatchObject({ kind: 'unknown', reason: expect.stringContaining('[redacted]') });
      const basic = Buffer.from(`${creds.keyId}:${KEY_SECRET}`).toString('base64');
      for (const answer of [created, fetched]) {
        const text = JSON.stringify(answer);
        for (const secret of [KEY_SECRET, WEBHOOK_SECRET, basic]) expect(text).not.toContain(secret);
      }
    } finally {
      await new Promise((resolve) => echo.close(resolve));
    }
  });

  it('answers unknown when the gateway cannot be reached, or the caller cuts the request short', async () => {
    const closed = await startFakeGateway({ keyId: 'k', keySecret: KEY_SECRET, webhookSecret: WEBHOOK_SECRET });
    const url = closed.url;
    await closed.close();
    const unreachable = await createGatewayPayout({ ...creds, baseUrl: url }, payout());
    expect(unreachable).toMatchObject({ kind: 'unknown', reason: expect.stringContaining('ECONNREFUSED') });

    const controller = new AbortController();
    const pending = createGatewayPayout(creds, payout('Kiran Slow'), { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toEqual({ kind: 'unknown', reason: 'the request was cut short by the caller' });
  });

  it('answers unknown for a payout the gateway does not have', async () => {
    expect(await fetchGatewayPayout(creds, 'pout_DoesNotExist01')).toMatchObject({
      kind: 'unknown',
      reason: expect.stringContaining('does not exist'),
    });
    expect(await fetchGatewayPayout(creds, ' ')).toEqual({ kind: 'unknown', reason: 'no gateway payout id to fetch' });
  });

  it('refuses input the gateway cannot take without sending it', async () => {
    const before = gateway.payouts.size;
    expect(await createGatewayPayout(creds, payout('Asha', { amount: 12.5 }))).toMatchObject({
      kind: 'failed',
      httpStatus: null,
      reason: expect.stringMatching(/^not sent to the gateway: amount: /),
    });
    const badIfsc = payout();
    badIfsc.payee.ifsc = 'HDFC1234';
    expect(await createGatewayPayout(creds, badIfsc)).toMatchObject({
      kind: 'failed',
      reason: expect.stringMatching(/^not sent to the gateway: payee\.ifsc: /),
    });
    expect(await createGatewayPayout(creds, payout('Asha', { idempotencyKey: 'P1/2' }))).toMatchObject({
      kind: 'failed',
      reason: expect.stringMatching(/^not sent to the gateway: idempotencyKey: /),
    });
    expect(gateway.payouts.size).toBe(before);
  });

  it('reduces the narration to what the gateway takes', async () => {
    const created = await createGatewayPayout(
      creds,
      payout('Asha', { narration: 'Refund #42 — order/7 for Mr. Verma (thanks!)' }),
    );
    expect(created.kind).toBe('accepted');
    expect(gateway.payouts.get((created as GatewayAccepted).gatewayId)?.narration).toBe(
      'Refund 42 order 7 for Mr Verma',
    );
  });

  it('connects through the dispatcher it is given (the SSRF-checking agent)', async () => {
    const agent = new Agent();
    const dispatch = vi.spyOn(agent, 'dispatch');
    try {
      const created = await createGatewayPayout(creds, payout(), { dispatcher: agent });
      expect(created.kind).toBe('accepted');
      await fetchGatewayPayout(creds, (created as GatewayAccepted).gatewayId, { dispatcher: agent });
      expect(dispatch).toHaveBeenCalledTimes(2);
    } finally {
      await agent.close();
    }
  });
});

describe('gatewayCredentialsSchema', () => {
  const good = {
    baseUrl: 'https://api.razorpay.com',
    keyId: 'rzp_live_abcd',
    keySecret: 'x'.repeat(24),
    webhookSecret: 'y'.repeat(16),
    accountNumber: '7878780080316316',
  };

  it('takes an account’s credentials', () => {
    expect(gatewayCredentialsSchema.parse(good)).toEqual(good);
  });

  it('refuses a URL that carries a secret or is not http(s), and an empty secret', () => {
    for (const baseUrl of [
      'https://key:secret@api.razorpay.com',
      'https://api.razorpay.com/?key=secret',
      'ftp://api.razorpay.com',
      'not a url',
    ])
      expect(gatewayCredentialsSchema.safeParse({ ...good, baseUrl }).success).toBe(false);
    expect(gatewayCredentialsSchema.safeParse({ ...good, keySecret: '' }).success).toBe(false);
    expect(gatewayCredentialsSchema.safeParse({ ...good, accountNumber: '78-78' }).success).toBe(false);
  });
});
