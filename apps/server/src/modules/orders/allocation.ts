import { randomInt } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf, statement } from '../../db/raw-rows.js';
import { accountCode, accountCodeSql } from '../ledger/accounts.js';
import type { PayeeAccount } from './payee.js';
import { paidOnDaySql } from './statements.js';

/**
 * Allocation (DESIGN section 6): among the product's resources, the enabled ones of an enabled
 * supplier (and enabled parent) switched on for the product, whose supplier's available balance covers
 * the amount, within the resource's and the supplier's limits, with no open order of the same amount on
 * that account, the least recently used wins; accounts another transaction holds are skipped.
 *
 * It runs for several orders of one product at once (a batch of creates, see `OrdersService`) in three
 * kinds of statement whatever the batch's size: the product's accounts and their facts are read once
 * (no lock); the rule runs here, over the batch in order, so the batch's own holds, amounts and uses
 * count for the orders after them; then the chosen accounts are locked without waiting, and their
 * amounts checked against the open orders, in one statement per round, until every chosen account is
 * locked and checked (what a round learns, an account held elsewhere, an amount open, a balance read
 * under the lock, goes into the next round's choice). Every order keeps the candidates with why each
 * could or could not take it, so getOrderAllocateInfo can explain the choice.
 */

/** Why a resource could not take the order; 'eligible' when it could. */
export type CandidateOutcome =
  | 'eligible'
  | 'chosen'
  | 'resourceDisabled'
  | 'supplierDisabled'
  | 'parentDisabled'
  | 'supplierProductOff'
  | 'balanceShort'
  | 'belowMinAmount'
  | 'aboveMaxAmount'
  | 'dailyAmountLimit'
  | 'dailyCountLimit'
  | 'supplierDailyLimit'
  | 'sameAmountOpen'
  | 'busy'
  | 'supplierBusy'
  | 'noFloatingAmount';

/** Most candidates recorded per allocation. */
export const MAX_CANDIDATES = 50;

/**
 * What allocation knows of one of the product's live accounts (read once per batch, so only what the
 * rule needs: a product may have thousands of accounts, and a batch reads every one).
 */
export interface AccountFacts {
  resourceId: number;
  supplierId: number;
  supplierUserId: number;
  isProxy: boolean;
  state: number;
  minAmount: number | null;
  maxAmount: number | null;
  dailyAmountLimit: number | null;
  dailyCountLimit: number | null;
  /** Paid today on the account (resource_daily). */
  dayAmount: number;
  dayCount: number;
  /** Epoch ms of the last allocation, or -Infinity when never used. */
  lastUsed: number;
  supplierEnabled: boolean;
  parentDisabled: boolean;
  supplierProductOn: boolean;
  supplierMinAmount: number | null;
  supplierMaxAmount: number | null;
  supplierDailyLimit: number | null;
  supplierPaidToday: number;
  /** The supplier's available balance as read (without a lock). */
  balance: number;
}

/** What an order's timeline and its payer are shown of the account it gets, read when it is locked. */
export interface ShownAccount {
  resourceName: string;
  supplierName: string;
  payee: PayeeAccount;
}

/** The account an order gets: the rule's facts and what is shown of it. */
export type ChosenAccount = AccountFacts & ShownAccount;

/** One order to allocate. */
export interface AllocationRequest {
  amount: number;
  /** Reselect: this account is tried last, when no other fits. */
  avoidResourceId: number | null;
  /** The order itself, when it exists already (reselect): its own open amount does not count. */
  orderId: number | null;
}

/**
 * A candidate as the allocation's record keeps it: the account's id and its outcome ('notNeeded': it
 * could have taken the order, but an account ranked before it did). Names are read with the record
 * (getOrderAllocateInfo): a record of 50 candidates with their names was 4 to 5 kB of JSON per order,
 * which PostgreSQL compressed at every insert, the costliest part of a batch of creates.
 */
export type RecordedCandidate = [resourceId: number, outcome: CandidateOutcome | 'notNeeded'];

