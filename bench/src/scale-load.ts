/**
 * The scale bench's loader (issue 22 item 5): orders and payouts by the million, in bulk SQL, with the
 * ledger transfers their lives post, so the ledger check and the rollups' check hold afterwards as for
 * orders the engine made. What each row looks like:
 *
 * - a collection order (product 1001) of one of the bench merchants, taken by one of the bench
 *   suppliers' UPI accounts, created over the last `days` days in id order. About 74 % are paid (their
 *   callback delivered or failed), 18 % timed out, 4 % failed allocation, 2 % rejected, 2 % paid and
 *   reversed. A paid order posts its payment (`orderPaid`: the supplier's money less its commission to
 *   the merchant less the fee, the rest to a revenue shard), a reversed one that payment and its
 *   reversal. Orders are paid from the supplier's available balance (no hold is loaded, as after a
 *   hold's release), so an unpaid order posts nothing.
 * - a payout (product 2001) of the same merchants, claimed by a supplier's bank account: 85 %
 *   completed, 8 % cancelled, 7 % rejected. Each posts its hold (`payoutHold`: amount plus fee from
 *   the merchant's available balance to its frozen one), then the payment (`payoutPaid`) or the
 *   release (`payoutRelease`).
 *
 * Rows are drawn from `hashint8` of their number, so a load is the same every time. The triggers are
 * off while loading (`session_replication_role = replica`: the rollup triggers, the ledger's
 * append-only guard) and the rollups are rebuilt afterwards; the secondary indexes are dropped before
 * and built again after, as a bulk load is done. Left out: the orders' timelines and allocation
 * records (the lists and statistics do not read them) and the daily totals of the limits.
 */
import { eq, sql } from 'drizzle-orm';
import type { Services } from '../../apps/server/src/app.js';
import type { Db } from '../../apps/server/src/db/client.js';
import { ledgerAccounts, merchants, partyProducts } from '../../apps/server/src/db/schema.js';
import { accountCode, REVENUE_SHARDS } from '../../apps/server/src/modules/ledger/accounts.js';
import { SYSTEM_ACTOR } from '../../apps/server/src/platform/audit.js';

/** The parties the rows are spread over: ids as the tables and the ledger know them. */
export interface ScaleParties {
  merchants: Array<{ id: number; userId: number; available: number; frozen: number }>;
  suppliers: Array<{ id: number; userId: number; available: number; upiResourceId: number; bankResourceId: number }>;
  /** The ledger ids of the revenue shards, `platform:revenue:<k>` by k. */
  revenue: number[];
}

