import { randomBytes, randomInt } from 'node:crypto';
import {
  type createMerchantInputSchema,
  MERCHANT_TEXTS,
  type MerchantRow,
  minorToMajorText,
  type Role,
  type SignType,
  USER_TEXTS,
} from '@paydesk/contract';
import { and, asc, desc, eq, gt, ilike, inArray, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { statement, tableRow } from '../../db/raw-rows.js';
import { merchants, users } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { DataScope } from '../../platform/context.js';
import { openSecret, sealSecret } from '../../platform/crypto.js';
import { isUniqueViolation, violatedConstraint } from '../../platform/db-errors.js';
import { conflict, notFound, refused } from '../../platform/errors.js';
import { keysetRows } from '../../platform/export.js';
import { normalizeIpList } from '../../platform/ip-list.js';
import { escapeLike } from '../../platform/like.js';
import type { SettingsStore } from '../../platform/settings.js';
import { proposalKindsFor } from '../funds/proposal-rule.js';
import { partyBalances } from '../ledger/accounts.js';
import type { UsersService } from '../users/users.service.js';

type MerchantRecord = typeof merchants.$inferSelect;

export interface MerchantsDeps {
  db: Db;
  clock: Clock;
  users: UsersService;
  /** Seals the API secrets (platform/crypto.ts resolveSecretKey). */
  secretKey: Buffer;
  settings: SettingsStore;
}

export type CreateMerchantInput = z.output<typeof createMerchantInputSchema>;

export interface MerchantSettings {
  name: string;
  signType: SignType;
  ipWhitelist: string[];
  notifyUrl: string | null;
  callbackEnabled: boolean;
  remark: string;
}

interface MerchantFilters {
  merchantNo?: string | null | undefined;
  name?: string | null | undefined;
  account?: string | null | undefined;
  enabled?: boolean | null | undefined;
}

interface ListInput extends MerchantFilters {
  pageIndex: number;
  pageSize: number;
  sortBy?: 'createdAt' | 'balance' | 'frozenBalance' | null | undefined;
  sortOrder?: 'asc' | 'desc' | null | undefined;
}

/** What the merchant API needs to check a signed request (merchants/signed-call.ts). */
export interface SigningSecret {
  merchantId: number;
  merchantNo: string;
  secret: string;
  signType: SignType;
  enabled: boolean;
  ipWhitelist: string[];
}

/** Checks and normalises an API IP whitelist (platform/ip-list.ts). */
export const normalizeIpWhitelist = (entries: readonly string[]) => normalizeIpList(entries, 'ipWhitelist');

class MerchantNoTaken extends Error {}

/** A new API secret: 32 random bytes as hex. */
const newApiSecret = () => randomBytes(32).toString('hex');
/** 'M' and 8 digits, the first not 0. */
const newMerchantNo = () => `M${randomInt(10_000_000, 100_000_000)}`;

/** What an audit row shows of a merchant: never the secret. */
function auditView(m: Pick<MerchantRecord, keyof MerchantSettings | 'enabled' | 'merchantNo' | 'userId'>) {
  return {
    merchantNo: m.merchantNo,
    userId: m.userId,
    name: m.name,
    enabled: m.enabled,
    signType: m.signType,
    ipWhitelist: m.ipWhitelist,
    notifyUrl: m.notifyUrl,
    callbackEnabled: m.callbackEnabled,
    remark: m.remark,
  };
}

const {
  available,
  frozen,
  availableOn,
  frozenOn,
  balance: balanceExpr,
  frozenBalance: frozenExpr,
  totals: sums,
} = partyBalances('merchant', merchants.id);

const MERCHANT_BY_NO = statement<'merchantNo'>((v) => `select * from merchants where merchant_no = ${v.merchantNo}`);

/** Merchants (issue 4 item 3): records, settings and API credentials; balances read from the ledger. */
export class MerchantsService {
  constructor(readonly deps: MerchantsDeps) {}

  private get db() {
    return this.deps.db;
  }
  private now() {
    return this.deps.clock.now();
  }

  /** A merchant with its account and ledger balances; an account row exists only once used (else 0). */
  private rowsQuery(db: DbOrTx) {
    return db
      .select({ m: merchants, account: users.account, balance: balanceExpr, frozenBalance: frozenExpr })
      .from(merchants)
      .innerJoin(users, eq(users.id, merchants.userId))
      .leftJoin(available, availableOn)
      .leftJoin(frozen, frozenOn);
  }

  private toRow(
    r: { m: MerchantRecord; account: string; balance: number; frozenBalance: number },
    kinds: Awaited<ReturnType<typeof proposalKindsFor>> | null = null,
  ): MerchantRow {
    return {
      id: r.m.id,
      userId: r.m.userId,
      account: r.account,
      merchantNo: r.m.merchantNo,
      name: r.m.name,
      enabled: r.m.enabled,
      signType: r.m.signType as SignType,
      ipWhitelist: r.m.ipWhitelist,
      notifyUrl: r.m.notifyUrl,
      callbackEnabled: r.m.callbackEnabled,
      remark: r.m.remark,
      balance: r.balance,
      frozenBalance: r.frozenBalance,
      secretRotatedAt: r.m.secretRotatedAt.toISOString(),
      createdAt: r.m.createdAt.toISOString(),
      proposalKinds: kinds ? kinds({ partyKind: 'merchant', balance: r.balance }) : [],
    };
  }

  private whereOf(f: MerchantFilters, scope: DataScope = { all: true }): SQL | undefined {
    return and(
      f.merchantNo ? ilike(merchants.merchantNo, `%${escapeLike(f.merchantNo)}%`) : undefined,
      f.name ? ilike(merchants.name, `%${escapeLike(f.name)}%`) : undefined,
      f.account ? ilike(users.account, `%${escapeLike(f.account)}%`) : undefined,
      f.enabled === true || f.enabled === false ? eq(merchants.enabled, f.enabled) : undefined,
      scope.all ? undefined : inArray(merchants.userId, [...scope.userIds]),
    );
  }

  /** `role`: the caller's, for the rows' `proposalKinds`. */
  async getList(scope: DataScope, input: ListInput, role: Role | null = null) {
    const where = this.whereOf(input, scope);
    const direction = input.sortOrder === 'asc' ? asc : desc;
    const sortColumn =
      input.sortBy === 'balance'
        ? balanceExpr
        : input.sortBy === 'frozenBalance'
          ? frozenExpr
          : input.sortBy === 'createdAt'
            ? merchants.createdAt
            : undefined;
    const order = sortColumn ? [direction(sortColumn), direction(merchants.id)] : [asc(merchants.id)];
    const [rows, [totals], kinds] = await Promise.all([
      this.rowsQuery(this.db)
        .where(where)
        .orderBy(...order)
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.db
        .select(sums)
        .from(merchants)
        .innerJoin(users, eq(users.id, merchants.userId))
        .leftJoin(available, availableOn)
        .leftJoin(frozen, frozenOn)
        .where(where),
      proposalKindsFor(this.deps.settings, role),
    ]);
    return {
      list: rows.map((r) => this.toRow(r, kinds)),
      total: totals?.n ?? 0,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
      summary: { balance: totals?.balance ?? 0, frozenBalance: totals?.frozenBalance ?? 0 },
    };
  }

  /** The filtered set for the CSV export, by id; balances as major-unit text, never a secret. */
  async *exportList(scope: DataScope, input: MerchantFilters) {
    const where = this.whereOf(input, scope);
    const rows = keysetRows(async (afterId, limit) => {
      const batch = await this.rowsQuery(this.db)
        .where(and(where, afterId === null ? undefined : gt(merchants.id, afterId)))
        .orderBy(asc(merchants.id))
        .limit(limit);
      return batch.map((r) => this.toRow(r));
    });
    for await (const row of rows) {
      const { secretRotatedAt: _rotated, ...rest } = row;
      yield {
        ...rest,
        balance: minorToMajorText(row.balance),
        frozenBalance: minorToMajorText(row.frozenBalance),
      };
    }
  }

  /** One merchant in the caller's scope; someone else's answers 404 like a missing one. */
  async getDetail(scope: DataScope, id: number, role: Role | null = null): Promise<MerchantRow> {
    const [row] = await this.rowsQuery(this.db)
      .where(and(eq(merchants.id, id), this.whereOf({}, scope)))
      .limit(1);
    if (!row) throw notFound('no such merchant');
    return this.toRow(row, await proposalKindsFor(this.deps.settings, role));
  }

  /** The signed-in merchant's own record. */
  async getMine(userId: number): Promise<MerchantRow> {
    const [row] = await this.rowsQuery(this.db).where(eq(merchants.userId, userId)).limit(1);
    if (!row) throw notFound('your account is not linked to a merchant');
    return this.toRow(row);
  }

  /**
   * Creates a merchant with its console account (newAccount, when AutoCreateRelateMerchant is on) or on
   * an unused merchant account (linkAccount), a fresh merchant number and API secret. The secret is
   * answered here once; afterwards only revealSecret (token2) shows it.
   */
  async create(actorRole: Role, input: CreateMerchantInput, actor: Actor) {
    const ipWhitelist = normalizeIpWhitelist(input.ipWhitelist);
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await this.db.transaction((tx) => this.createInTx(tx, actorRole, input, ipWhitelist, actor));
      } catch (error) {
        if (error instanceof MerchantNoTaken && attempt < 5) continue;
        const constraint = violatedConstraint(error);
        if (constraint === 'merchants_merchant_no_uq' && attempt < 5) continue;
        if (constraint === 'merchants_user_uq') throw conflict(MERCHANT_TEXTS.accountLinked, 'accountLinked');
        if (isUniqueViolation(error)) throw conflict(USER_TEXTS.accountExists, 'accountExists');
        throw error;
      }
    }
  }

  private async createInTx(
    tx: Tx,
    actorRole: Role,
    input: CreateMerchantInput,
    ipWhitelist: string[],
    actor: Actor,
  ): Promise<{ id: number; merchantNo: string; secret: string }> {
    let userId: number;
    if (input.mode === 'newAccount') {
      if (!(await this.deps.settings.get('AutoCreateRelateMerchant', tx)))
        throw refused(MERCHANT_TEXTS.autoCreateOff, 'autoCreateOff');
      const created = await this.deps.users.addUserInTx(
        tx,
        actorRole,
        {
          nickname: input.nickname ?? input.name,
          account: input.account ?? '',
          password: input.password ?? '',
          access: 'merchant',
        },
        actor,
        { partyLinked: true },
      );
      userId = created.id;
    } else {
      const [user] = await tx
        .select()
        .from(users)
        .where(eq(users.id, input.userId ?? 0))
        .for('update');
      if (user?.role !== 'merchant' || user.deletedAt || user.parentId !== null || user.partyLinked) {
        throw refused(MERCHANT_TEXTS.accountUnavailable, 'accountUnavailable');
      }
      await tx.update(users).set({ partyLinked: true, updatedAt: this.now() }).where(eq(users.id, user.id));
      userId = user.id;
    }

    const merchantNo = newMerchantNo();
    const [taken] = await tx
      .select({ id: merchants.id })
      .from(merchants)
      .where(eq(merchants.merchantNo, merchantNo))
      .limit(1);
    if (taken) throw new MerchantNoTaken();

    const secret = newApiSecret();
    const now = this.now();
    const [created] = await tx
      .insert(merchants)
      .values({
        userId,
        merchantNo,
        name: input.name,
        enabled: true,
        signType: input.signType,
        secretSealed: sealSecret(secret, this.deps.secretKey),
        secretRotatedAt: now,
        ipWhitelist,
        notifyUrl: input.notifyUrl ?? null,
        callbackEnabled: input.callbackEnabled,
        remark: input.remark,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await writeAudit(
      tx,
      actor,
      {
        action: 'merchants.create',
        target: `merchant:${created!.id}`,
        after: { ...auditView(created!), mode: input.mode },
      },
      now,
    );
    return { id: created!.id, merchantNo, secret };
  }

  async update(id: number, input: MerchantSettings, actor: Actor): Promise<void> {
    const ipWhitelist = normalizeIpWhitelist(input.ipWhitelist);
    await this.db.transaction(async (tx) => {
      const before = await this.lockedMerchant(tx, { all: true }, id);
      const now = this.now();
      const [after] = await tx
        .update(merchants)
        .set({
          name: input.name,
          signType: input.signType,
          ipWhitelist,
          notifyUrl: input.notifyUrl,
          callbackEnabled: input.callbackEnabled,
          remark: input.remark,
          updatedAt: now,
        })
        .where(eq(merchants.id, id))
        .returning();
      await writeAudit(
        tx,
        actor,
        { action: 'merchants.update', target: `merchant:${id}`, before: auditView(before), after: auditView(after!) },
        now,
      );
    });
  }

  async setEnabled(id: number, enabled: boolean, actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const before = await this.lockedMerchant(tx, { all: true }, id);
      const now = this.now();
      await tx.update(merchants).set({ enabled, updatedAt: now }).where(eq(merchants.id, id));
      await writeAudit(
        tx,
        actor,
        {
          action: 'merchants.setEnabled',
          target: `merchant:${id}`,
          before: { enabled: before.enabled },
          after: { enabled },
        },
        now,
      );
    });
  }

  /** The current API secret (token2; a merchant only its own). Audited without the secret. */
  async revealSecret(scope: DataScope, id: number, actor: Actor): Promise<{ secret: string }> {
    return this.db.transaction(async (tx) => {
      const merchant = await this.lockedMerchant(tx, scope, id);
      const secret = this.open(merchant);
      await writeAudit(
        tx,
        actor,
        { action: 'merchants.revealSecret', target: `merchant:${id}`, after: { merchantNo: merchant.merchantNo } },
        this.now(),
      );
      return { secret };
    });
  }

  /** A new API secret replaces the old one at once; answered this once. */
  async rotateSecret(scope: DataScope, id: number, actor: Actor): Promise<{ secret: string }> {
    return this.db.transaction(async (tx) => {
      const merchant = await this.lockedMerchant(tx, scope, id);
      const secret = newApiSecret();
      const now = this.now();
      await tx
        .update(merchants)
        .set({ secretSealed: sealSecret(secret, this.deps.secretKey), secretRotatedAt: now, updatedAt: now })
        .where(eq(merchants.id, id));
      await writeAudit(
        tx,
        actor,
        {
          action: 'merchants.rotateSecret',
          target: `merchant:${id}`,
          before: { rotatedAt: merchant.secretRotatedAt.toISOString() },
          after: { merchantNo: merchant.merchantNo, rotatedAt: now.toISOString() },
        },
        now,
      );
      return { secret };
    });
  }

  /**
   * For the merchant API: the secret and settings that check a request signed by `merchantNo`, or null
   * for an unknown merchant number. The caller refuses a disabled merchant or an address outside the
   * whitelist (an empty whitelist allows any).
   */
  async signingSecretOf(db: DbOrTx, merchantNo: string): Promise<SigningSecret | null> {
    // Every signed API call reads this first: a prepared statement, no query building.
    const [raw] = await MERCHANT_BY_NO.rows<Record<string, unknown>>(db, { merchantNo });
    return raw ? this.signingOf(tableRow(merchants, raw)) : null;
  }

  /** The signing facts of a merchant's row read elsewhere (a callback delivery reads it with its order). */
  signingOf(merchant: MerchantRecord): SigningSecret {
    return {
      merchantId: merchant.id,
      merchantNo: merchant.merchantNo,
      secret: this.open(merchant),
      signType: merchant.signType as SignType,
      enabled: merchant.enabled,
      ipWhitelist: merchant.ipWhitelist,
    };
  }

  private open(merchant: MerchantRecord): string {
    try {
      return openSecret(merchant.secretSealed, this.deps.secretKey);
    } catch {
      throw refused(
        'the API secret cannot be opened with this server’s key (SECRET_KEY or data/secret.key changed): rotate it',
        'secretUnreadable',
      );
    }
  }

  private async lockedMerchant(tx: Tx, scope: DataScope, id: number): Promise<MerchantRecord> {
    const [merchant] = await tx
      .select()
      .from(merchants)
      .where(and(eq(merchants.id, id), scope.all ? undefined : inArray(merchants.userId, [...scope.userIds])))
      .for('update');
    if (!merchant) throw notFound('no such merchant');
    return merchant;
  }
}
