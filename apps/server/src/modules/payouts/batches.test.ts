import { createHash } from 'node:crypto';
import {
  Code,
  endpoints,
  note,
  PAYOUT_BATCH_LOAD_TEXTS,
  PAYOUT_BATCH_REASON_TEXTS,
  PAYOUT_BATCH_ROW_ERROR_TEXTS,
  PAYOUT_BATCH_RULE_TEXTS,
  PAYOUT_BATCH_STATE,
  PAYOUT_STATE,
  REASON_TEXTS,
  TEXT_LOCALES,
} from '@paydesk/contract';
import { and, asc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  merchants,
  partyProducts,
  payoutBatches,
  payoutEvents,
  payouts,
  resources,
  suppliers,
  users,
} from '../../db/schema.js';
import { DEMO_MERCHANT_API } from '../../seed/demo-merchants.js';
import { type Auth, downloadCsv, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { accountCode } from '../ledger/accounts.js';
import { LedgerService } from '../ledger/ledger.service.js';

/**
 * Issue 20 item 8, batch payouts: the create rules with their texts, maker-checker, a batch of 500
 * exported, downloaded again and settled by the bank's result file (malformed, unknown, mismatched,
 * duplicated rows answered per row) with the ledger effects of DESIGN section 5, abnormal batches,
 * and a supplier's data scope.
 */
const api = endpoints.payoutBatches;
const B = PAYOUT_BATCH_STATE;
const S = PAYOUT_STATE;
let t: TestApp;
let ledger: LedgerService;
let merchantId = 0;
const supplierIds: Record<string, number> = {};
/** Each supplier's bank payout account (2001). */
const accountOf: Record<string, number> = {};
const auth: Record<string, Auth> = {};

const balance = (code: string) => ledger.balanceOf(t.database.db, code);
/** merchant1's fee on 2001 (demo): 1.50 % plus 5.00; supplier1's commission: 1.00 %. */
const feeOf = (amount: number) => Math.floor((amount * 150) / 10_000) + 500;
const commissionOf = (amount: number) => Math.floor((amount * 100) / 10_000);

let n = 0;
/** Awaiting bank payouts of merchant1, made by the service code the API and the console use. */
async function createPayouts(amounts: number[]): Promise<Array<{ id: number; orderCode: string; amount: number }>> {
  const made = [];
  for (const amount of amounts) {
    n += 1;
    const answer = await t.app.services.payouts.createFor(
      merchantId,
      {
        productId: '2001',
        mchOrderNo: `BATCH${n}`,
        amount: String(amount),
        userName: `Payee ${n}`,
        cardNumber: `5010${String(n).padStart(8, '0')}`,
        ifscCode: 'HDFC0001234',
        bankName: 'HDFC Bank',
        bankBranch: 'Koramangala',
        address: '12 MG Road, Bengaluru',
      },
      { via: note('viaConsole', { account: 'merchant1' }), actor: null, audit: false },
    );
    const [row] = await t.database.db.select().from(payouts).where(eq(payouts.orderCode, answer.orderCode));
    made.push({ id: row!.id, orderCode: row!.orderCode, amount });
  }
  return made;
}

const payoutTime = '2026-11-27 10:00:00';
const body = (over: Record<string, unknown> = {}) => ({
  resourceId: accountOf.supplier1,
  templateId: 'icici-cib-bulk',
  payoutTime,
  maxCount: 500,
  ...over,
});

/** Create, propose (admin) and approve (superadmin): a confirmed batch. */
async function confirmedBatch(over: Record<string, unknown>): Promise<number> {
  const created = await t.call(api.create, body(over), auth.admin);
  expect(created.body.code, JSON.stringify(created.body)).toBe(200);
  const batchId = created.body.data.batchId as number;
  expect((await t.call(api.propose, { batchId }, auth.admin)).body.data.state).toBe(B.proposed);
  const approved = await t.call(api.approve, { batchId }, auth.superadmin);
  expect(approved.body.code, JSON.stringify(approved.body)).toBe(200);
  return batchId;
}

/** Uploads a result file the way the console does (multipart: file, batchId). */
async function uploadResult(batchId: number, csv: string, who: Auth | undefined, fileName = 'result.csv') {
  const boundary = '----paydesk-test';
  const payload = [
    `--${boundary}\r\nContent-Disposition: form-data; name="batchId"\r\n\r\n${batchId}\r\n`,
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n`,
    `--${boundary}--\r\n`,
  ].join('');
  const res = await t.app.inject({
    method: 'POST',
    url: api.uploadResult.path,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      ...(who?.token ? { token: who.token } : {}),
      ...(who?.token2 ? { token2: who.token2 } : {}),
    },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}

const ICICI_RESULT_HEADER = 'Add Details 1,Amt,Status,UTR No,Reason';
const rupees = (paise: number) => `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;

beforeAll(async () => {
  t = await startTestApp();
  ledger = new LedgerService({ db: t.database.db, clock: t.clock });
  const db = t.database.db;
  const [m] = await db.select().from(merchants).where(eq(merchants.merchantNo, DEMO_MERCHANT_API.mchId));
  merchantId = m!.id;
  // Room for 500 payouts: no daily limit, and a deposit that covers them.
  await db
    .update(partyProducts)
    .set({ dailyLimit: null })
    .where(and(eq(partyProducts.userId, m!.userId), eq(partyProducts.productId, 2001)));
  await db.transaction((tx) =>
    ledger.transfer(tx, {
      idempotencyKey: 'test:batch-deposit',
      type: 'deposit',
      note: 'test deposit',
      actorUserId: null,
      postings: [
        { account: accountCode('merchant', merchantId, 'available'), amount: 100_000_000 },
        { account: accountCode('platform', 'adjustments'), amount: -100_000_000 },
      ],
    }),
  );
  const now = t.clock.now();
  for (const account of ['supplier1', 'agent1']) {
    const [row] = await db
      .select({ id: suppliers.id })
      .from(suppliers)
      .innerJoin(users, eq(users.id, suppliers.userId))
      .where(eq(users.account, account));
    supplierIds[account] = row!.id;
    const [resource] = await db
      .insert(resources)
      .values({
        supplierId: row!.id,
        productId: 2001,
        kind: 'bankPayout',
        name: `${account} ICICI current account`,
        state: 0,
        details: {
          accountName: `${account} Payouts`,
          bankName: 'ICICI Bank',
          accountNumber: account === 'supplier1' ? '000405001234' : '000405009999',
          ifsc: 'ICIC0000004',
        },
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    accountOf[account] = resource!.id;
  }
  for (const account of ['supplier1', 'agent1', 'merchant1', 'service']) auth[account] = await t.login(account);
  auth.admin = await t.loginWithToken2('admin');
  auth.superadmin = await t.loginWithToken2('superadmin');
  auth.adminWithoutToken2 = await t.login('admin');
}, 60_000);
afterAll(() => t.close());

describe('creating a batch', () => {
  it('refuses each rule of spec section 5 with its text, which the contract has in three languages', async () => {
    const R = PAYOUT_BATCH_RULE_TEXTS;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ resourceId: undefined }, 'resourceId', R.resourceRequired['en-US']],
      [{ resourceId: '' }, 'resourceId', R.resourceRequired['en-US']],
      [{ maxCount: 501 }, 'maxCount', R.maxCount['en-US']],
      [{ payoutTime: '' }, 'payoutTime', R.payoutTimeRequired['en-US']],
      [{ payoutTime: undefined }, 'payoutTime', R.payoutTimeRequired['en-US']],
      [{ templateId: undefined }, 'templateId', R.templateRequired['en-US']],
      [{ templateId: 'axis-paypro' }, 'templateId', 'Unsupported template type'],
      [{ minAmount: 200_000, maxAmount: 100_000 }, 'minAmount', R.minAboveMax['en-US']],
    ];
    for (const [over, path, message] of cases) {
      const res = await t.call(api.create, body(over), auth.admin);
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body.data.issues, JSON.stringify(over)).toEqual([{ path, message }]);
    }
    expect(R.maxCount['en-US']).toBe('Maximum order count is at most 500');
    expect(R.minAboveMax['zh-CN']).toBe('最小金额不能大于最大金额');
    for (const texts of [
      ...Object.values(R),
      ...Object.values(PAYOUT_BATCH_LOAD_TEXTS),
      ...Object.values(PAYOUT_BATCH_REASON_TEXTS),
      ...Object.values(PAYOUT_BATCH_ROW_ERROR_TEXTS),
    ]) {
      for (const locale of TEXT_LOCALES) expect(texts[locale], JSON.stringify(texts)).toMatch(/\S/);
      expect(texts['zh-CN']).not.toBe(texts['en-US']);
    }
    // The server's refusals are in the catalogue the console translates by `data.reason`.
    for (const reason of Object.keys(PAYOUT_BATCH_REASON_TEXTS)) expect(REASON_TEXTS).toHaveProperty(reason);
    expect(PAYOUT_BATCH_LOAD_TEXTS.payoutCount['en-US']).toBe('Failed to get the payout order count');
  });

  it('refuses an account that cannot pay a batch, and a selection nothing matches; nothing is written', async () => {
    const db = t.database.db;
    const before = await snapshot(t.database);
    await createPayouts([10_000]);
    const after = await snapshot(t.database);
    expect(after).not.toBe(before);
    const disabled = accountOf.agent1!;
    await db.update(resources).set({ state: 1 }).where(eq(resources.id, disabled));
    const off = await t.call(api.create, body({ resourceId: disabled }), auth.admin);
    expect(off.body).toMatchObject({ code: Code.businessRule, data: { reason: 'batchResourceUnusable' } });
    await db.update(resources).set({ state: 0 }).where(eq(resources.id, disabled));
    const none = await t.call(api.create, body({ minAmount: 90_000_000 }), auth.admin);
    expect(none.body).toMatchObject({
      code: Code.businessRule,
      msg: 'No awaiting payout matches the batch’s conditions',
      data: { reason: 'batchNoPayouts' },
    });
    expect(await snapshot(t.database)).toBe(after);
    // Only admins make batches; the count the form shows first.
    expect((await t.call(api.create, body(), auth.service)).status).toBe(403);
    expect((await t.call(api.create, body(), auth.supplier1)).status).toBe(403);
    const count = await t.call(api.getPayoutCount, { resourceId: accountOf.supplier1, maxCount: 500 }, auth.admin);
    expect(count.body.data).toMatchObject({ count: 1, totalAmount: 10_000 });
    // Clean up: the single payout goes into a batch that is then abandoned.
    const created = await t.call(api.create, body(), auth.admin);
    const abandoned = await t.call(
      api.markAbnormal,
      { batchId: created.body.data.batchId, reason: 'test' },
      auth.admin,
    );
    expect(abandoned.body.data.state).toBe(B.abnormal);
    const [p] = await db.select().from(payouts).where(eq(payouts.amount, 10_000));
    expect(p).toMatchObject({ state: S.awaiting, batchId: null });
    await t.call(endpoints.payouts.cancel, { orderId: p!.id }, auth.merchant1);
  });
});

describe('maker-checker', () => {
  it('the proposer cannot confirm its own batch; another staff account does, with token2', async () => {
    const made = await createPayouts([21_000, 22_000, 23_000]);
    const created = await t.call(api.create, body({ minAmount: 21_000, maxAmount: 23_000 }), auth.admin);
    expect(created.body.data).toMatchObject({ orderCount: 3, totalAmount: 66_000 });
    const batchId = created.body.data.batchId as number;
    // A draft is not confirmed before it is proposed.
    const early = await t.call(api.approve, { batchId }, auth.superadmin);
    expect(early.body).toMatchObject({ code: 422, data: { reason: 'batchConfirmFailed' } });
    await t.call(api.propose, { batchId }, auth.admin);

    const before = await snapshot(t.database);
    const own = await t.call(api.approve, { batchId }, auth.admin);
    expect(own.body).toMatchObject({ code: 422, data: { reason: 'selfApproval' } });
    expect((await t.call(api.approve, { batchId }, auth.adminWithoutToken2)).body.code).toBe(1024);
    expect((await t.call(api.approve, { batchId }, auth.service)).status).toBe(403);
    expect(await snapshot(t.database)).toBe(before);
    // The list offers the proposer no approve button, another admin one.
    const asProposer = await t.call(api.getList, { batchId }, auth.admin);
    expect(asProposer.body.data.list[0].allowedActions).toEqual(['markAbnormal']);
    const asChecker = await t.call(api.getList, { batchId }, auth.superadmin);
    expect(asChecker.body.data.list[0].allowedActions).toEqual(['approve', 'markAbnormal']);

    // A batch holds its payouts: no supplier claims one (409 'claim failed'), no list offers the claim.
    const claim = await t.call(endpoints.payouts.claimOrder, { orderId: made[0]!.id }, auth.supplier1);
    expect(claim.status).toBe(409);
    expect(claim.body).toMatchObject({ data: { reason: 'claimFailed' } });
    const offered = await t.call(endpoints.payouts.getList, { pageIndex: 1, pageSize: 50, batchId }, auth.supplier1);
    for (const row of offered.body.data.list) expect(row.allowedActions).not.toContain('claim');
    // A payout its merchant cancels meanwhile leaves the batch when it is confirmed.
    expect((await t.call(endpoints.payouts.cancel, { orderId: made[0]!.id }, auth.merchant1)).body.code).toBe(200);
    const approved = await t.call(api.approve, { batchId }, auth.superadmin);
    expect(approved.body.data).toMatchObject({ state: B.confirmed, orderCount: 2, totalAmount: 45_000 });
    const rows = await t.database.db
      .select()
      .from(payouts)
      .where(
        inArray(
          payouts.id,
          made.map((p) => p.id),
        ),
      )
      .orderBy(asc(payouts.id));
    expect(rows.map((p) => [p.state, p.batchId])).toEqual([
      [S.cancelled, null],
      [S.preparing, batchId],
      [S.preparing, batchId],
    ]);
    // The payout lists find a batch's payouts by its number (spec section 3, batchId).
    const listed = await t.call(endpoints.payouts.getList, { pageIndex: 1, pageSize: 50, batchId }, auth.admin);
    expect(listed.body.data.list.map((p: { id: number }) => p.id).sort((a: number, b: number) => a - b)).toEqual([
      made[1]!.id,
      made[2]!.id,
    ]);
    expect(rows[1]).toMatchObject({
      supplierId: supplierIds.supplier1,
      resourceId: accountOf.supplier1,
      commission: commissionOf(22_000),
    });
    const [batch] = await t.database.db.select().from(payoutBatches).where(eq(payoutBatches.id, batchId));
    expect(batch).toMatchObject({ proposedByAccount: 'admin', approvedByAccount: 'superadmin' });
    const events = await t.database.db
      .select()
      .from(payoutEvents)
      .where(eq(payoutEvents.payoutId, rows[1]!.id))
      .orderBy(asc(payoutEvents.id));
    expect(events.map((e) => e.kind)).toEqual(['created', 'batched']);
    // The database holds the rule too.
    await expect(
      t.database.db.update(payoutBatches).set({ approvedBy: batch!.proposedBy }).where(eq(payoutBatches.id, batchId)),
    ).rejects.toThrow();
    // Settle the two as failed, so the later tests start from no preparing payouts.
    await t.call(api.exportFile, { batchId }, auth.admin);
    const csv = [ICICI_RESULT_HEADER, ...rows.slice(1).map((p) => `${p.orderCode},${rupees(p.amount)},Failed,,closed`)];
    const settled = await uploadResult(batchId, csv.join('\n'), auth.admin);
    expect(settled.body.data).toMatchObject({ completed: 0, failed: 2, state: B.completed });
  });
});

describe('a batch of 500', () => {
  it('is exported, downloaded again byte for byte, and settled by the bank’s result files with the ledger effects', async () => {
    const db = t.database.db;
    // 500 amounts from ₹100.01 upward, distinct, all in the batch's bounds.
    const amounts = Array.from({ length: 500 }, (_, i) => 10_001 + i * 37);
    const made = await createPayouts(amounts);
    const count = await t.call(
      api.getPayoutCount,
      { resourceId: accountOf.supplier1, minAmount: 10_001, maxAmount: 40_000 },
      auth.admin,
    );
    expect(count.body.data.count).toBe(500);
    const batchId = await confirmedBatch({ minAmount: 10_001, maxAmount: 40_000 });

    const merchantFrozen = await balance(accountCode('merchant', merchantId, 'frozen'));
    const merchantAvailable = await balance(accountCode('merchant', merchantId, 'available'));
    const supplierAvailable = await balance(accountCode('supplier', supplierIds.supplier1!, 'available'));
    const revenue = await ledger.revenue(db);

    // No file to download before the export: refused with the spec's text, nothing moves.
    const before = await snapshot(t.database);
    const early = await t.call(api.download, { batchId }, auth.admin);
    expect(early.body).toMatchObject({ code: 422, data: { reason: 'batchDownloadFailed' } });
    expect(early.body.msg).toMatch(/^Batch download failed/);
    expect(await snapshot(t.database)).toBe(before);

    // Export (the supplier whose account pays may do it), then download the same bytes.
    const exported = await t.call(api.exportFile, { batchId }, auth.supplier1);
    expect(exported.body.code, JSON.stringify(exported.body)).toBe(200);
    const file = Buffer.from(exported.body.data.contentBase64, 'base64');
    expect(exported.body.data).toMatchObject({
      fileName: `ICICI_CIB_${batchId}_20261127.csv`,
      size: file.length,
      sha256: createHash('sha256').update(file).digest('hex'),
    });
    const lines = file.toString('utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(501);
    expect(lines[1]).toContain(made[0]!.orderCode);
    expect(lines[1]!.startsWith('000405001234,')).toBe(true);
    for (const who of [auth.admin, auth.supplier1, auth.superadmin]) {
      const again = await t.call(api.download, { batchId }, who);
      expect(again.body.data.contentBase64).toBe(exported.body.data.contentBase64);
      expect(again.body.data.sha256).toBe(exported.body.data.sha256);
    }
    // Exported once: again is refused with the spec's text.
    const twice = await t.call(api.exportFile, { batchId }, auth.admin);
    expect(twice.body).toMatchObject({ code: 422, data: { reason: 'batchExportFailed' } });
    expect(twice.body.msg).toMatch(/^Batch export failed/);

    // The bank's report: 480 paid, 10 failed, and 10 rows that settle nothing (the last 10 payouts stay preparing).
    const paid = made.slice(0, 480);
    const failed = made.slice(480, 490);
    const untouched = made.slice(490);
    const csv = [
      'ICICI Bank - Transaction Status Report',
      ICICI_RESULT_HEADER,
      ...paid.map((p, i) => `${p.orderCode},${rupees(p.amount)},Paid,ICICUTR${String(i).padStart(6, '0')},`),
      ...failed.map((p) => `${p.orderCode},${rupees(p.amount)},Failed,,Beneficiary account closed`),
      `${untouched[0]!.orderCode},${rupees(untouched[0]!.amount)},Pending,,`, // malformed: unknown status
      `${untouched[1]!.orderCode},not-a-number,Paid,UTRX1,`, // malformed: amount
      `${untouched[2]!.orderCode},${rupees(untouched[2]!.amount)},Paid,,`, // malformed: paid without UTR
      `P000000000000A9999999,100.00,Paid,UTRX2,`, // unknown payout
      `${untouched[3]!.orderCode},${rupees(untouched[3]!.amount + 1)},Paid,UTRX3,`, // amount mismatch
      `${paid[0]!.orderCode},${rupees(paid[0]!.amount)},Paid,ICICUTR000000,`, // the same again: duplicate
      'only-one-cell', // malformed: too short
      `${untouched[4]!.orderCode},${rupees(untouched[4]!.amount)},Paid,ICICUTR000001,`, // a UTR used above
      `${untouched[5]!.orderCode},${rupees(untouched[5]!.amount)},Paid,UTRX4,`,
      `${untouched[5]!.orderCode},${rupees(untouched[5]!.amount)},Failed,,x`, // disagrees: none applies
    ];
    expect(csv.length - 2).toBe(500);
    // Settling moves money: staff with token2 only.
    expect((await uploadResult(batchId, csv.join('\n'), auth.supplier1)).status).toBe(403);
    expect((await uploadResult(batchId, csv.join('\n'), auth.adminWithoutToken2)).body.code).toBe(1024);
    const res = await uploadResult(batchId, csv.join('\n'), auth.admin);
    expect(res.body.code, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    expect(res.body.data).toMatchObject({
      batchId,
      rows: 500,
      completed: 480,
      failed: 10,
      refused: 10,
      pending: 10,
      state: B.exported,
    });
    const results = res.body.data.results as Array<Record<string, unknown>>;
    expect(results[0]).toMatchObject({
      line: 3,
      payoutCode: paid[0]!.orderCode,
      outcome: 'completed',
      utr: 'ICICUTR000000',
    });
    expect(results[480]).toMatchObject({ outcome: 'failed', detail: 'Beneficiary account closed' });
    expect(results.slice(490).map((r) => r.error)).toEqual([
      'malformed',
      'malformed',
      'malformed',
      'unknownPayout',
      'amountMismatch',
      'duplicate',
      'malformed',
      'utrUsed',
      'duplicate',
      'duplicate',
    ]);

    // The ledger: every settled payout's hold left the merchant's frozen balance; the paid ones paid the
    // supplier amount plus commission and the platform fee less commission; the failed ones came back.
    const sum = (list: typeof made, f: (amount: number) => number) => list.reduce((s, p) => s + f(p.amount), 0);
    expect(await balance(accountCode('merchant', merchantId, 'frozen'))).toBe(
      merchantFrozen - sum([...paid, ...failed], (a) => a + feeOf(a)),
    );
    expect(await balance(accountCode('merchant', merchantId, 'available'))).toBe(
      merchantAvailable + sum(failed, (a) => a + feeOf(a)),
    );
    expect(await balance(accountCode('supplier', supplierIds.supplier1!, 'available'))).toBe(
      supplierAvailable + sum(paid, (a) => a + commissionOf(a)),
    );
    expect(await ledger.revenue(db)).toBe(revenue + sum(paid, (a) => feeOf(a) - commissionOf(a)));
    expect(await ledger.check()).toEqual({ ok: true, violations: [] });
    const [first] = await db.select().from(payouts).where(eq(payouts.id, paid[0]!.id));
    expect(first).toMatchObject({ state: S.completed, utr: 'ICICUTR000000' });
    const [gone] = await db.select().from(payouts).where(eq(payouts.id, failed[0]!.id));
    expect(gone).toMatchObject({ state: S.rejected, rejectReason: 'Beneficiary account closed' });
    const timeline = await db
      .select()
      .from(payoutEvents)
      .where(eq(payoutEvents.payoutId, paid[0]!.id))
      .orderBy(asc(payoutEvents.id));
    // No notify URL anywhere: the timeline ends saying no callback follows.
    expect(timeline.map((e) => e.kind)).toEqual(['created', 'batched', 'completed', 'callbackSkipped']);
    expect(timeline[2]!.note).toBe(`paid by the bank in batch #${batchId} with UTR ICICUTR000000`);

    // A second file settles the rest: rows settled before are answered as such, the batch completes.
    const rest = [
      ICICI_RESULT_HEADER,
      `${paid[1]!.orderCode},${rupees(paid[1]!.amount)},Paid,ICICUTR000001,`,
      ...untouched.map((p, i) => `${p.orderCode},${rupees(p.amount)},Success,RESTUTR${i},`),
    ];
    const second = await uploadResult(batchId, rest.join('\r\n'), auth.superadmin);
    expect(second.body.data).toMatchObject({ completed: 10, refused: 1, pending: 0, state: B.completed });
    expect(second.body.data.results[0]).toMatchObject({ outcome: 'refused', error: 'alreadySettled' });
    const [batch] = await db.select().from(payoutBatches).where(eq(payoutBatches.id, batchId));
    expect(batch).toMatchObject({ state: B.completed, completedCount: 490, failedCount: 10, resultUploads: 2 });
    expect(await ledger.check()).toEqual({ ok: true, violations: [] });
    // A completed batch takes no more files, nor an abnormal mark; its file still downloads.
    expect((await uploadResult(batchId, rest.join('\n'), auth.admin)).body.data.reason).toBe('uploadFailed');
    const late = await t.call(api.markAbnormal, { batchId, reason: 'late' }, auth.admin);
    expect(late.body).toMatchObject({ code: 422, data: { reason: 'batchAbnormalFailed' } });
    expect((await t.call(api.download, { batchId }, auth.admin)).body.data.sha256).toBe(exported.body.data.sha256);

    // The batch's payouts list sums the whole batch.
    const list = await t.call(api.getPayouts, { batchId, pageIndex: 1, pageSize: 10 }, auth.admin);
    expect(list.body.data).toMatchObject({ total: 500, summary: { amount: sum(made, (a) => a) } });
  }, 180_000);

  it('refuses a file that is not CSV and a template without result upload, with the spec’s texts; nothing moves', async () => {
    await createPayouts([31_000]);
    const icici = await confirmedBatch({ minAmount: 31_000, maxAmount: 31_000 });
    await t.call(api.exportFile, { batchId: icici }, auth.admin);
    const before = await snapshot(t.database);
    const notCsv = await uploadResult(icici, 'x', auth.admin, 'result.xlsx');
    expect(notCsv.body).toMatchObject({ code: 400, msg: 'CSV uploads must be CSV files', data: { reason: 'notCsv' } });
    const noHeader = await uploadResult(icici, 'a,b,c\n1,2,3', auth.admin);
    expect(noHeader.body).toMatchObject({ data: { reason: 'parseFailed' } });
    expect(await snapshot(t.database)).toBe(before);

    // SBI's template has no result layout: its batch is settled payout by payout.
    const [p] = await createPayouts([32_000]);
    const sbi = await confirmedBatch({ minAmount: 32_000, maxAmount: 32_000, templateId: 'sbi-cmp-bulk' });
    const file = await t.call(api.exportFile, { batchId: sbi }, auth.admin);
    expect(file.body.data.fileName).toBe(`SBI_CMP_${sbi}_20261127.txt`);
    const refused = await uploadResult(sbi, `${ICICI_RESULT_HEADER}\n${p!.orderCode},320.00,Paid,U1,`, auth.admin);
    expect(refused.body).toMatchObject({
      code: 422,
      msg: 'Current template does not support upload details',
      data: { reason: 'templateWithoutResults' },
    });
    // Both end abnormal: their payouts go to processing exception for staff to resolve.
    for (const batchId of [icici, sbi]) {
      const marked = await t.call(api.markAbnormal, { batchId, reason: 'bank file lost' }, auth.admin);
      expect(marked.body.data.state).toBe(B.abnormal);
    }
    const [stuck] = await t.database.db.select().from(payouts).where(eq(payouts.id, p!.id));
    expect(stuck).toMatchObject({ state: S.processingException, exceptionReason: 'bank file lost', batchId: sbi });
    const available = await balance(accountCode('merchant', merchantId, 'available'));
    const resolved = await t.call(
      endpoints.payouts.resolve,
      { orderId: p!.id, to: 'rejected', reason: 'bank file lost' },
      auth.admin,
    );
    expect(resolved.body.data.state).toBe(S.rejected);
    expect(await balance(accountCode('merchant', merchantId, 'available'))).toBe(available + 32_000 + feeOf(32_000));
    // The other goes back to the batch's supplier, who pays it by hand.
    const [other] = await t.database.db
      .select()
      .from(payouts)
      .where(and(eq(payouts.batchId, icici), eq(payouts.state, S.processingException)));
    const back = await t.call(
      endpoints.payouts.resolve,
      { orderId: other!.id, to: 'inProgress', reason: 'supplier pays it' },
      auth.admin,
    );
    expect(back.body.data.state).toBe(S.inProgress);
    expect(await ledger.check()).toEqual({ ok: true, violations: [] });
  }, 60_000);
});

describe('data scope', () => {
  it('a supplier reads, exports and downloads its own accounts’ batches only; customer service reads all and acts on none', async () => {
    await createPayouts([41_000]);
    const mine = await confirmedBatch({ minAmount: 41_000, maxAmount: 41_000 });
    await createPayouts([42_000]);
    const agents = await confirmedBatch({ resourceId: accountOf.agent1, minAmount: 42_000, maxAmount: 42_000 });

    const listed = async (who: Auth) =>
      ((await t.call(api.getList, { pageIndex: 1, pageSize: 100 }, who)).body.data.list as Array<{ id: number }>).map(
        (b) => b.id,
      );
    const ofSupplier1 = await listed(auth.supplier1!);
    expect(ofSupplier1).toContain(mine);
    expect(ofSupplier1).not.toContain(agents);
    expect(await listed(auth.agent1!)).toEqual([agents]);
    const all = await listed(auth.service!);
    expect(all).toEqual(expect.arrayContaining([mine, agents]));
    const csv = await downloadCsv(t, api.exportList, {}, auth.agent1!);
    expect(csv.status).toBe(200);
    expect(csv.rows).toHaveLength(1);

    // Another supplier's batch is not found, whatever the call.
    expect((await t.call(api.getPayouts, { batchId: mine }, auth.agent1)).status).toBe(404);
    expect((await t.call(api.exportFile, { batchId: mine }, auth.agent1)).status).toBe(404);
    expect((await t.call(api.exportFile, { batchId: agents }, auth.agent1)).body.code).toBe(200);
    expect((await t.call(api.download, { batchId: agents }, auth.supplier1)).status).toBe(404);
    const rows = await t.call(api.getPayouts, { batchId: mine }, auth.supplier1);
    expect(rows.body.data.list).toHaveLength(1);
    // A supplier's row offers what it may do: export (then download), not confirm or settle.
    const row = (await t.call(api.getList, { batchId: mine }, auth.supplier1)).body.data.list[0];
    expect(row.allowedActions).toEqual(['exportFile']);
    // Customer service and merchants act on none; merchants read none.
    expect((await t.call(api.markAbnormal, { batchId: mine, reason: 'x' }, auth.service)).status).toBe(403);
    expect((await t.call(api.getList, {}, auth.merchant1)).status).toBe(403);
    // The template list for every reader.
    const templates = await t.call(api.getTemplateList, {}, auth.service);
    expect(templates.body.data.map((x: { id: string }) => x.id)).toEqual([
      'icici-cib-bulk',
      'hdfc-enet-vendor',
      'sbi-cmp-bulk',
    ]);
    const resourcesListed = await t.call(api.getResourceList, {}, auth.admin);
    expect(resourcesListed.body.data.map((r: { id: number }) => r.id)).toEqual(
      expect.arrayContaining([accountOf.supplier1, accountOf.agent1]),
    );
  });
});

describe('live lists', () => {
  it('each committed batch change is published on payoutBatches to the staff who list batches and the batch’s supplier only', async () => {
    const published: Array<{ topic: string; data: unknown; audience: unknown }> = [];
    const spy = vi.spyOn(t.app.realtime, 'publish').mockImplementation(async (topic, data, audience) => {
      published.push({ topic, data, audience });
    });
    const batchEvents = () => published.filter((e) => e.topic === 'payoutBatches');
    try {
      const [agentUser] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.account, 'agent1'));
      // A batch of agent1's account: agent1 hears of it, not its parent supplier1 (a batch is no team view).
      const [payout] = await createPayouts([43_000]);
      const batchId = await confirmedBatch({ resourceId: accountOf.agent1, minAmount: 43_000, maxAmount: 43_000 });
      expect((await t.call(api.exportFile, { batchId }, auth.agent1)).body.code).toBe(200);
      // A refused change (proposing a confirmed batch) is not published.
      expect((await t.call(api.propose, { batchId }, auth.admin)).status).toBe(422);
      const csv = [ICICI_RESULT_HEADER, `${payout!.orderCode},${rupees(43_000)},Paid,ICICLIVE000001,`].join('\n');
      expect((await uploadResult(batchId, csv, auth.admin)).body.code).toBe(200);
      await createPayouts([44_000]);
      const draft = await t.call(
        api.create,
        body({ resourceId: accountOf.agent1, minAmount: 44_000, maxAmount: 44_000 }),
        auth.admin,
      );
      const abnormalId = draft.body.data.batchId as number;
      const marked = await t.call(api.markAbnormal, { batchId: abnormalId, reason: 'wrong account' }, auth.admin);
      expect(marked.body.code).toBe(200);
      const staff = ['superAdmin', 'admin', 'customerService', 'technicalMaintenance'];
      await vi.waitFor(() =>
        expect(batchEvents().map((e) => e.data)).toEqual([
          { batchId, change: 'create' },
          { batchId, change: 'propose' },
          { batchId, change: 'approve' },
          { batchId, change: 'exportFile' },
          { batchId, change: 'uploadResult' },
          { batchId: abnormalId, change: 'create' },
          { batchId: abnormalId, change: 'markAbnormal' },
        ]),
      );
      for (const event of batchEvents()) expect(event.audience).toEqual({ userIds: [agentUser!.id], roles: staff });
      // The settled payout is published on its own topic too.
      expect(published).toContainEqual(
        expect.objectContaining({ topic: 'payouts', data: { orderCode: payout!.orderCode, state: S.completed } }),
      );
      // What moved or reserved the batch's payouts tells the payout lists once per batch: staff, every
      // supplier (the claim queue changed) and the payouts' merchant.
      const [merchantUser] = await t.database.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.account, 'merchant1'));
      const perBatch = published.filter((e) => e.topic === 'payouts' && 'batchId' in (e.data as object));
      expect(perBatch.map((e) => e.data)).toEqual([
        { batchId, change: 'create' },
        { batchId, change: 'approve' },
        { batchId: abnormalId, change: 'create' },
        { batchId: abnormalId, change: 'markAbnormal' },
      ]);
      for (const event of perBatch) {
        expect(event.audience).toEqual({ userIds: [merchantUser!.id], roles: [...staff, 'supplier'] });
      }
    } finally {
      spy.mockRestore();
    }
  });
});
