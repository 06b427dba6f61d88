import { PAYOUT_STATE } from '@paydesk/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { FakeGateway } from '../../../../tools/fake-gateway/fake-gateway.js';
import type { Services } from '../app.js';
import { orderCallbacks, payouts, resources } from '../db/schema.js';
import { accountCode } from '../modules/ledger/accounts.js';
import type { PayoutCaller } from '../modules/payouts/payouts.service.js';
import type { Actor } from '../platform/audit.js';
import { demoGatewayAccounts, demoGatewayUrl, startDemoGateway } from './demo-gateway.js';
import { createSignedDemoPayout, type DemoRandom, type DemoStep } from './demo-payouts.js';

const SECOND_MS = 1_000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
/** The fake pays whatever a payee is called, but for a payee whose name has the word "Fail" (its outcomes). */
const PAYEES = [
  { userName: 'Anil Kumar', bankName: 'HDFC Bank', ifscCode: 'HDFC0002468', bankBranch: 'Indiranagar' },
  { userName: 'Priya Nair', bankName: 'ICICI Bank', ifscCode: 'ICIC0001357', bankBranch: 'Powai' },
  { userName: 'Sanjay Gupta', bankName: 'Axis Bank', ifscCode: 'UTIB0002244', bankBranch: 'Sector 18' },
  { userName: 'Kavya Reddy', bankName: 'State Bank of India', ifscCode: 'SBIN0007788', bankBranch: 'Jubilee Hills' },
] as const;
const FAILING_PAYEE = {
  userName: 'Ravi Fail',
  bankName: 'Canara Bank',
  ifscCode: 'CNRB0001122',
  bankBranch: 'Malleswaram',
};
const REMARKS = ['withdrawal', 'seller settlement', 'refund to customer'];
/** How many gateway payouts the history makes; the third one's payee makes the fake fail it. */
const COUNT = 6;
const FAILING = 2;
/** Each gateway product in turn: gateway payout (2003) and India auto payout (2002), paid the same way. */
const PRODUCTS = ['2003', '2002'] as const;
/** Status polls of one payout at most (each a minute or two apart) before the history leaves it in progress. */
const MAX_POLLS = 4;

/** The fake the history's rounds reach, and how to end what opening it changed. */
export interface HistoryGateway {
  gateway: FakeGateway;
  close(): Promise<void>;
}

/**
 * The fake gateway for the demo's history: the live one of `npm start` when it runs (main.ts starts it
 * quiet: no webhooks, quick moves), else one of the history's own on a free port, the demo accounts
 * pointing at it meanwhile and at the live address again afterwards (close). Null without the demo's
 * gateway accounts (a database seeded before they existed).
 */
export async function openHistoryGateway(
  services: Services,
  live: FakeGateway | null | undefined,
  port: number,
): Promise<HistoryGateway | null> {
  const db = services.orders.deps.db;
  const liveUrl = demoGatewayUrl(port);
  const accounts = await demoGatewayAccounts(db, liveUrl);
  if (accounts.length === 0) return null;
  if (live) return { gateway: live, close: async () => undefined };
  const own = await startDemoGateway(0);
  const pointAt = async (baseUrl: string) => {
    for (const account of accounts) {
      await db
        .update(resources)
        .set({ details: { ...account.details, baseUrl } })
        .where(eq(resources.id, account.id));
    }
  };
  await pointAt(own.url);
  return {
    gateway: own,
    close: async () => {
      await pointAt(liveUrl);
      await own.close();
    },
  };
}

/**
 * merchant1's gateway payouts in the demo's history (issue 20 item 9): a handful of signed creates of
 * products 2003 and 2002 in turn over the month, each paid through the demo's gateway account of its
 * product at the fake gateway by the dispatcher's own rounds (GatewayPayouts.runOnce) on the history's
 * clock: assigned and sent a few seconds after the create, then asked for its status a few minutes
 * later; the fake pays them with its UTR (completed: the ledger's paid transfer, the merchant's
 * callback) but one, whose payee the fake fails: a processing exception, which an admin resolves to
 * rejected hours later (the hold given back).
 * The callbacks go to the history's merchant receiver (`deliver`). No webhooks: the history asks.
 */
export class DemoGatewayPayouts {
  private made = 0;
  /** The payouts made, by id: what the summary counts and whose callbacks are delivered. */
  private readonly ids = new Set<number>();
  private readonly delivered = new Set<number>();

  constructor(
    private readonly deps: {
      services: Services;
      random: DemoRandom;
      gateway: FakeGateway;
      merchantId: number;
      actor: (account: string) => Actor;
      /** The merchant's receiver of the history's callbacks. */
      notifyUrl: string;
      /** Schedules a later step (dropped when it falls after the history's end). */
      later: (step: DemoStep) => void;
      /** Delivers a payout's callback from `at` on the callback schedule (demo-orders.ts's deliveries). */
      deliver: (
        callback: { id: number; createdAt: Date },
        payout: { id: number; orderCode: string; supplierUserId: number | null },
        at: number,
      ) => void;
      endMs: number;
    },
  ) {}

  /** When the payouts are created: COUNT of them spread over the month, the last a day before its end. */
  plan(startMs: number): DemoStep[] {
    const { random, endMs } = this.deps;
    const from = startMs + 3 * DAY_MS;
    const span = (endMs - DAY_MS - from) / COUNT;
    return Array.from({ length: COUNT }, (_, i) => {
      const at = Math.floor(from + (i + random.between(0.1, 0.9)) * span);
      return { at, label: 'gatewayPayoutCreate', run: () => this.create(at, PRODUCTS[i % 2]!, i === FAILING) };
    });
  }

