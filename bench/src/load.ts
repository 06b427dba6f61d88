/**
 * The bench's load generator, run in a worker thread so its HTTP client does not share the server's
 * thread (merchants are remote): `clients` loops of signed creates, or of the full cycle (create,
 * staff confirm, and the merchant callback received by this worker's own receiver), for
 * `warmupSeconds` whose results are dropped, then for the measured `seconds`. The load does not
 * pause in between: the worker tells its parent when the measured window opens (a `measuring`
 * message), so the parent's own probes cover the same window.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { endpoints } from '@paydesk/contract';
import { Agent, request } from 'undici';
import { signParams } from '../../apps/server/src/modules/orders/signature.js';
import { threadCpuMs } from './cpu.js';

export interface LoadJob {
  kind: 'create' | 'cycle' | 'payout';
  base: string;
  clients: number;
  /** Load before the measured window (a cold V8 and cold caches cost more), its results dropped. */
  warmupSeconds: number;
  seconds: number;
  /** A staff session's token (cycle: the confirmation; payout: finding the payout and confirming it). */
  token?: string;
  /** Payout: the staff session's second-level token (the confirmation needs it). */
  token2?: string;
  /** Payout: the claiming suppliers' session tokens, one per client in turn. */
  supplierTokens?: string[];
  /** The merchants creating orders, one per client in turn (HMAC-SHA256 signing). */
  merchants: Array<{ mchId: string; secret: string }>;
}

/** Posted by the worker when the warm-up is over and the measured window opens. */
export interface Measuring {
  measuring: true;
}

/** Of the steps started in the measured window (each finishes, even after its end). */
export interface LoadResult {
  latencies: number[];
  failed: number;
  /** From the window's opening until the last step finished. */
  seconds: number;
  /** CPU ms this worker thread (the clients' HTTP, signing, and the cycle's callback receiver) spent in the window; null without /proc. */
  clientsCpuMs: number | null;
  /** The cycle's parts (create, confirm, callback after the confirmation), ms of each completed cycle. */
  steps?: Record<'create' | 'confirm' | 'callback', number[]>;
  /** The payout's parts, ms of each completed payout. */
  payoutSteps?: Record<PayoutStep, number[]>;
  /** The first refusals of the server or failures, for the operator (a phase that only fails says why). */
  firstErrors?: string[];
}

/** A payout's steps as the bench times them: each an HTTP exchange but the callback's wait. */
export const PAYOUT_STEPS = ['create', 'claim', 'submit', 'confirm', 'callback'] as const;
export type PayoutStep = (typeof PAYOUT_STEPS)[number];

let orderNo = 0;
/** A signed create request of a merchant with an amount unlikely to be open on an account. */
function createBody(merchant: { mchId: string; secret: string }, notifyUrl?: string): Record<string, string> {
  orderNo += 1;
  const params: Record<string, string> = {
    mchId: merchant.mchId,
    productId: '1001',
    mchOrderNo: `B${process.pid}x${threadId}x${orderNo}`,
    amount: String(10_000 + Math.floor(Math.random() * 4_900_000)),
    ...(notifyUrl ? { notifyUrl } : {}),
  };
  return { ...params, sign: signParams(params, merchant.secret, 'HMAC-SHA256') };
}

/** A signed bank payout (2001) of a merchant, its callback to `notifyUrl`. */
function payoutBody(merchant: { mchId: string; secret: string }, notifyUrl: string): Record<string, string> {
  orderNo += 1;
  const params: Record<string, string> = {
    mchId: merchant.mchId,
    productId: '2001',
    mchOrderNo: `P${process.pid}x${threadId}x${orderNo}`,
    amount: String(10_000 + Math.floor(Math.random() * 990_000)),
    notifyUrl,
    userName: 'Bench Payee',
    cardNumber: '50100234567890',
    ifscCode: 'HDFC0001234',
    bankBranch: 'Koramangala',
    address: '12 MG Road, Bengaluru',
  };
  return { ...params, sign: signParams(params, merchant.secret, 'HMAC-SHA256') };
}

