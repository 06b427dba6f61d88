import {
  type AgentAction,
  type AgentCommission,
  agentActionRefusal,
  type Role,
  SUPPLIER_TEXTS,
  type SupplierRow,
  USER_TEXTS,
} from '@paydesk/contract';
import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { statement } from '../../db/raw-rows.js';
import { partyProducts, suppliers, users } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { DataScope } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { conflict, forbidden, notFound, refused } from '../../platform/errors.js';
import { afterInOrder, keysetRowsAfter } from '../../platform/export.js';
import { escapeLike } from '../../platform/like.js';
import type { SettingsStore } from '../../platform/settings.js';
import { proposalKindsFor } from '../funds/proposal-rule.js';
import { accountCode, partyBalances } from '../ledger/accounts.js';
import type { Posting } from '../ledger/ledger.service.js';
import type { ProductsService } from '../products/products.service.js';
import type { UsersService } from '../users/users.service.js';

/**
 * A supplier's commission rate for a product and its parent's (an agent's parent earns the difference);
 * a rate is 0 without settings. `parent_id` is null for a supplier without a parent (or a parent gone).
 * As SQL over any supplier id and product id expressions (the order engine reads it with the order it
 * locks for a payment, in the same statement: `commissionRatesSql`).
 */
export const commissionRatesSql = (supplierId: string, productId: string) => `
    select s.id as supplier_id, coalesce(pp.commission_rate, 0) as rate, p.id as parent_id,
           coalesce(ppp.commission_rate, 0) as parent_rate
      from suppliers s
      left join party_products pp on pp.user_id = s.user_id and pp.product_id = ${productId}
      left join suppliers p on p.id = s.parent_id
      left join party_products ppp on ppp.user_id = p.user_id and ppp.product_id = ${productId}
     where s.id = ${supplierId}`;
const COMMISSION_RATES = statement<'supplierId' | 'productId'>((v) => commissionRatesSql(v.supplierId, v.productId));
export interface CommissionRatesRow {
  supplier_id: number | string;
  rate: number | string;
  parent_id: number | string | null;
  parent_rate: number | string;
}

/**
 * What suppliers earn on an order of `amount` (minor units) taken by `supplierId`'s resource, from its
 * rates (`commissionRatesSql`): the supplier amount x its rate / 10000 (floored); when it is an agent,
 * its parent amount x (parent's rate - agent's rate) / 10000 (floored). Positive postings to
 * `supplier:<id>:available` only (zero shares are left out); the caller balances them, from the
 * platform's revenue.
 */
export function commissionFromRates(row: CommissionRatesRow, input: { supplierId: number; amount: number }): Posting[] {
  const amount = BigInt(input.amount);
  const share = (rate: number) => Number((amount * BigInt(Math.max(rate, 0))) / 10_000n);
  const postings: Posting[] = [];
  const rate = Number(row.rate);
  const own = share(rate);
  if (own > 0) postings.push({ account: accountCode('supplier', input.supplierId, 'available'), amount: own });
  if (row.parent_id !== null) {
    const parentShare = share(Number(row.parent_rate) - rate);
    if (parentShare > 0)
      postings.push({ account: accountCode('supplier', Number(row.parent_id), 'available'), amount: parentShare });
  }
  return postings;
}

export interface SuppliersDeps {
  db: Db;
  clock: Clock;
  /** Creates the console account of a supplier or an agent inside the same transaction. */
  users: UsersService;
  /** Owns per-product settings and the commission cap rule (an agent's never above its parent's). */
  products: ProductsService;
  settings: SettingsStore;
}

type SupplierRecord = typeof suppliers.$inferSelect;

/** Who acts on an agent: the signed-in account and its role (the agent rule reads both). */
export interface AgentCaller {
  userId: number;
  role: Role;
}

export interface SupplierFilters {
  account?: string | null | undefined;
  name?: string | null | undefined;
  enabled?: boolean | undefined;
  kind?: 'supplier' | 'agent' | 'all' | undefined;
  parentId?: number | null | undefined;
}

type SortKey = 'createdAt' | 'balance' | 'frozenBalance';

export type CreateSupplierInput =
  | {
      name: string;
      mode: 'newAccount';
      account: string;
      nickname?: string | undefined;
      password: string;
      remark: string;
    }
  | { name: string; mode: 'linkAccount'; userId: number; remark: string };