  /** What the history made: completed, and failed at the fake then rejected by staff. */
  async summary(): Promise<{ completed: number; rejected: number }> {
    if (this.ids.size === 0) return { completed: 0, rejected: 0 };
    const rows = await this.db
      .select({ state: payouts.state })
      .from(payouts)
      .where(inArray(payouts.id, [...this.ids]));
    return {
      completed: rows.filter((r) => r.state === PAYOUT_STATE.completed).length,
      rejected: rows.filter((r) => r.state === PAYOUT_STATE.rejected).length,
    };
  }

  private get db() {
    return this.deps.services.orders.deps.db;
  }

  private async create(at: number, productId: string, failing: boolean) {
    const { services, random } = this.deps;
    const available = await services.ledger.balanceOf(
      this.db,
      accountCode('merchant', this.deps.merchantId, 'available'),
    );
    const wanted = random.pick([2_000, 3_500, 5_000, 7_500, 12_000]) * 100;
    const amount = Math.min(wanted, Math.floor(available / 3 / 10_000) * 10_000);
    if (amount < 100_000) return;
    this.made += 1;
    const payee = failing ? FAILING_PAYEE : random.pick(PAYEES);
    const day = new Date(at).toISOString().slice(0, 10).replaceAll('-', '');
    const params: Record<string, string> = {
      productId,
      mchOrderNo: `PG1-${day}-${String(this.made).padStart(3, '0')}`,
      amount: String(amount),
      notifyUrl: this.deps.notifyUrl,
      ...payee,
      cardNumber: String(random.int(10_000_000_000, 99_999_999_999_999)),
      address: `${random.int(1, 200)} ${random.pick(['Brigade Road', 'FC Road', 'Residency Road'])}`,
      remark: random.pick(REMARKS),
    };
    const row = await createSignedDemoPayout(services, params);
    this.ids.add(row.id);
    // The dispatcher's round a few seconds later assigns it to the gateway account and sends it ...
    let when = at + random.between(3, 30) * SECOND_MS;
    this.deps.later({ at: Math.floor(when), label: 'gatewayPayoutSend', run: () => this.round() });
    // ... and a poll after the gateway's minute asks how it went.
    when += random.between(2, 6) * MINUTE_MS;
    this.deps.later({ at: Math.floor(when), label: 'gatewayPayoutPoll', run: () => this.poll(row.id, 1) });
  }

  /** One round of the dispatcher (assign, send, poll what is due), then the callbacks it caused. */
  private async round() {
    await this.deps.services.gatewayPayouts.runOnce();
    await this.deliverCallbacks();
  }

  /**
   * A status poll of payout `id`: the fake moves its payouts on real time (a millisecond a step for the
   * history), so the history first waits for it to have finished them, as a minute of its time would.
   */
  private async poll(id: number, n: number) {
    await this.gatewaySettled();
    await this.round();
    const [payout] = await this.db.select().from(payouts).where(eq(payouts.id, id));
    if (!payout) return;
    const at = this.deps.services.orders.deps.clock.now().getTime();
    if (payout.state === PAYOUT_STATE.inProgress && n < MAX_POLLS) {
      this.deps.later({
        at: Math.floor(at + this.deps.random.between(1, 2) * MINUTE_MS),
        label: 'gatewayPayoutPoll',
        run: () => this.poll(id, n + 1),
      });
    }
    if (payout.state === PAYOUT_STATE.processingException) {
      // Staff look into the gateway's failure and give the merchant its money back.
      const admin: PayoutCaller = { role: 'admin', userId: 0, scope: { all: true }, actor: this.deps.actor('admin') };
      this.deps.later({
        at: Math.floor(at + this.deps.random.between(1, 5) * HOUR_MS),
        label: 'gatewayPayoutResolve',
        run: async () => {
          await this.deps.services.payouts.resolve(
            id,
            'rejected',
            'the gateway failed it: the payee account is invalid',
            admin,
          );
          await this.deliverCallbacks();
        },
      });
    }
  }

  /** Waits (a few seconds at most) until the fake has no payout of this history still queued or processing. */
  private async gatewaySettled() {
    const open = () =>
      [...this.deps.gateway.payouts.values()].some((p) => p.status === 'queued' || p.status === 'processing');
    for (let waited = 0; open() && waited < 5_000; waited += 5) await new Promise((r) => setTimeout(r, 5));
  }

  /** Delivers the merchant's callbacks that the history's payouts recorded and nobody delivers yet. */
  private async deliverCallbacks() {
    if (this.ids.size === 0) return;
    const pending = await this.db
      .select({
        id: orderCallbacks.id,
        createdAt: orderCallbacks.createdAt,
        payoutId: payouts.id,
        orderCode: payouts.orderCode,
        supplierUserId: payouts.supplierUserId,
      })
      .from(orderCallbacks)
      .innerJoin(payouts, eq(payouts.id, orderCallbacks.payoutId))
      .where(and(inArray(orderCallbacks.payoutId, [...this.ids]), eq(orderCallbacks.state, 'pending')));
    const now = this.deps.services.orders.deps.clock.now().getTime();
    for (const c of pending) {
      if (this.delivered.has(c.id)) continue;
      this.delivered.add(c.id);
      this.deps.deliver(
        { id: c.id, createdAt: c.createdAt },
        { id: c.payoutId, orderCode: c.orderCode, supplierUserId: c.supplierUserId },
        now + this.deps.random.int(200, 1_500),
      );
    }
  }
}
