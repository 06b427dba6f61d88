import { type LedgerCheck, type NoteTemplate, noteParts } from '@paydesk/contract';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { rowsOf as resultRows, statement, tableRow } from '../../db/raw-rows.js';
import { ledgerAccounts, ledgerEntries, ledgerTransfers } from '../../db/schema.js';
import { canonicalJson } from '../../platform/canonical-json.js';
import type { Clock } from '../../platform/clock.js';
import { conflict, invalid, notFound, refused } from '../../platform/errors.js';
import { sha256 } from '../../platform/secrets.js';

/** Largest amount (and balance) in minor units: below Number.MAX_SAFE_INTEGER, so sums stay exact. */
export const MAX_LEDGER_AMOUNT = 9_000_000_000_000_000;

export type OwnerKind = 'merchant' | 'supplier' | 'platform';
export type Bucket = 'available' | 'frozen' | 'revenue' | 'adjustments';

export interface AccountSpec {
  code: string;
  ownerKind: OwnerKind;
  ownerId: number | null;
  bucket: Bucket;
  allowNegative: boolean;
}

export interface Posting {
  /** An account code, e.g. 'merchant:12:available'. */
  account: string;
  /** Signed minor units, never zero. */
  amount: number;
}

export interface TransferInput {
  /** The order code and the step, e.g. 'C123:paid': posted at most once. */
  idempotencyKey: string;
  type: string;
  orderCode?: string | null | undefined;
  /** Typed text, or a template (NOTE_TEMPLATES) the console renders in its language. */
  note: string | NoteTemplate;
  actorUserId?: number | null | undefined;
  postings: Posting[];
}

export interface ReverseInput {
  transferId: number;
  idempotencyKey: string;
  note: string | NoteTemplate;
  actorUserId?: number | null | undefined;
}

export interface EntryView {
  account: string;
  amount: number;
  balanceBefore: number;
  balanceAfter: number;
}

export interface TransferResult {
  id: number;
  idempotencyKey: string;
  type: string;
  orderCode: string | null;
  note: string;
  noteTemplate: NoteTemplate | null;
  actorUserId: number | null;
  reversesId: number | null;
  createdAt: Date;
  entries: EntryView[];
  /** True when the key was already posted with the same input: nothing was posted this time. */
  replayed: boolean;
}

const MAX_INT4 = 2_147_483_647;
const PARTY_CODE = /^(merchant|supplier):([1-9][0-9]{0,9}):(available|frozen)$/;
/** `platform:revenue` and its shards `platform:revenue:<k>` (see REVENUE_SHARDS), `platform:adjustments`. */
const PLATFORM_CODE = /^platform:(?:(revenue)(?::(?:0|[1-9][0-9]?))?|(adjustments))$/;

/**
 * What an account code says about its account (DESIGN section 5), or null for a malformed code.
 * Only the platform's accounts may go negative.
 */
export function parseAccountCode(code: string): AccountSpec | null {
  const party = PARTY_CODE.exec(code);
  if (party) {
    const ownerId = Number(party[2]);
    if (ownerId > MAX_INT4) return null;
    return {
      code,
      ownerKind: party[1] as OwnerKind,
      ownerId,
      bucket: party[3] as Bucket,
      allowNegative: false,
    };
  }
  const platform = PLATFORM_CODE.exec(code);
  if (platform)
    return {
      code,
      ownerKind: 'platform',
      ownerId: null,
      bucket: (platform[1] ?? platform[2]) as Bucket,
      allowNegative: true,
    };
  return null;
}

type TransferRecord = typeof ledgerTransfers.$inferSelect;
type AccountRecord = typeof ledgerAccounts.$inferSelect;

const rowsOf = async <T>(db: DbOrTx, query: SQL) => resultRows<T>(await db.execute(query));

/**
 * The transfer, its entries (in posting order) and the accounts' new balances in one statement (a
 * round trip is the main cost of a post), written once and prepared (see `statement`): when the key
 * was posted before, or the transfer it reverses was reversed meanwhile, the insert does nothing and
 * neither do the others.
 */
