import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeGateway, startFakeGateway } from '../../../../../../tools/fake-gateway/fake-gateway.js';
import { waitFor } from '../../../testing/wait.js';
import { createGatewayPayout, type GatewayAccepted, type GatewayPayoutInput } from './client.js';
import {
  GatewayWebhookError,
  parseWebhook,
  verifyWebhook,
  WEBHOOK_SIGNATURE_HEADER,
  webhookSignature,
} from './webhook.js';

const WEBHOOK_SECRET = 'test-webhook-secret-91ab';

/** The webhooks the fake sent: raw bodies and headers as received. */
const received: Array<{ body: Buffer; headers: IncomingHttpHeaders }> = [];
let receiver: Server;
let gateway: FakeGateway;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks), headers: req.headers });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  gateway = await startFakeGateway({
    keyId: 'rzp_test_webhooks',
    keySecret: 'test-key-secret-0c3e',
    webhookSecret: WEBHOOK_SECRET,
    webhookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/gateway/webhook`,
    behaviour: { stepMs: 10 },
  });
});
afterAll(async () => {
  await gateway.close();
  await new Promise((resolve) => receiver.close(resolve));
});

const creds = () => ({
  baseUrl: gateway.url,
  keyId: 'rzp_test_webhooks',
  keySecret: 'test-key-secret-0c3e',
  webhookSecret: WEBHOOK_SECRET,
  accountNumber: '7878780080316316',
});
const input = (code: string, name: string): GatewayPayoutInput => ({
  idempotencyKey: code,
  amount: 99_900,
  currency: 'INR',
  mode: 'NEFT',
  payee: { name, accountNumber: '50100012345678', ifsc: 'SBIN0001234' },
  narration: code,
  referenceId: code,
});

/** Pays `name` through the fake and answers the webhook it then sends (body and signature header). */
async function webhookFor(code: string, name: string) {
  const created = (await createGatewayPayout(creds(), input(code, name))) as GatewayAccepted;
  expect(created.kind).toBe('accepted');
  const parsedId = (w: { body: Buffer }) =>
    (JSON.parse(w.body.toString()) as { payload: { payout: { entity: { id: string } } } }).payload.payout.entity.id;
  const hook = await waitFor(
    `the webhook of ${created.gatewayId}`,
    async () => received.find((w) => parsedId(w) === created.gatewayId),
    (w) => w !== undefined,
    3000,
  );
  return {
    gatewayId: created.gatewayId,
    body: hook!.body,
    signature: hook!.headers[WEBHOOK_SIGNATURE_HEADER] as string,
  };
}

describe('the fake gateway’s webhooks, verified and parsed', () => {
  it('verifies and reads payout.processed with its UTR', async () => {
    const { gatewayId, body, signature } = await webhookFor('P26010112000000101', 'Asha Verma');
    expect(verifyWebhook(body, signature, WEBHOOK_SECRET)).toBe(true);
    expect(verifyWebhook(body.toString('utf8'), signature, WEBHOOK_SECRET)).toBe(true);
    const hook = parseWebhook(body);
    expect(hook).toEqual({
      event: 'payout.processed',
      gatewayId,
      referenceId: 'P26010112000000101',
      amount: 99_900,
      status: { state: 'completed', gatewayStatus: 'processed', utr: expect.stringMatching(/^\d{12}$/), reason: null },
    });
    // The fake records the receiver's answer once it has read it.
    const delivery = await waitFor(
      'the delivery recorded',
      async () => gateway.webhooks.find((w) => w.payoutId === gatewayId),
      (w) => w !== undefined && w.httpStatus !== null,
      3000,
    );
    expect(delivery).toMatchObject({ event: 'payout.processed', httpStatus: 200, error: null });
  });

  it('reads payout.failed and payout.reversed with the reason', async () => {
    for (const [code, name, event] of [
      ['P26010112000000201', 'Ravi Fail', 'payout.failed'],
      ['P26010112000000202', 'Ravi Reverse', 'payout.reversed'],
    ] as const) {
      const { body, signature } = await webhookFor(code, name);
      expect(verifyWebhook(body, signature, WEBHOOK_SECRET)).toBe(true);
      expect(parseWebhook(body)).toMatchObject({
        event,
        status: { state: 'failed', reason: 'Beneficiary bank rejected the transfer: invalid account' },
      });
    }
  });

  it('refuses a wrong, tampered, malformed or missing signature', async () => {
    const { body, signature } = await webhookFor('P26010112000000301', 'Asha Verma');
    const tampered = Buffer.from(body.toString().replace('"processed"', '"reversed"'));
    expect(verifyWebhook(body, signature, 'another-webhook-secret')).toBe(false);
    expect(verifyWebhook(tampered, signature, WEBHOOK_SECRET)).toBe(false);
    expect(verifyWebhook(body, undefined, WEBHOOK_SECRET)).toBe(false);
    expect(verifyWebhook(body, '', WEBHOOK_SECRET)).toBe(false);
    expect(verifyWebhook(body, signature.slice(0, 32), WEBHOOK_SECRET)).toBe(false);
    expect(verifyWebhook(body, `${signature.slice(0, 63)}z`, WEBHOOK_SECRET)).toBe(false);
    expect(verifyWebhook(body, signature, '')).toBe(false);
    // The signature the route would compute for its own tests is the gateway's.
    expect(webhookSignature(body, WEBHOOK_SECRET)).toBe(signature);
  });
});

describe('parseWebhook refuses what is not a payout event, saying why', () => {
  const payoutEvent = (entity: Record<string, unknown>, event = 'payout.processed') =>
    JSON.stringify({ entity: 'event', event, contains: ['payout'], payload: { payout: { entity } } });

  it.each([
    ['not JSON', '{"event": "payout.processed",', 'the webhook body is not JSON'],
    ['JSON null', 'null', 'webhook: body: '],
    [
      'another event',
      JSON.stringify({ event: 'transaction.created', payload: {} }),
      "webhook 'transaction.created': event: ",
    ],
    [
      'no payout',
      JSON.stringify({ event: 'payout.processed', payload: {} }),
      "webhook 'payout.processed': payload.payout: ",
    ],
    ['no payout id', payoutEvent({ status: 'processed' }), "webhook 'payout.processed': payload.payout.entity.id: "],
    [
      'an unknown status',
      payoutEvent({ id: 'pout_1', status: 'teleported' }),
      "webhook 'payout.processed': unknown gateway payout status 'teleported'",
    ],
  ])('%s', (_what, body, message) => {
    expect(() => parseWebhook(body)).toThrow(GatewayWebhookError);
    expect(() => parseWebhook(Buffer.from(body))).toThrow(message);
  });

  it('reads a payout.updated event still in progress', () => {
    expect(parseWebhook(payoutEvent({ id: 'pout_2', status: 'processing', utr: null }, 'payout.updated'))).toEqual({
      event: 'payout.updated',
      gatewayId: 'pout_2',
      referenceId: null,
      amount: null,
      status: { state: 'inProgress', gatewayStatus: 'processing', utr: null, reason: null },
    });
  });
});
