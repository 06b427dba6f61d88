import {
  allowedResourceActions,
  Code,
  detailsSchemaOf,
  isRedWalletProduct,
  ORDER_STATE,
  qrTextOf,
  RED_WALLET_PRODUCTS,
  RESOURCE_STATE,
  RESOURCE_TEXTS,
  type ResourceAction,
  type ResourceActionFacts,
  type ResourceFields,
  type ResourceKind,
  type ResourceRow,
  type Role,
  resourceActionRefusal,
  resourceKindOf,
  SECRET_DETAIL_FIELDS,
} from '@paydesk/contract';
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { orders, products, resourceDaily, resourceImages, resources, suppliers } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { AppError, forbidden, notFound, refused } from '../../platform/errors.js';
import { afterInOrder, keysetRowsAfter } from '../../platform/export.js';
import { checkImage, dataUrlOf } from '../../platform/images.js';
import { escapeLike } from '../../platform/like.js';
import type { SettingsStore } from '../../platform/settings.js';
import { formatPlatformTime } from '../../platform/time.js';
import type { PayGateways } from '../paygateways/pay-gateways.js';
import { type GatewaySecrets, openGatewaySecrets, sealGatewaySecrets } from '../payouts/gateway/secrets.js';
import { productName } from '../products/names.js';

export interface ResourcesDeps {
  db: Db;
  clock: Clock;
  /** Seals gateway key secrets (the key merchants' API secrets use: platform/crypto.ts). */
  secretKey: Buffer;
  /** Platform time zone: "today" of the processed counts and amounts. */
  timeZone: string;
  /** The pay gateway config: a gateway payout account may name one (`details.gatewayId`). */
  payGateways?: PayGateways | undefined;
  /** redWalletCount: how many red-packet accounts a supplier may have on at once. */
  settings: SettingsStore;
}

/**
 * The advisory lock (two-key form: this, the supplier's id) held while a supplier's red-packet accounts
 * are counted and switched on, so two switches at once cannot both take the last place.
 */
const RED_WALLET_LOCK = 7_270_741;

/**
 * Whose resources the caller reaches: staff every supplier's; a supplier account only its own
 * supplier record's (not its agents': an agent manages its own accounts, and the resource routes are
 * not team views). Anything outside answers 404.
 */
export type ResourceOwner = { all: true } | { all: false; userId: number };

/**
 * The role the action rule holds an actor to. The system (demo data, the bench) acts as a super admin
 * would: the row's own facts (open orders, kind, supplier and product) still hold for it.
 */
const roleOf = (actor: Actor): Role => actor.role ?? 'superAdmin';

export interface ResourceFilters {
  supplierId?: number | null | undefined;
  productId?: number | null | undefined;
  /** Any of these products (a console page serving several). */
  productIds?: number[] | null | undefined;
  kind?: string | null | undefined;
  state?: 0 | 1 | undefined;
  text?: string | null | undefined;
  sortBy?: 'createdAt' | 'todayAmount' | null | undefined;
  sortOrder?: 'asc' | 'desc' | null | undefined;
}

export interface ResourceFieldsInput {
  productId: number;
  name: string;
  details: Record<string, unknown>;
  minAmount?: number | null | undefined;
  maxAmount?: number | null | undefined;
  dailyAmountLimit?: number | null | undefined;
  dailyCountLimit?: number | null | undefined;
  link?: string | null | undefined;
  jumpLink?: string | null | undefined;
}

type ResourceRecord = typeof resources.$inferSelect;

const T = RESOURCE_TEXTS;

const todayCountSql = sql<number>`coalesce(${resourceDaily.count}, 0)`.mapWith(Number);
const todayAmountSql = sql<number>`coalesce(${resourceDaily.amount}, 0)`.mapWith(Number);