/** The merchants and suppliers the rows are spread over, made by the services as staff would. */
export async function makeParties(
  services: Services,
  db: Db,
  counts: { merchants: number; suppliers: number },
): Promise<ScaleParties> {
  const made: ScaleParties = { merchants: [], suppliers: [], revenue: [] };
  const now = new Date();
  for (let m = 1; m <= counts.merchants; m += 1) {
    const created = await services.merchants.create(
      'superAdmin',
      {
        name: `Scale merchant ${m}`,
        mode: 'newAccount',
        account: `scalem${m}`,
        password: 'scale1234a',
        signType: 'HMAC-SHA256',
        ipWhitelist: [],
        notifyUrl: null,
        callbackEnabled: true,
        remark: '',
      },
      SYSTEM_ACTOR,
    );
    const [merchant] = await db.select().from(merchants).where(eq(merchants.id, created.id));
    await db.insert(partyProducts).values([
      { userId: merchant!.userId, productId: 1001, enabled: true, feeRate: 350, updatedAt: now },
      {
        userId: merchant!.userId,
        productId: 2001,
        enabled: true,
        feeRate: 150,
        perTransactionFee: 500,
        updatedAt: now,
      },
    ]);
    made.merchants.push({
      id: created.id,
      userId: merchant!.userId,
      available: await accountId(db, accountCode('merchant', created.id, 'available'), 'merchant', created.id),
      frozen: await accountId(db, accountCode('merchant', created.id, 'frozen'), 'merchant', created.id),
    });
  }
  for (let s = 1; s <= counts.suppliers; s += 1) {
    const { id, userId } = await services.suppliers.create(
      'superAdmin',
      { name: `Scale supplier ${s}`, mode: 'newAccount', account: `scales${s}`, password: 'scale1234a', remark: '' },
      SYSTEM_ACTOR,
    );
    await db.insert(partyProducts).values([
      { userId, productId: 1001, enabled: true, commissionRate: 100, updatedAt: now },
      { userId, productId: 2001, enabled: true, commissionRate: 100, updatedAt: now },
    ]);
    // Its deposit, through the ledger: what every collection it takes is paid from.
    await db.transaction((tx) =>
      services.ledger.transfer(tx, {
        idempotencyKey: `scale:deposit:${id}`,
        type: 'deposit',
        note: 'scale bench deposit',
        postings: [
          { account: accountCode('platform', 'adjustments'), amount: -10_000_000_000_000 },
          { account: accountCode('supplier', id, 'available'), amount: 10_000_000_000_000 },
        ],
      }),
    );
    const upi = await services.resources.create(
      { all: true },
      {
        supplierId: id,
        productId: 1001,
        name: `Scale UPI ${s}`,
        details: {
          accountName: `Scale ${s}`,
          bankName: 'Scale Bank',
          cardNumber: `7${s}001`,
          ifsc: 'SCAL0001234',
          vpa: `scale${s}@upi`,
        },
      },
      SYSTEM_ACTOR,
    );
    const bank = await services.resources.create(
      { all: true },
      {
        supplierId: id,
        productId: 2001,
        name: `Scale payout ${s}`,
        details: { accountName: `Scale ${s}`, bankName: 'Scale Bank', accountNumber: `8${s}000`, ifsc: 'SCAL0001234' },
      },
      SYSTEM_ACTOR,
    );
    made.suppliers.push({
      id,
      userId,
      available: await accountId(db, accountCode('supplier', id, 'available'), 'supplier', id),
      upiResourceId: upi.id,
      bankResourceId: bank.id,
    });
  }
  for (let k = 0; k < REVENUE_SHARDS; k += 1) {
    made.revenue.push(await accountId(db, `platform:revenue:${k}`, 'platform', null));
  }
  return made;
}

/** The ledger account of a code, made (empty) when the ledger has none yet. */
async function accountId(db: Db, code: string, ownerKind: string, ownerId: number | null): Promise<number> {
  const bucket = code.split(':')[ownerKind === 'platform' ? 1 : 2]!;
  await db
    .insert(ledgerAccounts)
    .values({ code, ownerKind, ownerId, bucket, allowNegative: ownerKind === 'platform', createdAt: new Date() })
    .onConflictDoNothing({ target: ledgerAccounts.code });
  const [row] = await db.select({ id: ledgerAccounts.id }).from(ledgerAccounts).where(eq(ledgerAccounts.code, code));
  return row!.id;
}

export interface ScaleShape {
  orders: number;
  payouts: number;
  days: number;
  /** Rows per statement. */
  chunk: number;
  /** The newest row's time; rows spread back `days` days from it. */
  end: Date;
}

/** The tables whose secondary indexes a bulk load drops and builds again. */
const LOADED_TABLES = ['orders', 'payouts', 'ledger_transfers', 'ledger_entries'];

/** A bucket in [0, n) for row g and a salt: one independent draw per column. */
const draw = (g: string, salt: number, n: number) => `(abs(hashint8(${g} * 16 + ${salt})::bigint) % ${n})`;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Loads `shape` into `db` (already migrated, seeded, with `parties` made by the services). Calls
 * `progress` after each step. Answers the seconds each phase took.
 */
