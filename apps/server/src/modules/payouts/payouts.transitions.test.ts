import {
  CLAIMED_PAYOUT_STATES,
  endpoints,
  note,
  PAYOUT_MERCHANT_EVENT_KINDS,
  PAYOUT_STATE,
  type PayoutAction,
  type PayoutEventKind,
  type PayoutStateName,
  payoutActionRefusal,
  type Role,
} from '@paydesk/contract';
import { and, asc, desc, eq, isNull, notInArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchants, partyProducts, payoutEvents, payouts, resources, users } from '../../db/schema.js';
import { SYSTEM_ACTOR } from '../../platform/audit.js';
import { AppError } from '../../platform/errors.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, changeMark, DEMO_ROLE, nextIp, startTestApp, type TestApp } from '../../testing/harness.js';
import { givePayoutAccounts } from '../../testing/payout-fixtures.js';
import { accountCode } from '../ledger/accounts.js';
import { LedgerService } from '../ledger/ledger.service.js';
import type { PayoutRecord } from './payout-core.js';

/**
 * Every payout action from every state, by every role that might call it (DESIGN sections 5 and 7):
 * the server accepts exactly where the contract's rule `payoutActionRefusal` allows (the rule the
 * rows' `allowedActions`, the console's buttons, come from), moves the payout to the right state with
 * its ledger effect and its timeline row; everywhere else it refuses and nothing changes.
 */
const api = endpoints.payouts;
const S = PAYOUT_STATE;
let t: TestApp;
let ledger: LedgerService;
let merchantId = 0;
let batchAccount = 0;
const supplierIds: Record<string, number> = {};

interface Caller {
  account: string;
  role: Role;
  userId: number;
  auth: Auth;
}
/**
 * Staff of every role, the supplier that claims (supplier1), another supplier (agent1, supplier1's
 * agent: it holds none of them), the merchant that owns the payouts and a merchant that does not.
 */
const ACCOUNTS = [
  'superadmin',
  'admin',
  'service',
  'maintenance',
  'support',
  'supplier1',
  'agent1',
  'merchant1',
  'otherMerchant',
] as const;
const callers = {} as Record<(typeof ACCOUNTS)[number], Caller>;

const balance = (code: string) => ledger.balanceOf(t.database.db, code);

beforeAll(async () => {
  t = await startTestApp();
  ledger = new LedgerService({ db: t.database.db, clock: t.clock });
  const db = t.database.db;
  const [m] = await db.select().from(merchants).where(eq(merchants.merchantNo, DEMO_MERCHANT_API.mchId));
  merchantId = m!.id;
  Object.assign(supplierIds, (await givePayoutAccounts(t)).supplierIds);
  // Room for every payout the matrix makes: no daily limit, a balance that holds them all, no limit on
  // what supplier1 holds in progress.
  await db
    .update(partyProducts)
    .set({ dailyLimit: null })
    .where(and(eq(partyProducts.userId, m!.userId), eq(partyProducts.productId, 2001)));
  await db.transaction((tx) =>
    ledger.transfer(tx, {
      idempotencyKey: 'test:transitions-deposit',
      type: 'deposit',
      note: 'test deposit',
      actorUserId: null,
      postings: [
        { account: accountCode('merchant', merchantId, 'available'), amount: 100_000_000 },
        { account: accountCode('platform', 'adjustments'), amount: -100_000_000 },
      ],
    }),
  );
  await t.setSetting('PayoutMaxInProgress', 10_000);
  const [account] = await db
    .select({ id: resources.id })
    .from(resources)
    .where(
      and(eq(resources.supplierId, supplierIds.supplier1!), eq(resources.productId, 2001), isNull(resources.deletedAt)),
    )
    .orderBy(asc(resources.id))
    .limit(1);
  batchAccount = account!.id;

  for (const account of ACCOUNTS) {
    const auth = account === 'otherMerchant' ? await otherMerchant() : await t.loginWithToken2(account);
    const [user] = await db
      .select({ id: users.id, role: users.role })
      .from(users)
      .where(eq(users.account, account === 'otherMerchant' ? 'matrixshop2' : account));
    callers[account] = { account, role: DEMO_ROLE[account] ?? (user!.role as Role), userId: user!.id, auth };
  }
  // Each session notes its last use at most once a minute, and each sign-in moved the clock: note it
  // now, so a refused call later writes nothing at all. The clock stands still from here on.
  for (const account of ACCOUNTS) await ok(t.call(endpoints.auth.getInfo, {}, callers[account].auth));
});
afterAll(() => t.close());