export interface AllocationResult {
  /** The account that takes the order, locked by this transaction; null when none could. */
  chosen: ChosenAccount | null;
  /** Floating USDT: the order's unique amount in micro-units on the chosen wallet. */
  usdtCount: number | null;
  /** The candidates in the order they were considered, with their outcomes (for the record). */
  candidates: RecordedCandidate[];
  /**
   * Batch only: every account that could take it was held by another transaction. The caller
   * allocates it again alone, waiting for them (`wait`), rather than holding up the batch.
   */
  deferred: boolean;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** The product's live accounts with their supplier's facts, no lock. */
const ACCOUNT_FACTS = statement<'productId' | 'today'>(
  (v) => `
    with sup as materialized (
      select s.id, s.user_id, s.parent_id is not null as is_proxy, s.enabled,
             p.id is not null and not p.enabled as parent_disabled,
             coalesce(pp.enabled, false) as product_on, pp.min_amount, pp.max_amount, pp.daily_limit,
             coalesce(la.balance, 0) as balance,
             ${paidOnDaySql('s.user_id', v.productId, v.today)} as paid_today
        from suppliers s
        left join suppliers p on p.id = s.parent_id
        left join party_products pp on pp.user_id = s.user_id and pp.product_id = ${v.productId}
        left join ledger_accounts la on la.code = ${accountCodeSql('supplier', 's.id', 'available')}
        left join party_daily pd on pd.user_id = s.user_id and pd.product_id = ${v.productId} and pd.day = ${v.today}
       where s.id in (select supplier_id from resources where product_id = ${v.productId} and deleted_at is null)
    )
    select r.id as resource_id, r.state, r.min_amount, r.max_amount,
           r.daily_amount_limit, r.daily_count_limit, coalesce(rd.amount, 0) as day_amount,
           coalesce(rd.count, 0) as day_count, r.last_allocated_at,
           s.id as supplier_id, s.user_id as supplier_user_id, s.is_proxy,
           s.enabled as supplier_enabled, s.parent_disabled, s.product_on, s.min_amount as supplier_min_amount,
           s.max_amount as supplier_max_amount, s.daily_limit as supplier_daily_limit, s.balance,
           s.paid_today as supplier_paid_today
      from resources r
      join sup s on s.id = r.supplier_id
      left join resource_daily rd on rd.resource_id = r.id and rd.day = ${v.today}
     where r.product_id = ${v.productId} and r.deleted_at is null
     order by r.id`,
);

/** What is shown of an account (`ShownAccount`), from `resources r` joined with `suppliers s`. */
const SHOWN_COLUMNS = 'r.name as resource_name, s.name as supplier_name, r.kind, r.details, r.qr_image_id';

function shownOf(r: Record<string, unknown>): ShownAccount {
  return {
    resourceName: String(r.resource_name),
    supplierName: String(r.supplier_name),
    payee: {
      kind: String(r.kind),
      details: (typeof r.details === 'string' ? JSON.parse(r.details) : r.details) as Record<string, string>,
      qrImageId: num(r.qr_image_id),
    },
  };
}

/**
 * One round's checks: locks the accounts asked for, skipping rows another transaction holds, and
 * answers which (account, amount) pairs have an open order. With `balances` (an order alone) each
 * account's supplier's available balance is locked with it and read under the lock, as the hold will
 * take it. A batch leaves the balances to its holds' transfer, its last statement: payments lock them
 * too (for the supplier's commission), and a batch holding every chosen supplier's balance from its
 * first round on would queue them. The open orders are read in the statement's snapshot: one committed
 * on a locked account meanwhile is caught by the open-amount unique index at the insert (the create is
 * then retried).
 */
const lockAndProbe = (balances: boolean) =>
  statement<'lockIds' | 'probeIds' | 'probeAmounts' | 'excludeOrderIds'>(
    (v) => `
    with l as (
      select r.id, r.state, ${balances ? 'la.balance' : 'null::bigint as balance'}, ${SHOWN_COLUMNS}
        from resources r
        join suppliers s on s.id = r.supplier_id
        ${balances ? `join ledger_accounts la on la.code = ${accountCodeSql('supplier', 'r.supplier_id', 'available')}` : ''}
       where r.id = any(${v.lockIds}::int[])
         for update of r${balances ? ', la' : ''} skip locked
    ), p as (
      -- One index probe per pair (lateral, limit 1): as 'where exists', the planner hashed every open
      -- order when the table had no statistics (6 ms per batch at 11 000 open orders, and growing).
      select x.rid, x.amount
        from unnest(${v.probeIds}::int[], ${v.probeAmounts}::bigint[]) as x(rid, amount)
        cross join lateral (
          select 1 from orders o
           where o.resource_id = x.rid and o.amount = x.amount and o.state = 1 and o.usdt_count is null
             and o.id <> all(${v.excludeOrderIds}::bigint[])
           limit 1) as o
    )
    select 'locked' as what, id as resource_id, state, balance, null::bigint as amount,
           resource_name, supplier_name, kind, details, qr_image_id
      from l
    union all
    select 'open', rid, null, null, amount, null, null, null, null, null from p`,
    // Planned at each run: as a named statement its plan was fixed on the server's first creates,
    // when the orders table was nearly empty, and the planner took the partial index on expires_at
    // (the same 'state = 1') and filtered every open order for each probe: 22 ms a batch at 21,000
    // open orders, the signed create at 313/s instead of 989 (bench/README.md, "Orders").
    { replan: true },
  );
const LOCK_AND_PROBE = { alone: lockAndProbe(true), batch: lockAndProbe(false) };

/** What the rounds have learnt so far. */
interface Knowledge {
  /** Accounts this transaction holds (their rows and their supplier's balance), with what is shown of them. */
  locked: Map<number, ShownAccount>;
  /** Accounts another transaction holds. */
  busy: Set<number>;
  /** Accounts found switched off under the lock. */
  disabled: Set<number>;
  /** Suppliers' available balances read under a lock (an order alone). */
  balances: Map<number, number>;
  /** `${resourceId}:${amount}` pairs checked against the open orders, and those found open. */
  probed: Set<string>;
  /** Accounts found with an open order of the amount, by amount (looked up per account and order). */
  open: AmountSets;
  /** Orders (by index) whose chosen account had the amount open: all their candidates are checked next. */
  widened: Set<number>;
  /** Wallets with no floating amount left for the order (USDT). */
  noFloating: Set<number>;
}

const pair = (resourceId: number, amount: number) => `${resourceId}:${amount}`;

/** Account ids by amount: the hot loop looks them up without building a key per account. */
type AmountSets = Map<number, Set<number>>;

function addTo(sets: AmountSets, amount: number, resourceId: number) {
  const ids = sets.get(amount);
  if (ids) ids.add(resourceId);
  else sets.set(amount, new Set([resourceId]));
}

/** The outcome of `account` for an order of `amount`, given the batch so far (`balance`: what is left). */
function outcomeOf(a: AccountFacts, amount: number, balance: number, known: Knowledge): CandidateOutcome {
  if (a.state !== 0 || known.disabled.has(a.resourceId)) return 'resourceDisabled';
  if (!a.supplierEnabled) return 'supplierDisabled';
  if (a.parentDisabled) return 'parentDisabled';
  if (!a.supplierProductOn) return 'supplierProductOff';
  if (balance < amount) return 'balanceShort';
  if (amount < Math.max(a.minAmount ?? 0, a.supplierMinAmount ?? 0)) return 'belowMinAmount';
  if (amount > Math.min(a.maxAmount ?? amount, a.supplierMaxAmount ?? amount)) return 'aboveMaxAmount';
  if (a.dailyAmountLimit !== null && a.dayAmount + amount > a.dailyAmountLimit) return 'dailyAmountLimit';
  if (a.dailyCountLimit !== null && a.dayCount + 1 > a.dailyCountLimit) return 'dailyCountLimit';
  if (a.supplierDailyLimit !== null && a.supplierPaidToday + amount > a.supplierDailyLimit) return 'supplierDailyLimit';
  if (known.open.get(amount)?.has(a.resourceId)) return 'sameAmountOpen';
  if (known.noFloating.has(a.resourceId)) return 'noFloatingAmount';
  return 'eligible';
}

interface Choice {
  chosen: AccountFacts | null;
  /** The accounts that could take the order, in rank order (the chosen one among them). */
  eligible: AccountFacts[];
  /** Outcomes of eligible accounts other than 'eligible' (busy, chosen; the wait's findings). */
  marks: Map<number, CandidateOutcome>;
  /** The accounts that could not, in rank order, with why: only as many as the record keeps. */
  ineligible: Array<[AccountFacts, CandidateOutcome]>;
}

/** The candidates of a choice as the record keeps them: the eligible first, in rank order. */
function recordOf(choice: Choice): RecordedCandidate[] {
  const recorded: RecordedCandidate[] = [];
  for (const a of choice.eligible) {
    if (recorded.length === MAX_CANDIDATES) return recorded;
    recorded.push([a.resourceId, choice.marks.get(a.resourceId) ?? 'notNeeded']);
  }
  for (const [a, outcome] of choice.ineligible) {
    if (recorded.length === MAX_CANDIDATES) break;
    recorded.push([a.resourceId, outcome]);
  }
  return recorded;
}

/**
 * The rule over the batch, in order, with what is known: each order takes the least recently used
 * eligible account no other transaction holds (the account a reselect moves away from last); what it
 * takes (the account's use, the supplier's hold, the amount now open there) counts for the orders
 * after it. The accounts are ranked by last use once; an account taken moves to the end, as its use
 * is then the latest. Linear in the accounts per order: a product may have thousands.
 */
function choose(
  requests: AllocationRequest[],
  accounts: AccountFacts[],
  known: Knowledge,
  options: { holds: boolean; floating: boolean },
): Choice[] {
  const byUse = [...accounts].sort((x, y) => x.lastUsed - y.lastUsed || x.resourceId - y.resourceId);
  const held = new Map<number, number>();
  const taken: AmountSets = new Map();
  return requests.map((request) => {
    const { amount, avoidResourceId } = request;
    const takenHere = options.floating ? undefined : taken.get(amount);
    const eligible: AccountFacts[] = [];
    const ineligible: Array<[AccountFacts, CandidateOutcome]> = [];
    let avoided: [AccountFacts, CandidateOutcome] | null = null;
    for (const account of byUse) {
      const balance = (known.balances.get(account.supplierId) ?? account.balance) - (held.get(account.supplierId) ?? 0);
      let outcome = outcomeOf(account, amount, balance, known);
      if (outcome === 'eligible' && takenHere?.has(account.resourceId)) outcome = 'sameAmountOpen';
      if (account.resourceId === avoidResourceId) avoided = [account, outcome];
      else if (outcome === 'eligible') eligible.push(account);
      else if (ineligible.length < MAX_CANDIDATES) ineligible.push([account, outcome]);
    }
    if (avoided?.[1] === 'eligible') eligible.push(avoided[0]);
    else if (avoided) ineligible.push(avoided);
    const marks = new Map<number, CandidateOutcome>();
    let chosen: AccountFacts | null = null;
    for (const account of eligible) {
      if (known.busy.has(account.resourceId)) {
        marks.set(account.resourceId, 'busy');
        continue;
      }
      marks.set(account.resourceId, 'chosen');
      chosen = account;
      break;
    }
    if (chosen) {
      byUse.splice(byUse.indexOf(chosen), 1);
      byUse.push(chosen);
      if (options.holds) held.set(chosen.supplierId, (held.get(chosen.supplierId) ?? 0) + amount);
      addTo(taken, amount, chosen.resourceId);
    }
    return { chosen, eligible, marks, ineligible };
  });
}

/**
 * Allocates `requests` (all of product `productId`) inside the caller's transaction, in their order.
 * `holds`: each allocation will hold the amount on its supplier's balance (so the batch's holds count
 * against it). `wait` (one order only): when every fitting account is held elsewhere, wait for them
 * one at a time instead of deferring. `floating`: USDT, whose amounts need not be unique (the
 * usdtCount is; one order only).
 */
export async function allocate(
  tx: Tx,
  input: {
    productId: number;
    today: string;
    holds: boolean;
    floating: boolean;
    wait: boolean;
    requests: AllocationRequest[];
  },
): Promise<AllocationResult[]> {
  const { requests, floating, holds } = input;
  if ((floating || input.wait) && requests.length !== 1)
    throw new Error('a floating or waiting allocation is for one order');
  const accounts = (await ACCOUNT_FACTS.rows<Record<string, unknown>>(tx, input)).map(factsOf);
  const known: Knowledge = {
    locked: new Map(),
    busy: new Set(),
    disabled: new Set(),
    balances: new Map(),
    probed: new Set(),
    open: new Map(),
    widened: new Set(),
    noFloating: new Set(),
  };
  const excludeOrderIds = requests.flatMap((r) => (r.orderId === null ? [] : [r.orderId]));
  const usdt = new Map<number, number>();
  const byId = new Map(accounts.map((a) => [a.resourceId, a]));
  let choices = choose(requests, accounts, known, { holds, floating });
  // Each round learns something new (a lock taken or refused, a pair checked), so this ends; under
  // heavy contention it could take many rounds, so they are bounded, and a choice still unconfirmed
  // then is treated as a held account (below).
  for (let round = 0; round < 2 * requests.length + 8; round += 1) {
    const lockIds = new Set<number>();
    const probes = new Map<string, [number, number]>();
    choices.forEach((choice, i) => {
      const amount = requests[i]!.amount;
      const c = choice.chosen;
      if (c && !known.locked.has(c.resourceId)) lockIds.add(c.resourceId);
      if (floating) return;
      // An order whose first choice had its amount open checks every fitting account at once, not one per round.
      const wanted = known.widened.has(i)
        ? choice.eligible.filter((a) => choice.marks.get(a.resourceId) !== 'busy')
        : c
          ? [c]
          : [];
      for (const a of wanted) {
        const key = pair(a.resourceId, amount);
        if (!known.probed.has(key)) probes.set(key, [a.resourceId, amount]);
      }
    });
    if (lockIds.size === 0 && probes.size === 0) {
      if (!floating) break;
      // USDT: the wallet is locked; its first free floating amount, or another wallet.
      const c = choices[0]!.chosen;
      if (!c || usdt.has(c.resourceId)) break;
      const count = await freeUsdtCount(tx, c.resourceId, requests[0]!.amount, requests[0]!.orderId ?? 0);
      if (count === null) known.noFloating.add(c.resourceId);
      else usdt.set(c.resourceId, count);
      choices = choose(requests, accounts, known, { holds, floating });
      continue;
    }
    const rows = await LOCK_AND_PROBE[input.wait ? 'alone' : 'batch'].rows<Record<string, unknown>>(tx, {
      lockIds: [...lockIds],
      probeIds: [...probes.values()].map(([id]) => id),
      probeAmounts: [...probes.values()].map(([, amount]) => amount),
      excludeOrderIds,
    });
    for (const row of rows) {
      const id = Number(row.resource_id);
      if (row.what === 'open') {
        addTo(known.open, Number(row.amount), id);
        continue;
      }
      lockIds.delete(id);
      known.locked.set(id, shownOf(row));
      if (Number(row.state) !== 0) known.disabled.add(id);
      if (row.balance !== null) known.balances.set(byId.get(id)!.supplierId, Number(row.balance));
    }
    for (const id of lockIds) known.busy.add(id);
    for (const key of probes.keys()) known.probed.add(key);
    choices.forEach((choice, i) => {
      const c = choice.chosen;
      if (c && known.open.get(requests[i]!.amount)?.has(c.resourceId)) known.widened.add(i);
    });
    choices = choose(requests, accounts, known, { holds, floating });
  }

  return Promise.all(
    choices.map(async (choice, i) => {
      const request = requests[i]!;
      const facts = choice.chosen;
      const shown = facts && known.locked.get(facts.resourceId);
      const confirmed =
        facts !== null &&
        shown !== undefined &&
        (floating ? usdt.has(facts.resourceId) : known.probed.has(pair(facts.resourceId, request.amount)));
      let chosen: ChosenAccount | null = confirmed ? { ...facts, ...shown! } : null;
      if (facts && !confirmed) choice.marks.set(facts.resourceId, 'busy');
      const busy = choice.eligible.filter((a) => choice.marks.get(a.resourceId) === 'busy');
      if (!chosen && busy.length > 0 && input.wait) {
        chosen = await waitForOne(tx, request, busy, choice.marks, floating, usdt);
      }
      return {
        chosen,
        usdtCount: chosen && floating ? (usdt.get(chosen.resourceId) ?? null) : null,
        deferred: !chosen && busy.length > 0 && !input.wait,
        candidates: recordOf(choice),
      };
    }),
  );
}

/**
 * When every fitting account was held by other transactions: wait for them one at a time, from a
 * random one on (concurrent waiters spread over suppliers), and check each again under its lock.
 * Records what it finds of each in `marks`.
 */
async function waitForOne(
  tx: Tx,
  request: AllocationRequest,
  busy: AccountFacts[],
  marks: Map<number, CandidateOutcome>,
  floating: boolean,
  usdt: Map<number, number>,
): Promise<ChosenAccount | null> {
  const start = randomInt(0, busy.length);
  for (const a of [...busy.slice(start), ...busy.slice(0, start)]) {
    const shown = await lockWaiting(tx, a, request.amount);
    if (!shown) {
      marks.set(a.resourceId, 'balanceShort');
      continue;
    }
    if (floating) {
      const count = await freeUsdtCount(tx, a.resourceId, request.amount, request.orderId ?? 0);
      if (count === null) {
        marks.set(a.resourceId, 'noFloatingAmount');
        continue;
      }
      usdt.set(a.resourceId, count);
    } else if (await amountOpenOn(tx, a.resourceId, request.amount, request.orderId ?? 0)) {
      marks.set(a.resourceId, 'sameAmountOpen');
      continue;
    }
    marks.set(a.resourceId, 'chosen');
    return { ...a, ...shown };
  }
  return null;
}

function factsOf(r: Record<string, unknown>): AccountFacts {
  const last = r.last_allocated_at;
  return {
    resourceId: Number(r.resource_id),
    supplierId: Number(r.supplier_id),
    supplierUserId: Number(r.supplier_user_id),
    isProxy: Boolean(r.is_proxy),
    state: Number(r.state),
    minAmount: num(r.min_amount),
    maxAmount: num(r.max_amount),
    dailyAmountLimit: num(r.daily_amount_limit),
    dailyCountLimit: num(r.daily_count_limit),
    dayAmount: Number(r.day_amount),
    dayCount: Number(r.day_count),
    lastUsed: last === null || last === undefined ? Number.NEGATIVE_INFINITY : new Date(last as string).getTime(),
    supplierEnabled: Boolean(r.supplier_enabled),
    parentDisabled: Boolean(r.parent_disabled),
    supplierProductOn: Boolean(r.product_on),
    supplierMinAmount: num(r.supplier_min_amount),
    supplierMaxAmount: num(r.supplier_max_amount),
    supplierDailyLimit: num(r.supplier_daily_limit),
    supplierPaidToday: Number(r.supplier_paid_today),
    balance: Number(r.balance),
  };
}

/**
 * Waits for this account's row and its supplier's balance (both, in that order, as the rounds take
 * them) and answers what is shown of the account when both were taken; null when the account was
 * switched off or the balance no longer covers the amount.
 */
async function lockWaiting(
  tx: Tx,
  c: { resourceId: number; supplierId: number },
  amount: number,
): Promise<ShownAccount | null> {
  const result = await tx.execute(sql`
    select ${sql.raw(SHOWN_COLUMNS)}
      from resources r
      join suppliers s on s.id = r.supplier_id
      join ledger_accounts la on la.code = ${accountCode('supplier', c.supplierId, 'available')}
     where r.id = ${c.resourceId} and r.state = 0 and la.balance >= ${amount}
       for update of r, la`);
  const [row] = rowsOf<Record<string, unknown>>(result);
  return row ? shownOf(row) : null;
}

/** Whether another open order on the account has this amount (the payer's transfer would be ambiguous). */
async function amountOpenOn(tx: Tx, resourceId: number, amount: number, orderId: number): Promise<boolean> {
  const open = await tx.execute(
    sql`select 1 from orders where resource_id = ${resourceId} and state = 1 and amount = ${amount}
          and usdt_count is null and id <> ${orderId} limit 1`,
  );
  return rowsOf(open).length > 0;
}

/** Floating USDT: the base micro-units plus the smallest offset (1..999) not open on the wallet, or null. */
async function freeUsdtCount(tx: Tx, resourceId: number, amount: number, orderId: number): Promise<number | null> {
  // Collection amounts of USDT are in cents (1/100); the payer sends micro-units (1/1,000,000).
  const base = amount * 10_000;
  const result = await tx.execute(sql`
    select ${base}::bigint + k as usdt_count
      from generate_series(1, 999) as k
     where not exists (
       select 1 from orders o where o.resource_id = ${resourceId} and o.state = 1 and o.usdt_count = ${base}::bigint + k
         and o.id <> ${orderId}
     )
     order by k
     limit 1
  `);
  const [row] = rowsOf<{ usdt_count: string | number }>(result);
  return row ? Number(row.usdt_count) : null;
}
