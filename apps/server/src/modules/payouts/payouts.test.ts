import { Code, endpoints, PAYOUT_STATE, PAYOUT_TEXTS, REASON_TEXTS } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { merchants, payoutReceipts, payouts, resources, users } from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, nextIp, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { demoPayoutFee, givePayoutAccounts, signedPayoutRequest } from '../../testing/payout-fixtures.js';
import { accountCode } from '../ledger/accounts.js';
import { LedgerService } from '../ledger/ledger.service.js';
import { signParams } from '../orders/signature.js';

/**
 * Issue 20, payouts: the signed create with its funds held, idempotency and refusals; the claim queue
 * and every transition with its ledger effect (DESIGN sections 5 and 7), by role and by state.
 */
const api = endpoints.payouts;
const S = PAYOUT_STATE;
let t: TestApp;
let ledger: LedgerService;
let merchantId = 0;
const supplierIds: Record<string, number> = {};
const auth: Record<string, Auth> = {};

const balance = (code: string) => ledger.balanceOf(t.database.db, code);
const merchantAvailable = () => balance(accountCode('merchant', merchantId, 'available'));
const merchantFrozen = () => balance(accountCode('merchant', merchantId, 'frozen'));
const supplierAvailable = (account: string) => balance(accountCode('supplier', supplierIds[account]!, 'available'));

beforeAll(async () => {
  t = await startTestApp();
  ledger = new LedgerService({ db: t.database.db, clock: t.clock });
  const db = t.database.db;
  const [m] = await db.select().from(merchants).where(eq(merchants.merchantNo, DEMO_MERCHANT_API.mchId));
  merchantId = m!.id;
  Object.assign(supplierIds, (await givePayoutAccounts(t)).supplierIds);
  for (const account of ['supplier1', 'agent1', 'merchant1', 'service', 'maintenance', 'support']) {
    auth[account] = await t.login(account);
  }
  auth.admin = await t.loginWithToken2('admin');
  auth.merchantToken2 = await t.loginWithToken2('merchant1');
});
afterAll(() => t.close());

const signedPayout = signedPayoutRequest;
const feeOf = demoPayoutFee;

async function createPayout(amount = 100_000): Promise<{ id: number; orderCode: string }> {
  const res = await t.call(api.create, signedPayout({ amount: String(amount) }));
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  const [row] = await t.database.db.select().from(payouts).where(eq(payouts.orderCode, res.body.data.orderCode));
  return { id: row!.id, orderCode: row!.orderCode };
}

