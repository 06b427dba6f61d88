import { createHash } from 'node:crypto';
import {
  Code,
  type ConsolePayoutRequest,
  codeCatalogue,
  type NoteTemplate,
  note,
  ORDER_STATE,
  ORDER_UPLOAD_LAYOUTS,
  ORDER_UPLOAD_MAX_BYTES,
  ORDER_UPLOAD_MAX_ROWS,
  ORDER_UPLOAD_REQUIRED_COLUMNS,
  ORDER_UPLOAD_TEXTS,
  type OrderUploadAnswer,
  type OrderUploadFlag,
  type OrderUploadRowResult,
  type OrderUploadType,
  type OrderUploadTypeFlag,
  orderUploadAnswer,
  orderUploadRowSchema,
  payoutUploadRowSchema,
  productById,
  type Reason,
  type Role,
} from '@paydesk/contract';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { auditLog, merchants, partyProducts, products } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { isConcurrencyFailure } from '../../platform/db-errors.js';
import { AppError, catalogued, conflict } from '../../platform/errors.js';
import { csvText, parseOrderCsv } from './order-csv.js';
import type { OrdersService } from './orders.service.js';

/**
 * What a payout upload needs of the payouts area: its intake's `createFor` (payouts/payout-intake.ts),
 * the one the signed API and the console form call. app.ts gives it: the payouts area imports this
 * one (its settings and statements), so this one does not import it back.
 */
export interface PayoutUploadIntake {
  createFor(
    merchantId: number,
    params: ConsolePayoutRequest,
    ctx: { via: NoteTemplate; actor: Actor | null; audit: boolean },
  ): Promise<{ orderCode: string; state: number; created: boolean }>;
}

export interface OrderUploadDeps {
  db: Db;
  clock: Clock;
  orders: OrdersService;
  payouts: PayoutUploadIntake;
}

type UploadForm = {
  file: { filename: string; mimetype: string; content: Uint8Array };
  orderType: OrderUploadType;
  key: string;
};

/**
 * Cells a row must have before its schema reads it ('<column> is required'). A payout's amount is not
 * here: it is among the payee fields the payout request requires with spec section 8's text.
 */
const ROW_REQUIRED: Record<OrderUploadType, readonly string[]> = {
  collection: ORDER_UPLOAD_REQUIRED_COLUMNS,
  payout: ['mchOrderNo', 'productId'],
};

/** The audit action of an upload; its row keeps the answer, which the same key replays. */
export const UPLOAD_AUDIT_ACTION = 'orders.createBatch';
/** What the audit row keeps of an answer (and the file's SHA-256 beside it). */
const keptAnswer = orderUploadAnswer.omit({ replayed: true });
/** Namespace of the advisory lock that makes recording one upload per key atomic across processes. */
const UPLOAD_LOCK = 7_270_706;

/**
 * Batch upload of collection orders or payouts (spec section 7; issue 20 item 3) in the merchant's
 * console session. The session replaces the API's signature and IP whitelist; from there every row is
 * exactly an API call: `OrdersService.createFor` with the merchant's mchId for a collection order,
 * the payout intake's `createFor` for a payout (its funds held), each row in its own transactions, so
 * one row's refusal leaves the others alone. The upload's key makes it idempotent: its answer is kept
 * in its audit row (who, file, counts, per-row results) and the same key with the same file answers
 * it again without creating anything; with another file (or order type) it is refused.
 */
export class OrderUploadService {
  /** Keys of uploads running in this process: a second request with a running key is refused (409), not queued. */
  private readonly running = new Set<string>();

  constructor(private readonly deps: OrderUploadDeps) {}

  private get db() {
    return this.deps.db;
  }

