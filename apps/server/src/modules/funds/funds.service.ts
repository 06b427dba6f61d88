import {
  Code,
  FUNDS_TEXTS,
  type FundBucket,
  type FundRecordRow,
  minorToMajorText,
  type NoteTemplate,
  note,
  type PartyKind,
  type ProposalKind,
  type ProposalRow,
  type ProposalState,
  proposalRefusal,
  type Role,
  type TotalBalance,
  TRANSFER_TYPE_OF,
} from '@paydesk/contract';
import { and, asc, desc, eq, gte, inArray, lt, lte, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import {
  balanceProposals,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransfers,
  merchants,
  suppliers,
  users,
} from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, conflict, forbidden, invalid, notFound, refused } from '../../platform/errors.js';
import { keysetRows } from '../../platform/export.js';
import type { SettingsStore } from '../../platform/settings.js';
import { parsePlatformTime } from '../../platform/time.js';
import { accountCode } from '../ledger/accounts.js';
import type { LedgerService, Posting } from '../ledger/ledger.service.js';
import type { MessagesService } from '../messages/messages.service.js';
import { proposalSettings } from './proposal-rule.js';

export interface FundsDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  messages: MessagesService;
  /** The platform time zone: filter dates are read in it. */
  timeZone: string;
  settings: SettingsStore;
}

export interface FundRecordFilters {
  partyKind?: PartyKind | null | undefined;
  userId?: number | null | undefined;
  bucket?: FundBucket | null | undefined;
  type?: string | null | undefined;
  orderCode?: string | null | undefined;
  startTime?: string | null | undefined;
  endTime?: string | null | undefined;
  minAmount?: number | null | undefined;
  maxAmount?: number | null | undefined;
}

export interface ProposalFilters {
  state?: ProposalState | null | undefined;
  partyKind?: PartyKind | null | undefined;
  partyId?: number | null | undefined;
  kind?: ProposalKind | null | undefined;
}

export interface ProposeInput {
  partyKind: PartyKind;
  partyId: number;
  kind: ProposalKind;
  amount?: number | null | undefined;
  note: string;
}

interface Page {
  pageIndex: number;
  pageSize: number;
}

/**
 * Whose fund records a caller reads: every party's (staff), or only the parties linked to one console
 * account (a merchant or supplier reads its own; a supplier's agents' entries are theirs, not its).
 */
export type FundOwner = { all: true } | { all: false; userId: number };

export interface FundSort {
  sortBy?: 'createdAt' | 'amount' | null | undefined;
  sortOrder?: 'asc' | 'desc' | null | undefined;
}

/**
 * The fund records' order (newest first unless sorted), ties broken by entry id, and the keyset
 * condition "after the entry `cursor`" in that order, for the export's batches.
 */
function fundOrder(sort: FundSort) {
  const ascending = sort.sortOrder === 'asc';
  const dir = ascending ? asc : desc;
  const column = sort.sortBy === 'amount' ? ledgerEntries.amount : ledgerEntries.createdAt;
  const name = sql.raw(sort.sortBy === 'amount' ? 'amount' : 'created_at');
  const op = sql.raw(ascending ? '>' : '<');
  return {
    orderBy: [dir(column), dir(ledgerEntries.id)],
    after: (cursor: number) =>
      sql`(${column}, ${ledgerEntries.id}) ${op} (select c.${name}, c.id from ledger_entries c where c.id = ${cursor})`,
  };
}

const sumText = (v: SQL) => sql<string>`coalesce(sum(${v}), 0)::text`;
const PARTY_OWNER_KINDS = ['merchant', 'supplier'];

/** The party's console account: the merchant's or the supplier's, whichever the account belongs to. */
const partyUserId = sql<number | null>`coalesce(${merchants.userId}, ${suppliers.userId})`;
const partyName = sql<string | null>`coalesce(${merchants.name}, ${suppliers.name})`;