describe('creating a payout (signed merchant API)', () => {
  it('holds the amount plus the fee from the merchant’s balance; the same request again answers the same payout', async () => {
    const available = await merchantAvailable();
    const frozen = await merchantFrozen();
    const request = signedPayout({ amount: '100000' });
    const res = await t.call(api.create, request);
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      amount: 100_000,
      fee: feeOf(100_000),
      state: S.awaiting,
      stateName: 'awaiting',
    });
    expect(res.body.data.orderCode).toMatch(/^P\d{12}\d{8}$/);
    expect(await merchantAvailable()).toBe(available - 100_000 - feeOf(100_000));
    expect(await merchantFrozen()).toBe(frozen + 100_000 + feeOf(100_000));

    const again = await t.call(api.create, request);
    expect(again.body.data.orderCode).toBe(res.body.data.orderCode);
    expect(await merchantAvailable()).toBe(available - 100_000 - feeOf(100_000));

    // The same mchOrderNo with other content: 2005, nothing moved.
    const before = await snapshot(t.database);
    const other = signedPayout({ mchOrderNo: request.mchOrderNo!, amount: '100001' });
    const refused = await t.call(api.create, other);
    expect(refused.body.code).toBe(Code.duplicateOrderNo);
    expect(await snapshot(t.database)).toBe(before);
  });

  it('refuses a payout the balance cannot cover with 2013 and its text, and moves nothing', async () => {
    const available = await merchantAvailable();
    const before = await snapshot(t.database);
    const res = await t.call(api.create, signedPayout({ amount: String(Math.min(available, 5_000_000)) }));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: Code.insufficientBalance,
      msg: 'balance not enough for the payout amount plus its fee',
    });
    expect(await snapshot(t.database)).toBe(before);
  });

  it('refuses missing payee fields and a bad IFSC with the spec’s texts, and a product the merchant lacks with 2004', async () => {
    const { userName: _u, bankBranch: _b, ...missing } = signedPayout();
    const res = await t.call(api.create, missing);
    expect(res.status).toBe(400);
    const issues = res.body.data.issues as Array<{ path: string; message: string }>;
    expect(issues).toEqual(
      expect.arrayContaining([
        { path: 'userName', message: PAYOUT_TEXTS.required },
        { path: 'bankBranch', message: PAYOUT_TEXTS.required },
      ]),
    );
    const ifsc = await t.call(api.create, signedPayout({ ifscCode: 'HDFC1001234' }));
    expect(ifsc.body.data.issues).toEqual([{ path: 'ifscCode', message: 'invalid IFSC format' }]);
    const card = await t.call(api.create, signedPayout({ cardNumber: '1234-5678' }));
    expect(card.body.data.issues).toEqual([
      { path: 'cardNumber', message: 'card number must be digits only, at most 20' },
    ]);
    const collection = await t.call(api.create, signedPayout({ productId: '1001' }));
    expect(collection.status).toBe(400);
    const notEnabled = await t.call(
      api.create,
      signedPayout({ productId: '3016', address: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7' }),
    );
    expect(notEnabled.body.code).toBe(Code.productUnavailable);
    const badSign = await t.call(api.create, { ...signedPayout(), amount: '100002' });
    expect(badSign.body.code).toBe(Code.badSignature);
  });

  it('concurrent payouts that together exceed the balance: none overdraws, the rest are refused, the ledger checks clean', async () => {
    const available = await merchantAvailable();
    const amount = 40_000;
    const held = amount + feeOf(amount);
    const fit = Math.floor(available / held);
    const tries = fit + 4;
    const results = await Promise.all(
      Array.from({ length: tries }, () => t.call(api.create, signedPayout({ amount: String(amount) }))),
    );
    const codes = results.map((r) => r.body.code);
    expect(codes.filter((c) => c === 200)).toHaveLength(fit);
    expect(codes.filter((c) => c === Code.insufficientBalance)).toHaveLength(tries - fit);
    expect(await merchantAvailable()).toBe(available - fit * held);
    expect(await ledger.check()).toEqual({ ok: true, violations: [] });
    // Give the money back for the tests after this one.
    for (const r of results.filter((x) => x.body.code === 200)) {
      const [row] = await t.database.db.select().from(payouts).where(eq(payouts.orderCode, r.body.data.orderCode));
      expect((await t.call(api.cancel, { orderId: row!.id }, auth.merchant1)).body.code).toBe(200);
    }
    expect(await merchantAvailable()).toBe(available);
  });
});

describe('querying a payout (signed merchant API)', () => {
  const signedQuery = (q: Record<string, string>) => ({
    ...q,
    sign: signParams(q, DEMO_MERCHANT_API.secret, 'HMAC-SHA256'),
  });

  it('answers the payout by mchOrderNo and by orderCode, as the create did; an unknown one is 2012; one key only', async () => {
    const request = signedPayout({ amount: '21000' });
    const created = (await t.call(api.create, request)).body.data;
    const byNo = await t.call(
      api.query,
      signedQuery({ mchId: DEMO_MERCHANT_API.mchId, mchOrderNo: request.mchOrderNo! }),
    );
    expect(byNo.body).toMatchObject({ code: 200, data: created });
    const byCode = await t.call(
      api.query,
      signedQuery({ mchId: DEMO_MERCHANT_API.mchId, orderCode: created.orderCode }),
    );
    expect(byCode.body.data).toEqual(created);
    const unknown = await t.call(api.query, signedQuery({ mchId: DEMO_MERCHANT_API.mchId, mchOrderNo: 'NOPE1' }));
    expect(unknown.body).toMatchObject({ code: Code.orderNotFound, msg: 'no such order' });
    const both = await t.call(
      api.query,
      signedQuery({ mchId: DEMO_MERCHANT_API.mchId, mchOrderNo: request.mchOrderNo!, orderCode: created.orderCode }),
    );
    expect(both.status).toBe(400);
    const forged = await t.call(api.query, {
      mchId: DEMO_MERCHANT_API.mchId,
      mchOrderNo: request.mchOrderNo!,
      sign: 'A'.repeat(64),
    });
    expect(forged.body.code).toBe(Code.badSignature);
    // Give the money back for the tests after this one.
    expect((await t.call(api.cancel, { orderId: (await rowOf(created.orderCode)).id }, auth.merchant1)).body.code).toBe(
      200,
    );
  });
});

