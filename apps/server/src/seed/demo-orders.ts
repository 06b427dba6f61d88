import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Code, type CreateOrderRequest, ORDER_MARK, ORDER_STATE, type OrderMark } from '@paydesk/contract';
import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import type { FakeGateway } from '../../../../tools/fake-gateway/fake-gateway.js';
import type { Services } from '../app.js';
import { DEFAULT_DEMO_GATEWAY_PORT } from '../config.js';
import { merchants, orderCallbacks, orders, resources, suppliers, users } from '../db/schema.js';
import { accountCode } from '../modules/ledger/accounts.js';
import type { OrderRecord } from '../modules/orders/orders.service.js';
import { signParams } from '../modules/orders/signature.js';
import type { Actor } from '../platform/audit.js';
import type { ManualClock } from '../platform/clock.js';
import type { DataScope } from '../platform/context.js';
import { AppError } from '../platform/errors.js';
import { DemoBatches } from './demo-batches.js';
import { proposeAndApprove } from './demo-funds.js';
import { DemoGatewayPayouts, type HistoryGateway, openHistoryGateway } from './demo-gateway-payouts.js';
import { DEMO_MERCHANT_API } from './demo-merchants.js';
import { DemoPayouts } from './demo-payouts.js';

/**
 * The demo's history (DESIGN section 2): collection orders of merchant1 over the last 30 days (a few
 * thousand by default: config DEMO_ORDERS), made by the order engine itself while a ManualClock moves
 * through those days. Every order is a signed merchant API request; suppliers confirm, staff supplement
 * with UTRs, reject, reverse and mark; unpaid orders time out through `expireDue`; the callbacks of
 * paid orders are really delivered, attempt by attempt on the callback schedule, to a merchant receiver
 * on 127.0.0.1 that this seed runs meanwhile. Suppliers' deposits come through approved proposals.
 * merchant1's payouts are made beside them (demo-payouts.ts), a few through the fake payout gateway
 * (demo-gateway-payouts.ts).
 * Nothing is inserted around the ledger, so ledgerCheck, the fund records, the timelines and the
 * audit chain hold as for real orders. The random choices come from a fixed seed.
 *
 * Cost: each order's life is a few dozen statements of the engine; on the embedded database of a
 * 2-core machine about 40 ms an order, so the default 2,500 take under two minutes.
 */

export const DEMO_ORDER_DAYS = 30;

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const DAY_MS = 24 * HOUR_MS;

/** Relative order volume per hour of the day in the platform time zone: evenings busy, nights quiet. */
const HOUR_WEIGHT = [3, 2, 1, 1, 1, 1, 2, 3, 4, 5, 6, 6, 7, 6, 6, 6, 7, 8, 10, 12, 13, 12, 9, 5] as const;
const MAX_WEIGHT = 13 * 1.15 * 1.2;

/** Where the merchant's server calls from, and the address the answers' payUrl uses. */
const MERCHANT_SERVER_IP = '203.0.113.10';
const BASE_URL = 'http://localhost:8080';
const RETURN_URL = 'https://merchant-one.example/return';
const SUBJECTS = ['Wallet top-up', 'Game credits', 'Premium subscription', 'Course fee', 'Order payment'];
const REJECT_REASONS = [
  'payer cancelled the payment',
  'amount mismatch reported by the payer',
  'duplicate order from the merchant',
  'payer asked to cancel',
];
/** Answers of the merchant when it does not take a notification (a failed attempt). */
const FAILED_ANSWERS: ReadonlyArray<{ status: number; body: string }> = [
  { status: 500, body: 'Internal Server Error' },
  { status: 200, body: 'FAIL' },
  { status: 503, body: 'Service Unavailable' },
];

export interface DemoOrdersSummary {
  orders: number;
  /** Orders per state code at the end. */
  byState: Record<number, number>;
  callbackAttempts: number;
  deposits: number;
  /** merchant1's gateway payouts (2002, 2003) paid through the fake gateway, and failed there then rejected. */
  gatewayPayouts: { completed: number; rejected: number };
  /** Steps the engine refused (a race the plan did not foresee, e.g. no account for a supplement), by step. */
  refused: Record<string, number>;
  ms: number;
  /** True when `signal` ended it before its last step: what was made stays, the rest is not made. */
  interrupted: boolean;
}