/** Join conditions of a party's ledger entries: its account (merchant or supplier only), transfer, owner. */
const partyAccountOn = and(
  eq(ledgerAccounts.id, ledgerEntries.accountId),
  inArray(ledgerAccounts.ownerKind, PARTY_OWNER_KINDS),
);
const transferOn = eq(ledgerTransfers.id, ledgerEntries.transferId);
const merchantOn = and(eq(ledgerAccounts.ownerKind, 'merchant'), eq(merchants.id, ledgerAccounts.ownerId));
const supplierOn = and(eq(ledgerAccounts.ownerKind, 'supplier'), eq(suppliers.id, ledgerAccounts.ownerId));

const proposer = alias(users, 'proposer');
const decider = alias(users, 'decider');
const proposalMerchant = alias(merchants, 'proposal_merchant');
const proposalSupplier = alias(suppliers, 'proposal_supplier');

/**
 * Funds: fund records (ledger entries seen from a merchant's or supplier's account), balances, and
 * maker-checker balance proposals (DESIGN section 3) that post to the ledger only when a second staff
 * account approves them.
 */
export class FundsService {
  constructor(readonly deps: FundsDeps) {}

  private get db() {
    return this.deps.db;
  }
  private now() {
    return this.deps.clock.now();
  }

  // ---- fund records ----

  private fundWhere(owner: FundOwner, f: FundRecordFilters): SQL | undefined {
    const tz = this.deps.timeZone;
    return and(
      owner.all ? undefined : sql`${partyUserId} = ${owner.userId}`,
      f.partyKind ? eq(ledgerAccounts.ownerKind, f.partyKind) : undefined,
      f.userId ? sql`${partyUserId} = ${f.userId}` : undefined,
      f.bucket ? eq(ledgerAccounts.bucket, f.bucket) : undefined,
      f.type ? eq(ledgerTransfers.type, f.type) : undefined,
      f.orderCode ? eq(ledgerTransfers.orderCode, f.orderCode) : undefined,
      f.startTime ? gte(ledgerEntries.createdAt, parsePlatformTime(f.startTime, tz)) : undefined,
      f.endTime ? lte(ledgerEntries.createdAt, parsePlatformTime(f.endTime, tz)) : undefined,
      f.minAmount !== null && f.minAmount !== undefined ? gte(ledgerEntries.amount, f.minAmount) : undefined,
      f.maxAmount !== null && f.maxAmount !== undefined ? lte(ledgerEntries.amount, f.maxAmount) : undefined,
    );
  }

  private fundRows(where: SQL | undefined) {
    return this.db
      .select({
        id: ledgerEntries.id,
        createdAt: ledgerEntries.createdAt,
        partyKind: ledgerAccounts.ownerKind,
        partyId: ledgerAccounts.ownerId,
        userId: partyUserId,
        account: users.account,
        partyName,
        bucket: ledgerAccounts.bucket,
        type: ledgerTransfers.type,
        orderCode: ledgerTransfers.orderCode,
        amount: ledgerEntries.amount,
        balanceBefore: ledgerEntries.balanceBefore,
        balanceAfter: ledgerEntries.balanceAfter,
        note: ledgerTransfers.note,
        noteTemplate: ledgerTransfers.noteTemplate,
        transferId: ledgerEntries.transferId,
      })
      .from(ledgerEntries)
      .innerJoin(ledgerAccounts, partyAccountOn)
      .innerJoin(ledgerTransfers, transferOn)
      .leftJoin(merchants, merchantOn)
      .leftJoin(suppliers, supplierOn)
      .leftJoin(users, eq(users.id, partyUserId))
      .where(where);
  }