async function rowOf(orderCode: string) {
  const [row] = await t.database.db.select().from(payouts).where(eq(payouts.orderCode, orderCode));
  return row!;
}

describe('the claim queue and the transitions', () => {
  it('two suppliers claim one payout at once: exactly one wins, the other gets 409 claim failed', async () => {
    const { id } = await createPayout(20_000);
    const [a, b] = await Promise.all([
      t.call(api.claimOrder, { orderId: id }, auth.supplier1),
      t.call(api.claimOrder, { orderId: id }, auth.agent1),
    ]);
    const codes = [a!.body.code, b!.body.code].sort();
    expect(codes).toEqual([200, 409]);
    const loser = a!.body.code === 409 ? a! : b!;
    expect(loser.body).toMatchObject({
      msg: 'claim failed: another supplier claimed it first',
      data: { reason: 'claimFailed' },
    });
    expect(REASON_TEXTS.claimFailed['en-US']).toBe('claim failed: another supplier claimed it first');
    const [row] = await t.database.db.select().from(payouts).where(eq(payouts.id, id));
    expect(row!.state).toBe(S.inProgress);
  });

  it('claim (the spec’s ?orderId), submit the UTR, confirm: the merchant’s hold pays the supplier amount plus commission and the platform fee less commission', async () => {
    const amount = 30_000;
    const { id, orderCode } = await createPayout(amount);
    const frozen = await merchantFrozen();
    const supplier = await supplierAvailable('supplier1');
    const revenue = await ledger.revenue(t.database.db);

    // The spec writes the claim with its id in the query string.
    const claimed = await t.app.inject({
      method: 'POST',
      url: `${api.claimOrder.path}?orderId=${id}`,
      headers: { token: auth.supplier1!.token! },
    });
    expect(claimed.json()).toMatchObject({ code: 200, data: { orderId: id, orderCode, state: S.inProgress } });
    // Another supplier may not touch it; the merchant may not submit; staff may not confirm before the UTR.
    expect((await t.call(api.submit, { orderId: id, utr: 'UTR000111222' }, auth.agent1)).status).toBe(404);
    expect((await t.call(api.submit, { orderId: id, utr: 'UTR000111222' }, auth.merchant1)).status).toBe(403);
    const early = await t.call(api.confirm, { orderId: id }, auth.admin);
    expect(early.body).toMatchObject({ code: 422, data: { reason: 'payoutState' } });

    expect((await t.call(api.submit, { orderId: id, utr: 'UTR000111222' }, auth.supplier1)).body.data.state).toBe(
      S.submitted,
    );
    // One UTR proves one payout.
    const second = await createPayout(amount);
    await t.call(api.claimOrder, { orderId: second.id }, auth.supplier1);
    const reused = await t.call(api.submit, { orderId: second.id, utr: 'UTR000111222' }, auth.supplier1);
    expect(reused.body).toMatchObject({ code: 409, data: { reason: 'utrUsed' } });

    // Confirming needs token2 and an admin.
    expect((await t.call(api.confirm, { orderId: id }, auth.service)).status).toBe(403);
    const confirmed = await t.call(api.confirm, { orderId: id }, auth.admin);
    expect(confirmed.body.data.state).toBe(S.completed);
    const fee = feeOf(amount);
    const commission = Math.floor((amount * 100) / 10_000);
    // The first's hold paid out, the second's (same amount) still held.
    expect(await merchantFrozen()).toBe(frozen - (amount + fee) + (amount + fee));
    expect(await supplierAvailable('supplier1')).toBe(supplier + amount + commission);
    expect(await ledger.revenue(t.database.db)).toBe(revenue + fee - commission);
    expect(await ledger.check()).toEqual({ ok: true, violations: [] });

    // The detail tells the story; the merchant sees its own entries only.
    const detail = await t.call(api.getDetail, { orderId: id }, auth.merchant1);
    expect(detail.body.data.timeline.map((e: { kind: string }) => e.kind)).toEqual([
      'created',
      'claimed',
      'submitted',
      'completed',
      // This payout names no notify URL and merchant1 has none: the story says no callback follows.
      'callbackSkipped',
    ]);
    expect(detail.body.data.payout).toMatchObject({ utr: 'UTR000111222', commission: null, supplierId: null });
    for (const transfer of detail.body.data.transfers) {
      for (const e of transfer.entries) expect(e.account).toMatch(new RegExp(`^merchant:${merchantId}:`));
    }
    // Confirmed once: again is refused and nothing moves.
    const before = await snapshot(t.database);
    expect((await t.call(api.confirm, { orderId: id }, auth.admin)).body.data.reason).toBe('payoutState');
    expect(await snapshot(t.database)).toBe(before);
  });

  it('a supplier gives back a payout (rejecting); staff reject it and the merchant’s funds come back', async () => {
    const available = await merchantAvailable();
    const { id } = await createPayout(25_000);
    await t.call(api.claimOrder, { orderId: id }, auth.agent1);
    const back = await t.call(api.reject, { orderId: id, rejectReason: 'payee account closed' }, auth.agent1);
    expect(back.body.data.state).toBe(S.rejecting);
    // The supplier cannot end it itself.
    expect((await t.call(api.reject, { orderId: id, rejectReason: 'again' }, auth.agent1)).body.data.reason).toBe(
      'payoutState',
    );
    const rejected = await t.call(api.reject, { orderId: id, rejectReason: 'payee account closed' }, auth.service);
    expect(rejected.body.data.state).toBe(S.rejected);
    expect(await merchantAvailable()).toBe(available);
    const [row] = await t.database.db.select().from(payouts).where(eq(payouts.id, id));
    expect(row!.rejectReason).toBe('payee account closed');
  });

  it('a merchant cancels its payout before anyone claims it, not after; the claim given back makes it cancellable again', async () => {
    const available = await merchantAvailable();
    const { id } = await createPayout(15_000);
    await t.call(api.claimOrder, { orderId: id }, auth.supplier1);
    const late = await t.call(api.cancel, { orderId: id }, auth.merchant1);
    expect(late.body).toMatchObject({ code: 422, data: { reason: 'payoutState' } });
    expect((await t.call(api.cancelClaim, { orderId: id }, auth.supplier1)).body.data.state).toBe(S.awaiting);
    // A second cancel-claim lost to the first: 409 cancel-claim failed.
    expect((await t.call(api.cancelClaim, { orderId: id }, auth.supplier1)).body.data.reason).toBe('cancelClaimFailed');
    expect((await t.call(api.cancel, { orderId: id }, auth.merchant1)).body.data.state).toBe(S.cancelled);
    expect(await merchantAvailable()).toBe(available);
  });

  it('mark abnormal, then resolve back to the supplier or to rejected (funds back)', async () => {
    const available = await merchantAvailable();
    const one = await createPayout(12_000);
    const two = await createPayout(13_000);
    for (const p of [one, two]) {
      await t.call(api.claimOrder, { orderId: p.id }, auth.supplier1);
      await t.call(api.submit, { orderId: p.id, utr: `UTRX${p.id}000` }, auth.supplier1);
      const marked = await t.call(
        api.markAbnormal,
        { orderId: p.id, reason: 'payee says nothing arrived' },
        auth.service,
      );
      expect(marked.body.data.state).toBe(S.processingException);
    }
    // Resolving needs an admin with token2.
    expect((await t.call(api.resolve, { orderId: one.id, to: 'inProgress', reason: 'x' }, auth.supplier1)).status).toBe(
      403,
    );
    const back = await t.call(
      api.resolve,
      { orderId: one.id, to: 'inProgress', reason: 'bank confirms the transfer failed' },
      auth.admin,
    );
    expect(back.body.data.state).toBe(S.inProgress);
    const [row] = await t.database.db.select().from(payouts).where(eq(payouts.id, one.id));
    expect(row).toMatchObject({ utr: null, exceptionReason: 'payee says nothing arrived' });
    const ended = await t.call(
      api.resolve,
      { orderId: two.id, to: 'rejected', reason: 'payee details wrong' },
      auth.admin,
    );
    expect(ended.body.data.state).toBe(S.rejected);
    // one is still held (in progress), two came back.
    expect(await merchantAvailable()).toBe(available - 12_000 - feeOf(12_000));
    expect(await ledger.check()).toEqual({ ok: true, violations: [] });
  });

  it('a supplier without an enabled payout account of the product is refused with its reason and nothing moves; merchants and staff do not claim', async () => {
    const { id } = await createPayout(10_000);
    const db = t.database.db;
    await db.update(resources).set({ state: 1 }).where(eq(resources.supplierId, supplierIds.agent1!));
    const before = await snapshot(t.database);
    const noAccount = await t.call(api.claimOrder, { orderId: id }, auth.agent1);
    expect(noAccount.body).toMatchObject({ code: 422, data: { reason: 'noPayoutAccount' } });
    expect(await snapshot(t.database)).toBe(before);
    await db.update(resources).set({ state: 0 }).where(eq(resources.supplierId, supplierIds.agent1!));
    // A merchant and staff do not claim.
    expect((await t.call(api.claimOrder, { orderId: id }, auth.merchant1)).status).toBe(403);
    expect((await t.call(api.claimOrder, { orderId: id }, auth.admin)).status).toBe(403);
  });

  /** Whether `who`'s claim queue offers a claim on the payout (its row's allowedActions), and its room. */
  const queueOffer = async (id: number, who: Auth | undefined) => {
    const res = await t.call(api.getList, { queue: true, pageIndex: 1, pageSize: 500 }, who);
    const row = (res.body.data.list as Array<{ id: number; allowedActions: string[] }>).find((r) => r.id === id);
    expect(row, `payout ${id} in the queue`).toBeDefined();
    return { claim: row!.allowedActions.includes('claim'), room: res.body.data.claimRoom };
  };

  it('a supplier whose deposit does not cover the amount is refused (depositShort) and nothing moves', async () => {
    // agent1's deposit brought down to 200.00 for this test, and given back after it.
    const deposit = await supplierAvailable('agent1');
    const shift = async (amount: number, key: string) =>
      t.database.db.transaction((tx) =>
        ledger.transfer(tx, {
          idempotencyKey: key,
          type: 'adjustment',
          note: 'test: agent1 deposit',
          actorUserId: null,
          postings: [
            { account: accountCode('supplier', supplierIds.agent1!, 'available'), amount },
            { account: accountCode('platform', 'adjustments'), amount: -amount },
          ],
        }),
      );
    await shift(20_000 - deposit, 'test:deposit-short:down');
    try {
      const { id } = await createPayout(20_001);
      // Its queue shows the payout but offers no claim, and says what it can take on.
      expect(await queueOffer(id, auth.agent1)).toMatchObject({ claim: false, room: { deposit: 20_000 } });
      const before = await snapshot(t.database);
      const res = await t.call(api.claimOrder, { orderId: id }, auth.agent1);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        msg: 'your available balance (deposit) does not cover this payout',
        data: { reason: 'depositShort' },
      });
      expect(await snapshot(t.database)).toBe(before);
      // Its deposit covering the amount exactly is enough.
      const covered = await createPayout(20_000);
      expect((await queueOffer(covered.id, auth.agent1)).claim).toBe(true);
      expect((await t.call(api.claimOrder, { orderId: covered.id }, auth.agent1)).body.data.state).toBe(S.inProgress);
      expect((await t.call(api.cancelClaim, { orderId: covered.id }, auth.agent1)).body.code).toBe(200);
      for (const orderId of [id, covered.id]) {
        expect((await t.call(api.cancel, { orderId }, auth.merchant1)).body.code).toBe(200);
      }
    } finally {
      await shift(deposit - 20_000, 'test:deposit-short:up');
    }
    expect(await supplierAvailable('agent1')).toBe(deposit);
  });

  it('a supplier holding the most payouts in progress allowed (PayoutMaxInProgress) is refused (claimLimit) and nothing moves', async () => {
    const room = () => t.app.services.payouts.claimRoom(t.database.db, supplierIds.agent1!);
    const first = await createPayout(11_000);
    expect((await t.call(api.claimOrder, { orderId: first.id }, auth.agent1)).body.data.state).toBe(S.inProgress);
    const { held } = await room();
    await t.setSetting('PayoutMaxInProgress', held);
    try {
      const { id } = await createPayout(11_500);
      expect(await queueOffer(id, auth.agent1)).toMatchObject({ claim: false, room: { held, limit: held } });
      const before = await snapshot(t.database);
      const res = await t.call(api.claimOrder, { orderId: id }, auth.agent1);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({
        msg: `you already hold as many payouts in progress as allowed: finish one first (${held})`,
        data: { reason: 'claimLimit', limit: held },
      });
      expect(await snapshot(t.database)).toBe(before);
      // Given one back, it has room again.
      expect((await t.call(api.cancelClaim, { orderId: first.id }, auth.agent1)).body.code).toBe(200);
      expect((await queueOffer(id, auth.agent1)).claim).toBe(true);
      expect((await t.call(api.claimOrder, { orderId: id }, auth.agent1)).body.data.state).toBe(S.inProgress);
      expect((await t.call(api.cancelClaim, { orderId: id }, auth.agent1)).body.code).toBe(200);
      for (const orderId of [first.id, id]) {
        expect((await t.call(api.cancel, { orderId }, auth.merchant1)).body.code).toBe(200);
      }
    } finally {
      await t.setSetting('PayoutMaxInProgress', undefined);
    }
  });
});