export async function loadScale(
  db: Db,
  parties: ScaleParties,
  shape: ScaleShape,
  progress: (line: string) => void = () => undefined,
): Promise<Record<string, number>> {
  const timings: Record<string, number> = {};
  const timed = async (name: string, work: () => Promise<void>) => {
    const started = performance.now();
    await work();
    timings[name] = (performance.now() - started) / 1000;
    progress(`${name}: ${timings[name].toFixed(1)} s`);
  };

  const indexes = rowsOf<{ name: string; definition: string }>(
    await db.execute(sql`
      select i.indexname as name, i.indexdef as definition
        from pg_indexes i
       where i.schemaname = current_schema()
         and i.tablename in (${sql.join(
           LOADED_TABLES.map((t) => sql`${t}`),
           sql`, `,
         )})
         and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`),
  );
  await timed('secondary indexes dropped', async () => {
    for (const index of indexes) await db.execute(sql.raw(`drop index ${index.name}`));
  });

  const arrays = partyArrays(parties);
  const transferBase = await nextTransferId(db);
  for (let from = 1; from <= shape.orders; from += shape.chunk) {
    const to = Math.min(shape.orders, from + shape.chunk - 1);
    await timed(`orders ${from}-${to}`, () => bulk(db, insertOrders(from, to, shape, arrays)));
  }
  // Payments in order id order, then the reversals, then the payouts: each account's entries chain in
  // id order, as the ledger check reads them.
  const orderIds = await idRange(db, 'orders');
  for (let from = orderIds.min; from <= orderIds.max; from += shape.chunk) {
    const to = Math.min(orderIds.max, from + shape.chunk - 1);
    await timed(`order payments ${from}-${to}`, () =>
      bulk(db, postTransfers(orderPayments(from, to, transferBase, arrays))),
    );
  }
  await timed('order reversals', () =>
    bulk(
      db,
      postTransfers(
        orderPayments(orderIds.min, orderIds.max, transferBase + orderIds.max, arrays, { paymentBase: transferBase }),
      ),
    ),
  );
  for (let from = 1; from <= shape.payouts; from += shape.chunk) {
    const to = Math.min(shape.payouts, from + shape.chunk - 1);
    await timed(`payouts ${from}-${to}`, () => bulk(db, insertPayouts(from, to, shape, arrays)));
  }
  const payoutIds = await idRange(db, 'payouts');
  const payoutBase = transferBase + 2 * orderIds.max;
  for (let from = payoutIds.min; from <= payoutIds.max; from += shape.chunk) {
    const to = Math.min(payoutIds.max, from + shape.chunk - 1);
    await timed(`payout holds ${from}-${to}`, () => bulk(db, postTransfers(payoutHolds(from, to, payoutBase, arrays))));
  }
  for (let from = payoutIds.min; from <= payoutIds.max; from += shape.chunk) {
    const to = Math.min(payoutIds.max, from + shape.chunk - 1);
    await timed(`payout settlements ${from}-${to}`, () =>
      bulk(db, postTransfers(payoutSettlements(from, to, payoutBase + payoutIds.max, arrays))),
    );
  }
  await db.execute(
    sql`select setval(pg_get_serial_sequence('ledger_transfers', 'id'), (select max(id) from ledger_transfers))`,
  );

  await timed('secondary indexes built', async () => {
    for (const index of indexes) await bulk(db, index.definition);
  });
  await timed('vacuum analyze', async () => {
    for (const table of LOADED_TABLES) await db.execute(sql.raw(`vacuum (analyze) ${table}`));
  });
  return timings;
}

/** One statement in its own transaction with the triggers off and room to sort. */
async function bulk(db: Db, statement: string) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(sql`set local work_mem = '256MB'`);
    await tx.execute(sql`set local maintenance_work_mem = '1GB'`);
    await tx.execute(sql.raw(statement));
  });
}

async function nextTransferId(db: Db): Promise<number> {
  const [row] = rowsOf<{ n: string }>(
    await db.execute(sql`select coalesce(max(id), 0)::text as n from ledger_transfers`),
  );
  return Number(row?.n ?? 0);
}

async function idRange(db: Db, table: 'orders' | 'payouts') {
  const [row] = rowsOf<{ min: string | null; max: string | null }>(
    await db.execute(sql.raw(`select min(id)::text as min, max(id)::text as max from ${table}`)),
  );
  return { min: Number(row?.min ?? 1), max: Number(row?.max ?? 0) };
}