  async getFundRecordList(owner: FundOwner, input: FundRecordFilters & Page & FundSort) {
    const where = this.fundWhere(owner, input);
    const [rows, [sums]] = await Promise.all([
      this.fundRows(where)
        .orderBy(...fundOrder(input).orderBy)
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.db
        .select({
          n: sql<string>`count(*)::text`,
          amount: sumText(sql`${ledgerEntries.amount}`),
          income: sumText(sql`case when ${ledgerEntries.amount} > 0 then ${ledgerEntries.amount} else 0 end`),
          expense: sumText(sql`case when ${ledgerEntries.amount} < 0 then ${ledgerEntries.amount} else 0 end`),
        })
        .from(ledgerEntries)
        .innerJoin(ledgerAccounts, partyAccountOn)
        .innerJoin(ledgerTransfers, transferOn)
        .leftJoin(merchants, merchantOn)
        .leftJoin(suppliers, supplierOn)
        .where(where),
    ]);
    return {
      list: rows.map(toFundRow),
      total: Number(sums?.n ?? 0),
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
      summary: {
        amount: Number(sums?.amount ?? 0),
        income: Number(sums?.income ?? 0),
        expense: Number(sums?.expense ?? 0),
      },
    };
  }

  /** The filtered set for the CSV export in the list's order, read in keyset batches. */
  async *exportFundRecords(
    owner: FundOwner,
    input: FundRecordFilters & FundSort,
    batchSize = 1000,
  ): AsyncGenerator<FundRecordRow> {
    const where = this.fundWhere(owner, input);
    const order = fundOrder(input);
    const rows = keysetRows(
      (cursor, limit) =>
        this.fundRows(and(where, cursor === null ? undefined : order.after(cursor)))
          .orderBy(...order.orderBy)
          .limit(limit),
      batchSize,
    );
    for await (const row of rows) yield toFundRow(row);
  }

  // ---- balances ----

  /** A merchant's or supplier's own balances; staff get the sums over every party and the revenue. */
  async getTotalBalance(user: { userId: number; role: Role }): Promise<TotalBalance> {
    if (user.role === 'merchant' || user.role === 'supplier') {
      const table = user.role === 'merchant' ? merchants : suppliers;
      const [party] = await this.db.select({ id: table.id }).from(table).where(eq(table.userId, user.userId)).limit(1);
      if (!party) return { kind: user.role, balance: 0, frozenBalance: 0, revenue: null };
      const rows = await this.db
        .select({ bucket: ledgerAccounts.bucket, balance: ledgerAccounts.balance })
        .from(ledgerAccounts)
        .where(and(eq(ledgerAccounts.ownerKind, user.role), eq(ledgerAccounts.ownerId, party.id)));
      const of = (bucket: string) => rows.find((r) => r.bucket === bucket)?.balance ?? 0;
      return { kind: user.role, balance: of('available'), frozenBalance: of('frozen'), revenue: null };
    }
    const sums = await this.db
      .select({ bucket: ledgerAccounts.bucket, total: sumText(sql`${ledgerAccounts.balance}`) })
      .from(ledgerAccounts)
      .where(inArray(ledgerAccounts.ownerKind, PARTY_OWNER_KINDS))
      .groupBy(ledgerAccounts.bucket);
    const of = (bucket: string) => Number(sums.find((r) => r.bucket === bucket)?.total ?? 0);
    return {
      kind: 'platform',
      balance: of('available'),
      frozenBalance: of('frozen'),
      revenue: await this.deps.ledger.revenue(this.db),
    };
  }

  // ---- maker-checker proposals ----

  private async partyOf(db: DbOrTx, kind: PartyKind, id: number) {
    const table = kind === 'merchant' ? merchants : suppliers;
    const [party] = await db
      .select({ id: table.id, name: table.name, userId: table.userId })
      .from(table)
      .where(eq(table.id, id))
      .limit(1);
    if (!party) throw notFound(`no such ${kind}`);
    return party;
  }