/**
 * The clients' HTTP: undici's request on kept-alive connections, a lean client as merchants' servers
 * use (the bench counts its CPU with the server's; WHATWG fetch cost about 1.5 ms of CPU per call).
 */
const agent = new Agent({ connections: 256, pipelining: 1, keepAliveTimeout: 30_000 });

export async function post(base: string, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await request(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    dispatcher: agent,
  });
  return (await res.body.json()) as { code: number; msg: string; data: Record<string, unknown> | null };
}

/**
 * Runs `clients` loops of `step` (told its client's number and whether it counts) through the
 * warm-up and then the measured window; answers the latency (ms) of each successful step started in
 * the window, and calls `opened` when the window opens.
 */
async function load(
  step: (client: number, counted: boolean) => Promise<boolean>,
  job: LoadJob,
  opened: () => void,
): Promise<Omit<LoadResult, 'clientsCpuMs'>> {
  const latencies: number[] = [];
  let failed = 0;
  const windowOpens = performance.now() + job.warmupSeconds * 1000;
  const deadline = windowOpens + job.seconds * 1000;
  const timer = setTimeout(opened, Math.max(0, windowOpens - performance.now()));
  await Promise.all(
    Array.from({ length: job.clients }, async (_, client) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const counted = t0 >= windowOpens;
        const ok = await step(client, counted).catch(() => false);
        if (!counted) continue;
        if (ok) latencies.push(performance.now() - t0);
        else failed += 1;
      }
    }),
  );
  clearTimeout(timer);
  return { latencies, failed, seconds: (performance.now() - windowOpens) / 1000 };
}