  /**
   * Per order type whether the caller may upload now and why not, and the limits: the console shows
   * each list's upload button by it. Both need a merchant that is enabled while the platform takes
   * orders; collection needs an enabled collection product, payout an enabled payout product.
   */
  async flag(caller: { userId: number; role: Role }): Promise<OrderUploadFlag> {
    const typeFlag = (type: OrderUploadType, productIds: number[], reason: Reason): OrderUploadTypeFlag => ({
      allowed: productIds.length > 0,
      reason: productIds.length > 0 ? null : reason,
      columns: [...ORDER_UPLOAD_LAYOUTS[type].columns],
      requiredColumns: [...ORDER_UPLOAD_LAYOUTS[type].requiredColumns],
      productIds,
    });
    const answer = (collection: number[], payout: number[], reason?: Reason): OrderUploadFlag => ({
      maxRows: ORDER_UPLOAD_MAX_ROWS,
      maxBytes: ORDER_UPLOAD_MAX_BYTES,
      types: {
        collection: typeFlag('collection', collection, reason ?? 'noProduct'),
        payout: typeFlag('payout', payout, reason ?? 'noPayoutProduct'),
      },
    });
    if (caller.role !== 'merchant') return answer([], [], 'merchantsOnly');
    const [merchant] = await this.db.select().from(merchants).where(eq(merchants.userId, caller.userId));
    if (!merchant?.enabled) return answer([], [], 'merchantUnavailable');
    if (!(await this.deps.orders.settings.get()).enableService) return answer([], [], 'serviceClosed');
    const enabled = await this.db
      .select({ productId: partyProducts.productId })
      .from(partyProducts)
      .innerJoin(products, eq(products.id, partyProducts.productId))
      .where(
        and(eq(partyProducts.userId, merchant.userId), eq(partyProducts.enabled, true), eq(products.enabled, true)),
      )
      .orderBy(asc(partyProducts.productId));
    const ids = (direction: 'collection' | 'payout') =>
      enabled.map((p) => p.productId).filter((id) => productById(id)?.direction === direction);
    return answer(ids('collection'), ids('payout'));
  }

  /**
   * POST /v1.0/api/order/createBatch. Up front: a payout upload's second-level password (1024: it
   * moves the merchant's funds, as the console's payout form, which needs it too); the caller's
   * merchant enabled (2002); the key (a replay answers whatever the platform's state now, since it
   * creates nothing; another file: 409); the platform taking orders (2011); a CSV file with its
   * type's columns. Then the file's rows, each checked with its API's field rules and created through
   * that API's `createFor`. Audited once at the end (a payout also has its own `payouts.create` row).
   */
  async createBatch(
    form: UploadForm,
    caller: { actor: Actor; userId: number; token2Valid: boolean },
    ctx: { baseUrl: string },
  ): Promise<OrderUploadAnswer> {
    if (form.orderType === 'payout' && !caller.token2Valid) throw catalogued(Code.token2Required);
    const [merchant] = await this.db.select().from(merchants).where(eq(merchants.userId, caller.userId));
    if (!merchant?.enabled) throw catalogued(Code.merchantUnavailable);
    const fileSha256 = createHash('sha256').update(form.file.content).digest('hex');
    const target = `upload:${merchant.id}:${form.key}`;
    const earlier = await this.recorded(this.db, target);
    if (earlier) return this.replay(earlier, fileSha256, form.orderType);

    if (!(await this.deps.orders.settings.get()).enableService) throw catalogued(Code.serviceClosed);
    const text = csvText(form.file);

    if (this.running.has(target)) throw conflict(ORDER_UPLOAD_TEXTS.inProgress, 'inProgress');
    this.running.add(target);
    try {
      const rows = parseOrderCsv(text, ORDER_UPLOAD_LAYOUTS[form.orderType]);
      const via = note('viaUpload', { key: form.key, account: caller.actor.account ?? 'merchant' });
      const results: OrderUploadRowResult[] = [];
      for (const { row, cells } of rows) {
        results.push(
          form.orderType === 'payout'
            ? await this.createPayoutRow(merchant, row, cells, { via, actor: caller.actor })
            : await this.createRow(merchant, row, cells, { baseUrl: ctx.baseUrl, via }),
        );
      }
      const answer: OrderUploadAnswer = {
        key: form.key,
        orderType: form.orderType,
        fileName: form.file.filename,
        rows: results.length,
        created: results.filter((r) => r.created).length,
        existing: results.filter((r) => !r.created && r.orderCode !== undefined).length,
        refused: results.filter((r) => r.orderCode === undefined).length,
        replayed: false,
        uploadedAt: this.deps.clock.now().toISOString(),
        results,
      };
      return await this.record(caller.actor, target, answer, fileSha256);
    } finally {
      this.running.delete(target);
    }
  }