  /**
   * A proposal, if the contract's rule allows the kind for the caller's role, the party (its available
   * balance) and the settings: the same rule that fills the rows' `proposalKinds`.
   */
  async propose(input: ProposeInput, actor: Actor, role: Role): Promise<{ id: number }> {
    if (actor.userId === null) throw new Error('a proposal needs a staff account');
    const proposedBy = actor.userId;
    return this.db.transaction(async (tx) => {
      const party = await this.partyOf(tx, input.partyKind, input.partyId);
      const [available] = await tx
        .select({ balance: ledgerAccounts.balance })
        .from(ledgerAccounts)
        .where(eq(ledgerAccounts.code, accountCode(input.partyKind, party.id, 'available')));
      const refusal = proposalRefusal(
        input.kind,
        role,
        { partyKind: input.partyKind, balance: available?.balance ?? 0 },
        await proposalSettings(this.deps.settings, tx),
      );
      if (refusal === 'role') throw forbidden();
      if (refusal === 'kind') {
        throw invalid([{ path: 'kind', message: `a ${input.partyKind} does not take '${input.kind}'` }]);
      }
      if (refusal === 'clearDisabled') throw refused(FUNDS_TEXTS.clearDisabled, 'clearDisabled');
      if (refusal === 'nothingToClear') throw refused(FUNDS_TEXTS.nothingToClear, 'nothingToClear');
      const amount = input.kind === 'clear' ? null : (input.amount ?? null);
      const [created] = await tx
        .insert(balanceProposals)
        .values({
          partyKind: input.partyKind,
          partyId: party.id,
          kind: input.kind,
          amount,
          note: input.note,
          state: 'pending',
          proposedBy,
          proposedAt: this.now(),
        })
        .returning({ id: balanceProposals.id });
      await writeAudit(
        tx,
        actor,
        {
          action: 'funds.propose',
          target: `proposal:${created!.id}`,
          after: {
            partyKind: input.partyKind,
            partyId: party.id,
            partyName: party.name,
            kind: input.kind,
            amount,
            note: input.note,
          },
        },
        this.now(),
      );
      return { id: created!.id };
    });
  }

  /** The proposal, locked until the transaction ends: two decisions on it cannot both happen. */
  private async lockPending(tx: Tx, id: number) {
    const [proposal] = await tx.select().from(balanceProposals).where(eq(balanceProposals.id, id)).for('update');
    if (!proposal) throw notFound('no such proposal');
    if (proposal.state !== 'pending') throw conflict(FUNDS_TEXTS.notPending, 'notPending');
    return proposal;
  }

  /**
   * Posts the proposal's one ledger transfer (key `proposal:<id>`) between the party's available
   * account and platform:adjustments, and marks it approved, in one transaction. A refusal (own
   * proposal, insufficient balance, nothing to clear) leaves it pending with nothing moved.
   */
  async approve(id: number, actor: Actor): Promise<{ id: number; transferId: number }> {
    const approver = actor.userId;
    if (approver === null) throw new Error('an approval needs a staff account');
    const done = await this.db.transaction(async (tx) => {
      const proposal = await this.lockPending(tx, id);
      if (proposal.proposedBy === approver) throw refused(FUNDS_TEXTS.selfApproval, 'selfApproval');
      const kind = proposal.kind as ProposalKind;
      const account = accountCode(proposal.partyKind as PartyKind, proposal.partyId, 'available');
      let amount: number;
      if (kind === 'clear') {
        // Locked first (its code sorts before platform:*, the ledger's own lock order): the balance
        // read here is the one cleared.
        const [row] = await tx
          .select({ balance: ledgerAccounts.balance })
          .from(ledgerAccounts)
          .where(eq(ledgerAccounts.code, account))
          .for('update');
        const balance = row?.balance ?? 0;
        if (balance <= 0) throw refused(FUNDS_TEXTS.nothingToClear, 'nothingToClear');
        amount = -balance;
      } else if (kind === 'withdraw') {
        amount = -(proposal.amount ?? 0);
      } else {
        amount = proposal.amount ?? 0;
      }
      const postings: Posting[] = [
        { account, amount },
        { account: accountCode('platform', 'adjustments'), amount: -amount },
      ];
      const transfer = await this.deps.ledger.transfer(tx, {
        idempotencyKey: `proposal:${proposal.id}`,
        type: TRANSFER_TYPE_OF[kind],
        note: proposal.note,
        actorUserId: approver,
        postings,
      });
      const now = this.now();
      await tx
        .update(balanceProposals)
        .set({ state: 'approved', decidedBy: approver, decidedAt: now, transferId: transfer.id })
        .where(eq(balanceProposals.id, proposal.id));
      await writeAudit(
        tx,
        actor,
        {
          action: 'funds.approve',
          target: `proposal:${proposal.id}`,
          before: { state: 'pending' },
          after: { state: 'approved', transferId: transfer.id, account, amount },
        },
        now,
      );
      const party = await this.partyOf(tx, proposal.partyKind as PartyKind, proposal.partyId);
      const message = await this.deps.messages.notify(tx, {
        title: note('proposalApprovedTitle', { id: proposal.id }),
        content: note('proposalApproved', {
          id: proposal.id,
          proposalKind: kind,
          partyKind: proposal.partyKind,
          party: party.name,
          amount: minorToMajorText(amount),
          account: actor.account ?? 'staff',
          transferId: transfer.id,
          note: proposal.note,
        }),
        userIds: [proposal.proposedBy],
      });
      return { result: { id: proposal.id, transferId: transfer.id }, message, proposedBy: proposal.proposedBy };
    });
    if (done.message) await this.deps.messages.announce([done.proposedBy], done.message.msgId);
    return done.result;
  }