/** A merchant that owns none of the payouts, created by an admin, signed in without an authenticator. */
async function otherMerchant(): Promise<Auth> {
  const admin = await t.loginWithToken2('admin');
  const account = 'matrixshop2';
  const created = await t.call(
    endpoints.merchants.create,
    { name: 'Other shop', mode: 'newAccount', account, password: 'other2024', remark: '' },
    admin,
  );
  expect(created.body.code, JSON.stringify(created.body)).toBe(200);
  await t.database.db.update(users).set({ enableGoogleVerify: false }).where(eq(users.account, account));
  const login = await t.call(endpoints.auth.login, { userName: account, password: 'other2024' }, { ip: nextIp() });
  expect(login.body.code, JSON.stringify(login.body)).toBe(200);
  return { token: login.body.data.token };
}

let n = 0;
/** A new awaiting payout of merchant1, its amount unique (a batch picks it alone by amount). */
async function create(): Promise<PayoutRecord> {
  n += 1;
  const answer = await t.app.services.payouts.createFor(
    merchantId,
    {
      productId: '2001',
      mchOrderNo: `MATRIX${n}`,
      amount: String(20_000 + n),
      userName: `Payee ${n}`,
      cardNumber: `5010${String(n).padStart(8, '0')}`,
      ifscCode: 'HDFC0001234',
      bankName: 'HDFC Bank',
      bankBranch: 'Koramangala',
      address: '12 MG Road, Bengaluru',
    },
    { via: note('viaConsole', { account: 'merchant1' }), actor: null, audit: false },
  );
  return rowOf(answer.orderCode);
}

async function rowOf(orderCode: string): Promise<PayoutRecord> {
  const [row] = await t.database.db.select().from(payouts).where(eq(payouts.orderCode, orderCode));
  return row!;
}
const reload = (p: PayoutRecord) => rowOf(p.orderCode);

const utr = () => {
  n += 1;
  return `MATRIXUTR${String(n).padStart(6, '0')}`;
};

async function ok(res: Promise<{ body: { code: number } }>) {
  const { body } = await res;
  expect(body.code, JSON.stringify(body)).toBe(200);
}

/**
 * Where a payout can stand: each state, and an awaiting payout a batch holds (no supplier may claim it).
 * Each is reached through the engine's own actions; supplier1 is the supplier that holds it.
 */
const SITUATIONS = [
  'awaiting',
  'awaitingInBatch',
  'preparing',
  'inProgress',
  'completed',
  'cancelled',
  'rejecting',
  'rejected',
  'pendingConfirmation',
  'submitted',
  'processingException',
] as const;
type Situation = (typeof SITUATIONS)[number];
const STATE_OF = (s: Situation): number => (s === 'awaitingInBatch' ? S.awaiting : S[s as PayoutStateName]);