/**
 * addUserInTx checks that the creating role may create the account, by the rules of account
 * administration. A supplier is no account manager: what lets it open an agent account is the platform
 * rule that a top-level supplier may create agents under itself, which this service checks before the
 * call (the caller has a supplier record and is not itself an agent). The role passed names the
 * authority that rule stands for: account administration at admin level, which may create supplier
 * accounts. The audit rows still name the supplier who did it as the actor.
 */
const AGENT_ACCOUNT_AUTHORITY: Role = 'admin';

const parent = alias(suppliers, 'parent_supplier');
const supplierBalances = partyBalances('supplier', suppliers.id);
const { available, frozen, availableOn, frozenOn, balance: balanceSql, frozenBalance: frozenSql } = supplierBalances;

const rowFields = {
  supplier: suppliers,
  account: users.account,
  parentName: parent.name,
  agentCount: sql<number>`(select count(*) from suppliers a where a.parent_id = ${suppliers.id})`.mapWith(Number),
  balance: balanceSql,
  frozenBalance: frozenSql,
};

interface RowResult {
  supplier: SupplierRecord;
  account: string;
  parentName: string | null;
  agentCount: number;
  balance: number;
  frozenBalance: number;
}

/** What the caller may propose for a row (the contract's rule); none where no caller is named. */
type KindsOf = Awaited<ReturnType<typeof proposalKindsFor>>;

function toRow(r: RowResult, kinds: KindsOf | null = null): SupplierRow {
  return {
    id: r.supplier.id,
    userId: r.supplier.userId,
    account: r.account,
    name: r.supplier.name,
    parentId: r.supplier.parentId,
    parentName: r.parentName,
    enabled: r.supplier.enabled,
    remark: r.supplier.remark,
    agentCount: r.agentCount,
    balance: r.balance,
    frozenBalance: r.frozenBalance,
    createdAt: r.supplier.createdAt.toISOString(),
    proposalKinds: kinds ? kinds({ partyKind: 'supplier', balance: r.balance }) : [],
  };
}

/** What an audit row shows of a supplier. */
const auditView = (s: Pick<SupplierRecord, 'name' | 'enabled' | 'remark' | 'parentId' | 'userId'>) => ({
  name: s.name,
  enabled: s.enabled,
  remark: s.remark,
  parentId: s.parentId,
  userId: s.userId,
});

interface Sort {
  sortBy?: SortKey | null | undefined;
  sortOrder?: 'asc' | 'desc' | null | undefined;
}

/** The sortable columns: their SQL, and a row's value of it (an export's cursor). */
const SORT_COLUMNS: Record<SortKey, { expr: SQL; valueOf(row: SupplierRow): number | string }> = {
  createdAt: { expr: sql`${suppliers.createdAt}`, valueOf: (r) => r.createdAt },
  balance: { expr: sql`coalesce(${available.balance}, 0)`, valueOf: (r) => r.balance },
  frozenBalance: { expr: sql`coalesce(${frozen.balance}, 0)`, valueOf: (r) => r.frozenBalance },
};

/** The list's order: the chosen column, then id (so equal values keep one order across pages). */
function orderOf(input: Sort): SQL[] {
  const sort = input.sortBy ? SORT_COLUMNS[input.sortBy] : null;
  if (!sort) return [asc(suppliers.id)];
  return [input.sortOrder === 'desc' ? desc(sort.expr) : asc(sort.expr), asc(suppliers.id)];
}

/** Suppliers, supplier agents and their commission split (issue 4, item 4). */
export class SuppliersService {
  constructor(readonly deps: SuppliersDeps) {}

  private get db() {
    return this.deps.db;
  }
  private now() {
    return this.deps.clock.now();
  }

  private select(db: DbOrTx = this.db) {
    return db
      .select(rowFields)
      .from(suppliers)
      .innerJoin(users, eq(users.id, suppliers.userId))
      .leftJoin(parent, eq(parent.id, suppliers.parentId))
      .leftJoin(available, availableOn)
      .leftJoin(frozen, frozenOn);
  }