  async reject(input: { id: number; reason: string }, actor: Actor): Promise<void> {
    const decidedBy = actor.userId;
    if (decidedBy === null) throw new Error('a rejection needs a staff account');
    const done = await this.db.transaction(async (tx) => {
      const proposal = await this.lockPending(tx, input.id);
      const now = this.now();
      await tx
        .update(balanceProposals)
        .set({ state: 'rejected', decidedBy, decidedAt: now, decisionNote: input.reason })
        .where(eq(balanceProposals.id, proposal.id));
      await writeAudit(
        tx,
        actor,
        {
          action: 'funds.reject',
          target: `proposal:${proposal.id}`,
          before: { state: 'pending' },
          after: { state: 'rejected', reason: input.reason },
        },
        now,
      );
      // The proposer hears of it, unless they rejected it themselves.
      if (proposal.proposedBy === decidedBy) return { message: null, proposedBy: proposal.proposedBy };
      const kind = proposal.kind as ProposalKind;
      const message = await this.deps.messages.notify(tx, {
        title: note('proposalRejectedTitle', { id: proposal.id }),
        content: note('proposalRejected', {
          id: proposal.id,
          proposalKind: kind,
          partyKind: proposal.partyKind,
          party: (await this.partyOf(tx, proposal.partyKind as PartyKind, proposal.partyId)).name,
          account: actor.account ?? 'staff',
          reason: input.reason,
        }),
        userIds: [proposal.proposedBy],
      });
      return { message, proposedBy: proposal.proposedBy };
    });
    if (done.message) await this.deps.messages.announce([done.proposedBy], done.message.msgId);
  }