async function payoutIn(situation: Situation): Promise<PayoutRecord> {
  const p = await create();
  const orderId = p.id;
  const { supplier1, admin, superadmin, merchant1 } = callers;
  switch (situation) {
    case 'awaiting':
      break;
    case 'awaitingInBatch':
    case 'preparing': {
      const batch = await t.call(
        endpoints.payoutBatches.create,
        {
          resourceId: batchAccount,
          templateId: 'icici-cib-bulk',
          payoutTime: '2026-11-27 10:00:00',
          minAmount: p.amount,
          maxAmount: p.amount,
          maxCount: 1,
        },
        admin.auth,
      );
      expect(batch.body.data, JSON.stringify(batch.body)).toMatchObject({ orderCount: 1 });
      if (situation === 'preparing') {
        const { batchId } = batch.body.data;
        await ok(t.call(endpoints.payoutBatches.propose, { batchId }, admin.auth));
        await ok(t.call(endpoints.payoutBatches.approve, { batchId }, superadmin.auth));
      }
      break;
    }
    case 'cancelled':
      await ok(t.call(api.cancel, { orderId }, merchant1.auth));
      break;
    case 'rejected':
      await ok(t.call(api.reject, { orderId, rejectReason: 'matrix' }, admin.auth));
      break;
    default: {
      await ok(t.call(api.claimOrder, { orderId }, supplier1.auth));
      if (situation === 'rejecting') await ok(t.call(api.reject, { orderId, rejectReason: 'matrix' }, supplier1.auth));
      if (situation === 'processingException') {
        await ok(t.call(api.markAbnormal, { orderId, reason: 'matrix' }, supplier1.auth));
      }
      if (['submitted', 'pendingConfirmation', 'completed'].includes(situation)) {
        await ok(t.call(api.submit, { orderId, utr: utr() }, supplier1.auth));
      }
      if (situation === 'pendingConfirmation') {
        await t.app.services.payouts.markPendingConfirmation(orderId, 'bank SMS matched', SYSTEM_ACTOR);
      }
      if (situation === 'completed') await ok(t.call(api.confirm, { orderId }, admin.auth));
    }
  }
  const row = await reload(p);
  expect(row.state, situation).toBe(STATE_OF(situation));
  expect(row.batchId !== null, situation).toBe(situation === 'awaitingInBatch' || situation === 'preparing');
  return row;
}

/** One payout per situation for the refusals: a refused action leaves it as it was, so all share it. */
const shared = new Map<Situation, PayoutRecord>();
async function sharedIn(situation: Situation): Promise<PayoutRecord> {
  let p = shared.get(situation);
  if (!p) {
    p = await payoutIn(situation);
    shared.set(situation, p);
  }
  return p;
}

/** The actions as the endpoints take them; resolve twice, once to each end. */
const MOVES = [
  'claim',
  'cancelClaim',
  'submit',
  'confirm',
  'reject',
  'cancel',
  'markAbnormal',
  'resolveToInProgress',
  'resolveToRejected',
] as const;
type Move = (typeof MOVES)[number];
const ACTION_OF: Record<Move, PayoutAction> = {
  claim: 'claim',
  cancelClaim: 'cancelClaim',
  submit: 'submit',
  confirm: 'confirm',
  reject: 'reject',
  cancel: 'cancel',
  markAbnormal: 'markAbnormal',
  resolveToInProgress: 'resolve',
  resolveToRejected: 'resolve',
};

function call(move: Move, orderId: number, by: Auth) {
  switch (move) {
    case 'claim':
      return t.call(api.claimOrder, { orderId }, by);
    case 'cancelClaim':
      return t.call(api.cancelClaim, { orderId }, by);
    case 'submit':
      return t.call(api.submit, { orderId, utr: utr() }, by);
    case 'confirm':
      return t.call(api.confirm, { orderId }, by);
    case 'reject':
      return t.call(api.reject, { orderId, rejectReason: 'matrix reject' }, by);
    case 'cancel':
      return t.call(api.cancel, { orderId }, by);
    case 'markAbnormal':
      return t.call(api.markAbnormal, { orderId, reason: 'matrix abnormal' }, by);
    case 'resolveToInProgress':
      return t.call(api.resolve, { orderId, to: 'inProgress', reason: 'matrix resolve' }, by);
    case 'resolveToRejected':
      return t.call(api.resolve, { orderId, to: 'rejected', reason: 'matrix resolve' }, by);
  }
}

const STAFF = ['superadmin', 'admin', 'service'] as const;
const ADMINS = ['superadmin', 'admin'] as const;
/**
 * Who may take each action from where, written out from DESIGN section 7 and spec section 4 (the rule
 * must say the same): staff but technical maintenance and support act, admins confirm and resolve, the
 * supplier claims and acts on what it holds, the merchant cancels what nobody claimed.
 */