const POST_TRANSFER = statement<
  | 'key'
  | 'inputHash'
  | 'type'
  | 'orderCode'
  | 'note'
  | 'noteTemplate'
  | 'actorUserId'
  | 'reversesId'
  | 'now'
  | 'accountIds'
  | 'amounts'
  | 'balancesBefore'
  | 'balancesAfter'
>(
  (v) => `
    with t as (
           insert into ledger_transfers (idempotency_key, input_hash, type, order_code, note, note_template,
                                         actor_user_id, reverses_id, created_at)
           values (${v.key}, ${v.inputHash}, ${v.type}, ${v.orderCode}, ${v.note}, ${v.noteTemplate}::jsonb,
                   ${v.actorUserId}, ${v.reversesId}, ${v.now})
           on conflict do nothing
           returning *),
         m as (
           select * from unnest(${v.accountIds}::bigint[], ${v.amounts}::bigint[], ${v.balancesBefore}::bigint[],
                                ${v.balancesAfter}::bigint[])
             with ordinality as m(account_id, amount, balance_before, balance_after, ord)),
         u as (update ledger_accounts a set balance = m.balance_after from m, t where a.id = m.account_id),
         e as (
           insert into ledger_entries (transfer_id, account_id, amount, balance_before, balance_after, created_at)
           select t.id, m.account_id, m.amount, m.balance_before, m.balance_after, t.created_at
             from t, m order by m.ord)
    select * from t`,
);

/**
 * Several new transfers in one statement (see `transferMany`): the transfers, their entries (found by
 * key, in posting order) and the accounts' final balances. Answers the keys posted.
 */
const POST_TRANSFERS = statement<'transfers' | 'entries' | 'accountIds' | 'balances' | 'now'>(
  (v) => `
    with t as (
           insert into ledger_transfers (idempotency_key, input_hash, type, order_code, note, note_template,
                                         actor_user_id, created_at)
           select x.idempotency_key, x.input_hash, x.type, x.order_code, x.note, x.note_template, x.actor_user_id,
                  ${v.now}
             from json_to_recordset(${v.transfers}::json)
                  as x(idempotency_key text, input_hash text, type text, order_code text, note text,
                       note_template jsonb, actor_user_id int, ord int)
            order by x.ord
           on conflict do nothing
           returning id, idempotency_key, created_at),
         e as (
           insert into ledger_entries (transfer_id, account_id, amount, balance_before, balance_after, created_at)
           select t.id, y.account_id, y.amount, y.balance_before, y.balance_after, t.created_at
             from json_to_recordset(${v.entries}::json)
                  as y(idempotency_key text, account_id bigint, amount bigint, balance_before bigint,
                       balance_after bigint, ord int)
             join t on t.idempotency_key = y.idempotency_key
            order by y.ord),
         u as (
           update ledger_accounts a set balance = b.balance
             from unnest(${v.accountIds}::bigint[], ${v.balances}::bigint[]) as b(id, balance)
            where a.id = b.id)
    select idempotency_key from t`,
);

/** A transfer's accounts, locked in code order (the order every transfer takes them: no deadlock). */
const LOCK_ACCOUNTS = statement<'codes'>(
  (v) => `select * from ledger_accounts where code = any(${v.codes}::text[]) order by code for update`,
);

export interface LedgerDeps {
  db: Db;
  clock: Clock;
}

/**
 * The double-entry ledger (DESIGN section 5). Transfers are posted inside the caller's transaction, so
 * an order's state change and its money move commit together. History is append-only.
 */
export class LedgerService {
  constructor(private readonly deps: LedgerDeps) {}

  /** The account of `code`, created on first use with what the code says about it. */
  async ensureAccount(tx: Tx, code: string): Promise<AccountRecord> {
    const spec = parseAccountCode(code);
    if (!spec) throw invalid([{ path: 'account', message: `malformed account code: ${code}` }]);
    await this.insertAccounts(tx, [spec]);
    const [row] = await tx.select().from(ledgerAccounts).where(eq(ledgerAccounts.code, code));
    return row!;
  }

  /** The platform's revenue in minor units: the sum over its accounts (REVENUE_SHARDS). */
  async revenue(db: DbOrTx): Promise<number> {
    const [row] = await db
      .select({ total: sql<string>`coalesce(sum(${ledgerAccounts.balance}), 0)::text` })
      .from(ledgerAccounts)
      .where(and(eq(ledgerAccounts.ownerKind, 'platform'), eq(ledgerAccounts.bucket, 'revenue')));
    return Number(row?.total ?? 0);
  }