type Outcome = 'confirm' | 'supplement' | 'reject' | 'timeout';
type CallbackPlan = { failures: number } | 'fail';

interface Planned {
  at: number;
  productId: number;
  amount: number;
  /** A fixed outcome: burst orders are confirmed late enough to overlap; the newest are never paid. */
  outcome?: Outcome;
}

/** An order the history made, as its later steps need it. */
interface Live {
  code: string;
  id: number;
  supplierUserId: number | null;
}

type Event =
  | { kind: 'create'; plan: Planned }
  | { kind: 'payerUtr'; order: Live; utr: string }
  | { kind: 'confirm'; order: Live }
  | { kind: 'supplement'; order: Live; utr: string }
  | { kind: 'reject'; order: Live; byStaff: boolean; reason: string }
  | { kind: 'expire' }
  | { kind: 'deliver'; order: Live; callbackId: number; createdAt: Date; attemptNo: number }
  | { kind: 'reverse'; order: Live }
  | { kind: 'mark'; order: Live; mark: OrderMark }
  | { kind: 'unlock'; order: Live }
  /** `float`: the day's larger deposit, so that live traffic (npm run simulate) finds balances to hold. */
  | { kind: 'topUp'; float?: boolean }
  /** A step of another part of the history (payouts: demo-payouts.ts). */
  | { kind: 'step'; label: string; run: () => Promise<unknown> };

/** A min-heap of events by time; equal times keep their insertion order. */
class Timeline {
  private heap: Array<{ at: number; seq: number; event: Event }> = [];
  private seq = 0;

  push(at: number, event: Event) {
    const item = { at, seq: this.seq++, event };
    const h = this.heap;
    h.push(item);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(h[i]!, h[parent]!)) break;
      [h[i], h[parent]] = [h[parent]!, h[i]!];
      i = parent;
    }
  }

  pop(): { at: number; event: Event } | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (!top || !last || h.length === 0) return top;
    h[0] = last;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.before(h[l]!, h[m]!)) m = l;
      if (r < h.length && this.before(h[r]!, h[m]!)) m = r;
      if (m === i) break;
      [h[i], h[m]] = [h[m]!, h[i]!];
      i = m;
    }
    return top;
  }

  private before(a: { at: number; seq: number }, b: { at: number; seq: number }) {
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }
}

/** mulberry32: a small seeded generator, so every first start makes the same shape of history. */
function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    between: (min: number, max: number) => min + next() * (max - min),
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}
type Random = ReturnType<typeof seededRandom>;

/** Amounts in minor units as merchants send them: round ones often, odd paise sometimes. */
function amountFor(productId: number, random: Random): number {
  if (productId === 3015) return random.pick([100, 150, 200, 250, 300, 500, 750, 1_000, 1_500, 2_000]) * 100;
  if (productId === 1002) {
    const rupees = random.chance(0.6) ? random.pick([1_000, 2_000, 2_500, 5_000, 7_500, 10_000, 20_000]) : 0;
    return (rupees || Math.round(Math.exp(random.between(Math.log(1_000), Math.log(40_000))))) * 100;
  }
  if (random.chance(0.45)) return random.pick([100, 200, 300, 500, 500, 1_000, 1_000, 1_500, 2_000, 5_000]) * 100;
  const rupees = Math.round(Math.exp(random.between(Math.log(100), Math.log(20_000))));
  return rupees * 100 + (random.chance(0.4) ? random.int(1, 99) : 0);
}

/** The hour (0..23) and whether it is a weekend, in the platform time zone. */
function localTimeOf(format: Intl.DateTimeFormat, at: number): { hour: number; weekend: boolean } {
  let hour = 0;
  let weekend = false;
  for (const part of format.formatToParts(at)) {
    if (part.type === 'hour') hour = Number(part.value) % 24;
    if (part.type === 'weekday') weekend = part.value === 'Sat' || part.value === 'Sun';
  }
  return { hour, weekend };
}

/**
 * When orders arrive over [start, end): more in the evening, fewer at night, a little more at
 * weekends, growing slowly over the month; plus a few in the very last hour, so the lists look alive.
 */
