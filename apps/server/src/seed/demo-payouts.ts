import { eq } from 'drizzle-orm';
import type { Services } from '../app.js';
import { payouts } from '../db/schema.js';
import { accountCode } from '../modules/ledger/accounts.js';
import { signParams } from '../modules/orders/signature.js';
import type { PayoutCaller } from '../modules/payouts/payouts.service.js';
import type { Actor } from '../platform/audit.js';
import { DEMO_MERCHANT_API } from './demo-merchants.js';

/** The demo's random source (demo-orders.ts's seeded generator). */
export interface DemoRandom {
  next(): number;
  between(min: number, max: number): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const MERCHANT_SERVER_IP = '203.0.113.10';
const PAYEES = [
  { userName: 'Asha Rao', bankName: 'HDFC Bank', ifscCode: 'HDFC0001234', bankBranch: 'Koramangala' },
  { userName: 'Vikram Singh', bankName: 'State Bank of India', ifscCode: 'SBIN0004567', bankBranch: 'Connaught Place' },
  { userName: 'Meera Iyer', bankName: 'ICICI Bank', ifscCode: 'ICIC0000789', bankBranch: 'Adyar' },
  { userName: 'Rahul Das', bankName: 'Axis Bank', ifscCode: 'UTIB0001122', bankBranch: 'Salt Lake' },
  { userName: 'Fatima Khan', bankName: 'Kotak Mahindra Bank', ifscCode: 'KKBK0003344', bankBranch: 'Bandra West' },
] as const;
const REMARKS = ['withdrawal', 'player cash-out', 'seller settlement', 'refund to customer'];
const GIVE_BACK_REASONS = ['payee account closed', 'name does not match the account', 'bank not reachable by IMPS'];
const EXCEPTION_REASONS = ['payee says nothing arrived', 'bank reversed the transfer', 'UTR not found at the bank'];

/**
 * One payout as merchant1's server creates it: `params` (the merchant API's fields but mchId and sign)
 * signed with the demo merchant's secret, sent from its whitelisted address. Its id and code.
 */
export async function createSignedDemoPayout(
  services: Services,
  fields: Record<string, string>,
): Promise<{ id: number; orderCode: string }> {
  const params = { mchId: DEMO_MERCHANT_API.mchId, ...fields };
  const answer = await services.signedPayouts.create(
    { ...params, sign: signParams(params, DEMO_MERCHANT_API.secret, DEMO_MERCHANT_API.signType) } as never,
    { ip: MERCHANT_SERVER_IP },
  );
  const db = services.orders.deps.db;
  const [row] = await db.select({ id: payouts.id }).from(payouts).where(eq(payouts.orderCode, answer.orderCode));
  if (!row) throw new Error(`demo payout ${answer.orderCode} not found after its create`);
  return { id: row.id, orderCode: answer.orderCode };
}

/** A step of a payout's life at a time of the history; `run` is refused at most by a race the plan did not foresee. */
export interface DemoStep {
  at: number;
  label: string;
  run: () => Promise<unknown>;
}

/**
 * The demo's payouts (issue 20 item 9): merchant1's bank payouts over the history's days, made by the
 * payout service itself on the history's clock: signed API creates (funds held), supplier1's and agent1's claims,
 * UTRs and staff confirmations, cancellations, give-backs rejected by staff, exceptions resolved both
 * ways; the last hours leave payouts awaiting, in progress and submitted, so every payout list and the
 * claim queue have rows. A create takes at most a third of the merchant's available balance then, so
 * the plan never asks for money the merchant does not have.
 */
export class DemoPayouts {
  private made = 0;

  constructor(
    private readonly deps: {
      services: Services;
      random: DemoRandom;
      merchantId: number;
      merchantUserId: number;
      supplierUserId: number;
      actor: (account: string) => Actor;
      /** Schedules a later step (dropped when it falls after the history's end). */
      later: (step: DemoStep) => void;
      endMs: number;
    },
  ) {}

  /** When the payouts are created: `count` of them, from the third day (the merchant has collected by then). */
  plan(startMs: number, count: number): DemoStep[] {
    const { random } = this.deps;
    const from = startMs + 2 * 24 * HOUR_MS;
    const times = Array.from({ length: count }, () => Math.floor(random.between(from, this.deps.endMs - MINUTE_MS)));
    return times.sort((a, b) => a - b).map((at) => ({ at, label: 'payoutCreate', run: () => this.create(at) }));
  }

