import { Code, endpoints } from '@paydesk/contract';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../db/client.js';
import { AppError } from '../../platform/errors.js';
import { startTestApp, type TestApp } from '../../testing/harness.js';
import { accountCode, accountCodeSql, REVENUE_SHARDS, revenueAccountCode } from './accounts.js';
import { LedgerService, MAX_LEDGER_AMOUNT, parseAccountCode, type TransferInput } from './ledger.service.js';

let t: TestApp;
let ledger: LedgerService;

beforeAll(async () => {
  t = await startTestApp();
  ledger = new LedgerService({ db: t.database.db, clock: t.clock });
});
afterAll(() => t.close());

const inTx = <T>(fn: (tx: Tx) => Promise<T>) => t.database.db.transaction(fn);
const post = (input: TransferInput) => inTx((tx) => ledger.transfer(tx, input));
const balance = (code: string) => ledger.balanceOf(t.database.db, code);
const countOf = async (table: 'ledger_entries' | 'ledger_transfers') => {
  const res = (await t.database.db.execute(sql.raw(`select count(*)::int as n from ${table}`))) as unknown as {
    rows: Array<{ n: number }>;
  };
  return res.rows[0]!.n;
};
let keySeq = 0;
const key = (label: string) => `${label}:${++keySeq}`;
/** Gives `code` money from platform:adjustments (which may go negative). */
const fund = (code: string, amount: number) =>
  post({
    idempotencyKey: key('fund'),
    type: 'adjustment',
    note: 'funding',
    postings: [
      { account: 'platform:adjustments', amount: -amount },
      { account: code, amount },
    ],
  });
/** What a whole-ledger state looks like: every balance and the number of entries and transfers. */
const state = async () => ({
  accounts: (
    (await t.database.db.execute(
      sql`select code, balance::text as b from ledger_accounts order by code`,
    )) as unknown as {
      rows: unknown[];
    }
  ).rows,
  entries: await countOf('ledger_entries'),
  transfers: await countOf('ledger_transfers'),
});

describe('account codes', () => {
  it('derive kind, owner, bucket and whether the account may go negative', () => {
    expect(parseAccountCode('merchant:12:available')).toEqual({
      code: 'merchant:12:available',
      ownerKind: 'merchant',
      ownerId: 12,
      bucket: 'available',
      allowNegative: false,
    });
    expect(parseAccountCode('supplier:3:frozen')?.allowNegative).toBe(false);
    expect(parseAccountCode('platform:revenue')?.allowNegative).toBe(true);
    expect(parseAccountCode('platform:revenue:15')).toMatchObject({ bucket: 'revenue', allowNegative: true });
    expect(parseAccountCode('platform:adjustments')?.ownerId).toBeNull();
    for (const bad of [
      'merchant:0:available',
      'merchant:x:available',
      'merchant:1:revenue',
      'platform:frozen',
      'platform:revenue:01',
      'platform:revenue:x',
      'platform:adjustments:1',
      '',
    ]) {
      expect(parseAccountCode(bad), bad).toBeNull();
    }
    expect(parseAccountCode('merchant:99999999999:available')).toBeNull();
  });

  it('are built by accountCode, the same in SQL, and read back by parseAccountCode', async () => {
    expect(accountCode('merchant', 12, 'available')).toBe('merchant:12:available');
    expect(accountCode('platform', 'adjustments')).toBe('platform:adjustments');
    // The revenue's shards: chosen from the order code, the same every time, all of them in use.
    expect(revenueAccountCode('C2026112400001')).toBe(revenueAccountCode('C2026112400001'));
    const shards = new Set(
      Array.from({ length: 400 }, (_, i) => revenueAccountCode(`C20261124${String(i).padStart(5, '0')}`)),
    );
    expect(shards.size).toBe(REVENUE_SHARDS);
    for (const code of shards)
      expect(parseAccountCode(code)).toMatchObject({ ownerKind: 'platform', bucket: 'revenue' });
    expect(parseAccountCode(accountCode('supplier', 7, 'frozen'))).toMatchObject({
      ownerKind: 'supplier',
      ownerId: 7,
      bucket: 'frozen',
    });
    const res = (await t.database.db.execute(
      sql.raw(`select ${accountCodeSql('supplier', 'x.id', 'frozen')} as code from (select 7 as id) x`),
    )) as unknown as { rows: Array<{ code: string }> };
    expect(res.rows[0]!.code).toBe(accountCode('supplier', 7, 'frozen'));
  });

  it('ensureAccount creates once and refuses a malformed code', async () => {
    const a = await inTx((tx) => ledger.ensureAccount(tx, 'supplier:501:frozen'));
    const b = await inTx((tx) => ledger.ensureAccount(tx, 'supplier:501:frozen'));
    expect(b.id).toBe(a.id);
    expect(a).toMatchObject({
      ownerKind: 'supplier',
      ownerId: 501,
      bucket: 'frozen',
      allowNegative: false,
      balance: 0,
    });
    await expect(inTx((tx) => ledger.ensureAccount(tx, 'supplier:501'))).rejects.toMatchObject({
      code: Code.invalidInput,
    });
  });
});