  /** The proposer withdraws their own pending proposal. */
  async cancel(id: number, actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const proposal = await this.lockPending(tx, id);
      if (proposal.proposedBy !== actor.userId) {
        throw new AppError(Code.forbidden, FUNDS_TEXTS.notProposer, { reason: 'notProposer' });
      }
      const now = this.now();
      await tx
        .update(balanceProposals)
        .set({ state: 'cancelled', decidedBy: actor.userId, decidedAt: now })
        .where(eq(balanceProposals.id, proposal.id));
      await writeAudit(
        tx,
        actor,
        {
          action: 'funds.cancel',
          target: `proposal:${proposal.id}`,
          before: { state: 'pending' },
          after: { state: 'cancelled' },
        },
        now,
      );
    });
  }

  private proposalWhere(f: ProposalFilters) {
    return and(
      f.state ? eq(balanceProposals.state, f.state) : undefined,
      f.partyKind ? eq(balanceProposals.partyKind, f.partyKind) : undefined,
      f.partyId ? eq(balanceProposals.partyId, f.partyId) : undefined,
      f.kind ? eq(balanceProposals.kind, f.kind) : undefined,
    );
  }

  private proposalRows(where: SQL | undefined) {
    return this.db
      .select({
        p: balanceProposals,
        proposedBy: proposer.account,
        decidedBy: decider.account,
        partyName: sql<string | null>`coalesce(${proposalMerchant.name}, ${proposalSupplier.name})`,
      })
      .from(balanceProposals)
      .innerJoin(proposer, eq(proposer.id, balanceProposals.proposedBy))
      .leftJoin(decider, eq(decider.id, balanceProposals.decidedBy))
      .leftJoin(
        proposalMerchant,
        and(eq(balanceProposals.partyKind, 'merchant'), eq(proposalMerchant.id, balanceProposals.partyId)),
      )
      .leftJoin(
        proposalSupplier,
        and(eq(balanceProposals.partyKind, 'supplier'), eq(proposalSupplier.id, balanceProposals.partyId)),
      )
      .where(where);
  }

  async getProposalList(input: ProposalFilters & Page) {
    const where = this.proposalWhere(input);
    const [rows, [sums]] = await Promise.all([
      this.proposalRows(where)
        .orderBy(desc(balanceProposals.id))
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.db
        .select({ n: sql<string>`count(*)::text`, amount: sumText(sql`${balanceProposals.amount}`) })
        .from(balanceProposals)
        .where(where),
    ]);
    return {
      list: rows.map(toProposalRow),
      total: Number(sums?.n ?? 0),
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
      summary: { amount: Number(sums?.amount ?? 0) },
    };
  }

  async *exportProposals(input: ProposalFilters): AsyncGenerator<ProposalRow> {
    const where = this.proposalWhere(input);
    const rows = keysetRows(async (beforeId, limit) =>
      (
        await this.proposalRows(and(where, beforeId === null ? undefined : lt(balanceProposals.id, beforeId)))
          .orderBy(desc(balanceProposals.id))
          .limit(limit)
      ).map((r) => ({ ...r, id: r.p.id })),
    );
    for await (const row of rows) yield toProposalRow(row);
  }
}

function toFundRow(r: {
  id: number;
  createdAt: Date;
  partyKind: string;
  partyId: number | null;
  userId: number | null;
  account: string | null;
  partyName: string | null;
  bucket: string;
  type: string;
  orderCode: string | null;
  amount: number;
  balanceBefore: number;
  balanceAfter: number;
  note: string;
  noteTemplate: NoteTemplate | null;
  transferId: number;
}): FundRecordRow {
  return {
    ...r,
    createdAt: r.createdAt.toISOString(),
    partyKind: r.partyKind as PartyKind,
    partyId: r.partyId ?? 0,
    userId: r.userId === null ? null : Number(r.userId),
    bucket: r.bucket as FundBucket,
  };
}

function toProposalRow(r: {
  p: typeof balanceProposals.$inferSelect;
  proposedBy: string;
  decidedBy: string | null;
  partyName: string | null;
}): ProposalRow {
  const p = r.p;
  return {
    id: p.id,
    partyKind: p.partyKind as PartyKind,
    partyId: p.partyId,
    partyName: r.partyName,
    kind: p.kind as ProposalKind,
    amount: p.amount,
    note: p.note,
    state: p.state as ProposalState,
    proposedBy: r.proposedBy,
    proposedById: p.proposedBy,
    proposedAt: p.proposedAt.toISOString(),
    decidedBy: r.decidedBy,
    decidedAt: p.decidedAt ? p.decidedAt.toISOString() : null,
    decisionNote: p.decisionNote,
    transferId: p.transferId,
  };
}