  /** The caller a demo account acts as (staff: its own user id, which a batch's maker-checker compares). */
  caller(account: string, role: PayoutCaller['role'], userId: number | null = null): PayoutCaller {
    const actor = this.deps.actor(account);
    const id = userId ?? actor.userId ?? 0;
    return {
      role,
      userId: id,
      scope: role === 'supplier' || role === 'merchant' ? { all: false, userIds: [id] } : { all: true },
      actor,
    };
  }

  private async create(at: number) {
    const { random } = this.deps;
    const available = await this.available();
    const wanted = random.pick([1_000, 2_000, 2_500, 5_000, 10_000, 15_000, 25_000]) * 100;
    const amount = Math.min(wanted, Math.floor(available / 3 / 10_000) * 10_000);
    if (amount < 100_000) return;
    const made = await this.createSigned(at, amount);
    this.schedule(made.id, at);
  }

  /** merchant1's available balance now (minor units). */
  async available(): Promise<number> {
    const { services } = this.deps;
    return services.ledger.balanceOf(
      services.orders.deps.db,
      accountCode('merchant', this.deps.merchantId, 'available'),
    );
  }

  /** One signed API create of a bank payout (2001) to a demo payee, as merchant1's server sends it. */
  async createSigned(at: number, amount: number): Promise<{ id: number; orderCode: string }> {
    const { services, random } = this.deps;
    this.made += 1;
    const payee = random.pick(PAYEES);
    const day = new Date(at).toISOString().slice(0, 10).replaceAll('-', '');
    const params: Record<string, string> = {
      productId: '2001',
      mchOrderNo: `PO1-${day}-${String(this.made).padStart(4, '0')}`,
      amount: String(amount),
      ...payee,
      cardNumber: String(random.int(10_000_000_000, 99_999_999_999_999)),
      address: `${random.int(1, 200)} ${random.pick(['MG Road', 'Park Street', 'Linking Road', 'Anna Salai'])}`,
      remark: random.pick(REMARKS),
    };
    return createSignedDemoPayout(services, params);
  }

  /** The payout's life after its create: who does what, and when. */
  private schedule(id: number, createdAt: number) {
    const { random, later } = this.deps;
    // About one in four is claimed by supplier1's agent, so supplier1's page of its agents' payouts has rows.
    const byAgent = this.deps.actor('agent1').userId !== null && random.chance(0.25);
    const supplier = byAgent
      ? this.caller('agent1', 'supplier')
      : this.caller('supplier1', 'supplier', this.deps.supplierUserId);
    const merchant = this.caller('merchant1', 'merchant', this.deps.merchantUserId);
    const service = this.caller('service', 'customerService', null);
    const admin = this.caller('admin', 'admin', null);
    const payouts = this.deps.services.payouts;
    const utr = () => `${random.int(3, 5)}${String(random.int(0, 99_999_999_999)).padStart(11, '0')}`;
    let at = createdAt + random.between(3, 90) * MINUTE_MS;
    const step = (label: string, run: () => Promise<unknown>, after: [number, number]) => {
      at += random.between(after[0], after[1]) * MINUTE_MS;
      later({ at: Math.floor(at), label, run });
    };
    const r = random.next();
    if (r < 0.07) {
      // The merchant changed its mind before anyone claimed it (merchant1's own session).
      step('payoutCancel', () => payouts.cancel(id, merchant), [0, 20]);
      return;
    }
    step('payoutClaim', () => payouts.claim(id, supplier), [0, 30]);
    if (r < 0.15) {
      // The supplier cannot pay this payee: it gives it back, staff reject it.
      const reason = random.pick(GIVE_BACK_REASONS);
      step('payoutGiveBack', () => payouts.reject(id, reason, supplier), [5, 60]);
      step('payoutReject', () => payouts.reject(id, reason, service), [10, 120]);
      return;
    }
    step('payoutSubmit', () => payouts.submit(id, utr(), undefined, supplier), [5, 45]);
    if (r < 0.22) {
      step('payoutAbnormal', () => payouts.markAbnormal(id, random.pick(EXCEPTION_REASONS), service), [30, 240]);
      if (random.chance(0.5)) {
        step(
          'payoutResolveBack',
          () => payouts.resolve(id, 'inProgress', 'the bank confirmed the transfer failed', admin),
          [30, 300],
        );
        step('payoutResubmit', () => payouts.submit(id, utr(), undefined, supplier), [10, 60]);
      } else {
        step(
          'payoutResolveRejected',
          () => payouts.resolve(id, 'rejected', 'payee details were wrong', admin),
          [30, 300],
        );
        return;
      }
    }
    step('payoutConfirm', () => payouts.confirm(id, admin), [10, 180]);
  }
}