/** The merchant's callback receiver: answers SUCCESS and wakes whoever waits for that order. */
async function startReceiver(): Promise<{ server: Server; url: string; waitFor(orderCode: string): Promise<boolean> }> {
  const waiting = new Map<string, (ok: boolean) => void>();
  const seen = new Set<string>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const orderCode = new URLSearchParams(body).get('orderCode') ?? '';
      res.end('SUCCESS');
      seen.add(orderCode);
      waiting.get(orderCode)?.(true);
      waiting.delete(orderCode);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`;
  return {
    server,
    url,
    waitFor: (orderCode) =>
      seen.has(orderCode)
        ? Promise.resolve(true)
        : new Promise<boolean>((resolve) => {
            waiting.set(orderCode, resolve);
            setTimeout(() => {
              if (waiting.delete(orderCode)) resolve(false);
            }, 30_000);
          }),
  };
}

export async function get(base: string, path: string, query: Record<string, string>, headers: Record<string, string>) {
  const res = await request(`${base}${path}?${new URLSearchParams(query)}`, {
    method: 'GET',
    headers,
    dispatcher: agent,
  });
  return (await res.body.json()) as { code: number; msg: string; data: Record<string, unknown> | null };
}

/**
 * A payout's life as its parties make it: the merchant's signed create (funds held), the supplier
 * finds it (its list, by code) and claims it, pays and submits the UTR, staff confirm with token2,
 * and the merchant's receiver takes its callback.
 */
async function runPayouts(job: LoadJob, opened: () => void): Promise<Omit<LoadResult, 'clientsCpuMs'>> {
  const merchantOf = (client: number) => job.merchants[client % job.merchants.length]!;
  const suppliers = job.supplierTokens ?? [];
  const staff = { token: String(job.token), token2: String(job.token2) };
  const receiver = await startReceiver();
  const steps = Object.fromEntries(PAYOUT_STEPS.map((k) => [k, [] as number[]])) as Record<PayoutStep, number[]>;
  let utrNo = 0;
  const firstErrors: string[] = [];
  const tell = (text: string) => {
    if (firstErrors.length < 3) firstErrors.push(text);
    return false;
  };
  const refused = (step: string, answer: { code: number; msg: string }) =>
    tell(`payout ${step} refused: ${answer.code} ${answer.msg}`);
  try {
    const result = await load(
      (client, counted) =>
        payoutOnce(client, counted).catch((error: unknown) => tell(`payout failed: ${String(error)}`)),
      job,
      opened,
    );
    return { ...result, payoutSteps: steps, firstErrors };
  } finally {
    receiver.server.close();
  }

  async function payoutOnce(client: number, counted: boolean): Promise<boolean> {
    const supplier = { token: suppliers[client % suppliers.length]! };
    const at = [performance.now()];
    const created = await post(job.base, endpoints.payouts.create.path, payoutBody(merchantOf(client), receiver.url));
    if (created.code !== 200) return refused('create', created);
    const orderCode = String(created.data?.orderCode);
    const delivered = receiver.waitFor(orderCode);
    at.push(performance.now());
    const found = await get(
      job.base,
      endpoints.payouts.getList.path,
      { pageIndex: '1', pageSize: '1', queue: 'true', orderCode },
      supplier,
    );
    const orderId = (found.data?.list as Array<{ id: number }> | undefined)?.[0]?.id;
    if (orderId === undefined) return refused('find', found);
    const claimed = await post(job.base, endpoints.payouts.claimOrder.path, { orderId }, supplier);
    if (claimed.code !== 200) return refused('claim', claimed);
    at.push(performance.now());
    utrNo += 1;
    const utr = `U${process.pid}x${threadId}x${utrNo}`;
    const submitted = await post(job.base, endpoints.payouts.submit.path, { orderId, utr }, supplier);
    if (submitted.code !== 200) return refused('submit', submitted);
    at.push(performance.now());
    const confirmed = await post(job.base, endpoints.payouts.confirm.path, { orderId }, staff);
    if (confirmed.code !== 200) return refused('confirm', confirmed);
    at.push(performance.now());
    if (!(await delivered)) return tell(`payout ${orderCode}: no callback within 30 s`);
    at.push(performance.now());
    if (!counted) return true;
    for (const [i, step] of PAYOUT_STEPS.entries()) steps[step].push(at[i + 1]! - at[i]!);
    return true;
  }
}

async function run(job: LoadJob, opened: () => void): Promise<Omit<LoadResult, 'clientsCpuMs'>> {
  if (job.kind === 'payout') return runPayouts(job, opened);
  const merchantOf = (client: number) => job.merchants[client % job.merchants.length]!;
  if (job.kind === 'create') {
    return load(
      async (client) =>
        (await post(job.base, endpoints.orders.create.path, createBody(merchantOf(client)))).code === 200,
      job,
      opened,
    );
  }
  const receiver = await startReceiver();
  const steps: NonNullable<LoadResult['steps']> = { create: [], confirm: [], callback: [] };
  try {
    const result = await load(
      async (client, counted) => {
        const t0 = performance.now();
        const created = await post(
          job.base,
          endpoints.orders.create.path,
          createBody(merchantOf(client), receiver.url),
        );
        if (created.code !== 200) return false;
        const orderCode = String(created.data?.orderCode);
        const delivered = receiver.waitFor(orderCode);
        const t1 = performance.now();
        const confirmed = await post(
          job.base,
          endpoints.orders.confirmOrder.path,
          { orderCode },
          { token: String(job.token) },
        );
        if (confirmed.code !== 200) return false;
        const t2 = performance.now();
        if (!(await delivered)) return false;
        if (!counted) return true;
        steps.create.push(t1 - t0);
        steps.confirm.push(t2 - t1);
        steps.callback.push(performance.now() - t2);
        return true;
      },
      job,
      opened,
    );
    return { ...result, steps };
  } finally {
    receiver.server.close();
  }
}

if (parentPort && workerData) {
  const port = parentPort;
  let cpuBefore: number | null = null;
  const opened = () => {
    cpuBefore = threadCpuMs();
    port.postMessage({ measuring: true } satisfies Measuring);
  };
  run(workerData as LoadJob, opened).then(
    (result) => {
      const cpuAfter = threadCpuMs();
      const clientsCpuMs = cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore;
      port.postMessage({ ...result, clientsCpuMs } satisfies LoadResult);
    },
    (error: unknown) => port.postMessage({ error: String(error) }),
  );
}