  /** Balance in minor units; 0 for an account never used. */
  async balanceOf(db: DbOrTx, code: string): Promise<number> {
    const [row] = await db
      .select({ balance: ledgerAccounts.balance })
      .from(ledgerAccounts)
      .where(eq(ledgerAccounts.code, code));
    return row?.balance ?? 0;
  }

  /**
   * Posts a transfer in the caller's transaction. The same key with the same input answers the first
   * transfer (replayed) without posting again; with another input it is a 409.
   */
  async transfer(tx: Tx, input: TransferInput): Promise<TransferResult> {
    return this.post(tx, newTransfer(input));
  }

  /**
   * Posts several new transfers in the caller's transaction, in their order, with one lock of all
   * their accounts and one write (a batch of order holds): balances run through the list, and the
   * whole call is refused like `transfer` when one would take an account below zero. Every key must be
   * new: a key posted before fails the call (the caller's batch lost a race; it retries).
   */
  async transferMany(tx: Tx, inputs: TransferInput[]): Promise<void> {
    if (inputs.length === 0) return;
    const specs = new Map<string, AccountSpec>();
    const transfers = inputs.map((input, ord) => {
      const full = newTransfer(input);
      for (const spec of validate(full)) specs.set(spec.code, spec);
      return { ...full, inputHash: inputHashOf(full), ord };
    });
    const accounts = await this.lockOrCreate(tx, [...specs.values()]);
    const balances = new Map([...accounts.values()].map((a) => [a.id, a.balance]));
    const entries = transfers.flatMap((t) =>
      t.postings.map((p) => {
        const account = accounts.get(p.account)!;
        const before = balances.get(account.id)!;
        const after = before + p.amount;
        balances.set(account.id, after);
        return { idempotencyKey: t.idempotencyKey, account, amount: p.amount, before, after };
      }),
    );
    const refusal = refusalOf(entries.map((e) => ({ account: e.account, balanceAfter: e.after })));
    if (refusal) throw refusal;
    const posted = await POST_TRANSFERS.rows<{ idempotency_key: string }>(tx, {
      transfers: JSON.stringify(
        transfers.map((t) => ({
          idempotency_key: t.idempotencyKey,
          input_hash: t.inputHash,
          type: t.type,
          order_code: t.orderCode,
          note: t.note,
          note_template: t.noteTemplate,
          actor_user_id: t.actorUserId,
          ord: t.ord,
        })),
      ),
      entries: JSON.stringify(
        entries.map((e, ord) => ({
          idempotency_key: e.idempotencyKey,
          account_id: e.account.id,
          amount: e.amount,
          balance_before: e.before,
          balance_after: e.after,
          ord,
        })),
      ),
      accountIds: [...balances.keys()],
      balances: [...balances.values()],
      now: this.deps.clock.now().toISOString(),
    });
    if (posted.length !== transfers.length) {
      throw conflict('a transfer of the batch was already posted', 'idempotencyConflict');
    }
  }

  /** The id of the transfer posted under an idempotency key, or null when none was. */
  async transferIdByKey(db: DbOrTx, idempotencyKey: string): Promise<number | null> {
    const [row] = await db
      .select({ id: ledgerTransfers.id })
      .from(ledgerTransfers)
      .where(eq(ledgerTransfers.idempotencyKey, idempotencyKey));
    return row?.id ?? null;
  }

  /** Posts the exact opposite of a transfer, as a new transfer. A transfer is reversed at most once. */
  async reverse(tx: Tx, input: ReverseInput): Promise<TransferResult> {
    const [original] = await tx.select().from(ledgerTransfers).where(eq(ledgerTransfers.id, input.transferId));
    if (!original) throw notFound('no such transfer');
    const entries = await this.entriesOf(tx, original.id);
    return this.post(tx, {
      idempotencyKey: input.idempotencyKey,
      type: 'reversal',
      orderCode: original.orderCode,
      ...noteParts(input.note),
      actorUserId: input.actorUserId ?? null,
      reversesId: original.id,
      postings: entries.map((e) => ({ account: e.account, amount: -e.amount })),
    });
  }