describe('transfer', () => {
  it('moves money and writes entries with the balance before and after', async () => {
    await fund('merchant:101:available', 1000);
    const res = await post({
      idempotencyKey: 'P1:create',
      type: 'payout.create',
      orderCode: 'P1',
      note: 'freeze for payout',
      actorUserId: 1,
      postings: [
        { account: 'merchant:101:available', amount: -300 },
        { account: 'merchant:101:frozen', amount: 300 },
      ],
    });
    expect(res).toMatchObject({ type: 'payout.create', orderCode: 'P1', actorUserId: 1, replayed: false });
    expect(res.entries).toEqual([
      { account: 'merchant:101:available', amount: -300, balanceBefore: 1000, balanceAfter: 700 },
      { account: 'merchant:101:frozen', amount: 300, balanceBefore: 0, balanceAfter: 300 },
    ]);
    expect(await balance('merchant:101:available')).toBe(700);
    expect(await balance('merchant:101:frozen')).toBe(300);
    expect(await balance('merchant:999:frozen')).toBe(0);
    expect(await ledger.check()).toEqual({ ok: true, violations: [] });
  });

  it.each([
    ['postings that do not sum to zero', [-100, 90]],
    ['a zero amount', [0, 0]],
    ['a fractional amount', [-10.5, 10.5]],
    ['an amount above the limit', [-9_000_000_000_000_001, 9_000_000_000_000_001]],
    ['a single posting', [0]],
  ])('refuses %s and changes nothing', async (_label, amounts) => {
    await fund('merchant:102:available', 500);
    const before = await state();
    const codes = ['merchant:102:available', 'merchant:102:frozen'];
    const postings = amounts.map((amount, i) => ({ account: codes[i]!, amount }));
    await expect(
      post({ idempotencyKey: key('bad'), type: 'test', note: 'bad', postings: postings.slice(0, amounts.length) }),
    ).rejects.toMatchObject({ code: Code.invalidInput });
    expect(await state()).toEqual(before);
  });

  it('refuses a malformed account code and the same account twice', async () => {
    const before = await state();
    for (const postings of [
      [
        { account: 'merchant:1:available', amount: -1 },
        { account: 'merchant:one:frozen', amount: 1 },
      ],
      [
        { account: 'platform:revenue', amount: -1 },
        { account: 'platform:revenue', amount: 1 },
      ],
    ]) {
      await expect(post({ idempotencyKey: key('bad'), type: 'test', note: 'bad', postings })).rejects.toMatchObject({
        code: Code.invalidInput,
      });
    }
    expect(await state()).toEqual(before);
  });

  it('refuses to take an account that may not go negative below zero: 422, nothing moves', async () => {
    await fund('merchant:103:available', 100);
    const before = await state();
    const err = await post({
      idempotencyKey: key('over'),
      type: 'payout.create',
      note: 'too much',
      postings: [
        { account: 'merchant:103:available', amount: -101 },
        { account: 'merchant:103:frozen', amount: 101 },
      ],
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      code: Code.businessRule,
      message: 'insufficient balance',
      data: { reason: 'insufficientBalance' },
    });
    expect(await state()).toEqual(before);
    expect(await balance('merchant:103:available')).toBe(100);
    // The platform's accounts may go negative.
    await post({
      idempotencyKey: key('rev'),
      type: 'test',
      note: 'platform pays',
      postings: [
        { account: 'platform:revenue', amount: -5 },
        { account: 'merchant:103:available', amount: 5 },
      ],
    });
    expect(await balance('merchant:103:available')).toBe(105);
  });

  it('refuses a balance beyond the limit, creates accounts on first use, and replays a spent transfer', async () => {
    // platform:adjustments is taken to 1_000_000 short of the limit (given back after: other tests fund
    // from it); the next 1_000_001 would take it beyond.
    const nearLimit = MAX_LEDGER_AMOUNT - 1_000_000 - Math.abs(await balance('platform:adjustments'));
    await fund('merchant:105:available', nearLimit);
    const before = await state();
    await expect(fund('merchant:105:available', 1_000_001)).rejects.toMatchObject({
      code: Code.businessRule,
      message: 'balance limit exceeded',
      data: { reason: 'balanceLimit' },
    });
    expect(await state()).toEqual(before);
    await fund('merchant:105:available', -nearLimit);

    // merchant:106:frozen does not exist yet: the transfer creates it.
    await fund('merchant:106:available', 100);
    const spend: TransferInput = {
      idempotencyKey: key('spend'),
      type: 'payout.create',
      note: 'all of it',
      postings: [
        { account: 'merchant:106:available', amount: -100 },
        { account: 'merchant:106:frozen', amount: 100 },
      ],
    };
    const first = await post(spend);
    expect(first.entries).toEqual([
      { account: 'merchant:106:available', amount: -100, balanceBefore: 100, balanceAfter: 0 },
      { account: 'merchant:106:frozen', amount: 100, balanceBefore: 0, balanceAfter: 100 },
    ]);
    // Repeated when the balance could no longer pay it: the first transfer answers, nothing moves.
    const spent = await state();
    expect(await post(spend)).toMatchObject({ id: first.id, replayed: true, entries: first.entries });
    expect(await state()).toEqual(spent);
  });

  it('is idempotent: the same key and input answers the first transfer; another input is a 409', async () => {
    await fund('supplier:104:available', 1000);
    const input: TransferInput = {
      idempotencyKey: 'C104:allocate',
      type: 'collection.allocate',
      orderCode: 'C104',
      note: 'allocate',
      postings: [
        { account: 'supplier:104:available', amount: -400 },
        { account: 'supplier:104:frozen', amount: 400 },
      ],
    };
    const first = await post(input);
    const afterFirst = await state();
    // Same input, keys of its objects in another order: the same canonical input.
    const again = await post({
      postings: input.postings.map((p) => ({ amount: p.amount, account: p.account })),
      note: input.note,
      orderCode: input.orderCode,
      type: input.type,
      idempotencyKey: input.idempotencyKey,
    });
    expect(again).toMatchObject({ id: first.id, replayed: true, entries: first.entries });
    expect(await state()).toEqual(afterFirst);
    await expect(
      post({ ...input, postings: [input.postings[0]!, { ...input.postings[1]!, amount: 400 }], note: 'other' }),
    ).rejects.toMatchObject({ code: Code.conflict, data: { reason: 'idempotencyConflict' } });
    await expect(
      post({
        ...input,
        postings: [
          { account: 'supplier:104:available', amount: -401 },
          { account: 'supplier:104:frozen', amount: 401 },
        ],
      }),
    ).rejects.toMatchObject({ code: Code.conflict, data: { reason: 'idempotencyConflict' } });
    expect(await state()).toEqual(afterFirst);
    expect(await balance('supplier:104:frozen')).toBe(400);
  });

  it('reversal posts the opposite as a new transfer, restores balances, and happens once', async () => {
    await fund('merchant:105:available', 1000);
    const before = {
      available: await balance('merchant:105:available'),
      revenue: await balance('platform:revenue'),
    };
    const paid = await post({
      idempotencyKey: 'X105:fee',
      type: 'fee',
      orderCode: 'X105',
      note: 'fee',
      postings: [
        { account: 'merchant:105:available', amount: -30 },
        { account: 'platform:revenue', amount: 30 },
      ],
    });
    const reversal = await inTx((tx) =>
      ledger.reverse(tx, { transferId: paid.id, idempotencyKey: 'X105:fee:reverse', note: 'refund', actorUserId: 1 }),
    );
    expect(reversal).toMatchObject({ type: 'reversal', orderCode: 'X105', reversesId: paid.id, replayed: false });
    expect(reversal.entries.map((e) => [e.account, e.amount])).toEqual([
      ['merchant:105:available', 30],
      ['platform:revenue', -30],
    ]);
    expect(await balance('merchant:105:available')).toBe(before.available);
    expect(await balance('platform:revenue')).toBe(before.revenue);
    // The same call again is a replay; another key for the same transfer is a 409.
    const replay = await inTx((tx) =>
      ledger.reverse(tx, { transferId: paid.id, idempotencyKey: 'X105:fee:reverse', note: 'refund', actorUserId: 1 }),
    );
    expect(replay).toMatchObject({ id: reversal.id, replayed: true });
    const afterReversal = await state();
    await expect(
      inTx((tx) => ledger.reverse(tx, { transferId: paid.id, idempotencyKey: 'X105:fee:reverse2', note: 'again' })),
    ).rejects.toMatchObject({ code: Code.conflict, data: { reason: 'alreadyReversed' } });
    await expect(
      inTx((tx) => ledger.reverse(tx, { transferId: 987_654_321, idempotencyKey: key('nothing'), note: 'none' })),
    ).rejects.toMatchObject({ code: Code.notFound });
    expect(await state()).toEqual(afterReversal);
    expect(await ledger.check()).toEqual({ ok: true, violations: [] });
  });

  it('keeps history append-only, and check() reports a balance that disagrees with its entries', async () => {
    await expect(t.database.db.execute(sql`update ledger_entries set amount = amount + 1`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from ledger_transfers`)).rejects.toThrow();
    await expect(
      t.database.db.execute(sql`update ledger_accounts set balance = -1 where code = 'merchant:105:available'`),
    ).rejects.toThrow();
    await t.database.db.execute(sql`update ledger_accounts set balance = balance + 7 where code = 'platform:revenue'`);
    try {
      const res = await ledger.check();
      expect(res.ok).toBe(false);
      expect(res.violations.some((v) => v.includes('sum to 7'))).toBe(true);
      expect(res.violations.some((v) => v.startsWith('platform:revenue: balance'))).toBe(true);
    } finally {
      await t.database.db.execute(
        sql`update ledger_accounts set balance = balance - 7 where code = 'platform:revenue'`,
      );
    }
    expect((await ledger.check()).ok).toBe(true);
  });

  it('finds an entry whose transfer or account is gone (entries carry no foreign keys)', async () => {
    const [entry] = (
      (await t.database.db.execute(
        sql`select id, account_id from ledger_entries order by id desc limit 1`,
      )) as unknown as {
        rows: Array<{ id: string | number; account_id: string | number }>;
      }
    ).rows;
    await t.database.db.execute(sql`alter table ledger_entries disable trigger ledger_entries_append_only`);
    await t.database.db.execute(sql`update ledger_entries set account_id = -1 where id = ${Number(entry!.id)}`);
    try {
      const res = await ledger.check();
      expect(res.ok).toBe(false);
      expect(res.violations).toContain(`entry ${Number(entry!.id)} has no transfer or no account`);
    } finally {
      await t.database.db.execute(
        sql`update ledger_entries set account_id = ${Number(entry!.account_id)} where id = ${Number(entry!.id)}`,
      );
      await t.database.db.execute(sql`alter table ledger_entries enable trigger ledger_entries_append_only`);
    }
    expect((await ledger.check()).ok).toBe(true);
  });
});

describe('concurrency', () => {
  it('50 parallel transfers on the same two accounts: no deadlock, no lost update', async () => {
    const a = 'merchant:201:available';
    const b = 'merchant:202:available';
    await fund(a, 10_000);
    await fund(b, 10_000);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const forward = i % 2 === 0;
        const amount = i + 1;
        return post({
          idempotencyKey: key('race'),
          type: 'test',
          note: `race ${i}`,
          // Both directions, postings in both orders: only the fixed lock order keeps this deadlock-free.
          postings: forward
            ? [
                { account: a, amount: -amount },
                { account: b, amount },
              ]
            : [
                { account: b, amount: -amount },
                { account: a, amount },
              ],
        });
      }),
    );
    expect(results).toHaveLength(50);
    // Forward moves 1+3+...+49 = 625 from a to b; back moves 2+4+...+50 = 650 from b to a.
    expect(await balance(a)).toBe(10_000 - 625 + 650);
    expect(await balance(b)).toBe(10_000 + 625 - 650);
    expect(await ledger.check()).toEqual({ ok: true, violations: [] });
  });
});

describe('property: random transfers, refusals and reversals, run concurrently', () => {
  it('keeps every invariant and moves exactly what the successful transfers posted', async () => {
    const accounts = [
      'merchant:301:available',
      'merchant:301:frozen',
      'merchant:302:available',
      'supplier:303:available',
      'supplier:303:frozen',
      'platform:revenue',
      'platform:adjustments',
    ];
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('transfer' as const),
        from: fc.integer({ min: 0, max: accounts.length - 1 }),
        to: fc.integer({ min: 0, max: accounts.length - 1 }),
        amount: fc.integer({ min: 1, max: 500 }),
      }),
      fc.record({ kind: fc.constant('reverse' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('replay' as const), pick: fc.nat() }),
    );
    for (const code of accounts) if (!code.startsWith('platform:')) await fund(code, 2_000);
    const seen = { posted: 0, reversed: 0, refused: 0, replayed: 0 };
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 }),
        async (batches) => {
          run += 1;
          const start = new Map<string, number>();
          for (const code of accounts) start.set(code, await balance(code));
          const transfersBefore = await countOf('ledger_transfers');
          const posted: Array<{ id: number; input: TransferInput }> = [];
          const reversed = new Set<number>();
          const expected = new Map(start);
          let newTransfers = 0;
          const record = (postings: Array<{ account: string; amount: number }>) => {
            for (const p of postings) expected.set(p.account, (expected.get(p.account) ?? 0) + p.amount);
          };
          for (const [b, batch] of batches.entries()) {
            // Choose the targets of reversals and replays from what earlier batches posted.
            const known = [...posted];
            await Promise.all(
              batch.map(async (o, i) => {
                try {
                  if (o.kind === 'transfer') {
                    if (o.from === o.to) return;
                    const input: TransferInput = {
                      idempotencyKey: `prop:${run}:${b}:${i}`,
                      type: 'test',
                      note: 'property',
                      postings: [
                        { account: accounts[o.from]!, amount: -o.amount },
                        { account: accounts[o.to]!, amount: o.amount },
                      ],
                    };
                    const res = await post(input);
                    expect(res.replayed).toBe(false);
                    posted.push({ id: res.id, input });
                    seen.posted += 1;
                    newTransfers += 1;
                    record(res.entries);
                  } else if (o.kind === 'replay') {
                    const target = known[o.pick % Math.max(known.length, 1)];
                    if (!target) return;
                    const res = await post(target.input);
                    expect(res).toMatchObject({ id: target.id, replayed: true });
                    seen.replayed += 1;
                  } else {
                    const target = known[o.pick % Math.max(known.length, 1)];
                    if (!target) return;
                    const res = await inTx((tx) =>
                      ledger.reverse(tx, {
                        transferId: target.id,
                        idempotencyKey: `prop:${run}:${b}:${i}:rev`,
                        note: 'undo',
                      }),
                    );
                    expect(reversed.has(target.id)).toBe(false);
                    reversed.add(target.id);
                    seen.reversed += 1;
                    newTransfers += 1;
                    record(res.entries);
                  }
                } catch (error) {
                  const refusal =
                    error instanceof AppError &&
                    ((error.code === Code.businessRule && error.data?.reason === 'insufficientBalance') ||
                      (error.code === Code.conflict && error.data?.reason === 'alreadyReversed'));
                  if (!refusal) throw error;
                  seen.refused += 1;
                }
              }),
            );
          }
          for (const code of accounts) expect(await balance(code), code).toBe(expected.get(code));
          expect(await countOf('ledger_transfers')).toBe(transfersBefore + newTransfers);
          expect(await ledger.check()).toEqual({ ok: true, violations: [] });
        },
      ),
      { numRuns: 25 },
    );
    // Every path was taken: postings, reversals, replays and refusals.
    expect(
      Object.values(seen).every((n) => n > 0),
      JSON.stringify(seen),
    ).toBe(true);
  });
});

describe('ledgerCheck endpoint', () => {
  it('answers ok for the super admin and 403 for an admin', async () => {
    const superAdmin = await t.login('superadmin');
    const res = await t.call(endpoints.ledger.ledgerCheck, {}, superAdmin);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code: Code.success, data: { ok: true, violations: [] } });
    const admin = await t.login('admin');
    const denied = await t.call(endpoints.ledger.ledgerCheck, {}, admin);
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe(Code.forbidden);
  });
});