/** A resource's open orders (allocated, not yet paid): what keeps it from being deleted. */
const openOrdersSql =
  sql<number>`(select count(*) from ${orders} where ${orders.resourceId} = ${resources.id} and ${orders.state} = ${ORDER_STATE.allocated})`.mapWith(
    Number,
  );

const rowFields = {
  resource: resources,
  supplierName: suppliers.name,
  supplierEnabled: suppliers.enabled,
  productEnabled: products.enabled,
  openOrders: openOrdersSql,
  todayCount: todayCountSql,
  todayAmount: todayAmountSql,
};
interface RowResult {
  resource: ResourceRecord;
  supplierName: string;
  supplierEnabled: boolean;
  productEnabled: boolean;
  openOrders: number;
  todayCount: number;
  todayAmount: number;
}

/** What the action rule reads of a resource (the contract's `resourceActionRefusal`). */
const factsOf = (r: {
  resource: ResourceRecord;
  supplierEnabled: boolean;
  productEnabled: boolean;
  openOrders: number;
  redWalletsFull?: boolean;
}): ResourceActionFacts => ({
  kind: r.resource.kind,
  openOrders: r.openOrders,
  supplierEnabled: r.supplierEnabled,
  productEnabled: r.productEnabled,
  redWalletsFull: r.redWalletsFull ?? false,
});

/** Whether switching this resource on would add a red-packet account to those its supplier has on. */
const addsRedWallet = (x: ResourceRecord) => isRedWalletProduct(x.productId) && x.state !== RESOURCE_STATE.enabled;

/** The channel fields a client may see: every stored field except secrets, as text. */
function publicDetails(details: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(details)) {
    if ((SECRET_DETAIL_FIELDS as readonly string[]).includes(k)) continue;
    if (typeof v === 'string') out[k] = v;
  }
  return out;
}

function toFields(r: RowResult): ResourceFields {
  const x = r.resource;
  return {
    id: x.id,
    supplierId: x.supplierId,
    supplierName: r.supplierName,
    productId: x.productId,
    productName: productName(x.productId),
    kind: x.kind,
    name: x.name,
    state: x.state,
    details: publicDetails(x.details),
    hasSecret: x.secretSealed !== null,
    minAmount: x.minAmount,
    maxAmount: x.maxAmount,
    dailyAmountLimit: x.dailyAmountLimit,
    dailyCountLimit: x.dailyCountLimit,
    link: x.link,
    jumpLink: x.jumpLink,
    qrCode: x.qrCode,
    qrImageId: x.qrImageId,
    todayCount: r.todayCount,
    todayAmount: r.todayAmount,
    createdAt: x.createdAt.toISOString(),
    updatedAt: x.updatedAt.toISOString(),
  };
}

/** A row of the list for `role`: its fields and the actions the rule allows that role on it now. */
const toRow = (r: RowResult & { redWalletsFull?: boolean }, role: Role): ResourceRow => ({
  ...toFields(r),
  allowedActions: allowedResourceActions(role, factsOf(r)),
});

/** What an audit row shows of a resource: never the sealed secret, only whether there is one. */
const auditView = (x: ResourceRecord) => ({
  supplierId: x.supplierId,
  productId: x.productId,
  kind: x.kind,
  name: x.name,
  state: x.state,
  details: publicDetails(x.details),
  // Named so the audit's secret-looking-key redaction keeps the fact (never the value).
  keySealed: x.secretSealed !== null,
  minAmount: x.minAmount,
  maxAmount: x.maxAmount,
  dailyAmountLimit: x.dailyAmountLimit,
  dailyCountLimit: x.dailyCountLimit,
  link: x.link,
  jumpLink: x.jumpLink,
  qrImageId: x.qrImageId,
});

type SortKey = NonNullable<ResourceFilters['sortBy']>;
const SORT_COLUMNS: Record<SortKey, { expr: SQL; valueOf(row: ResourceFields): number | string }> = {
  createdAt: { expr: sql`${resources.createdAt}`, valueOf: (r) => r.createdAt },
  todayAmount: { expr: sql`coalesce(${resourceDaily.amount}, 0)`, valueOf: (r) => r.todayAmount },
};