const DESIGNED: Record<Move, Partial<Record<Situation, readonly (typeof ACCOUNTS)[number][]>>> = {
  claim: { awaiting: ['supplier1', 'agent1'] },
  cancelClaim: { inProgress: [...STAFF, 'supplier1'] },
  submit: { inProgress: ['supplier1'] },
  confirm: { submitted: ADMINS, pendingConfirmation: ADMINS },
  reject: {
    awaiting: STAFF,
    awaitingInBatch: STAFF,
    inProgress: [...STAFF, 'supplier1'],
    submitted: STAFF,
    pendingConfirmation: STAFF,
    rejecting: STAFF,
    processingException: STAFF,
  },
  cancel: { awaiting: [...STAFF, 'merchant1'], awaitingInBatch: [...STAFF, 'merchant1'] },
  markAbnormal: {
    inProgress: [...STAFF, 'supplier1'],
    submitted: [...STAFF, 'supplier1'],
    pendingConfirmation: [...STAFF, 'supplier1'],
  },
  resolveToInProgress: { processingException: ADMINS },
  resolveToRejected: { processingException: ADMINS },
};

/** Where an accepted move leads, its timeline entry and what it does to the money. */
function effectOf(
  move: Move,
  by: Caller,
): { state: number; kind: PayoutEventKind; money: 'none' | 'paid' | 'released' } {
  const staff = by.role !== 'supplier' && by.role !== 'merchant';
  switch (move) {
    case 'claim':
      return { state: S.inProgress, kind: 'claimed', money: 'none' };
    case 'cancelClaim':
      return { state: S.awaiting, kind: 'claimCancelled', money: 'none' };
    case 'submit':
      return { state: S.submitted, kind: 'submitted', money: 'none' };
    case 'confirm':
      return { state: S.completed, kind: 'completed', money: 'paid' };
    case 'reject':
      // Staff end it; the supplier gives it back for staff to decide.
      return staff
        ? { state: S.rejected, kind: 'rejected', money: 'released' }
        : { state: S.rejecting, kind: 'rejecting', money: 'none' };
    case 'cancel':
      return { state: S.cancelled, kind: 'cancelled', money: 'released' };
    case 'markAbnormal':
      return { state: S.processingException, kind: 'markedAbnormal', money: 'none' };
    case 'resolveToInProgress':
      return { state: S.inProgress, kind: 'resolved', money: 'none' };
    case 'resolveToRejected':
      return { state: S.rejected, kind: 'resolved', money: 'released' };
  }
}

/** Whether the caller reads the payout at all (else every action it may call is a 404 but the claim). */
function reads(p: PayoutRecord, by: Caller): boolean {
  if (by.role === 'merchant') return p.merchantUserId === by.userId;
  if (by.role === 'supplier') return p.state === S.awaiting || p.supplierUserId === by.userId;
  return true;
}

type Answer = { status: 200 } | { status: 403 | 404 } | { status: 409 | 422; reason: string };

/**
 * What the server must answer: by the contract's rule, which refuses by role (403), by holder (404:
 * not the caller's) or by state: 409 where a claim lost to another (claimed, or held by a batch) or a
 * cancel-claim lost, 422 otherwise. A payout the caller does not read is a 404 before any rule.
 */
function expected(move: Move, p: PayoutRecord, by: Caller): Answer {
  const action = ACTION_OF[move];
  const refusal = payoutActionRefusal(action, by.role, {
    state: p.state,
    claimedByCaller: p.supplierUserId === by.userId,
    inBatch: p.batchId !== null,
  });
  if (refusal === 'role') return { status: 403 };
  if (action !== 'claim' && !reads(p, by)) return { status: 404 };
  if (refusal === 'notYours') return { status: 404 };
  if (refusal === 'state') {
    const lostClaim = (CLAIMED_PAYOUT_STATES as readonly number[]).includes(p.state) || p.batchId !== null;
    if (action === 'claim' && lostClaim) return { status: 409, reason: 'claimFailed' };
    if (action === 'cancelClaim') return { status: 409, reason: 'cancelClaimFailed' };
    return { status: 422, reason: 'payoutState' };
  }
  return { status: 200 };
}