  private whereOf(scope: DataScope, f: SupplierFilters): SQL | undefined {
    return and(
      scope.all ? undefined : inArray(suppliers.userId, [...scope.userIds]),
      f.account ? ilike(users.account, `%${escapeLike(f.account)}%`) : undefined,
      f.name ? ilike(suppliers.name, `%${escapeLike(f.name)}%`) : undefined,
      f.enabled === true || f.enabled === false ? eq(suppliers.enabled, f.enabled) : undefined,
      f.kind === 'supplier'
        ? isNull(suppliers.parentId)
        : f.kind === 'agent'
          ? isNotNull(suppliers.parentId)
          : undefined,
      f.parentId ? eq(suppliers.parentId, f.parentId) : undefined,
    );
  }

  /** `role`: the caller's, for the rows' `proposalKinds`. */
  async getList(
    scope: DataScope,
    input: SupplierFilters & Sort & { pageIndex: number; pageSize: number },
    role: Role | null = null,
  ) {
    const where = this.whereOf(scope, input);
    const [rows, [totals], kinds] = await Promise.all([
      this.select()
        .where(where)
        .orderBy(...orderOf(input))
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.db
        .select(supplierBalances.totals)
        .from(suppliers)
        .innerJoin(users, eq(users.id, suppliers.userId))
        .leftJoin(available, availableOn)
        .leftJoin(frozen, frozenOn)
        .where(where),
      proposalKindsFor(this.deps.settings, role),
    ]);
    return {
      list: rows.map((r) => toRow(r, kinds)),
      total: totals?.n ?? 0,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
      summary: { balance: totals?.balance ?? 0, frozenBalance: totals?.frozenBalance ?? 0 },
    };
  }

  /**
   * The filtered set for the CSV export, in the list's order, read in batches after a cursor (the last
   * row's sort value and id), so memory stays flat whatever its size.
   */
  async *exportList(scope: DataScope, input: SupplierFilters & Sort, batchSize = 1000): AsyncGenerator<SupplierRow> {
    const where = this.whereOf(scope, input);
    const sort = input.sortBy ? SORT_COLUMNS[input.sortBy] : null;
    const descending = input.sortOrder === 'desc';
    yield* keysetRowsAfter<SupplierRow>(async (last, limit) => {
      const after = last
        ? afterInOrder(sort && { expr: sort.expr, value: sort.valueOf(last) }, descending, {
            column: suppliers.id,
            value: last.id,
          })
        : undefined;
      const rows = await this.select()
        .where(and(where, after))
        .orderBy(...orderOf(input))
        .limit(limit);
      return rows.map((r) => toRow(r));
    }, batchSize);
  }

  /** One supplier in the caller's scope; someone else's is a 404. */
  async getDetail(scope: DataScope, id: number, role: Role | null = null): Promise<SupplierRow> {
    const [row] = await this.select()
      .where(and(eq(suppliers.id, id), this.whereOf(scope, {})))
      .limit(1);
    if (!row) throw notFound('no such supplier');
    return toRow(row, await proposalKindsFor(this.deps.settings, role));
  }

  /** The supplier record of a console account, or null. */
  async getMine(userId: number): Promise<SupplierRow | null> {
    const [row] = await this.select().where(eq(suppliers.userId, userId)).limit(1);
    return row ? toRow(row) : null;
  }

  /**
   * Staff create a supplier: with a new console account (only while AutoCreateRelateSupplier is on), or
   * on an existing supplier account that no supplier record uses yet. One transaction.
   */
  async create(actorRole: Role, input: CreateSupplierInput, actor: Actor): Promise<{ id: number; userId: number }> {
    try {
      return await this.db.transaction(async (tx) => {
        let userId: number;
        let account: string;
        if (input.mode === 'newAccount') {
          if (!(await this.deps.settings.get('AutoCreateRelateSupplier', tx))) {
            throw refused(SUPPLIER_TEXTS.autoCreateOff, 'autoCreateOff');
          }
          const created = await this.deps.users.addUserInTx(
            tx,
            actorRole,
            {
              nickname: input.nickname ?? input.name,
              account: input.account,
              password: input.password,
              access: 'supplier',
            },
            actor,
            { partyLinked: true },
          );
          userId = created.id;
          account = input.account;
        } else {
          const [user] = await tx.select().from(users).where(eq(users.id, input.userId)).for('update');
          const usable =
            user?.role === 'supplier' && user.deletedAt === null && !user.partyLinked && user.parentId === null;
          if (!usable) {
            throw refused(SUPPLIER_TEXTS.accountNotUsable, 'accountNotUsable');
          }
          await tx.update(users).set({ partyLinked: true, updatedAt: this.now() }).where(eq(users.id, user!.id));
          userId = user!.id;
          account = user!.account;
        }
        const created = await this.insertSupplier(tx, {
          userId,
          parentId: null,
          name: input.name,
          remark: input.remark,
        });
        await writeAudit(
          tx,
          actor,
          {
            action: 'suppliers.create',
            target: `supplier:${created.id}`,
            after: { ...auditView(created), account, mode: input.mode },
          },
          this.now(),
        );
        return { id: created.id, userId };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(USER_TEXTS.accountExists, 'accountExists');
      throw error;
    }
  }

  async update(input: { id: number; name: string; remark: string }, actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const before = await this.lockedSupplier(tx, input.id);
      const [after] = await tx
        .update(suppliers)
        .set({ name: input.name, remark: input.remark, updatedAt: this.now() })
        .where(eq(suppliers.id, before.id))
        .returning();
      await writeAudit(
        tx,
        actor,
        {
          action: 'suppliers.update',
          target: `supplier:${before.id}`,
          before: auditView(before),
          after: auditView(after!),
        },
        this.now(),
      );
    });
  }