/** A 1x1 PNG, and what the receipt endpoint answers for it. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PNG_URL = `data:image/png;base64,${PNG}`;

/** A party of another merchant or supplier, created by an admin, signed in without an authenticator. */
async function otherParty(kind: 'merchant' | 'supplier', account: string): Promise<Auth> {
  const created =
    kind === 'merchant'
      ? await t.call(
          endpoints.merchants.create,
          { name: `Other ${account}`, mode: 'newAccount', account, password: 'other2024', remark: '' },
          auth.admin,
        )
      : await t.call(
          endpoints.suppliers.create,
          { name: `Other ${account}`, mode: 'newAccount', account, password: 'other2024', remark: '' },
          auth.admin,
        );
  expect(created.body.code, JSON.stringify(created.body)).toBe(200);
  await t.database.db.update(users).set({ enableGoogleVerify: false }).where(eq(users.account, account));
  const login = await t.call(endpoints.auth.login, { userName: account, password: 'other2024' }, { ip: nextIp() });
  expect(login.body.code, JSON.stringify(login.body)).toBe(200);
  return { token: login.body.data.token };
}

describe('a receipt image with the UTR (issue 20)', () => {
  it('a file that is not an image, or is larger than 512 KiB, is a 400 with its reason and changes nothing', async () => {
    const { id, orderCode } = await createPayout(16_000);
    await t.call(api.claimOrder, { orderId: id }, auth.agent1);
    const before = await snapshot(t.database);
    const text = Buffer.from('this is not a picture of a receipt').toString('base64');
    const notImage = await t.call(
      api.submit,
      { orderId: id, utr: `UTRBAD${id}00`, receipt: { mime: 'image/png', imageBase64: text } },
      auth.agent1,
    );
    expect(notImage.status).toBe(400);
    expect(notImage.body).toMatchObject({ code: Code.invalidInput, data: { reason: 'fileType' } });
    expect(notImage.body.data.issues).toEqual([{ path: 'receipt.imageBase64', message: expect.any(String) }]);
    // A PNG declared as a JPEG is refused the same way: the content decides.
    const mislabelled = await t.call(
      api.submit,
      { orderId: id, utr: `UTRBAD${id}01`, receipt: { mime: 'image/jpeg', imageBase64: PNG } },
      auth.agent1,
    );
    expect(mislabelled.body.data.reason).toBe('fileType');
    const big = Buffer.concat([Buffer.from(PNG, 'base64'), Buffer.alloc(512 * 1024)]).toString('base64');
    const tooLarge = await t.call(
      api.submit,
      { orderId: id, utr: `UTRBAD${id}02`, receipt: { mime: 'image/png', imageBase64: big } },
      auth.agent1,
    );
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.data.reason).toBe('imageTooLarge');
    expect(REASON_TEXTS.imageTooLarge['zh-CN']).toContain('512 KiB');
    expect(await snapshot(t.database)).toBe(before);
    expect((await rowOf(orderCode)).state).toBe(S.inProgress);
    // Give it back and cancel it, so the suppliers' room for claims is as before.
    expect((await t.call(api.cancelClaim, { orderId: id }, auth.agent1)).body.code).toBe(200);
    expect((await t.call(api.cancel, { orderId: id }, auth.merchant1)).body.code).toBe(200);
  });

  it('is stored apart from the payout, read back as a data URL by its merchant, supplier, agent parent and staff; others get 404', async () => {
    const { id, orderCode } = await createPayout(17_000);
    await t.call(api.claimOrder, { orderId: id }, auth.agent1);
    const utr = `UTRRCPT${id}0`;
    const res = await t.call(
      api.submit,
      { orderId: id, utr, receipt: { mime: 'image/png', imageBase64: PNG } },
      auth.agent1,
    );
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: 200, data: { state: S.submitted } });

    const row = await rowOf(orderCode);
    const [stored] = await t.database.db.select().from(payoutReceipts).where(eq(payoutReceipts.payoutId, id));
    expect(row.receiptId).toBe(stored!.id);
    expect(stored).toMatchObject({ mime: 'image/png', size: 70, uploadedByAccount: 'agent1' });
    expect(stored!.sha256).toMatch(/^[0-9a-f]{64}$/);

    // The payout's detail and lists carry the receipt's id, never its bytes; the timeline says it came with one.
    const detail = await t.call(api.getDetail, { orderId: id }, auth.merchant1);
    expect(detail.body.data.payout.receiptId).toBe(stored!.id);
    expect(detail.body.data.timeline.at(-1)).toMatchObject({
      kind: 'submitted',
      noteTemplate: { key: 'payoutSubmittedWithReceipt', values: { utr } },
    });
    // Its agent's payout: on the team page of the head of the team.
    const list = await t.call(api.getList, { pageIndex: 1, pageSize: 20, orderCode, isProxy: true }, auth.supplier1);
    expect(list.body.data.list[0]).toMatchObject({ id, receiptId: stored!.id });
    expect(JSON.stringify(list.body)).not.toContain(PNG.slice(0, 20));

    for (const who of ['merchant1', 'agent1', 'supplier1', 'service', 'maintenance', 'admin']) {
      const read = await t.call(api.receipt, { orderId: id }, auth[who]);
      expect(read.body, who).toMatchObject({
        code: 200,
        data: { receiptId: stored!.id, mime: 'image/png', size: 70, dataUrl: PNG_URL },
      });
    }
    // The agent's account is named to its team and staff; the merchant sees that a receipt came, not who sent it.
    expect((await t.call(api.receipt, { orderId: id }, auth.supplier1)).body.data.uploadedBy).toBe('agent1');
    expect((await t.call(api.receipt, { orderId: id }, auth.merchant1)).body.data.uploadedBy).toBeNull();

    const otherMerchant = await otherParty('merchant', 'rcptshop2');
    const otherSupplier = await otherParty('supplier', 'rcptsupp2');
    expect((await t.call(api.receipt, { orderId: id }, otherMerchant)).status).toBe(404);
    expect((await t.call(api.receipt, { orderId: id }, otherSupplier)).status).toBe(404);
    // The agent does not read its parent's payouts' receipts.
    const parents = await createPayout(18_000);
    await t.call(api.claimOrder, { orderId: parents.id }, auth.supplier1);
    await t.call(
      api.submit,
      { orderId: parents.id, utr: `UTRRCPT${parents.id}1`, receipt: { mime: 'image/png', imageBase64: PNG } },
      auth.supplier1,
    );
    expect((await t.call(api.receipt, { orderId: parents.id }, auth.agent1)).status).toBe(404);
    expect((await t.call(api.receipt, { orderId: id }, auth.support)).status).toBe(403);
    // Completed, the receipt stays readable; the suppliers' room for claims is as before.
    for (const orderId of [id, parents.id]) {
      expect((await t.call(api.confirm, { orderId }, auth.admin)).body.code).toBe(200);
    }
    expect((await t.call(api.receipt, { orderId: id }, auth.merchant1)).body.data.dataUrl).toBe(PNG_URL);
  });

  it('a payout submitted without one answers null; an exception resolved back to the supplier clears it with the UTR', async () => {
    const plain = await createPayout(19_000);
    await t.call(api.claimOrder, { orderId: plain.id }, auth.supplier1);
    await t.call(api.submit, { orderId: plain.id, utr: `UTRPLAIN${plain.id}` }, auth.supplier1);
    expect((await t.call(api.receipt, { orderId: plain.id }, auth.merchant1)).body).toMatchObject({
      code: 200,
      data: null,
    });
    expect((await rowOf(plain.orderCode)).receiptId).toBeNull();

    const { id, orderCode } = await createPayout(19_500);
    await t.call(api.claimOrder, { orderId: id }, auth.supplier1);
    await t.call(
      api.submit,
      { orderId: id, utr: `UTRBACK${id}0`, receipt: { mime: 'image/png', imageBase64: PNG } },
      auth.supplier1,
    );
    await t.call(api.markAbnormal, { orderId: id, reason: 'payee says nothing arrived' }, auth.service);
    const back = await t.call(
      api.resolve,
      { orderId: id, to: 'inProgress', reason: 'bank confirms the transfer failed' },
      auth.admin,
    );
    expect(back.body.data.state, JSON.stringify(back.body)).toBe(S.inProgress);
    expect(await rowOf(orderCode)).toMatchObject({ utr: null, receiptId: null });
    expect((await t.call(api.receipt, { orderId: id }, auth.supplier1)).body.data).toBeNull();
    // The old receipt stays stored as the evidence it was.
    expect(await t.database.db.select().from(payoutReceipts).where(eq(payoutReceipts.payoutId, id))).toHaveLength(1);
    expect((await t.call(api.confirm, { orderId: plain.id }, auth.admin)).body.code).toBe(200);
    expect((await t.call(api.cancelClaim, { orderId: id }, auth.supplier1)).body.code).toBe(200);
    expect((await t.call(api.cancel, { orderId: id }, auth.merchant1)).body.code).toBe(200);
  });
});