function planOrders(
  random: Random,
  window: { start: number; end: number; count: number; timeZone: string },
  products: number[],
): Planned[] {
  const { start, end, count, timeZone } = window;
  const format = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23', weekday: 'short' });
  const productOf = () => {
    const r = random.next();
    if (r < 0.08 && products.includes(1002)) return 1002;
    if (r < 0.15 && products.includes(3015)) return 3015;
    return 1001;
  };
  const planned: Planned[] = [];
  while (planned.length < count) {
    const at = Math.floor(random.between(start, end - 20 * MINUTE_MS));
    const { hour, weekend } = localTimeOf(format, at);
    const weight = HOUR_WEIGHT[hour]! * (weekend ? 1.15 : 1) * (0.8 + (0.4 * (at - start)) / (end - start));
    if (!random.chance(weight / MAX_WEIGHT)) continue;
    const productId = productOf();
    planned.push({ at, productId, amount: amountFor(productId, random) });
  }
  // The last hour: some done, the newest still waiting for their payers.
  for (let i = 0; i < 8; i += 1) {
    const at = Math.floor(end - random.between(10 * MINUTE_MS, HOUR_MS));
    planned.push({ at, productId: 1001, amount: amountFor(1001, random) });
  }
  for (let i = 0; i < 3; i += 1) {
    const at = Math.floor(end - random.between(MINUTE_MS, 8 * MINUTE_MS));
    planned.push({ at, productId: 1001, amount: amountFor(1001, random), outcome: 'timeout' });
  }
  // Evening bursts of one round amount: more open orders of it than accounts, so some allocations fail.
  for (let day = 3; day < DEMO_ORDER_DAYS; day += 7) {
    const at = Math.floor(end - day * DAY_MS - random.between(2, 5) * HOUR_MS);
    for (let i = 0; i < 4; i += 1)
      planned.push({ at: at + i * 20_000, productId: 1001, amount: 100_000, outcome: 'confirm' });
    if (products.includes(1002)) {
      for (let i = 0; i < 2; i += 1) {
        planned.push({ at: at + 90_000 + i * 30_000, productId: 1002, amount: 500_000, outcome: 'confirm' });
      }
    }
  }
  return planned.sort((a, b) => a.at - b.at);
}