  async setEnabled(input: { id: number; enabled: boolean }, actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const before = await this.lockedSupplier(tx, input.id);
      await tx
        .update(suppliers)
        .set({ enabled: input.enabled, updatedAt: this.now() })
        .where(eq(suppliers.id, before.id));
      await writeAudit(
        tx,
        actor,
        {
          action: 'suppliers.setEnabled',
          target: `supplier:${before.id}`,
          before: { enabled: before.enabled },
          after: { enabled: input.enabled },
        },
        this.now(),
      );
    });
  }

  // ---- agents: a supplier manages its own ----

  /**
   * A top-level supplier creates an agent: a console account with role supplier whose parent is the
   * caller's account, and a supplier record whose parent is the caller's record, in one transaction.
   */
  async createAgent(
    callerUserId: number,
    input: { account: string; nickname: string; password: string; name: string },
    actor: Actor,
  ): Promise<{ id: number; userId: number }> {
    try {
      return await this.db.transaction(async (tx) => {
        const me = await this.callerSupplier(tx, callerUserId);
        if (me.parentId !== null) throw refused(SUPPLIER_TEXTS.agentCannotHaveAgents, 'agentCannotHaveAgents');
        const account = await this.deps.users.addUserInTx(
          tx,
          AGENT_ACCOUNT_AUTHORITY,
          { nickname: input.nickname, account: input.account, password: input.password, access: 'supplier' },
          actor,
          { parentId: callerUserId, partyLinked: true },
        );
        const created = await this.insertSupplier(tx, {
          userId: account.id,
          parentId: me.id,
          name: input.name,
          remark: '',
        });
        await writeAudit(
          tx,
          actor,
          {
            action: 'suppliers.createAgent',
            target: `supplier:${created.id}`,
            after: { ...auditView(created), account: input.account },
          },
          this.now(),
        );
        return { id: created.id, userId: account.id };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(USER_TEXTS.accountExists, 'accountExists');
      throw error;
    }
  }

  async updateAgent(
    caller: AgentCaller,
    input: { agentId: number; name: string; nickname: string; enabled: boolean },
    actor: Actor,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const agent = await this.ownAgent(tx, caller, 'edit', input.agentId, true);
      const [user] = await tx.select({ nickname: users.nickname }).from(users).where(eq(users.id, agent.userId));
      await tx
        .update(suppliers)
        .set({ name: input.name, enabled: input.enabled, updatedAt: this.now() })
        .where(eq(suppliers.id, agent.id));
      await tx.update(users).set({ nickname: input.nickname, updatedAt: this.now() }).where(eq(users.id, agent.userId));
      await writeAudit(
        tx,
        actor,
        {
          action: 'suppliers.updateAgent',
          target: `supplier:${agent.id}`,
          before: { name: agent.name, enabled: agent.enabled, nickname: user?.nickname ?? null },
          after: { name: input.name, enabled: input.enabled, nickname: input.nickname },
        },
        this.now(),
      );
    });
  }

  /** The products the caller has enabled (its agent may have a commission on those), with both rates. */
  async getAgentCommissions(caller: AgentCaller, agentId: number): Promise<AgentCommission[]> {
    const callerUserId = caller.userId;
    const agent = await this.ownAgent(this.db, caller, 'commission', agentId, false);
    const [mine, theirs] = await Promise.all([
      this.db
        .select()
        .from(partyProducts)
        .where(and(eq(partyProducts.userId, callerUserId), eq(partyProducts.enabled, true)))
        .orderBy(asc(partyProducts.productId)),
      this.db.select().from(partyProducts).where(eq(partyProducts.userId, agent.userId)),
    ]);
    const agentOf = new Map(theirs.map((p) => [p.productId, p]));
    return mine.map((p) => ({
      productId: p.productId,
      parentRate: p.commissionRate,
      agentRate: agentOf.get(p.productId)?.commissionRate ?? null,
      agentEnabled: agentOf.get(p.productId)?.enabled ?? false,
    }));
  }

  /**
   * Sets an agent's commission on a product its parent (the caller) has enabled. The cap (never above
   * the parent's own) is the products service's rule: a 422 commissionAboveParent from there.
   */
  async setAgentCommission(
    caller: AgentCaller,
    input: { agentId: number; productId: number; commissionRate: number },
    actor: Actor,
  ): Promise<void> {
    await this.db.transaction(async (tx) => {
      const agent = await this.ownAgent(tx, caller, 'commission', input.agentId, false);
      const mine = await this.deps.products.settingsOf(tx, caller.userId, input.productId);
      if (!mine?.enabled) throw refused(SUPPLIER_TEXTS.productNotAvailable, 'productNotAvailable');
      await this.deps.products.saveCommission(
        tx,
        { userId: agent.userId, productId: input.productId, commissionRate: input.commissionRate },
        actor,
      );
    });
  }

  // ---- commission split (used by order work) ----

  /** What suppliers earn on an order of `amount` taken by `supplierId`'s resource (`commissionFromRates`). */
  async commissionPostings(
    tx: DbOrTx,
    input: { supplierId: number; productId: number; amount: number },
  ): Promise<Posting[]> {
    const [row] = await COMMISSION_RATES.rows<CommissionRatesRow>(tx, {
      supplierId: input.supplierId,
      productId: input.productId,
    });
    if (!row) throw notFound('no such supplier');
    return commissionFromRates(row, input);
  }

  // ---- helpers ----

  private async insertSupplier(
    tx: Tx,
    values: { userId: number; parentId: number | null; name: string; remark: string },
  ): Promise<SupplierRecord> {
    const now = this.now();
    const [created] = await tx
      .insert(suppliers)
      .values({ ...values, enabled: true, createdAt: now, updatedAt: now })
      .returning();
    return created!;
  }

  private async lockedSupplier(tx: Tx, id: number): Promise<SupplierRecord> {
    const [row] = await tx.select().from(suppliers).where(eq(suppliers.id, id)).for('update');
    if (!row) throw notFound('no such supplier');
    return row;
  }

  /** The caller's own supplier record; an account without one is refused. */
  private async callerSupplier(db: DbOrTx, userId: number): Promise<SupplierRecord> {
    const [me] = await db.select().from(suppliers).where(eq(suppliers.userId, userId));
    if (!me) throw refused(SUPPLIER_TEXTS.notASupplier, 'notASupplier');
    return me;
  }

  /**
   * One of the caller's agents, by the contract's agent rule (the one the agent list's actions are
   * offered by): another supplier's agent answers 404 like a missing one, and so does a deleted agent
   * (no list shows it); a role the action is not open to, 403.
   */
  private async ownAgent(
    db: DbOrTx,
    caller: AgentCaller,
    action: AgentAction,
    agentId: number,
    lock: boolean,
  ): Promise<SupplierRecord> {
    const query = db
      .select({ agent: suppliers, parentUserId: users.parentId, deletedAt: users.deletedAt })
      .from(suppliers)
      .innerJoin(users, eq(users.id, suppliers.userId))
      .where(eq(suppliers.id, agentId));
    const [row] = lock ? await query.for('update', { of: suppliers }) : await query;
    if (!row || row.deletedAt !== null) throw notFound('no such agent');
    const refusal = agentActionRefusal(action, caller, { parentUserId: row.parentUserId });
    if (refusal === 'role') throw forbidden();
    if (refusal !== null) throw notFound('no such agent');
    return row.agent;
  }
}