describe('live lists', () => {
  it('each change is published on the payouts topic to whoever lists it; queue changes to every supplier', async () => {
    const published: Array<{ topic: string; data: unknown; audience: unknown }> = [];
    const spy = vi.spyOn(t.app.realtime, 'publish').mockImplementation(async (topic, data, audience) => {
      published.push({ topic, data, audience });
    });
    try {
      const { id, orderCode } = await createPayout(14_000);
      await t.call(api.claimOrder, { orderId: id }, auth.supplier1);
      await t.call(api.submit, { orderId: id, utr: `UTRLIVE${id}00` }, auth.supplier1);
      await vi.waitFor(() => expect(published).toHaveLength(3));
      const merchantUserId = (await rowOf(orderCode)).merchantUserId;
      const supplierUserId = (await rowOf(orderCode)).supplierUserId!;
      const staff = ['superAdmin', 'admin', 'customerService', 'technicalMaintenance'];
      expect(published[0]).toEqual({
        topic: 'payouts',
        data: { orderCode, state: S.awaiting },
        audience: { userIds: [merchantUserId], roles: [...staff, 'supplier'] },
      });
      // Claimed: out of the queue, so every supplier hears; then only its own parties and staff.
      expect(published[1]!.audience).toEqual({
        userIds: [merchantUserId, supplierUserId],
        roles: [...staff, 'supplier'],
      });
      expect(published[2]).toEqual({
        topic: 'payouts',
        data: { orderCode, state: S.submitted },
        audience: { userIds: [merchantUserId, supplierUserId], roles: staff },
      });
    } finally {
      spy.mockRestore();
    }
  });
});

describe('creating in the console', () => {
  it('a merchant creates a payout with token2 under the API’s rules; without token2 it is asked for', async () => {
    const body = {
      productId: '2001',
      mchOrderNo: 'CONSOLE1',
      amount: '11000',
      userName: 'Ravi Kumar',
      cardNumber: '123456789012',
      ifscCode: 'SBIN0001234',
      bankBranch: 'Indiranagar',
      address: '4 Park Street',
    };
    expect((await t.call(api.createInConsole, body, auth.merchant1)).body.code).toBe(1024);
    const res = await t.call(api.createInConsole, body, auth.merchantToken2);
    expect(res.body).toMatchObject({ code: 200, data: { amount: 11_000, state: S.awaiting } });
    const missing = await t.call(
      api.createInConsole,
      { ...body, mchOrderNo: 'CONSOLE2', address: '' },
      auth.merchantToken2,
    );
    expect(missing.body.data.issues).toEqual([{ path: 'address', message: PAYOUT_TEXTS.required }]);
    expect((await t.call(api.createInConsole, body, auth.supplier1)).status).toBe(403);
  });
});