function orderOf(input: ResourceFilters): SQL[] {
  const sort = input.sortBy ? SORT_COLUMNS[input.sortBy] : null;
  if (!sort) return [asc(resources.id)];
  return [input.sortOrder === 'desc' ? desc(sort.expr) : asc(sort.expr), asc(resources.id)];
}

/** The open (allocated, unpaid) orders of each resource: the action rule reads them (delete). */
async function openOrdersOf(db: DbOrTx, resourceIds: number[]): Promise<Map<number, number>> {
  const rows = await db
    .select({ resourceId: orders.resourceId, n: count() })
    .from(orders)
    .where(and(inArray(orders.resourceId, resourceIds), eq(orders.state, ORDER_STATE.allocated)))
    .groupBy(orders.resourceId);
  return new Map(rows.map((r) => [r.resourceId ?? 0, r.n]));
}

/** How many red-packet accounts (products 5001, 5002) each supplier has switched on now. */
async function redWalletsOn(db: DbOrTx, supplierIds: number[]): Promise<Map<number, number>> {
  if (supplierIds.length === 0) return new Map();
  const rows = await db
    .select({ supplierId: resources.supplierId, n: count() })
    .from(resources)
    .where(
      and(
        inArray(resources.supplierId, supplierIds),
        inArray(resources.productId, [...RED_WALLET_PRODUCTS]),
        eq(resources.state, RESOURCE_STATE.enabled),
        isNull(resources.deletedAt),
      ),
    )
    .groupBy(resources.supplierId);
  return new Map(rows.map((r) => [r.supplierId, r.n]));
}

/** The open (allocated, not yet paid) orders on a resource: their count and sum in minor units. */
export async function processingOrdersOf(db: DbOrTx, resourceId: number): Promise<{ count: number; amount: number }> {
  const [row] = await db
    .select({ n: count(), amount: sql<number>`coalesce(sum(${orders.amount}), 0)`.mapWith(Number) })
    .from(orders)
    .where(and(eq(orders.resourceId, resourceId), eq(orders.state, ORDER_STATE.allocated)));
  return { count: row?.n ?? 0, amount: row?.amount ?? 0 };
}

/** Receiving and payout accounts of every channel (issue 5). */
export class ResourcesService {
  constructor(readonly deps: ResourcesDeps) {}

  private get db() {
    return this.deps.db;
  }
  private now() {
    return this.deps.clock.now();
  }
  /** Today in the platform time zone, 'YYYY-MM-DD': the key of resource_daily. */
  today(): string {
    return formatPlatformTime(this.now(), this.deps.timeZone).slice(0, 10);
  }

  private select(db: DbOrTx = this.db) {
    return db
      .select(rowFields)
      .from(resources)
      .innerJoin(suppliers, eq(suppliers.id, resources.supplierId))
      .innerJoin(products, eq(products.id, resources.productId))
      .leftJoin(resourceDaily, and(eq(resourceDaily.resourceId, resources.id), eq(resourceDaily.day, this.today())));
  }

  private ownerWhere(owner: ResourceOwner): SQL | undefined {
    return and(isNull(resources.deletedAt), owner.all ? undefined : eq(suppliers.userId, owner.userId));
  }

  private whereOf(owner: ResourceOwner, f: ResourceFilters): SQL | undefined {
    const text = f.text ? `%${escapeLike(f.text)}%` : null;
    return and(
      this.ownerWhere(owner),
      f.supplierId ? eq(resources.supplierId, f.supplierId) : undefined,
      f.productId ? eq(resources.productId, f.productId) : undefined,
      f.productIds?.length ? inArray(resources.productId, f.productIds) : undefined,
      f.kind ? eq(resources.kind, f.kind) : undefined,
      f.state === 0 || f.state === 1 ? eq(resources.state, f.state) : undefined,
      text
        ? or(
            ilike(resources.name, text),
            sql`exists (select 1 from jsonb_each_text(${resources.details}) d where d.value ilike ${text})`,
          )
        : undefined,
    );
  }