/** The parties as SQL array literals, indexed by a draw (1-based in SQL). */
function partyArrays(p: ScaleParties) {
  const list = (values: number[]) => `array[${values.join(',')}]::bigint[]`;
  return {
    merchants: p.merchants.length,
    suppliers: p.suppliers.length,
    merchantId: list(p.merchants.map((m) => m.id)),
    merchantUserId: list(p.merchants.map((m) => m.userId)),
    merchantAvailable: list(p.merchants.map((m) => m.available)),
    merchantFrozen: list(p.merchants.map((m) => m.frozen)),
    supplierId: list(p.suppliers.map((s) => s.id)),
    supplierUserId: list(p.suppliers.map((s) => s.userId)),
    supplierAvailable: list(p.suppliers.map((s) => s.available)),
    upiResource: list(p.suppliers.map((s) => s.upiResourceId)),
    bankResource: list(p.suppliers.map((s) => s.bankResourceId)),
    revenue: list(p.revenue),
    revenueShards: p.revenue.length,
  };
}
type Arrays = ReturnType<typeof partyArrays>;

/**
 * Merchants by a skewed draw (the first ones take most orders, as on a real platform: index =
 * floor(n * u^2)); suppliers evenly.
 */
const merchantIndex = (g: string, a: Arrays) =>
  `(1 + floor(${a.merchants} * power(${draw(g, 1, 1_000_000)} / 1000000.0, 2))::int)`;
const supplierIndex = (g: string, a: Arrays) => `(1 + ${draw(g, 2, a.suppliers)})`;

/** The time of row g of n, spread over `days` days up to `end`, in g's order, with a little jitter. */
const timeOf = (g: string, n: number, shape: ScaleShape) =>
  `(timestamptz '${shape.end.toISOString()}' - interval '${shape.days} days' * (1 - ${g}::float8 / ${n}) - interval '1 second' * ${draw(g, 3, 60)})`;

function insertOrders(from: number, to: number, shape: ScaleShape, a: Arrays): string {
  // The state by a draw in [0, 100): 0-71 paid and called back, 72-73 callback failed, 74-91 timed
  // out, 92-95 allocation failed, 96-97 rejected, 98-99 paid then reversed.
  return `
    insert into orders (order_code, merchant_id, merchant_user_id, merchant_order_no, request_hash, product_id,
                        amount, api_amount, fee, commission, state, mark, supplier_id, supplier_user_id,
                        resource_id, allocation_no, paid_from_hold, utr, user_name, client_ip, subject,
                        notify_url, reject_reason, created_at, allocated_at, expires_at, paid_at, updated_at)
    select 'C' || to_char(r.at at time zone 'UTC', 'YYMMDDHH24MISS') || lpad(r.g::text, 8, '0'),
           (${a.merchantId})[r.m], (${a.merchantUserId})[r.m], 'SCALE' || r.g, md5(r.g::text), 1001,
           r.amount, r.amount, r.amount * 350 / 10000,
           case when r.paid then r.amount * 100 / 10000 end,
           r.state, case when r.roll = 97 then 2 else 0 end,
           case when r.held then (${a.supplierId})[r.s] end, case when r.held then (${a.supplierUserId})[r.s] end,
           case when r.held then (${a.upiResource})[r.s] end, case when r.held then 1 else 0 end,
           case when r.paid then false end,
           case when r.paid then 'U' || lpad(r.g::text, 11, '0') end,
           'Payer ' || (r.g % 9973), '10.' || (r.g % 250) || '.' || (r.g / 250 % 250) || '.1', 'scale order',
           'https://merchant.example/notify', case when r.state = 7 then 'scale: rejected' end,
           r.at, case when r.held then r.at end, case when r.held then r.at + interval '15 minutes' end,
           case when r.paid then r.at + interval '1 second' * (30 + r.roll * 7) end,
           r.at + interval '20 minutes'
      from (
        select g, at, amount, roll, m, s,
               case when roll < 72 then 3 when roll < 74 then 4 when roll < 92 then 2 when roll < 96 then 5
                    when roll < 98 then 7 else 8 end as state,
               roll < 74 or roll >= 98 as paid,
               roll < 92 or roll >= 96 as held
          from (select g, ${timeOf('g', shape.orders, shape)} as at,
                       (100 + ${draw('g', 4, 19_900)}) * 100 as amount,
                       ${draw('g', 5, 100)} as roll,
                       ${merchantIndex('g', a)} as m, ${supplierIndex('g', a)} as s
                  from generate_series(${from}::bigint, ${to}::bigint) g) d
      ) r`;
}