  private async post(tx: Tx, input: PostInput): Promise<TransferResult> {
    const specs = validate(input);
    const inputHash = inputHashOf(input);
    const byCode = await this.lockOrCreate(tx, specs);
    if (input.reversesId !== null) {
      const replay = await this.replayOf(tx, input.idempotencyKey, inputHash);
      if (replay) return replay;
      await this.refuseReversed(tx, input.reversesId);
    }

    const moves = input.postings.map((p) => {
      const account = byCode.get(p.account)!;
      const balanceAfter = account.balance + p.amount;
      return { account, amount: p.amount, balanceBefore: account.balance, balanceAfter };
    });
    const refusal = refusalOf(moves);
    if (refusal) {
      // A repeat of a transfer already posted answers that transfer, whatever the balances are now.
      const replay = await this.replayOf(tx, input.idempotencyKey, inputHash);
      if (replay) return replay;
      throw refusal;
    }

    const [raw] = await POST_TRANSFER.rows<Record<string, unknown>>(tx, {
      key: input.idempotencyKey,
      inputHash,
      type: input.type,
      orderCode: input.orderCode,
      note: input.note,
      noteTemplate: input.noteTemplate === null ? null : JSON.stringify(input.noteTemplate),
      actorUserId: input.actorUserId,
      reversesId: input.reversesId,
      now: this.deps.clock.now().toISOString(),
      accountIds: moves.map((m) => m.account.id),
      amounts: moves.map((m) => m.amount),
      balancesBefore: moves.map((m) => m.balanceBefore),
      balancesAfter: moves.map((m) => m.balanceAfter),
    });
    if (!raw) {
      // This key was posted before (a replay: nothing moves), or this transfer was reversed meanwhile.
      const again = await this.replayOf(tx, input.idempotencyKey, inputHash);
      if (again) return again;
      throw conflict('the transfer is already reversed', 'alreadyReversed');
    }
    const transfer = tableRow(ledgerTransfers, raw);
    return {
      ...resultOf(transfer),
      entries: moves.map((m) => ({
        account: m.account.code,
        amount: m.amount,
        balanceBefore: m.balanceBefore,
        balanceAfter: m.balanceAfter,
      })),
      replayed: false,
    };
  }

  /** The transfer posted under `key`, when its input was the same; a 409 when it was another. */
  private async replayOf(tx: Tx, key: string, inputHash: string): Promise<TransferResult | null> {
    const [existing] = await tx.select().from(ledgerTransfers).where(eq(ledgerTransfers.idempotencyKey, key));
    if (!existing) return null;
    if (existing.inputHash !== inputHash) {
      throw conflict('the idempotency key was used with another input', 'idempotencyConflict');
    }
    return { ...resultOf(existing), entries: await this.entriesOf(tx, existing.id), replayed: true };
  }

  private async refuseReversed(tx: Tx, transferId: number) {
    const [reversal] = await tx
      .select({ id: ledgerTransfers.id })
      .from(ledgerTransfers)
      .where(eq(ledgerTransfers.reversesId, transferId));
    if (reversal) throw conflict('the transfer is already reversed', 'alreadyReversed');
  }