  /** A page of the list; each row with the actions `role` may take on it now (`allowedActions`). */
  async getList(owner: ResourceOwner, input: ResourceFilters & { pageIndex: number; pageSize: number }, role: Role) {
    const where = this.whereOf(owner, input);
    const [rows, [totals]] = await Promise.all([
      this.select()
        .where(where)
        .orderBy(...orderOf(input))
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.db
        .select({ n: count(), todayAmount: sql<number>`coalesce(sum(${resourceDaily.amount}), 0)`.mapWith(Number) })
        .from(resources)
        .innerJoin(suppliers, eq(suppliers.id, resources.supplierId))
        .leftJoin(resourceDaily, and(eq(resourceDaily.resourceId, resources.id), eq(resourceDaily.day, this.today())))
        .where(where),
    ]);
    const { full } = await this.redWalletsFullOf(
      this.db,
      rows.map((r) => r.resource),
    );
    return {
      list: rows.map((r) => toRow({ ...r, redWalletsFull: full.has(r.resource.id) }, role)),
      total: totals?.n ?? 0,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
      summary: { todayAmount: totals?.todayAmount ?? 0 },
    };
  }

  /** The filtered set for the CSV export, in the list's order, in batches after a cursor. */
  async *exportList(owner: ResourceOwner, input: ResourceFilters, batchSize = 1000): AsyncGenerator<ResourceFields> {
    const where = this.whereOf(owner, input);
    const sort = input.sortBy ? SORT_COLUMNS[input.sortBy] : null;
    const descending = input.sortOrder === 'desc';
    yield* keysetRowsAfter<ResourceFields>(async (last, limit) => {
      const after = last
        ? afterInOrder(sort && { expr: sort.expr, value: sort.valueOf(last) }, descending, {
            column: resources.id,
            value: last.id,
          })
        : undefined;
      const rows = await this.select()
        .where(and(where, after))
        .orderBy(...orderOf(input))
        .limit(limit);
      return rows.map(toFields);
    }, batchSize);
  }

  private async rowById(db: DbOrTx, id: number, role: Role): Promise<ResourceRow> {
    const [row] = await this.select(db).where(eq(resources.id, id));
    if (!row) throw notFound('no such resource');
    const { full } = await this.redWalletsFullOf(db, [row.resource]);
    return toRow({ ...row, redWalletsFull: full.has(row.resource.id) }, role);
  }

  /**
   * The resources among `list` that could not be switched on now because their supplier already has
   * redWalletCount red-packet accounts on, and the limit. Each alone (a page of the list), or `together`
   * (a switch of them all: each counted as on once switched, in `list`'s order).
   */
  private async redWalletsFullOf(
    db: DbOrTx,
    list: ResourceRecord[],
    together = false,
  ): Promise<{ full: Set<number>; limit: number }> {
    const full = new Set<number>();
    const adding = list.filter(addsRedWallet);
    if (adding.length === 0) return { full, limit: 0 };
    const limit = await this.deps.settings.get('redWalletCount', db);
    const on = await redWalletsOn(db, [...new Set(adding.map((x) => x.supplierId))]);
    for (const x of adding) {
      const n = on.get(x.supplierId) ?? 0;
      if (n >= limit) full.add(x.id);
      else if (together) on.set(x.supplierId, n + 1);
    }
    return { full, limit };
  }

