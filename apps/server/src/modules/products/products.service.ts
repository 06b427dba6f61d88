import {
  type AuditAction,
  Code,
  type PartyRole,
  PRODUCTS,
  type ProductRefusalReason,
  type ProductRow,
  productById,
  type USER_PRODUCT_SORT_KEYS,
  type UserProductRow,
  type UserProductSlot,
} from '@paydesk/contract';
import { and, asc, count, desc, eq, gt, inArray, isNull, max, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { partyProducts, products, users } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { type DataScope, inScope } from '../../platform/context.js';
import { AppError, notFound, type RefusalData } from '../../platform/errors.js';
import { keysetRows } from '../../platform/export.js';

export interface ProductsDeps {
  db: Db;
  clock: Clock;
}

type UserRecord = typeof users.$inferSelect;
type ProductRecord = typeof products.$inferSelect;
export type PartyProductRecord = typeof partyProducts.$inferSelect;

/** What a party may set for one product (rates in basis points, money in minor units). */
export interface ProductSettings {
  enabled: boolean;
  feeRate: number;
  perTransactionFee: number;
  commissionRate: number;
  /** null: no daily limit. */
  dailyLimit: number | null;
  /** null: the product's. */
  minAmount: number | null;
  maxAmount: number | null;
  /** null: KYC never required. */
  kycLowerLimit: number | null;
}

export interface UserProductFilters {
  userId?: number | null | undefined;
  role?: PartyRole | null | undefined;
  productId?: number | null | undefined;
  enabled?: boolean | null | undefined;
}

interface ListInput extends UserProductFilters {
  pageIndex: number;
  pageSize: number;
  sortBy?: (typeof USER_PRODUCT_SORT_KEYS)[number] | null | undefined;
  sortOrder?: 'asc' | 'desc' | null | undefined;
}

/** A party account as the rules see it: a live merchant or supplier console account. */
type Party = UserRecord & { role: PartyRole };

const DEFAULT_SETTINGS: ProductSettings = {
  enabled: false,
  feeRate: 0,
  perTransactionFee: 0,
  commissionRate: 0,
  dailyLimit: null,
  minAmount: null,
  maxAmount: null,
  kycLowerLimit: null,
};

/** 300 -> '3.00%'. */
const percent = (basisPoints: number) => `${(basisPoints / 100).toFixed(2)}%`;

function productRefusal(message: string, reason: ProductRefusalReason, extra: Record<string, number> = {}): AppError {
  return new AppError(Code.businessRule, message, { reason, ...extra } as RefusalData);
}

function settingsView(r: ProductSettings): ProductSettings {
  return {
    enabled: r.enabled,
    feeRate: r.feeRate,
    perTransactionFee: r.perTransactionFee,
    commissionRate: r.commissionRate,
    dailyLimit: r.dailyLimit,
    minAmount: r.minAmount,
    maxAmount: r.maxAmount,
    kycLowerLimit: r.kycLowerLimit,
  };
}

function toProductRow(r: ProductRecord): ProductRow | null {
  const def = productById(r.id);
  if (!def) return null;
  return {
    id: def.id,
    name: def.name,
    direction: def.direction,
    resourceKind: def.resourceKind,
    apiUnitsPerMinor: def.apiUnitsPerMinor,
    floatingAmount: def.floatingAmount,
    enabled: r.enabled,
    minAmount: r.minAmount,
    maxAmount: r.maxAmount,
  };
}

const isPartyRole = (role: string): role is PartyRole => role === 'merchant' || role === 'supplier';

/**
 * The product catalogue's database side (enabled, limits) and per-party product settings. Every write
 * of a party's settings, from the console or from another area (supplier agents' commission), goes
 * through `checkSettings` and `writeSettings`, so the rules live in one place.
 */
export class ProductsService {
  constructor(readonly deps: ProductsDeps) {}

  private get db() {
    return this.deps.db;
  }
  private now() {
    return this.deps.clock.now();
  }

  // ---- catalogue ----

  async getProductList(): Promise<ProductRow[]> {
    const rows = await this.db.select().from(products);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return PRODUCTS.flatMap((def) => {
      const row = byId.get(def.id);
      const view = row ? toProductRow(row) : null;
      return view ? [view] : [];
    });
  }

  async updateProduct(
    input: { id: number; enabled: boolean; minAmount: number; maxAmount: number },
    actor: Actor,
  ): Promise<ProductRow> {
    return this.db.transaction(async (tx) => {
      const before = productById(input.id) ? await this.productRecord(tx, input.id, true) : null;
      if (!before) throw notFound('no such product');
      if (input.minAmount > input.maxAmount) {
        throw productRefusal('the minimum amount may not exceed the maximum amount', 'minAboveMax');
      }
      const [after] = await tx
        .update(products)
        .set({
          enabled: input.enabled,
          minAmount: input.minAmount,
          maxAmount: input.maxAmount,
          updatedAt: this.now(),
          updatedBy: actor.userId,
        })
        .where(eq(products.id, input.id))
        .returning();
      const view = (r: ProductRecord) => ({ enabled: r.enabled, minAmount: r.minAmount, maxAmount: r.maxAmount });
      await writeAudit(
        tx,
        actor,
        { action: 'products.updateProduct', target: `product:${input.id}`, before: view(before), after: view(after!) },
        this.now(),
      );
      return toProductRow(after!)!;
    });
  }

  // ---- per-party settings: reads ----

  /** A party's saved settings for a product, or null. */
  async settingsOf(db: DbOrTx, userId: number, productId: number): Promise<PartyProductRecord | null> {
    const [row] = await db
      .select()
      .from(partyProducts)
      .where(and(eq(partyProducts.userId, userId), eq(partyProducts.productId, productId)))
      .limit(1);
    return row ?? null;
  }

  /** A party's commission rate for a product in basis points; 0 when it has no settings. */
  async commissionRateOf(db: DbOrTx, userId: number, productId: number): Promise<number> {
    return (await this.settingsOf(db, userId, productId))?.commissionRate ?? 0;
  }

  private listQuery(db: DbOrTx = this.db) {
    const parent = alias(users, 'parent');
    return {
      parent,
      select: () =>
        db
          .select({
            pp: partyProducts,
            account: users.account,
            nickname: users.nickname,
            role: users.role,
            parentAccount: parent.account,
          })
          .from(partyProducts)
          .innerJoin(users, eq(users.id, partyProducts.userId))
          .leftJoin(parent, eq(parent.id, users.parentId)),
    };
  }

  private whereOf(scope: DataScope, f: UserProductFilters): SQL | undefined {
    return and(
      isNull(users.deletedAt),
      inArray(users.role, ['merchant', 'supplier']),
      scope.all ? undefined : inArray(partyProducts.userId, [...scope.userIds]),
      f.userId ? eq(partyProducts.userId, f.userId) : undefined,
      f.role ? eq(users.role, f.role) : undefined,
      f.productId ? eq(partyProducts.productId, f.productId) : undefined,
      f.enabled === true || f.enabled === false ? eq(partyProducts.enabled, f.enabled) : undefined,
    );
  }

  async getUserProductList(scope: DataScope, input: ListInput, db: DbOrTx = this.db) {
    const where = this.whereOf(scope, input);
    const sortColumn = {
      updatedAt: partyProducts.updatedAt,
      feeRate: partyProducts.feeRate,
      commissionRate: partyProducts.commissionRate,
      dailyLimit: partyProducts.dailyLimit,
    } as const;
    const order = input.sortBy
      ? [
          input.sortOrder === 'desc' ? desc(sortColumn[input.sortBy]) : asc(sortColumn[input.sortBy]),
          asc(partyProducts.id),
        ]
      : [asc(partyProducts.id)];
    const { select } = this.listQuery(db);
    const [rows, [total]] = await Promise.all([
      select()
        .where(where)
        .orderBy(...order)
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      db.select({ n: count() }).from(partyProducts).innerJoin(users, eq(users.id, partyProducts.userId)).where(where),
    ]);
    return {
      list: rows.map(toUserProductRow),
      total: total?.n ?? 0,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    };
  }

  /** The filtered set for the CSV export, in the list's default order (by id). */
  async *exportUserProductList(scope: DataScope, input: UserProductFilters): AsyncGenerator<UserProductRow> {
    const where = this.whereOf(scope, input);
    const { select } = this.listQuery();
    const rows = keysetRows(async (afterId, limit) =>
      (
        await select()
          .where(and(where, afterId === null ? undefined : gt(partyProducts.id, afterId)))
          .orderBy(asc(partyProducts.id))
          .limit(limit)
      ).map(toUserProductRow),
    );
    yield* rows;
  }

  /** Every catalogue product for one party account: its saved settings, or defaults (disabled, id null). */
  async getUserProductsForUser(scope: DataScope, userId: number): Promise<UserProductSlot[]> {
    if (!inScope(scope, userId)) throw notFound('no such merchant or supplier account');
    const party = await this.liveParty(this.db, userId);
    if (!party) throw notFound('no such merchant or supplier account');
    const [parentRow] = party.parentId
      ? await this.db.select({ account: users.account }).from(users).where(eq(users.id, party.parentId)).limit(1)
      : [];
    const saved = await this.db.select().from(partyProducts).where(eq(partyProducts.userId, userId));
    const byProduct = new Map(saved.map((r) => [r.productId, r]));
    return PRODUCTS.map((def) => {
      const row = byProduct.get(def.id);
      return {
        id: row?.id ?? null,
        userId: party.id,
        account: party.account,
        nickname: party.nickname,
        role: party.role,
        parentAccount: parentRow?.account ?? null,
        productId: def.id,
        ...settingsView(row ?? DEFAULT_SETTINGS),
        updatedAt: row ? row.updatedAt.toISOString() : null,
      };
    });
  }

  // ---- per-party settings: writes ----

  /** Creates or replaces a party's settings for a product (console: user product config, party drawers). */
  async saveUserProduct(
    input: { userId: number; productId: number } & ProductSettings,
    actor: Actor,
  ): Promise<UserProductRow> {
    return this.db.transaction(async (tx) => {
      await this.saveUserProductInTx(tx, input, actor);
      const { list } = await this.getUserProductList(
        { all: true },
        { userId: input.userId, productId: input.productId, pageIndex: 1, pageSize: 1 },
        tx,
      );
      return list[0]!;
    });
  }

  /**
   * The same inside the caller's transaction (a merchant created with its fees): every rule, the
   * upsert and its audit row. Throws the 422 refusals of checkSettings.
   */
  async saveUserProductInTx(
    tx: Tx,
    input: { userId: number; productId: number } & ProductSettings,
    actor: Actor,
  ): Promise<PartyProductRecord> {
    const { party, product } = await this.prepare(tx, input.userId, input.productId);
    const before = await this.settingsOf(tx, party.id, product.id);
    const next = settingsView(input);
    await this.checkSettings(tx, party, product, next);
    return this.writeSettings(tx, party, product.id, before, next, actor, 'products.saveUserProduct');
  }

  /**
   * Sets a supplier account's commission for a product inside the caller's transaction, creating its
   * settings (enabled) when it has none. The same rules as saveUserProduct: an agent's commission never
   * above its parent's, a parent's never below one of its agents'.
   */
  async saveCommission(
    tx: Tx,
    input: { userId: number; productId: number; commissionRate: number },
    actor: Actor,
  ): Promise<void> {
    const { party, product } = await this.prepare(tx, input.userId, input.productId);
    const before = await this.settingsOf(tx, party.id, product.id);
    const next = {
      ...settingsView(before ?? { ...DEFAULT_SETTINGS, enabled: true }),
      commissionRate: input.commissionRate,
    };
    await this.checkSettings(tx, party, product, next);
    await this.writeSettings(tx, party, product.id, before, next, actor, 'products.saveCommission');
  }

  /**
   * Loads the party and the product and locks the party's team (the top-level supplier's account row),
   * so that an agent's and its parent's commissions are never changed at the same time.
   */
  private async prepare(tx: Tx, userId: number, productId: number): Promise<{ party: Party; product: ProductRecord }> {
    const party = await this.liveParty(tx, userId);
    if (!party) throw productRefusal('the account is not a live merchant or supplier account', 'notAParty');
    const product = productById(productId) ? await this.productRecord(tx, productId, false) : null;
    if (!product) throw notFound('no such product');
    const teamRoot = party.role === 'supplier' && party.parentId !== null ? party.parentId : party.id;
    await tx.select({ id: users.id }).from(users).where(eq(users.id, teamRoot)).for('update');
    return { party, product };
  }

  /** Every rule of a party's product settings. Throws a 422 with a stable reason; changes nothing. */
  private async checkSettings(tx: Tx, party: Party, product: ProductRecord, next: ProductSettings): Promise<void> {
    if (party.role === 'merchant' && next.commissionRate !== 0) {
      throw productRefusal('a commission applies to suppliers only: it must be 0 for a merchant', 'fieldNotForRole');
    }
    if (party.role === 'supplier' && (next.feeRate !== 0 || next.perTransactionFee !== 0)) {
      throw productRefusal('fees apply to merchants only: they must be 0 for a supplier', 'fieldNotForRole');
    }
    const outside = (v: number | null) => v !== null && (v < product.minAmount || v > product.maxAmount);
    if (outside(next.minAmount) || outside(next.maxAmount)) {
      throw productRefusal(
        `the party's limits must lie within the product's (${product.minAmount} to ${product.maxAmount} minor units)`,
        'outsideProductLimits',
        { min: product.minAmount, max: product.maxAmount },
      );
    }
    if ((next.minAmount ?? product.minAmount) > (next.maxAmount ?? product.maxAmount)) {
      throw productRefusal('the minimum amount may not exceed the maximum amount', 'minAboveMax');
    }
    if (party.role !== 'supplier') return;
    if (party.parentId !== null) {
      const parentRate = await this.commissionRateOf(tx, party.parentId, product.id);
      if (next.commissionRate > parentRate) {
        throw productRefusal(
          `an agent's commission may not exceed its parent's (${percent(parentRate)})`,
          'commissionAboveParent',
          { max: parentRate },
        );
      }
      return;
    }
    const [highest] = await tx
      .select({ rate: max(partyProducts.commissionRate) })
      .from(partyProducts)
      .innerJoin(users, eq(users.id, partyProducts.userId))
      .where(and(eq(users.parentId, party.id), isNull(users.deletedAt), eq(partyProducts.productId, product.id)));
    const agentRate = highest?.rate ?? 0;
    if (next.commissionRate < agentRate) {
      throw productRefusal(
        `a supplier's commission may not go below one of its agents' (${percent(agentRate)})`,
        'commissionBelowAgent',
        { min: agentRate },
      );
    }
  }

  private async writeSettings(
    tx: Tx,
    party: Party,
    productId: number,
    before: PartyProductRecord | null,
    next: ProductSettings,
    actor: Actor,
    action: AuditAction,
  ): Promise<PartyProductRecord> {
    const now = this.now();
    const [saved] = await tx
      .insert(partyProducts)
      .values({ userId: party.id, productId, ...next, updatedAt: now, updatedBy: actor.userId })
      .onConflictDoUpdate({
        target: [partyProducts.userId, partyProducts.productId],
        set: { ...next, updatedAt: now, updatedBy: actor.userId },
      })
      .returning();
    await writeAudit(
      tx,
      actor,
      {
        action,
        target: `user:${party.id}:product:${productId}`,
        before: before ? settingsView(before) : null,
        after: settingsView(saved!),
      },
      now,
    );
    return saved!;
  }

  private async liveParty(db: DbOrTx, userId: number): Promise<Party | null> {
    const [row] = await db
      .select()
      .from(users)
      .where(and(eq(users.id, userId), isNull(users.deletedAt)))
      .limit(1);
    return row && isPartyRole(row.role) ? (row as Party) : null;
  }

  private async productRecord(tx: Tx, id: number, lock: boolean): Promise<ProductRecord | null> {
    const query = tx.select().from(products).where(eq(products.id, id));
    const [row] = lock ? await query.for('update') : await query;
    return row ?? null;
  }
}

function toUserProductRow(r: {
  pp: PartyProductRecord;
  account: string;
  nickname: string;
  role: string;
  parentAccount: string | null;
}): UserProductRow {
  return {
    id: r.pp.id,
    userId: r.pp.userId,
    account: r.account,
    nickname: r.nickname,
    role: r.role as PartyRole,
    parentAccount: r.parentAccount,
    productId: r.pp.productId,
    ...settingsView(r.pp),
    updatedAt: r.pp.updatedAt.toISOString(),
  };
}