  /** A collection row: the order API's field checks, then its business rules; a refusal is this row's result. */
  private createRow(
    merchant: { id: number; merchantNo: string },
    row: number,
    cells: Record<string, string>,
    ctx: { baseUrl: string; via: NoteTemplate },
  ): Promise<OrderUploadRowResult> {
    return this.uploadRow(row, cells, 'collection', orderUploadRowSchema, async (params) => {
      const order = await this.deps.orders.createFor(merchant.id, { mchId: merchant.merchantNo, ...params }, ctx);
      const allocated = order.state !== ORDER_STATE.allocationFailed;
      return {
        code: allocated ? Code.success : Code.allocationFailed,
        msg: allocated
          ? order.created
            ? 'created'
            : 'an order with this mchOrderNo and the same content exists: this one'
          : codeCatalogue[Code.allocationFailed].message,
        created: order.created,
        orderCode: order.orderCode,
        state: order.state,
      };
    });
  }

  /**
   * A payout row: the payout API's field checks, then its business rules through the payout intake
   * (product, limits, idempotency, daily limit, the hold in its own transaction: 2013 when the balance
   * is short, nothing moved for that row), audited as the console's payout form audits.
   */
  private createPayoutRow(
    merchant: { id: number },
    row: number,
    cells: Record<string, string>,
    ctx: { via: NoteTemplate; actor: Actor },
  ): Promise<OrderUploadRowResult> {
    return this.uploadRow(row, cells, 'payout', payoutUploadRowSchema, async (params) => {
      const payout = await this.deps.payouts.createFor(merchant.id, params, { ...ctx, audit: true });
      return {
        code: Code.success,
        msg: payout.created ? 'created' : 'a payout with this mchOrderNo and the same content exists: this one',
        created: payout.created,
        orderCode: payout.orderCode,
        state: payout.state,
      };
    });
  }

  /** One row of either type: its required cells, its schema, then `make`; a refusal is this row's result. */
  private async uploadRow<T>(
    row: number,
    cells: Record<string, string>,
    type: OrderUploadType,
    schema: z.ZodType<T>,
    make: (params: T) => Promise<Omit<OrderUploadRowResult, 'row' | 'mchOrderNo'>>,
  ): Promise<OrderUploadRowResult> {
    const mchOrderNo = (cells.mchOrderNo ?? '').slice(0, 64);
    const refusedRow = (msg: string) => ({ row, mchOrderNo, code: Code.invalidInput, msg, created: false });
    const empty = ROW_REQUIRED[type].find((c) => cells[c] === undefined);
    if (empty) return refusedRow(`${empty} is required`);
    const parsed = schema.safeParse(cells);
    if (!parsed.success) return refusedRow(parsed.error.issues[0]?.message ?? 'invalid row');
    try {
      return { row, mchOrderNo, ...(await make(parsed.data)) };
    } catch (error) {
      if (error instanceof AppError) return { row, mchOrderNo, code: error.code, msg: error.message, created: false };
      if (isConcurrencyFailure(error)) {
        return { row, mchOrderNo, code: Code.conflict, msg: 'it changed meanwhile, try again', created: false };
      }
      throw error;
    }
  }

  /** The answer kept for an upload key, if any. */
  private async recorded(db: Pick<Db, 'select'>, target: string) {
    const [row] = await db
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.action, UPLOAD_AUDIT_ACTION), eq(auditLog.target, target)))
      .orderBy(asc(auditLog.id))
      .limit(1);
    if (!row) return null;
    const after = row.after as { fileSha256?: unknown };
    return { answer: keptAnswer.parse(after), fileSha256: String(after.fileSha256 ?? '') };
  }

  private replay(
    earlier: { answer: Omit<OrderUploadAnswer, 'replayed'>; fileSha256: string },
    fileSha256: string,
    orderType: string,
  ): OrderUploadAnswer {
    if (earlier.fileSha256 !== fileSha256 || earlier.answer.orderType !== orderType) {
      throw conflict(ORDER_UPLOAD_TEXTS.keyReused, 'keyReused');
    }
    return { ...earlier.answer, replayed: true };
  }

  /**
   * Keeps the upload's answer in its audit row, unless another process finished the same key first
   * (both made the same orders, mchOrderNo being idempotent): then that one is the answer.
   */
  private async record(
    actor: Actor,
    target: string,
    answer: OrderUploadAnswer,
    fileSha256: string,
  ): Promise<OrderUploadAnswer> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${UPLOAD_LOCK}, hashtext(${target}))`);
      const first = await this.recorded(tx, target);
      if (first) return this.replay(first, fileSha256, answer.orderType);
      const { replayed: _replayed, ...kept } = answer;
      await writeAudit(
        tx,
        actor,
        { action: UPLOAD_AUDIT_ACTION, target, after: { ...kept, fileSha256 } },
        this.deps.clock.now(),
      );
      return answer;
    });
  }
}