/** A local merchant server for the seed's callbacks: SUCCESS, or a failure while the plan says so. */
async function startReceiver(
  failuresLeft: Map<string, number>,
  random: Random,
): Promise<{ url: string; server: Server }> {
  const readBody = (req: IncomingMessage) =>
    new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });
  const server = createServer((req, res) => {
    readBody(req)
      .then((body) => {
        const code = new URLSearchParams(body).get('orderCode') ?? '';
        const left = failuresLeft.get(code) ?? 0;
        if (left > 0) {
          failuresLeft.set(code, left - 1);
          const answer = random.pick(FAILED_ANSWERS);
          res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
        } else {
          res.writeHead(200, { 'content-type': 'text/plain' }).end('SUCCESS');
        }
      })
      .catch(() => res.writeHead(400).end());
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/merchant-one/notify`, server };
}

/**
 * Makes the demo's order history with `services` (built over `clock`), from the clock's time to `end`.
 * Call it after the demo's parties, resources and opening balances exist, with the clock before the
 * first order. Product 1002 and 3015 orders are made where the demo has enabled accounts for them.
 */
export async function seedDemoOrders(input: {
  services: Services;
  clock: ManualClock;
  end: Date;
  /** About how many orders (the evening bursts and the last hour's come on top). */
  count: number;
  timeZone: string;
  seed?: number;
  /** Told the orders made so far, every `progressEvery` orders (the first start shows it moving). */
  onProgress?: (made: number) => void;
  progressEvery?: number;
  /** Aborted: the history ends after the step in hand (each step is a whole transaction of the engine). */
  signal?: AbortSignal;
  /**
   * The live fake gateway of `npm start` (main.ts), which the demo's gateway account points at; without
   * it the history runs one of its own meanwhile (demo-gateway-payouts.ts openHistoryGateway).
   */
  gateway?: FakeGateway | null;
  /** DEMO_GATEWAY_PORT: where the demo's gateway account points (4010). */
  gatewayPort?: number;
}): Promise<DemoOrdersSummary> {
  const started = performance.now();
  const { services, clock, end, timeZone } = input;
  const db = services.orders.deps.db;
  const random = seededRandom(input.seed ?? 20_261_123);
  const endMs = end.getTime();
  const startMs = endMs - DEMO_ORDER_DAYS * DAY_MS;
  const moveTo = (at: number) => {
    const delta = at - clock.now().getTime();
    if (delta > 0) clock.advance(delta);
  };

  // ---- who is who ----
  const accountRows = await db.select({ id: users.id, account: users.account, role: users.role }).from(users);
  const ids = new Map(accountRows.map((u) => [u.account, u.id]));
  const actor = (account: string): Actor => {
    const row = accountRows.find((u) => u.account === account);
    return { userId: row?.id ?? null, account, role: (row?.role ?? null) as Actor['role'], ip: '10.20.0.15' };
  };
  const [merchant] = await db
    .select({ id: merchants.id, userId: merchants.userId })
    .from(merchants)
    .where(eq(merchants.merchantNo, DEMO_MERCHANT_API.mchId));
  if (!merchant) throw new Error('demo orders need the demo merchant');
  const supplierRows = await db
    .select({ id: suppliers.id, userId: suppliers.userId, parentId: suppliers.parentId, account: users.account })
    .from(suppliers)
    .innerJoin(users, eq(users.id, suppliers.userId));
  const supplierByUser = new Map(supplierRows.map((s) => [s.userId, s]));
  /** A supplier acts on its own orders and its agents' (the console's data scope). */
  const supplierScope = (userId: number): DataScope => {
    const own = supplierByUser.get(userId);
    const team = supplierRows.filter((s) => s.parentId !== null && s.parentId === own?.id).map((s) => s.userId);
    return { all: false, userIds: [userId, ...team] };
  };
  const staff: DataScope = { all: true };
  const service = actor('service');
  const admin = actor('admin');
  const superadmin = actor('superadmin');

  // Staff switch on card-to-card and USDT for merchant1 and the supplier whose accounts serve them.
  const enabledAccounts = await db
    .select({ productId: resources.productId, supplierId: resources.supplierId })
    .from(resources)
    .where(and(eq(resources.state, 0), isNull(resources.deletedAt), inArray(resources.productId, [1002, 3015])));
  const products = [1001];
  const base = { perTransactionFee: 0, dailyLimit: null, minAmount: null, maxAmount: null, kycLowerLimit: null };
  for (const [productId, feeRate, commissionRate] of [
    [1002, 300, 150],
    [3015, 150, 50],
  ] as const) {
    const owners = [...new Set(enabledAccounts.filter((r) => r.productId === productId).map((r) => r.supplierId))];
    if (owners.length === 0) continue;
    await services.products.saveUserProduct(
      { userId: merchant.userId, productId, enabled: true, feeRate, commissionRate: 0, ...base },
      admin,
    );
    for (const supplierId of owners) {
      const s = supplierRows.find((x) => x.id === supplierId);
      if (!s) continue;
      await services.products.saveUserProduct(
        { userId: s.userId, productId, enabled: true, feeRate: 0, commissionRate, ...base },
        admin,
      );
    }
    products.push(productId);
  }

  // ---- the merchant's callback receiver ----
  const failuresLeft = new Map<string, number>();
  const receiver = await startReceiver(failuresLeft, seededRandom(7));
  const windowMs = await services.callbacks.windowMs();
  let historyGateway: HistoryGateway | null = null;
  let gatewayPayouts: DemoGatewayPayouts | null = null;

  const timeline = new Timeline();
  for (const plan of planOrders(random, { start: startMs, end: endMs, count: input.count, timeZone }, products))
    timeline.push(plan.at, { kind: 'create', plan });
  for (let at = startMs - HOUR_MS; at < endMs; at += 4 * HOUR_MS) timeline.push(at, { kind: 'topUp' });
  // merchant1's payouts, about one for every twelve orders, paid by supplier1 (demo-payouts.ts).
  const payoutSupplier = supplierRows.find((s) => s.account === 'supplier1');
  if (payoutSupplier) {
    const payouts = new DemoPayouts({
      services,
      random: seededRandom((input.seed ?? 20_261_123) + 1),
      merchantId: merchant.id,
      merchantUserId: merchant.userId,
      supplierUserId: payoutSupplier.userId,
      actor,
      later: (step) => {
        if (step.at < endMs) timeline.push(step.at, { kind: 'step', label: step.label, run: step.run });
      },
      endMs,
    });
    // Its batches: one settled by the bank's file, one waiting for the checker (demo-batches.ts).
    const batches = new DemoBatches({ services, payouts, supplierId: payoutSupplier.id, timeZone, endMs });
    for (const step of [...payouts.plan(startMs, Math.ceil(input.count / 12)), ...batches.plan()]) {
      timeline.push(step.at, { kind: 'step', label: step.label, run: step.run });
    }
    // A few of them through the demo's gateway account, paid by the fake gateway (demo-gateway-payouts.ts).
    try {
      historyGateway = await openHistoryGateway(
        services,
        input.gateway,
        input.gatewayPort ?? DEFAULT_DEMO_GATEWAY_PORT,
      );
    } catch (error) {
      await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
      throw error;
    }
    if (historyGateway) {
      gatewayPayouts = new DemoGatewayPayouts({
        services,
        random: seededRandom((input.seed ?? 20_261_123) + 2),
        gateway: historyGateway.gateway,
        merchantId: merchant.id,
        actor,
        notifyUrl: receiver.url,
        later: (step) => {
          if (step.at < endMs) timeline.push(step.at, { kind: 'step', label: step.label, run: step.run });
        },
        deliver: (callback, payout, at) =>
          timeline.push(at, {
            kind: 'deliver',
            order: { code: payout.orderCode, id: payout.id, supplierUserId: payout.supplierUserId },
            callbackId: callback.id,
            createdAt: callback.createdAt,
            attemptNo: 1,
          }),
        endMs,
      });
      for (const step of gatewayPayouts.plan(startMs)) {
        timeline.push(step.at, { kind: 'step', label: step.label, run: step.run });
      }
    }
  }
  timeline.push(endMs - 90 * MINUTE_MS, { kind: 'topUp', float: true });

  /** Schedules an event unless it falls after the end (it then has not happened yet). */
  const later = (at: number, event: Event) => {
    if (at < endMs) timeline.push(Math.floor(at), event);
  };
  const usedUtrs = new Set<string>();
  const newUtr = () => {
    for (;;) {
      const utr = `${random.int(3, 5)}${String(random.int(0, 99_999_999_999)).padStart(11, '0')}`;
      if (!usedUtrs.has(utr)) {
        usedUtrs.add(utr);
        return utr;
      }
    }
  };
  let orderNo = 0;
  let attempts = 0;
  let deposits = 0;
  const refused = new Map<string, number>();
  /** Runs a step; a refusal of the engine (a lost race, a state that moved) is counted, nothing else is hidden. */
  const attempt = async <T>(label: string, step: () => Promise<T>): Promise<T | null> => {
    try {
      return await step();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      refused.set(label, (refused.get(label) ?? 0) + 1);
      return null;
    }
  };

  /** What happens after a payment: deliveries of its callback, then maybe a reversal or a mark. */
  const afterPaid = async (order: Live, paid: OrderRecord) => {
    const paidAt = paid.paidAt!.getTime();
    const [callback] = await db
      .select({ id: orderCallbacks.id, createdAt: orderCallbacks.createdAt })
      .from(orderCallbacks)
      .where(and(eq(orderCallbacks.orderId, paid.id), eq(orderCallbacks.state, 'pending')));
    if (!callback) return;
    const r = random.next();
    const plan: CallbackPlan =
      r < 0.92 ? { failures: 0 } : r < 0.98 || paidAt + 25 * HOUR_MS > endMs ? { failures: random.int(1, 3) } : 'fail';
    failuresLeft.set(order.code, plan === 'fail' ? Number.POSITIVE_INFINITY : plan.failures);
    timeline.push(paidAt + random.int(200, 1_500), {
      kind: 'deliver',
      order,
      callbackId: callback.id,
      createdAt: callback.createdAt,
      attemptNo: 1,
    });
    if (plan === 'fail') return;
    const settled = paidAt + 3 * MINUTE_MS;
    if (random.chance(0.01)) later(settled + random.between(1, 48) * HOUR_MS, { kind: 'reverse', order });
    else if (random.chance(0.025)) {
      const mark = random.pick([
        ORDER_MARK.test,
        ORDER_MARK.test,
        ORDER_MARK.fillIn,
        ORDER_MARK.suspicious,
        ORDER_MARK.suspicious,
        ORDER_MARK.malicious,
      ]);
      const at = settled + random.between(0.3, 30) * HOUR_MS;
      later(at, { kind: 'mark', order, mark });
      if (mark === ORDER_MARK.suspicious && random.chance(0.5)) {
        later(at + random.between(1, 24) * HOUR_MS, { kind: 'unlock', order });
      }
    }
  };

  /** Whether a payment at `at` and its callback's deliveries end before the history does. */
  const payable = (at: number) => at + 2 * MINUTE_MS < endMs;

  const handle = async (at: number, event: Event) => {
    switch (event.kind) {
      case 'create': {
        const { plan } = event;
        orderNo += 1;
        if (orderNo % (input.progressEvery ?? 500) === 0) input.onProgress?.(orderNo);
        const day = new Date(at).toISOString().slice(0, 10).replaceAll('-', '');
        const params: CreateOrderRequest & Record<string, string> = {
          sign: '',
          mchId: DEMO_MERCHANT_API.mchId,
          productId: String(plan.productId),
          mchOrderNo: `M1-${day}-${String(orderNo).padStart(5, '0')}`,
          amount: String(plan.amount),
          notifyUrl: receiver.url,
          returnUrl: RETURN_URL,
          subject: random.pick(SUBJECTS),
          clientIp: `49.${random.int(32, 47)}.${random.int(0, 255)}.${random.int(1, 254)}`,
        };
        if (random.chance(0.2)) params.extra = JSON.stringify({ uid: `u${random.int(10_000, 99_999)}` });
        params.sign = signParams(params, DEMO_MERCHANT_API.secret, DEMO_MERCHANT_API.signType);
        let created: { orderCode: string } | null = null;
        let failedCode: string | null = null;
        try {
          created = await services.orders.create(params, { ip: MERCHANT_SERVER_IP, baseUrl: BASE_URL });
        } catch (error) {
          if (!(error instanceof AppError) || error.code !== Code.allocationFailed) throw error;
          failedCode = (error.data as { orderCode?: string } | null)?.orderCode ?? null;
        }
        const code = created?.orderCode ?? failedCode;
        if (!code) return;
        const [row] = await db.select().from(orders).where(eq(orders.orderCode, code));
        if (!row) return;
        const order: Live = { code, id: row.id, supplierUserId: row.supplierUserId };
        if (row.state === ORDER_STATE.allocationFailed) {
          // Some payers paid anyway: customer service supplements them with the payer's UTR.
          const when = at + random.between(10, 90) * MINUTE_MS;
          if (random.chance(0.35) && payable(when)) later(when, { kind: 'supplement', order, utr: newUtr() });
          return;
        }
        const r = random.next();
        const outcome: Outcome =
          plan.outcome ?? (r < 0.7 ? 'confirm' : r < 0.8 ? 'supplement' : r < 0.86 ? 'reject' : 'timeout');
        const expiresAt = row.expiresAt!.getTime();
        const within = (min: number, max: number) =>
          Math.min(at + random.between(min, max) * MINUTE_MS, expiresAt - 20_000);
        if (outcome === 'confirm') {
          const when = plan.outcome ? within(6, 12) : within(1, 12);
          if (!payable(when)) return;
          if (random.chance(0.4))
            later(at + (when - at) * random.between(0.3, 0.9), { kind: 'payerUtr', order, utr: newUtr() });
          later(when, { kind: 'confirm', order });
        } else if (outcome === 'supplement') {
          const when = within(4, 14);
          if (!payable(when)) return;
          const utr = newUtr();
          if (random.chance(0.5)) later(at + (when - at) * random.between(0.2, 0.8), { kind: 'payerUtr', order, utr });
          later(when, { kind: 'supplement', order, utr });
        } else if (outcome === 'reject') {
          const byStaff = random.chance(0.4);
          later(within(1, 10), { kind: 'reject', order, byStaff, reason: random.pick(REJECT_REASONS) });
        } else {
          // The payer never pays: the order times out when the maintenance job next runs.
          later(expiresAt + random.int(1_000, 10_000), { kind: 'expire' });
        }
        return;
      }
      case 'payerUtr':
        await attempt('payerUtr', () => services.orders.submitPayerUtr(event.order.code, event.utr));
        return;
      case 'confirm': {
        const supplierUserId = event.order.supplierUserId;
        const who = supplierUserId !== null ? supplierByUser.get(supplierUserId) : undefined;
        const paid = who
          ? await attempt('confirm', () =>
              services.orders.confirm(event.order.code, supplierScope(who.userId), actor(who.account)),
            )
          : null;
        if (paid) await afterPaid(event.order, paid);
        return;
      }
      case 'supplement': {
        const paid = await attempt('supplement', () =>
          services.orders.supplement(
            { orderCode: event.order.code, isOffsetReplenishmentOrder: false, utr: event.utr },
            staff,
            service,
          ),
        );
        if (paid) await afterPaid(event.order, paid);
        return;
      }
      case 'reject': {
        const supplierUserId = event.order.supplierUserId;
        const who = supplierUserId !== null ? supplierByUser.get(supplierUserId) : undefined;
        const [scope, by] = event.byStaff || !who ? [staff, service] : [supplierScope(who.userId), actor(who.account)];
        await attempt('reject', () =>
          services.orders.reject({ orderCode: event.order.code, rejectReason: event.reason }, scope, by),
        );
        return;
      }
      case 'expire':
        await services.orders.expireDue(200);
        return;
      case 'deliver': {
        attempts += 1;
        const result = await services.callbacks.deliver({ callbackId: event.callbackId, attemptNo: event.attemptNo });
        if (result !== 'retrying') return;
        const delay = services.callbacks.nextDelayMs(event, event.attemptNo, windowMs, clock.now());
        // The job's poll takes up to a second or two after the attempt is due.
        if (delay !== null)
          timeline.push(at + delay + random.int(100, 2_000), { ...event, attemptNo: event.attemptNo + 1 });
        return;
      }
      case 'reverse':
        await attempt('reverse', () => services.orders.reverse(event.order.code, staff, superadmin));
        return;
      case 'mark':
        await attempt('mark', () =>
          services.orders.updateMark(
            { id: event.order.id, orderMark: event.mark },
            staff,
            random.chance(0.5) ? service : admin,
          ),
        );
        return;
      case 'unlock':
        await attempt('unlock', () => services.orders.unlock([event.order.code], staff, admin));
        return;
      case 'step':
        await attempt(event.label, event.run);
        return;
      case 'topUp': {
        // Suppliers deposit again when their balance runs low (they receive the payers' money off the platform).
        // Balances in minor units: supplier1 tops up 300,000.00 below 150,000.00, agent1 100,000.00 below
        // 50,000.00; the last day's float brings them to 2,000,000.00 and 500,000.00.
        for (const s of supplierRows) {
          const balance = await services.ledger.balanceOf(db, accountCode('supplier', s.id, 'available'));
          const [low, amount, float] =
            s.parentId === null ? [15_000_000, 30_000_000, 200_000_000] : [5_000_000, 10_000_000, 50_000_000];
          const deposit = event.float
            ? Math.max(0, Math.ceil((float - balance) / 100_000) * 100_000)
            : balance < low
              ? amount
              : 0;
          if (deposit === 0) continue;
          await proposeAndApprove(services, ids, {
            partyKind: 'supplier',
            partyId: s.id,
            kind: 'deposit',
            amount: deposit,
            note: event.float ? 'float for the day (demo)' : 'deposit to cover collections (demo)',
          });
          deposits += 1;
        }
        return;
      }
    }
  };

  let interrupted = false;
  try {
    for (let next = timeline.pop(); next; next = timeline.pop()) {
      if (input.signal?.aborted) {
        interrupted = true;
        break;
      }
      moveTo(next.at);
      await handle(next.at, next.event);
    }
    if (!interrupted) {
      // As the maintenance job would have by now: orders whose time is up are timed out.
      moveTo(endMs);
      let expired: number;
      do expired = await services.orders.expireDue(200);
      while (expired === 200);
    }
  } finally {
    await new Promise<void>((resolve) => receiver.server.close(() => resolve()));
    receiver.server.closeAllConnections();
    await historyGateway?.close();
  }

  const states = await db
    .select({ state: orders.state, n: count() })
    .from(orders)
    .where(eq(orders.merchantId, merchant.id))
    .groupBy(orders.state);
  const byState = Object.fromEntries(states.map((s) => [s.state, Number(s.n)]));
  return {
    orders: states.reduce((sum, s) => sum + Number(s.n), 0),
    byState,
    callbackAttempts: attempts,
    deposits,
    gatewayPayouts: (await gatewayPayouts?.summary()) ?? { completed: 0, rejected: 0 },
    refused: Object.fromEntries(refused),
    ms: Math.round(performance.now() - started),
    interrupted,
  };
}