function insertPayouts(from: number, to: number, shape: ScaleShape, a: Arrays): string {
  // 0-84 completed, 85-92 cancelled before a claim, 93-99 rejected after one.
  return `
    insert into payouts (order_code, merchant_id, merchant_user_id, merchant_order_no, request_hash, product_id,
                         amount, fee, commission, state, supplier_id, supplier_user_id, resource_id, claim_no,
                         user_name, card_number, ifsc_code, bank_name, client_ip, notify_url, utr, reject_reason,
                         created_at, claimed_at, submitted_at, completed_at, updated_at)
    select 'P' || to_char(r.at at time zone 'UTC', 'YYMMDDHH24MISS') || lpad(r.g::text, 8, '0'),
           (${a.merchantId})[r.m], (${a.merchantUserId})[r.m], 'SCALEP' || r.g, md5('p' || r.g), 2001,
           r.amount, r.amount * 150 / 10000 + 500,
           case when r.claimed then r.amount * 100 / 10000 end,
           case when r.roll < 85 then 3 when r.roll < 93 then 4 else 6 end,
           case when r.claimed then (${a.supplierId})[r.s] end, case when r.claimed then (${a.supplierUserId})[r.s] end,
           case when r.claimed then (${a.bankResource})[r.s] end, case when r.claimed then 1 else 0 end,
           'Payee ' || (r.g % 9973), lpad((r.g % 1000000007)::text, 12, '0'), 'SCAL0001234', 'Scale Bank',
           '10.9.' || (r.g % 250) || '.1', 'https://merchant.example/notify',
           case when r.roll < 85 then 'V' || lpad(r.g::text, 11, '0') end,
           case when r.roll >= 93 then 'scale: rejected' end,
           r.at, case when r.claimed then r.at + interval '2 minutes' end,
           case when r.roll < 85 then r.at + interval '10 minutes' end,
           case when r.roll < 85 then r.at + interval '12 minutes' end,
           r.at + interval '12 minutes'
      from (
        select g, at, amount, roll, m, s, roll < 85 or roll >= 93 as claimed
          from (select g, ${timeOf('g', shape.payouts, shape)} as at,
                       (500 + ${draw('g', 6, 49_500)}) * 100 as amount,
                       ${draw('g', 7, 100)} as roll,
                       ${merchantIndex('g', a)} as m, ${supplierIndex('g', a)} as s
                  from generate_series(${from}::bigint, ${to}::bigint) g) d
      ) r`;
}

/**
 * A select of transfers to post: id, idempotency_key, type, order_code, reverses_id, note,
 * note_template, created_at, and the postings as two arrays (ledger account ids, amounts; zeros left out).
 */
type TransferSource = string;

/** The index in the parties' arrays of an order's merchant or supplier, by its id. */
const positionOf = (array: string, id: string) => `array_position(${array}, ${id}::bigint)`;

/** The payments of the paid orders among ids from..to; `reversal`: the opposite, for the reversed ones. */
function orderPayments(
  from: number,
  to: number,
  base: number,
  a: Arrays,
  reversal: { paymentBase: number } | null = null,
): TransferSource {
  const sign = reversal ? '-' : '';
  return `
    select ${base} + o.id as id, o.order_code || '${reversal ? ':reverse' : ':pay'}' as idempotency_key,
           '${reversal ? 'reversal' : 'orderPaid'}' as type, o.order_code,
           ${reversal ? `${reversal.paymentBase} + o.id` : 'null::bigint'} as reverses_id,
           '${reversal ? 'reversal of order ' : 'order '}' || o.order_code || '${reversal ? '' : ' paid'}' as note,
           jsonb_build_object('key', '${reversal ? 'orderReversal' : 'orderPaid'}',
                              'values', jsonb_build_object('orderCode', o.order_code)) as note_template,
           o.paid_at + interval '${reversal ? '1 hour' : '0 seconds'}' as created_at,
           array[(${a.supplierAvailable})[${positionOf(a.supplierId, 'o.supplier_id')}],
                 (${a.merchantAvailable})[${positionOf(a.merchantId, 'o.merchant_id')}],
                 (${a.revenue})[1 + o.id % ${a.revenueShards}]] as accounts,
           array[${sign}(-(o.amount - o.commission)), ${sign}(o.amount - o.fee), ${sign}(o.fee - o.commission)] as amounts
      from orders o
     where o.id between ${from} and ${to} and o.state in (${reversal ? '8' : '3, 4, 8'})`;
}