  async create(owner: ResourceOwner, input: ResourceFieldsInput & { supplierId?: number | undefined }, actor: Actor) {
    return this.db.transaction(async (tx) => {
      const supplierId = await this.supplierFor(tx, owner, input.supplierId);
      const kind = resourceKindOf(input.productId)!;
      const { details, secrets } = this.readDetails(kind, input.details, 'create');
      await this.checkPayGateway(tx, owner, details);
      const now = this.now();
      const [created] = await tx
        .insert(resources)
        .values({
          supplierId,
          productId: input.productId,
          kind,
          name: input.name,
          state: RESOURCE_STATE.disabled,
          details,
          secretSealed: secrets === null ? null : sealGatewaySecrets(secrets, this.deps.secretKey),
          ...this.limitsOf(input),
          qrCode: qrTextOf(kind, details),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await writeAudit(
        tx,
        actor,
        { action: 'resources.create', target: `resource:${created!.id}`, after: auditView(created!) },
        now,
      );
      return this.rowById(tx, created!.id, roleOf(actor));
    });
  }

  async update(owner: ResourceOwner, input: ResourceFieldsInput & { id: number }, actor: Actor) {
    return this.db.transaction(async (tx) => {
      const found = await this.locate(tx, owner, input.id, { lock: true, productId: input.productId });
      await this.guard(tx, 'edit', actor, [found]);
      const before = found.resource;
      const { details, secrets } = this.readDetails(before.kind, input.details, 'update');
      await this.checkPayGateway(tx, owner, details);
      // A secret left out keeps the sealed one; the other is sealed again beside the one given.
      const sealed =
        secrets === null
          ? null
          : sealGatewaySecrets(
              { ...openGatewaySecrets(before.secretSealed, this.deps.secretKey), ...secrets },
              this.deps.secretKey,
            );
      const now = this.now();
      const [after] = await tx
        .update(resources)
        .set({
          name: input.name,
          details,
          ...(sealed === null ? {} : { secretSealed: sealed }),
          ...this.limitsOf(input),
          qrCode: qrTextOf(before.kind, details),
          updatedAt: now,
        })
        .where(eq(resources.id, before.id))
        .returning();
      await writeAudit(
        tx,
        actor,
        {
          action: 'resources.update',
          target: `resource:${before.id}`,
          before: auditView(before),
          after: {
            ...auditView(after!),
            keyReplaced: secrets?.keySecret !== undefined,
            webhookKeyReplaced: secrets?.webhookSecret !== undefined,
          },
        },
        now,
      );
      return this.rowById(tx, before.id, roleOf(actor));
    });
  }

  /** Deletes (keeps the row, switched off and out of every list) a resource with no open orders. */
  async delete(owner: ResourceOwner, id: number, actor: Actor): Promise<void> {
    await this.db.transaction(async (tx) => {
      const found = await this.locate(tx, owner, id, { lock: true });
      await this.guard(tx, 'delete', actor, [found]);
      const { resource } = found;
      const now = this.now();
      await tx
        .update(resources)
        .set({ deletedAt: now, state: RESOURCE_STATE.disabled, updatedAt: now })
        .where(eq(resources.id, resource.id));
      await writeAudit(
        tx,
        actor,
        { action: 'resources.delete', target: `resource:${resource.id}`, before: auditView(resource) },
        now,
      );
    });
  }

  /**
   * Stores a QR image for a resource: the declared type must match the content's magic bytes (PNG,
   * JPEG, WebP), at most 512 KiB. The previous image is replaced.
   */
  async uploadQr(
    owner: ResourceOwner,
    input: { id: number; mime: string; imageBase64: string },
    actor: Actor,
  ): Promise<{ qrImageId: number; size: number; sha256: string }> {
    return this.db.transaction(async (tx) => {
      const found = await this.locate(tx, owner, input.id, { lock: true });
      await this.guard(tx, 'uploadQr', actor, [found]);
      const { resource } = found;
      const checked = checkImage(input.mime, input.imageBase64);
      if (!checked.ok) throw refused(T[checked.reason], checked.reason);
      const { bytes, sha256 } = checked.image;
      const now = this.now();
      const [image] = await tx
        .insert(resourceImages)
        .values({ resourceId: resource.id, mime: input.mime, bytes, sha256, size: bytes.length, createdAt: now })
        .returning({ id: resourceImages.id });
      await tx.update(resources).set({ qrImageId: image!.id, updatedAt: now }).where(eq(resources.id, resource.id));
      if (resource.qrImageId !== null) {
        await tx.delete(resourceImages).where(eq(resourceImages.id, resource.qrImageId));
      }
      await writeAudit(
        tx,
        actor,
        {
          action: 'resources.uploadQr',
          target: `resource:${resource.id}`,
          before: { qrImageId: resource.qrImageId },
          after: { qrImageId: image!.id, mime: input.mime, size: bytes.length, sha256 },
        },
        now,
      );
      return { qrImageId: image!.id, size: bytes.length, sha256 };
    });
  }

  async qrImage(owner: ResourceOwner, id: number) {
    const { resource } = await this.locate(this.db, owner, id, {});
    if (resource.qrImageId === null) return null;
    const [image] = await this.db.select().from(resourceImages).where(eq(resourceImages.id, resource.qrImageId));
    if (!image) return null;
    return {
      qrImageId: image.id,
      mime: image.mime,
      size: image.size,
      dataUrl: dataUrlOf(image.mime, image.bytes),
    };
  }

  /** Spec section 3's resource detail. A resource of another product (or supplier) is a 404. */
  async detailInfo(owner: ResourceOwner, input: { resourceId: number; productId: number }) {
    const { resource, supplierName } = await this.locate(this.db, owner, input.resourceId, {
      productId: input.productId,
    });
    const processing = await processingOrdersOf(this.db, resource.id);
    return {
      id: resource.id,
      productId: resource.productId,
      supplierName,
      productName: productName(resource.productId),
      processingOrderCount: processing.count,
      processingOrderAmount: processing.amount,
      state: resource.state,
      link: resource.link,
      jumpLink: resource.jumpLink,
      qrCode: resource.qrCode,
      qrImageId: resource.qrImageId,
    };
  }

  /** Counts and today's processed counts and amounts per state, for a supplier (in scope) and product. */
  async staticInfo(
    owner: ResourceOwner,
    input: { supplierId?: number | null | undefined; productId?: number | null | undefined },
  ) {
    if (input.supplierId) {
      const [supplier] = await this.db
        .select({ id: suppliers.id })
        .from(suppliers)
        .where(and(eq(suppliers.id, input.supplierId), owner.all ? undefined : eq(suppliers.userId, owner.userId)));
      if (!supplier) throw notFound('no such supplier');
    }
    const rows = await this.db
      .select({
        state: resources.state,
        n: count(),
        todayCount: sql<number>`coalesce(sum(${resourceDaily.count}), 0)`.mapWith(Number),
        todayAmount: sql<number>`coalesce(sum(${resourceDaily.amount}), 0)`.mapWith(Number),
      })
      .from(resources)
      .innerJoin(suppliers, eq(suppliers.id, resources.supplierId))
      .leftJoin(resourceDaily, and(eq(resourceDaily.resourceId, resources.id), eq(resourceDaily.day, this.today())))
      .where(this.whereOf(owner, { supplierId: input.supplierId, productId: input.productId }))
      .groupBy(resources.state);
    const states = [RESOURCE_STATE.enabled, RESOURCE_STATE.disabled].map((state) => {
      const r = rows.find((x) => x.state === state);
      return { state, count: r?.n ?? 0, todayCount: r?.todayCount ?? 0, todayAmount: r?.todayAmount ?? 0 };
    });
    return {
      totalCount: states.reduce((s, x) => s + x.count, 0),
      todayCount: states.reduce((s, x) => s + x.todayCount, 0),
      todayAmount: states.reduce((s, x) => s + x.todayAmount, 0),
      states,
    };
  }

  /** The switch (spec section 7): on only while the resource's supplier and product are enabled. */
  async enable(
    owner: ResourceOwner,
    input: { resourceId: number; productId: number; enable: boolean },
    actor: Actor,
  ): Promise<{ state: number }> {
    return this.db.transaction(async (tx) => {
      const found = await this.locate(tx, owner, input.resourceId, { lock: true, productId: input.productId });
      const state = await this.switchTo(tx, [found], input.enable, actor);
      return { state };
    });
  }

  /** Switches several resources at once: every one is in the caller's scope and may switch, or none changes. */
  async bulkEnable(
    owner: ResourceOwner,
    input: { ids: number[]; enable: boolean },
    actor: Actor,
  ): Promise<{ count: number; state: number }> {
    const ids = [...new Set(input.ids)].sort((a, b) => a - b);
    return this.db.transaction(async (tx) => {
      const found = await this.located(tx)
        .where(and(inArray(resources.id, ids), this.ownerWhere(owner)))
        .orderBy(asc(resources.id))
        .for('update', { of: resources });
      if (found.length !== ids.length) throw notFound('no such resource');
      const state = await this.switchTo(tx, found, input.enable, actor);
      return { count: found.length, state };
    });
  }

  // ---- helpers ----

  /**
   * The guard of every row action: the contract's rule on each resource's facts (its open orders read
   * here, under the caller's row lock), refusing with the rule's reason. Changes nothing.
   */
  private async guard(tx: Tx, action: ResourceAction, actor: Actor, found: Located[]): Promise<void> {
    const open = await openOrdersOf(
      tx,
      found.map((f) => f.resource.id),
    );
    const { full, limit } = action === 'enable' ? await this.lockRedWallets(tx, found) : { full: new Set(), limit: 0 };
    for (const f of found) {
      const refusal = resourceActionRefusal(
        action,
        roleOf(actor),
        factsOf({ ...f, openOrders: open.get(f.resource.id) ?? 0, redWalletsFull: full.has(f.resource.id) }),
      );
      if (refusal === 'role') throw forbidden('your role may not do this');
      if (refusal === 'redWalletLimit') {
        throw new AppError(Code.businessRule, `${T.redWalletLimit} (${limit})`, {
          reason: 'redWalletLimit',
          limit,
        });
      }
      if (refusal !== null) throw refused(T[refusal], refusal);
    }
  }

  /**
   * Before red-packet accounts are switched on: holds each of their suppliers' red-wallet lock (in id
   * order) to the commit, then answers which of them would pass the limit, switched on together.
   */
  private async lockRedWallets(tx: Tx, found: Located[]) {
    const supplierIds = [...new Set(found.filter((f) => addsRedWallet(f.resource)).map((f) => f.resource.supplierId))];
    for (const id of supplierIds.sort((a, b) => a - b)) {
      await tx.execute(sql`select pg_advisory_xact_lock(${RED_WALLET_LOCK}, ${id})`);
    }
    return this.redWalletsFullOf(
      tx,
      found.map((f) => f.resource),
      true,
    );
  }

  private async switchTo(tx: Tx, found: Located[], enable: boolean, actor: Actor): Promise<number> {
    const state = enable ? RESOURCE_STATE.enabled : RESOURCE_STATE.disabled;
    await this.guard(tx, enable ? 'enable' : 'disable', actor, found);
    const now = this.now();
    await tx
      .update(resources)
      .set({ state, updatedAt: now })
      .where(
        inArray(
          resources.id,
          found.map((f) => f.resource.id),
        ),
      );
    for (const f of found) {
      await writeAudit(
        tx,
        actor,
        {
          action: 'resources.enable',
          target: `resource:${f.resource.id}`,
          before: { state: f.resource.state },
          after: { state, ...(found.length > 1 ? { bulk: true } : {}) },
        },
        now,
      );
    }
    return state;
  }

  private located(db: DbOrTx) {
    return db
      .select({
        resource: resources,
        supplierName: suppliers.name,
        supplierEnabled: suppliers.enabled,
        productEnabled: products.enabled,
      })
      .from(resources)
      .innerJoin(suppliers, eq(suppliers.id, resources.supplierId))
      .innerJoin(products, eq(products.id, resources.productId));
  }

  /** One resource in the caller's reach (and of `productId` when given); anything else is a 404. */
  private async locate(
    db: DbOrTx,
    owner: ResourceOwner,
    id: number,
    opts: { lock?: boolean; productId?: number },
  ): Promise<Located> {
    const query = this.located(db).where(
      and(
        eq(resources.id, id),
        this.ownerWhere(owner),
        opts.productId === undefined ? undefined : eq(resources.productId, opts.productId),
      ),
    );
    const [row] = opts.lock ? await query.for('update', { of: resources }) : await query;
    if (!row) throw notFound('no such resource');
    return row;
  }

  /** The supplier a new resource belongs to: staff name it; a supplier creates for itself only. */
  private async supplierFor(tx: Tx, owner: ResourceOwner, supplierId: number | undefined): Promise<number> {
    if (owner.all) {
      if (supplierId === undefined) throw refused(T.supplierRequired, 'supplierRequired');
      const [supplier] = await tx.select({ id: suppliers.id }).from(suppliers).where(eq(suppliers.id, supplierId));
      if (!supplier) throw notFound('no such supplier');
      return supplier.id;
    }
    const [me] = await tx.select({ id: suppliers.id }).from(suppliers).where(eq(suppliers.userId, owner.userId));
    if (!me) throw refused(T.notASupplier, 'notASupplier');
    if (supplierId !== undefined && supplierId !== me.id) throw notFound('no such supplier');
    return me.id;
  }

  /**
   * The kind's fields as stored (trimmed by the contract's schema, empty optional fields left out) and
   * the secrets apart, to be sealed (a gateway's key and webhook secrets); null when none was given.
   */
  private readDetails(
    kind: string,
    raw: Record<string, unknown>,
    mode: 'create' | 'update',
  ): { details: Record<string, string>; secrets: GatewaySecrets | null } {
    // The route validated the input already; parsing again yields the schema's output (trimmed).
    const parsed = detailsSchemaOf(kind as ResourceKind, mode, raw)!.parse(raw) as Record<string, unknown>;
    const secrets: GatewaySecrets = {};
    for (const field of SECRET_DETAIL_FIELDS) {
      const value = parsed[field];
      if (typeof value === 'string') secrets[field] = value;
    }
    return { details: publicDetails(parsed), secrets: Object.keys(secrets).length > 0 ? secrets : null };
  }

  /**
   * A gateway payout account naming a pay gateway (`gatewayId`): only staff may (the gateway's key pays
   * from whatever business account the account names), and it must be a payout API gateway. Its row is
   * share-locked until the save commits, so a delete of it waits and then sees this account.
   */
  private async checkPayGateway(tx: Tx, owner: ResourceOwner, details: Record<string, string>): Promise<void> {
    const id = details.gatewayId;
    if (id === undefined) return;
    if (!owner.all) throw forbidden('only staff may choose a pay gateway for an account');
    const gateway = await this.deps.payGateways?.open(tx, Number(id), { share: true });
    if (gateway?.kind !== 'payoutApi') {
      throw refused('the chosen pay gateway does not exist or is not a payout API gateway', 'payGatewayUnusable');
    }
  }

  private limitsOf(input: ResourceFieldsInput) {
    return {
      minAmount: input.minAmount ?? null,
      maxAmount: input.maxAmount ?? null,
      dailyAmountLimit: input.dailyAmountLimit ?? null,
      dailyCountLimit: input.dailyCountLimit ?? null,
      link: input.link ?? null,
      jumpLink: input.jumpLink ?? null,
    };
  }
}

interface Located {
  resource: ResourceRecord;
  supplierName: string;
  supplierEnabled: boolean;
  productEnabled: boolean;
}