  private async entriesOf(tx: DbOrTx, transferId: number): Promise<EntryView[]> {
    return tx
      .select({
        account: ledgerAccounts.code,
        amount: ledgerEntries.amount,
        balanceBefore: ledgerEntries.balanceBefore,
        balanceAfter: ledgerEntries.balanceAfter,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(eq(ledgerEntries.transferId, transferId))
      .orderBy(asc(ledgerEntries.id));
  }

  /**
   * Locks every account named, in one fixed order (by code): concurrent transfers never deadlock.
   * Accounts are created on first use; almost always they exist, so the insert runs only when missing.
   */
  private async lockOrCreate(tx: Tx, specs: AccountSpec[]): Promise<Map<string, AccountRecord>> {
    const sorted = [...specs].sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
    let locked = await this.lockAccounts(tx, sorted);
    if (locked.length < sorted.length) {
      await this.insertAccounts(tx, sorted);
      locked = await this.lockAccounts(tx, sorted);
    }
    return new Map(locked.map((a) => [a.code, a]));
  }

  /** Locks the accounts of these codes that exist, in code order. */
  private async lockAccounts(tx: Tx, sorted: AccountSpec[]): Promise<AccountRecord[]> {
    const rows = await LOCK_ACCOUNTS.rows<Record<string, unknown>>(tx, { codes: sorted.map((s) => s.code) });
    return rows.map((raw) => tableRow(ledgerAccounts, raw));
  }

  /** Creates the accounts not there yet, in the order given (callers pass them sorted by code). */
  private async insertAccounts(tx: Tx, specs: AccountSpec[]) {
    const now = this.deps.clock.now();
    await tx
      .insert(ledgerAccounts)
      .values(specs.map((s) => ({ ...s, balance: 0, createdAt: now })))
      .onConflictDoNothing({ target: ledgerAccounts.code });
  }

  /**
   * Every invariant of DESIGN section 5: the sum of all balances is zero; each account's balance equals
   * the sum of its entries and its last entry's balance after; each entry chains on the one before; no
   * forbidden negative; each idempotency key posted once; each transfer's entries sum to zero (at least two).
   */
  async check(db: DbOrTx = this.deps.db): Promise<LedgerCheck> {
    const violations: string[] = [];
    const [total] = await rowsOf<{ s: string }>(
      db,
      sql`select coalesce(sum(balance), 0)::text as s from ledger_accounts`,
    );
    if (total?.s !== '0') violations.push(`the balances sum to ${total?.s}, not 0`);

    const mismatched = await rowsOf<{ code: string; balance: string; entries: string; last: string | null }>(
      db,
      sql`select a.code, a.balance::text as balance, coalesce(e.total, 0)::text as entries, l.balance_after::text as last
          from ledger_accounts a
          left join (select account_id, sum(amount) as total from ledger_entries group by account_id) e
            on e.account_id = a.id
          left join lateral (select balance_after from ledger_entries where account_id = a.id order by id desc limit 1) l
            on true
          where a.balance <> coalesce(e.total, 0) or a.balance <> coalesce(l.balance_after, 0)
          order by a.code limit 100`,
    );
    for (const r of mismatched) {
      violations.push(`${r.code}: balance ${r.balance}, entries sum to ${r.entries}, last entry leaves ${r.last ?? 0}`);
    }

    const broken = await rowsOf<{ id: string; code: string }>(
      db,
      sql`select x.id::text as id, a.code from (
            select id, account_id, balance_before, balance_after, amount,
                   lag(balance_after) over (partition by account_id order by id) as prev
            from ledger_entries) x
          join ledger_accounts a on a.id = x.account_id
          where x.balance_before <> coalesce(x.prev, 0) or x.balance_after <> x.balance_before + x.amount
          order by x.id limit 100`,
    );
    for (const r of broken) violations.push(`entry ${r.id} of ${r.code} does not follow the entry before it`);

    const negative = await rowsOf<{ code: string; balance: string }>(
      db,
      sql`select code, balance::text as balance from ledger_accounts
          where (not allow_negative and balance < 0) or (allow_negative and owner_kind <> 'platform')
          order by code limit 100`,
    );
    for (const r of negative) violations.push(`${r.code}: balance ${r.balance} where it may not go negative`);

    const keys = await rowsOf<{ k: string; n: string }>(
      db,
      sql`select idempotency_key as k, count(*)::text as n from ledger_transfers
          group by idempotency_key having count(*) > 1 order by 1 limit 100`,
    );
    for (const r of keys) violations.push(`idempotency key ${r.k} posted ${r.n} times`);

    const unbalanced = await rowsOf<{ id: string; s: string; n: string }>(
      db,
      sql`select t.id::text as id, coalesce(sum(e.amount), 0)::text as s, count(e.id)::text as n
          from ledger_transfers t left join ledger_entries e on e.transfer_id = t.id
          group by t.id having coalesce(sum(e.amount), 0) <> 0 or count(e.id) < 2
          order by t.id limit 100`,
    );
    for (const r of unbalanced) violations.push(`transfer ${r.id}: ${r.n} entries summing to ${r.s}`);

    // Entries carry no foreign keys (append-only, written by one statement with their transfer and
    // locked accounts): an entry whose transfer or account is missing is found here.
    const orphans = await rowsOf<{ id: string }>(
      db,
      sql`select e.id::text as id from ledger_entries e
          where not exists (select 1 from ledger_transfers t where t.id = e.transfer_id)
             or not exists (select 1 from ledger_accounts a where a.id = e.account_id)
          order by e.id limit 100`,
    );
    for (const r of orphans) violations.push(`entry ${r.id} has no transfer or no account`);

    return { ok: violations.length === 0, violations };
  }
}

function resultOf(t: TransferRecord): Omit<TransferResult, 'entries' | 'replayed'> {
  return {
    id: t.id,
    idempotencyKey: t.idempotencyKey,
    type: t.type,
    orderCode: t.orderCode,
    note: t.note,
    noteTemplate: t.noteTemplate ?? null,
    actorUserId: t.actorUserId,
    reversesId: t.reversesId,
    createdAt: t.createdAt,
  };
}

/** A transfer as posted: a new one, or the reversal of another. */
type PostInput = Pick<
  TransferResult,
  'idempotencyKey' | 'type' | 'orderCode' | 'note' | 'noteTemplate' | 'actorUserId' | 'reversesId'
> & {
  postings: Posting[];
};

/** A new transfer (no reversal) as `post` takes it. */
const newTransfer = (input: TransferInput): PostInput => ({
  idempotencyKey: input.idempotencyKey,
  type: input.type,
  orderCode: input.orderCode ?? null,
  ...noteParts(input.note),
  actorUserId: input.actorUserId ?? null,
  reversesId: null,
  postings: input.postings,
});

/** Why these balances may not be posted (a forbidden negative first, then the limit), or null. */
function refusalOf(moves: Array<{ account: { allowNegative: boolean }; balanceAfter: number }>) {
  if (moves.some((m) => !m.account.allowNegative && m.balanceAfter < 0))
    return refused('insufficient balance', 'insufficientBalance');
  if (moves.some((m) => Math.abs(m.balanceAfter) > MAX_LEDGER_AMOUNT))
    return refused('balance limit exceeded', 'balanceLimit');
  return null;
}

/**
 * What a repeat of an idempotency key must match. The note's text stands for its template too (the
 * template says the same in other languages), so keys posted before templates existed still match.
 */
function inputHashOf(input: Omit<PostInput, 'idempotencyKey'>): string {
  return sha256(
    canonicalJson({
      type: input.type,
      orderCode: input.orderCode,
      note: input.note,
      actorUserId: input.actorUserId,
      reversesId: input.reversesId,
      postings: input.postings.map((p) => ({ account: p.account, amount: p.amount })),
    }),
  );
}

/** The postings' rules; answers the accounts they name. Refusals are 400 with issues (a caller's bug). */
function validate(input: { idempotencyKey: string; type: string; postings: Posting[] }): AccountSpec[] {
  const fail = (path: string, message: string) => invalid([{ path, message }]);
  if (!input.idempotencyKey) throw fail('idempotencyKey', 'an idempotency key is required');
  if (!input.type) throw fail('type', 'a type is required');
  if (!Array.isArray(input.postings) || input.postings.length < 2) {
    throw fail('postings', 'a transfer has at least two postings');
  }
  const specs: AccountSpec[] = [];
  const seen = new Set<string>();
  let sum = 0n;
  input.postings.forEach((p, i) => {
    const spec = parseAccountCode(p.account);
    if (!spec) throw fail(`postings.${i}.account`, `malformed account code: ${p.account}`);
    if (seen.has(p.account)) throw fail(`postings.${i}.account`, `account ${p.account} appears twice`);
    seen.add(p.account);
    if (!Number.isSafeInteger(p.amount) || p.amount === 0 || Math.abs(p.amount) > MAX_LEDGER_AMOUNT) {
      throw fail(`postings.${i}.amount`, 'an amount is a non-zero integer of minor units');
    }
    sum += BigInt(p.amount);
    specs.push(spec);
  });
  if (sum !== 0n) throw fail('postings', `the postings sum to ${sum}, not zero`);
  return specs;
}
