import {
  type ActionCaller,
  manageableRoles,
  type Role,
  USER_TEXTS,
  type UserOption,
  type UserRow,
} from '@paydesk/contract';
import { and, asc, count, eq, gt, ilike, inArray, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.js';
import { sessions, suppliers, users } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { DataScope } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { conflict, forbidden, notFound, refused } from '../../platform/errors.js';
import { keysetRows } from '../../platform/export.js';
import { escapeLike } from '../../platform/like.js';
import { hashPassword } from '../../platform/secrets.js';
import type { SessionStore } from '../../platform/sessions.js';
import { partyBalances } from '../ledger/accounts.js';
import { refuseUserAction } from './user-actions.js';

type UserRecord = typeof users.$inferSelect;

export interface UsersDeps {
  db: Db;
  clock: Clock;
  sessions: SessionStore;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toRow(u: UserRecord): UserRow {
  return {
    id: u.id,
    account: u.account,
    nickname: u.nickname,
    role: u.role as Role,
    parentId: u.parentId,
    enableGoogleVerify: u.enableGoogleVerify,
    confirmBind: Boolean(u.googleSecret && u.googleConfirmed),
    allowModify: u.allowModify,
    hasPayPassword: u.payPasswordHash !== null,
    failedLoginCount: u.failedLoginCount,
    lockedUntil: iso(u.lockedUntil),
    lastLoginAt: iso(u.lastLoginAt),
    createdAt: u.createdAt.toISOString(),
    deletedAt: iso(u.deletedAt),
  };
}

function toOption(u: UserRecord): UserOption {
  return {
    id: u.id,
    account: u.account,
    nickname: u.nickname,
    role: u.role as Role,
    parentId: u.parentId,
    deleted: u.deletedAt !== null,
  };
}

/** What an audit row may show of an account: never a hash or a secret. */
const auditView = (u: Pick<UserRecord, 'account' | 'nickname' | 'role'>) => ({
  account: u.account,
  nickname: u.nickname,
  role: u.role,
});

interface UserFilters {
  account?: string | null | undefined;
  role?: Role | undefined;
  includeDeleted?: boolean | undefined;
}

export interface NewUser {
  nickname: string;
  account: string;
  password: string;
  access: Role;
}

interface SupplierProxyFilters {
  account?: string | null | undefined;
}

interface Page {
  pageIndex: number;
  pageSize: number;
}

/** Account administration (spec section 7, Admin) and the account option lists. */
/** Agents' balances in the agent list. */
const supplierBalances = partyBalances('supplier', suppliers.id);

export class UsersService {
  constructor(private readonly deps: UsersDeps) {}

  private get db() {
    return this.deps.db;
  }
  private now() {
    return this.deps.clock.now();
  }

  async addUser(
    actorRole: Role,
    input: NewUser,
    actor: Actor,
    extra: { parentId?: number } = {},
  ): Promise<{ id: number }> {
    const passwordHash = await this.checkNewUser(actorRole, input);
    try {
      return await this.db.transaction((tx) => this.insertUser(tx, input, passwordHash, actor, extra));
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(USER_TEXTS.accountExists, 'accountExists');
      throw error;
    }
  }

  /**
   * Creates a console account inside the caller's transaction (a merchant or supplier record made with
   * its account). Refuses a taken account name with the same 409 as addUser, and links the account to
   * its party record when `partyLinked`.
   */
  async addUserInTx(
    tx: Tx,
    actorRole: Role,
    input: NewUser,
    actor: Actor,
    extra: { parentId?: number; partyLinked?: boolean } = {},
  ): Promise<{ id: number }> {
    const passwordHash = await this.checkNewUser(actorRole, input);
    return this.insertUser(tx, input, passwordHash, actor, extra);
  }

  private async checkNewUser(actorRole: Role, input: NewUser): Promise<string> {
    if (!manageableRoles(actorRole).includes(input.access)) {
      throw forbidden(`your role may not create a ${input.access} account`);
    }
    return hashPassword(input.password);
  }

  private async insertUser(
    tx: Tx,
    input: NewUser,
    passwordHash: string,
    actor: Actor,
    extra: { parentId?: number; partyLinked?: boolean },
  ): Promise<{ id: number }> {
    await this.refuseTakenAccount(tx, input.account);
    const [created] = await tx
      .insert(users)
      .values({
        account: input.account,
        nickname: input.nickname,
        role: input.access,
        passwordHash,
        parentId: extra.parentId ?? null,
        partyLinked: extra.partyLinked ?? false,
      })
      .returning();
    await writeAudit(
      tx,
      actor,
      { action: 'users.addUser', target: `user:${created!.id}`, after: auditView(created!) },
      this.now(),
    );
    return { id: created!.id };
  }

  private whereOf(input: UserFilters) {
    return and(
      input.includeDeleted ? undefined : isNull(users.deletedAt),
      input.account ? ilike(users.account, `%${escapeLike(input.account)}%`) : undefined,
      input.role ? eq(users.role, input.role) : undefined,
    );
  }

  async getUserList(input: Page & UserFilters) {
    const where = this.whereOf(input);
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(users)
        .where(where)
        .orderBy(asc(users.id))
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.db.select({ n: count() }).from(users).where(where),
    ]);
    return { list: rows.map(toRow), total: total?.n ?? 0, pageIndex: input.pageIndex, pageSize: input.pageSize };
  }

  /** The filtered set for the CSV export, in the list's order (by id). */
  async *exportUserList(input: UserFilters) {
    const where = this.whereOf(input);
    const rows = keysetRows((afterId, limit) =>
      this.db
        .select()
        .from(users)
        .where(and(where, afterId === null ? undefined : gt(users.id, afterId)))
        .orderBy(asc(users.id))
        .limit(limit),
    );
    for await (const row of rows) yield toRow(row);
  }

  /**
   * Supplier agents (accounts with a parent, and their supplier records) with their balances; `summary`
   * sums the balances over the whole set. A supplier sees its own agents only.
   */
  private supplierProxyWhere(scope: DataScope, filters: SupplierProxyFilters) {
    return and(
      eq(users.role, 'supplier'),
      isNotNull(users.parentId),
      isNull(users.deletedAt),
      scope.all ? undefined : inArray(users.parentId, [...scope.userIds]),
      filters.account ? ilike(users.account, `%${escapeLike(filters.account)}%`) : undefined,
    );
  }

  /** Agents with their parent and balances, in id order, after `cursor` when given (list and export). */
  private supplierProxyRows(where: SQL | undefined, limit: number, offset: number, cursor: number | null = null) {
    const parent = alias(users, 'parent');
    // Ledger accounts exist only once used: a party never moved has balance 0 (left joins).
    const { available, frozen, availableOn, frozenOn, balance, frozenBalance } = supplierBalances;
    return this.db
      .select({ agent: users, parentAccount: parent.account, supplier: suppliers, balance, frozenBalance })
      .from(users)
      .innerJoin(parent, eq(parent.id, users.parentId))
      .innerJoin(suppliers, eq(suppliers.userId, users.id))
      .leftJoin(available, availableOn)
      .leftJoin(frozen, frozenOn)
      .where(and(where, cursor === null ? undefined : gt(users.id, cursor)))
      .orderBy(asc(users.id))
      .limit(limit)
      .offset(offset)
      .then((rows) =>
        rows.map((r) => ({
          id: r.agent.id,
          account: r.agent.account,
          nickname: r.agent.nickname,
          parentId: r.agent.parentId!,
          parentAccount: r.parentAccount,
          supplierId: r.supplier.id,
          name: r.supplier.name,
          enabled: r.supplier.enabled,
          balance: r.balance,
          frozenBalance: r.frozenBalance,
          createdAt: r.agent.createdAt.toISOString(),
        })),
      );
  }

  async getSupplierProxyList(scope: DataScope, input: Page & SupplierProxyFilters) {
    const where = this.supplierProxyWhere(scope, input);
    const { available, frozen, availableOn, frozenOn } = supplierBalances;
    const [list, [totals]] = await Promise.all([
      this.supplierProxyRows(where, input.pageSize, (input.pageIndex - 1) * input.pageSize),
      this.db
        .select(supplierBalances.totals)
        .from(users)
        .innerJoin(suppliers, eq(suppliers.userId, users.id))
        .leftJoin(available, availableOn)
        .leftJoin(frozen, frozenOn)
        .where(where),
    ]);
    return {
      list,
      total: totals?.n ?? 0,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
      summary: { balance: totals?.balance ?? 0, frozenBalance: totals?.frozenBalance ?? 0 },
    };
  }
  /** The filtered agents as CSV rows, streamed in batches (same scope and filters as the list). */
  async *exportSupplierProxyList(scope: DataScope, filters: SupplierProxyFilters) {
    const where = this.supplierProxyWhere(scope, filters);
    yield* keysetRows((cursor, limit) => this.supplierProxyRows(where, limit, 0, cursor));
  }

  async updateUser(
    caller: { userId: number; sessionId: number; role: Role },
    input: { id: number; nickname: string; account: string; password?: string | undefined; role: Role },
    actor: Actor,
  ): Promise<void> {
    const role = input.role;
    if (!manageableRoles(caller.role).includes(role)) throw forbidden(`your role may not grant ${role}`);
    const passwordHash = input.password ? await hashPassword(input.password) : undefined;
    try {
      await this.db.transaction(async (tx) => {
        const target = refuseUserAction('update', caller, await this.userById(tx, input.id), this.now());
        if (target.id === caller.userId && role !== target.role) {
          throw refused('you cannot change your own role', 'ownRole');
        }
        if (input.account.toLowerCase() !== target.account.toLowerCase()) {
          await this.refuseTakenAccount(tx, input.account);
        }
        await tx
          .update(users)
          .set({
            nickname: input.nickname,
            account: input.account,
            role,
            ...(passwordHash ? { passwordHash } : {}),
            updatedAt: this.now(),
          })
          .where(eq(users.id, target.id));
        // A new password or role takes effect at once: the account signs in again (the caller keeps this session).
        if (passwordHash || role !== target.role) {
          await this.deps.sessions.revokeAllOf(tx, target.id, 'account changed by an administrator', caller.sessionId);
        }
        await writeAudit(
          tx,
          actor,
          {
            action: 'users.updateUser',
            target: `user:${target.id}`,
            before: auditView(target),
            after: {
              ...auditView({ account: input.account, nickname: input.nickname, role }),
              passwordChanged: !!passwordHash,
            },
          },
          this.now(),
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(USER_TEXTS.accountExists, 'accountExists');
      throw error;
    }
    // Committed: the account's sessions see its new names and role (or are ended) from the next request.
    this.deps.sessions.forget({ userIds: [input.id] });
  }

  async deleteUser(caller: ActionCaller, id: number, actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const target = refuseUserAction('delete', caller, await this.userById(tx, id), this.now());
      await tx.update(users).set({ deletedAt: this.now(), updatedAt: this.now() }).where(eq(users.id, target.id));
      await this.deps.sessions.revokeAllOf(tx, target.id, 'account deleted');
      await writeAudit(
        tx,
        actor,
        { action: 'users.deleteUser', target: `user:${target.id}`, before: auditView(target) },
        this.now(),
      );
    });
    this.deps.sessions.forget({ userIds: [id] });
  }

  async repairUser(caller: ActionCaller, input: { userId: number; newAccountName: string }, actor: Actor) {
    try {
      await this.db.transaction(async (tx) => {
        const target = refuseUserAction('repair', caller, await this.userById(tx, input.userId), this.now());
        if (input.newAccountName.toLowerCase() !== target.account.toLowerCase()) {
          await this.refuseTakenAccount(tx, input.newAccountName);
        }
        await tx
          .update(users)
          .set({ account: input.newAccountName, updatedAt: this.now() })
          .where(eq(users.id, target.id));
        await writeAudit(
          tx,
          actor,
          {
            action: 'users.repairUser',
            target: `user:${target.id}`,
            before: { account: target.account },
            after: { account: input.newAccountName },
          },
          this.now(),
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(USER_TEXTS.accountExists, 'accountExists');
      throw error;
    }
    this.deps.sessions.forget({ userIds: [input.userId] });
  }

  /** Clears the second-level password (the sign-in password serves again) and ends the account's token2s. */
  async resetPayPassword(caller: ActionCaller, id: number, actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const target = refuseUserAction('resetPayPassword', caller, await this.userById(tx, id), this.now());
      await tx.update(users).set({ payPasswordHash: null, updatedAt: this.now() }).where(eq(users.id, target.id));
      await tx.update(sessions).set({ token2Hash: null, token2ExpiresAt: null }).where(eq(sessions.userId, target.id));
      await writeAudit(tx, actor, { action: 'users.resetPayPassword', target: `user:${target.id}` }, this.now());
    });
    this.deps.sessions.forget({ userIds: [id] });
  }

  async getUserOptions(input: { role?: Role | undefined; includeDeleted?: boolean | undefined }) {
    return this.options(
      and(
        input.role ? eq(users.role, input.role) : undefined,
        input.includeDeleted ? undefined : isNull(users.deletedAt),
      ),
    );
  }

  /** Top-level suppliers; with `withAgents` their agents too. A supplier sees its own team only. */
  async getSupplierUserOptions(scope: DataScope, withAgents: boolean) {
    return this.options(
      and(
        eq(users.role, 'supplier'),
        isNull(users.deletedAt),
        withAgents ? undefined : isNull(users.parentId),
        scope.all ? undefined : inArray(users.id, [...scope.userIds]),
      ),
    );
  }

  async getUnusedUserOptions(role: 'merchant' | 'supplier') {
    return this.options(
      and(eq(users.role, role), eq(users.partyLinked, false), isNull(users.parentId), isNull(users.deletedAt)),
    );
  }

  private async options(where: SQL | undefined) {
    const rows = await this.db.select().from(users).where(where).orderBy(asc(users.account)).limit(5000);
    return rows.map(toOption);
  }

  /** An account, deleted or not: the action rule answers 404 for a deleted one. */
  private async userById(tx: Tx, id: number): Promise<UserRecord> {
    const [row] = await tx.select().from(users).where(eq(users.id, id)).limit(1);
    if (!row) throw notFound('no such account');
    return row;
  }

  private async refuseTakenAccount(tx: Tx, account: string) {
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.account}) = lower(${account})`, isNull(users.deletedAt)))
      .limit(1);
    if (taken) throw conflict(USER_TEXTS.accountExists, 'accountExists');
  }
}