/**
 * The actions the caller's row of the payout offers (its console's buttons); null where it reads none.
 * Kept per payout and caller: a payout the matrix refuses on does not change.
 */
const offered = new Map<string, PayoutAction[] | null>();
async function offeredTo(p: PayoutRecord, by: Caller): Promise<PayoutAction[] | null> {
  const key = `${p.id}:${p.state}:${by.account}`;
  if (!offered.has(key)) {
    const res = await t.call(api.getDetail, { orderId: p.id }, by.auth);
    if (res.body.code !== 200) expect([403, 404], `${by.account} reads ${p.id}`).toContain(res.status);
    offered.set(key, res.body.code === 200 ? (res.body.data.payout.allowedActions as PayoutAction[]) : null);
  }
  return offered.get(key)!;
}

async function money(p: PayoutRecord) {
  return {
    merchantAvailable: await balance(accountCode('merchant', p.merchantId, 'available')),
    merchantFrozen: await balance(accountCode('merchant', p.merchantId, 'frozen')),
    supplier1: await balance(accountCode('supplier', supplierIds.supplier1!, 'available')),
    agent1: await balance(accountCode('supplier', supplierIds.agent1!, 'available')),
    revenue: await ledger.revenue(t.database.db),
  };
}

/** The balances after `what` happened to payout `p` (DESIGN section 5). */
function moved(before: Awaited<ReturnType<typeof money>>, p: PayoutRecord, what: 'none' | 'paid' | 'released') {
  const held = p.amount + p.fee;
  if (what === 'released') {
    return {
      ...before,
      merchantAvailable: before.merchantAvailable + held,
      merchantFrozen: before.merchantFrozen - held,
    };
  }
  if (what === 'paid') {
    const holder = p.supplierId === supplierIds.supplier1 ? 'supplier1' : 'agent1';
    const commission = p.commission ?? 0;
    return {
      ...before,
      merchantFrozen: before.merchantFrozen - held,
      [holder]: before[holder] + p.amount + commission,
      revenue: before.revenue + p.fee - commission,
    };
  }
  return before;
}