function payoutHolds(from: number, to: number, base: number, a: Arrays): TransferSource {
  const m = positionOf(a.merchantId, 'p.merchant_id');
  return `
    select ${base} + p.id as id, p.order_code || ':hold' as idempotency_key, 'payoutHold' as type, p.order_code,
           null::bigint as reverses_id,
           'hold for payout ' || p.order_code as note,
           jsonb_build_object('key', 'payoutHold', 'values', jsonb_build_object('orderCode', p.order_code)) as note_template,
           p.created_at,
           array[(${a.merchantAvailable})[${m}], (${a.merchantFrozen})[${m}]] as accounts,
           array[-(p.amount + p.fee), p.amount + p.fee] as amounts
      from payouts p
     where p.id between ${from} and ${to}`;
}

function payoutSettlements(from: number, to: number, base: number, a: Arrays): TransferSource {
  const m = positionOf(a.merchantId, 'p.merchant_id');
  return `
    select ${base} + p.id as id,
           p.order_code || case when p.state = 3 then ':paid' else ':release' end as idempotency_key,
           case when p.state = 3 then 'payoutPaid' else 'payoutRelease' end as type, p.order_code,
           null::bigint as reverses_id,
           case p.state when 3 then 'payout ' || p.order_code || ' completed'
                        when 4 then 'release of payout ' || p.order_code || ': cancelled'
                        else 'release of payout ' || p.order_code || ': rejected' end as note,
           jsonb_build_object('key', case p.state when 3 then 'payoutPaid' when 4 then 'payoutReleaseCancelled'
                                                  else 'payoutReleaseRejected' end,
                              'values', jsonb_build_object('orderCode', p.order_code)) as note_template,
           p.updated_at as created_at,
           case when p.state = 3
                then array[(${a.merchantFrozen})[${m}], (${a.supplierAvailable})[${positionOf(a.supplierId, 'p.supplier_id')}],
                           (${a.revenue})[1 + p.id % ${a.revenueShards}]]
                else array[(${a.merchantFrozen})[${m}], (${a.merchantAvailable})[${m}]] end as accounts,
           case when p.state = 3
                then array[-(p.amount + p.fee), p.amount + p.commission, p.fee - p.commission]
                else array[-(p.amount + p.fee), p.amount + p.fee] end as amounts
      from payouts p
     where p.id between ${from} and ${to}`;
}

/**
 * Posts the transfers `source` selects in one statement: the transfers, their entries with each
 * account's balances before and after chained in transfer order (from the account's balance now),
 * and the accounts' new balances.
 */
export function postTransfers(source: TransferSource): string {
  return `
    with src as materialized (${source}),
    transfers as (
      insert into ledger_transfers (id, idempotency_key, input_hash, type, order_code, reverses_id, note,
                                    note_template, created_at)
      select id, idempotency_key, encode(sha256(convert_to(idempotency_key, 'UTF8')), 'hex'), type, order_code,
             reverses_id, note, note_template, created_at
        from src),
    moves as (
      select s.id as transfer_id, s.created_at, u.account_id, u.amount
        from src s cross join lateral unnest(s.accounts, s.amounts) as u(account_id, amount)
       where u.amount <> 0),
    chained as (
      select m.*, a.balance + sum(m.amount) over (partition by m.account_id order by m.transfer_id) as after
        from moves m join ledger_accounts a on a.id = m.account_id),
    entries as (
      insert into ledger_entries (transfer_id, account_id, amount, balance_before, balance_after, created_at)
      select transfer_id, account_id, amount, after - amount, after, created_at
        from chained order by transfer_id, account_id
      returning account_id, amount)
    update ledger_accounts a set balance = a.balance + s.total
      from (select account_id, sum(amount) as total from entries group by account_id) s
     where a.id = s.account_id`;
}