describe('the payout transition table', () => {
  for (const move of MOVES) {
    it(`${move}: accepted exactly where payoutActionRefusal allows, by state and role, with its ledger effect`, async () => {
      for (const situation of SITUATIONS) {
        const probe = await sharedIn(situation);
        const refusing = ACCOUNTS.filter((account) => expected(move, probe, callers[account]).status !== 200);
        const accepting = ACCOUNTS.filter((account) => !refusing.includes(account));
        expect(accepting, `who may ${move} from ${situation}`).toEqual(DESIGNED[move][situation] ?? []);
        // Refused: the console does not offer it, the server answers why, and none of them changes anything.
        const before = await changeMark(t.database);
        for (const account of refusing) {
          const by = callers[account];
          const where = `${move} from ${situation} by ${account}`;
          const answer = expected(move, probe, by);
          expect((await offeredTo(probe, by)) ?? [], where).not.toContain(ACTION_OF[move]);
          const res = await call(move, probe.id, by.auth);
          expect(res.status, `${where}: ${JSON.stringify(res.body)}`).toBe(answer.status);
          if ('reason' in answer) expect(res.body.data?.reason, where).toBe(answer.reason);
        }
        const changed = (await changeMark(t.database)).split(' ').filter((part) => !before.split(' ').includes(part));
        expect(changed, `${move} from ${situation} by ${refusing.join(', ')} changed something`).toEqual([]);

        for (const account of accepting) {
          const by = callers[account];
          const where = `${move} from ${situation} by ${account}`;
          const p = await payoutIn(situation);
          expect(await offeredTo(p, by), where).toContain(ACTION_OF[move]);
          const before = await money(p);
          const res = await call(move, p.id, by.auth);
          expect(res.body.code, `${where}: ${JSON.stringify(res.body)}`).toBe(200);
          const effect = effectOf(move, by);
          const after = await reload(p);
          expect(res.body.data, where).toEqual({ orderId: p.id, orderCode: p.orderCode, state: effect.state });
          expect(after.state, where).toBe(effect.state);
          expect(await money(p), `${where}: balances`).toEqual(moved(before, p, effect.money));
          // The move's own entry: after a final state the merchant's callback (here: none) may follow it.
          const [event] = await t.database.db
            .select()
            .from(payoutEvents)
            .where(
              and(eq(payoutEvents.payoutId, p.id), notInArray(payoutEvents.kind, [...PAYOUT_MERCHANT_EVENT_KINDS])),
            )
            .orderBy(desc(payoutEvents.id))
            .limit(1);
          expect(event, `${where}: timeline`).toMatchObject({
            kind: effect.kind,
            fromState: p.state,
            toState: effect.state,
            actorAccount: by.account,
          });
          if (move === 'claim') {
            // The claimer holds it on its payout account, its commission (1.00 %) fixed now.
            expect(after, where).toMatchObject({
              supplierUserId: by.userId,
              commission: Math.floor((p.amount * 100) / 10_000),
            });
            expect(after.resourceId, where).not.toBeNull();
          }
          if (move === 'cancelClaim') {
            expect(after, where).toMatchObject({ supplierUserId: null, resourceId: null, commission: null });
          }
        }
      }
      expect(await ledger.check()).toEqual({ ok: true, violations: [] });
    });
  }

  it('the bank SMS hook moves only a submitted payout to pending confirmation, and nothing else', async () => {
    for (const situation of SITUATIONS) {
      const p = situation === 'submitted' ? await payoutIn(situation) : await sharedIn(situation);
      const before = await money(p);
      const unchanged = await changeMark(t.database);
      const run = t.app.services.payouts.markPendingConfirmation(p.id, 'bank SMS matched', SYSTEM_ACTOR);
      if (situation !== 'submitted') {
        await expect(run, situation).rejects.toBeInstanceOf(AppError);
        await expect(run, situation).rejects.toMatchObject({ code: 422, data: { reason: 'payoutState' } });
        expect(await changeMark(t.database), `${situation} changed something`).toBe(unchanged);
        continue;
      }
      expect(await run).toMatchObject({ state: S.pendingConfirmation });
      expect(await money(p)).toEqual(before);
      const [event] = await t.database.db
        .select()
        .from(payoutEvents)
        .where(eq(payoutEvents.payoutId, p.id))
        .orderBy(desc(payoutEvents.id))
        .limit(1);
      expect(event).toMatchObject({
        kind: 'pendingConfirmation',
        fromState: S.submitted,
        toState: S.pendingConfirmation,
        actorAccount: 'system',
        note: 'bank SMS matched',
      });
    }
  });

  it('the head of a team reads its agent’s payout but acts on none of it (404); the agent acts as its holder', async () => {
    const { supplier1, agent1 } = callers;
    const p = await create();
    await ok(t.call(api.claimOrder, { orderId: p.id }, agent1.auth));
    const held = await reload(p);
    expect(await offeredTo(held, supplier1)).toEqual([]);
    expect(await offeredTo(held, agent1)).toEqual(['cancelClaim', 'submit', 'reject', 'markAbnormal']);
    const before = await changeMark(t.database);
    for (const move of ['cancelClaim', 'submit', 'reject', 'markAbnormal'] as const) {
      expect((await call(move, p.id, supplier1.auth)).status, move).toBe(404);
    }
    expect((await call('claim', p.id, supplier1.auth)).body.data.reason).toBe('claimFailed');
    expect(await changeMark(t.database)).toBe(before);
    expect((await call('submit', p.id, agent1.auth)).body.data.state).toBe(S.submitted);
    expect(await ledger.check()).toEqual({ ok: true, violations: [] });
  });
});
