import { createHash } from 'node:crypto';
import {
  type AuditAction,
  allowedPayoutBatchActions,
  Code,
  type CreatePayoutBatchInput,
  note,
  noteParts,
  PAYOUT_BATCH_RULE_TEXTS,
  PAYOUT_BATCH_STATE,
  PAYOUT_STATE,
  type PayoutBatchAction,
  type PayoutBatchFields,
  type PayoutBatchRow,
  type PayoutBatchRowResult,
  payoutBatchActionRefusal,
  REASON_TEXTS,
  type Reason,
} from '@paydesk/contract';
import { and, asc, desc, eq, gte, inArray, isNull, lte, ne, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { rowsOf } from '../../db/raw-rows.js';
import { partyProducts, payoutBatches, payoutEvents, payouts, resources, suppliers } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { type DataScope, inScope } from '../../platform/context.js';
import { AppError, conflict, forbidden, invalid, notFound, refused } from '../../platform/errors.js';
import { keysetRows } from '../../platform/export.js';
import type { RealtimeHub } from '../../platform/realtime/hub.js';
import { parsePlatformTime } from '../../platform/time.js';
import { exportBatchFile } from './bank-files/export.js';
import { parseResultFile, type ResultFile } from './bank-files/result.js';
import { listTemplates } from './bank-files/templates.js';
import type { PayoutRecord } from './payout-core.js';
import type { PayoutCaller, PayoutSettlement, PayoutsService } from './payouts.service.js';
import { publishPayoutBatchChange } from './publish.js';

export type PayoutBatchRecord = typeof payoutBatches.$inferSelect;

export interface PayoutBatchesDeps {
  db: Db;
  clock: Clock;
  timeZone: string;
  payouts: PayoutsService;
  /** The consoles' live batch lists (the 'payoutBatches' topic); none in tools that need no pushes. */
  realtime?: RealtimeHub;
}

/** The batch list's filters (contract `payoutBatchEndpoints.getList`). */
export interface PayoutBatchFilters {
  batchId?: number | null | undefined;
  resourceId?: number | null | undefined;
  supplierId?: number | null | undefined;
  state?: number | undefined;
  templateId?: string | null | undefined;
  startTime?: string | null | undefined;
  endTime?: string | null | undefined;
}

/** What a batch takes: awaiting payouts of the account's product within the amounts, oldest first. */
interface Selection {
  resourceId: number;
  minAmount?: number | null | undefined;
  maxAmount?: number | null | undefined;
  maxCount: number;
}

const B = PAYOUT_BATCH_STATE;
const S = PAYOUT_STATE;
/** The resource kind a bank bulk file pays from: a bank account with its number and IFSC. */
const BATCH_RESOURCE_KIND = 'bankPayout';

/** The English text of a reason of the catalogue, as `msg`. */
const textOf = (reason: Reason) => REASON_TEXTS[reason]['en-US'];

/** The refusal of each action by its state (spec section 8's batch failures). */
const STATE_REFUSALS: Readonly<Record<PayoutBatchAction, Reason>> = {
  propose: 'batchConfirmFailed',
  approve: 'batchConfirmFailed',
  exportFile: 'batchExportFailed',
  download: 'batchDownloadFailed',
  uploadResult: 'uploadFailed',
  markAbnormal: 'batchAbnormalFailed',
};

/**
 * Batch payouts (DESIGN section 7, issue 20 item 8). A batch reserves up to 500 awaiting payouts of one
 * bank payout account's product (draft), one staff account proposes it and another approves it with
 * token2 (maker-checker: the proposer cannot), which moves its payouts still awaiting to preparing on
 * that account and its supplier; the account's bank file is exported by the batch's template and kept,
 * so a download answers the same bytes; the bank's result file completes or fails each payout with the
 * ledger effects of `PayoutsService.settleBySystem`, a result per row. Abnormal ends a batch.
 *
 * Every change locks the batch row first, then its payouts (in id order), and writes its audit row in
 * the same transaction; once committed, the change is published on the 'payoutBatches' topic (the
 * lists refetch). A supplier reads, exports and downloads the batches of its own accounts.
 */
/**
 * The actions that move the batch's payouts without `PayoutsService.committed` (which publishes each
 * payout it moves, as the result upload's settlements are): approve (awaiting -> preparing) and mark
 * abnormal (back to the queue, or preparing -> processing exception).
 */
const MOVES_ITS_PAYOUTS: readonly PayoutBatchAction[] = ['approve', 'markAbnormal'];

export class PayoutBatchesService {
  constructor(private readonly deps: PayoutBatchesDeps) {}

  private get db() {
    return this.deps.db;
  }
  private now() {
    return this.deps.clock.now();
  }

  listTemplates() {
    return listTemplates();
  }

  /** The accounts a batch may pay from (enabled bank payout accounts of enabled suppliers) with their queues. */
  async listResources() {
    const rows = await this.db
      .select({
        id: resources.id,
        name: resources.name,
        supplierId: suppliers.id,
        supplierName: suppliers.name,
        productId: resources.productId,
        awaitingCount: sql<string>`(select count(*) from payouts p
           where p.product_id = ${resources.productId} and p.state = ${S.awaiting} and p.batch_id is null)::text`,
      })
      .from(resources)
      .innerJoin(suppliers, eq(suppliers.id, resources.supplierId))
      .where(usableResource())
      .orderBy(asc(resources.id));
    return rows.map((r) => ({ ...r, awaitingCount: Number(r.awaitingCount) }));
  }

  /** How many payouts (and how much) a batch of these conditions would take now. */
  async countPayouts(selection: Selection) {
    const resource = await this.usableResource(this.db, selection.resourceId, false);
    const picked = await this.select(this.db, resource.productId, selection, false);
    return { count: picked.length, totalAmount: sumOf(picked) };
  }

  /**
   * A draft batch of the account's oldest awaiting payouts within the amounts (at most maxCount),
   * reserved for it (`batch_id`); payouts another transaction holds locked (a claim under way) are
   * passed over. Refused when the account cannot pay a batch or nothing matches.
   */
  async create(input: CreatePayoutBatchInput, caller: PayoutCaller) {
    const payoutAt = parsePlatformTime(input.payoutTime, this.deps.timeZone);
    if (Number.isNaN(payoutAt.getTime())) {
      const message = PAYOUT_BATCH_RULE_TEXTS.payoutTimeFormat['en-US'];
      throw invalid([{ path: 'payoutTime', message }]);
    }
    const created = await this.db.transaction(async (tx) => {
      const resource = await this.usableResource(tx, input.resourceId, true);
      const picked = await this.select(tx, resource.productId, input, true);
      if (picked.length === 0) throw refused(textOf('batchNoPayouts'), 'batchNoPayouts');
      const now = this.now();
      const totalAmount = sumOf(picked);
      const [batch] = await tx
        .insert(payoutBatches)
        .values({
          resourceId: resource.id,
          supplierId: resource.supplierId,
          supplierUserId: resource.supplierUserId,
          productId: resource.productId,
          templateId: input.templateId,
          payoutAt,
          minAmount: input.minAmount ?? null,
          maxAmount: input.maxAmount ?? null,
          maxCount: input.maxCount,
          orderCount: picked.length,
          totalAmount,
          state: B.draft,
          createdBy: caller.userId,
          createdByAccount: caller.actor.account ?? '',
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      const ids = picked.map((p) => p.id);
      await tx
        .update(payouts)
        .set({ batchId: batch!.id, updatedAt: now })
        .where(and(inArray(payouts.id, ids), eq(payouts.state, S.awaiting), isNull(payouts.batchId)));
      await this.audit(tx, caller.actor, 'payoutBatches.create', batch!, null, {
        state: B.draft,
        orderCount: picked.length,
        totalAmount,
      });
      return {
        batchId: batch!.id,
        orderCount: picked.length,
        totalAmount,
        supplierUserId: resource.supplierUserId,
        merchantUserIds: [...new Set(picked.map((p) => p.merchantUserId))],
      };
    });
    const { supplierUserId, merchantUserIds, ...answer } = created;
    publishPayoutBatchChange(this.deps.realtime, { id: answer.batchId, supplierUserId }, 'create', {
      merchantUserIds,
    });
    return answer;
  }

  /** The maker proposes a draft (-> proposed): another staff account confirms it. */
  async propose(id: number, caller: PayoutCaller) {
    return this.act(id, caller, 'propose', async (tx, batch, now) => {
      await tx
        .update(payoutBatches)
        .set({
          state: B.proposed,
          proposedBy: caller.userId,
          proposedByAccount: caller.actor.account,
          proposedAt: now,
          updatedAt: now,
        })
        .where(eq(payoutBatches.id, batch.id));
      return { batchId: batch.id, state: B.proposed };
    });
  }

  /**
   * The checker confirms a proposed batch (-> confirmed): its payouts still awaiting move to preparing,
   * assigned to the batch's account and supplier with the supplier's commission of the product; those
   * claimed or cancelled meanwhile leave the batch. Refused for the proposer ('selfApproval'), and when
   * none is left awaiting or the account cannot pay any more (the batch stays proposed).
   */
  async approve(id: number, caller: PayoutCaller) {
    return this.act(id, caller, 'approve', async (tx, batch, now) => {
      const resource = await this.usableResource(tx, batch.resourceId, true);
      const held = await tx
        .select()
        .from(payouts)
        .where(eq(payouts.batchId, batch.id))
        .orderBy(asc(payouts.id))
        .for('update');
      const kept = held.filter((p) => p.state === S.awaiting);
      const gone = held.filter((p) => p.state !== S.awaiting).map((p) => p.id);
      if (kept.length === 0) {
        throw refused(
          `${textOf('batchConfirmFailed')}: none of its payouts is awaiting any more`,
          'batchConfirmFailed',
        );
      }
      if (gone.length > 0) {
        await tx.update(payouts).set({ batchId: null }).where(inArray(payouts.id, gone));
      }
      const [party] = await tx
        .select({ rate: partyProducts.commissionRate, enabled: partyProducts.enabled })
        .from(partyProducts)
        .where(and(eq(partyProducts.userId, resource.supplierUserId), eq(partyProducts.productId, batch.productId)));
      const rate = BigInt(party?.enabled ? party.rate : 0);
      const changes = kept.map((p) => ({ id: p.id, commission: Number((BigInt(p.amount) * rate) / 10_000n) }));
      const moved = rowsOf<{ id: number }>(
        await tx.execute(sql`
          update payouts p
             set state = ${S.preparing}, supplier_id = ${resource.supplierId},
                 supplier_user_id = ${resource.supplierUserId}, resource_id = ${resource.id},
                 commission = v.commission, updated_at = ${now.toISOString()}::timestamptz
            from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb) as v(id bigint, commission bigint)
           where p.id = v.id and p.state = ${S.awaiting} and p.batch_id = ${batch.id}
          returning p.id`),
      );
      if (moved.length !== kept.length) throw conflict('a payout of the batch changed meanwhile: reload it');
      await tx.insert(payoutEvents).values(
        kept.map((p) => ({
          payoutId: p.id,
          kind: 'batched',
          fromState: S.awaiting,
          toState: S.preparing,
          actorUserId: caller.userId,
          actorAccount: caller.actor.account,
          ...noteParts(note('payoutBatched', { batchId: batch.id, resourceId: resource.id })),
          createdAt: now,
        })),
      );
      const totalAmount = sumOf(kept);
      await tx
        .update(payoutBatches)
        .set({
          state: B.confirmed,
          approvedBy: caller.userId,
          approvedByAccount: caller.actor.account,
          approvedAt: now,
          orderCount: kept.length,
          totalAmount,
          updatedAt: now,
        })
        .where(eq(payoutBatches.id, batch.id));
      return { batchId: batch.id, state: B.confirmed, orderCount: kept.length, totalAmount };
    });
  }

  /**
   * Writes the bank's bulk upload file of a confirmed batch by its template (-> exported) and keeps it:
   * the payouts preparing, oldest first, paid from the account's number and IFSC on the batch's day.
   * A payout the file cannot carry (an identifier longer than the bank's field) refuses the export.
   */
  async exportFile(id: number, caller: PayoutCaller) {
    return this.act(id, caller, 'exportFile', async (tx, batch, now) => {
      const [resource] = await tx.select().from(resources).where(eq(resources.id, batch.resourceId));
      const rows = await tx
        .select()
        .from(payouts)
        .where(and(eq(payouts.batchId, batch.id), eq(payouts.state, S.preparing)))
        .orderBy(asc(payouts.id));
      const details = resource?.details ?? {};
      let file: ReturnType<typeof exportBatchFile>;
      try {
        file = exportBatchFile(
          batch.templateId,
          {
            id: batch.id,
            payoutAccount: {
              accountNumber: details.accountNumber ?? '',
              ifsc: details.ifsc ?? '',
              name: details.accountName ?? resource?.name ?? '',
            },
            payoutDate: batch.payoutAt,
          },
          rows.map((p) => ({
            payoutCode: p.orderCode,
            amount: p.amount,
            payeeName: p.userName ?? '',
            cardNumber: p.cardNumber ?? '',
            ifscCode: p.ifscCode ?? '',
            bankName: p.bankName ?? '',
            bankBranch: p.bankBranch ?? '',
            remark: p.remark ?? '',
          })),
        );
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        throw new AppError(Code.businessRule, `${textOf('batchExportFailed')}: ${error.message}`, {
          reason: 'batchExportFailed',
          issues: [{ path: 'batchId', message: error.message }],
        });
      }
      const sha256 = createHash('sha256').update(file.body).digest('hex');
      await tx
        .update(payoutBatches)
        .set({
          state: B.exported,
          fileName: file.fileName,
          fileContentType: file.contentType,
          fileHash: sha256,
          fileBody: file.body,
          exportedAt: now,
          updatedAt: now,
        })
        .where(eq(payoutBatches.id, batch.id));
      return fileAnswer({ ...batch, fileName: file.fileName, fileContentType: file.contentType, fileBody: file.body });
    });
  }

  /** The exported file again, byte for byte (its SHA-256 is the one stored at export). */
  async download(id: number, caller: Omit<PayoutCaller, 'actor'>) {
    const [batch] = await this.db.select().from(payoutBatches).where(eq(payoutBatches.id, id));
    if (!batch || !inScope(caller.scope, batch.supplierUserId)) throw notFound('no such batch');
    this.check('download', caller, batch);
    return fileAnswer(batch);
  }

  /**
   * Reads the bank's result file of an exported batch by its template, against all its payouts, and
   * settles each payout a row names: paid -> completed with the bank's UTR, failed -> rejected with the
   * bank's reason (funds back to the merchant). Rows that settle nothing say why: the parser's reasons
   * (malformed, unknownPayout, amountMismatch, duplicate), a payout settled before (alreadySettled), a
   * UTR that proves another payout or an earlier row (utrUsed). The batch completes when no payout is
   * left preparing; else another file may follow. A file refused as a whole changes nothing.
   */
  async uploadResult(id: number, file: ResultFile, caller: PayoutCaller) {
    let settled: Awaited<ReturnType<PayoutsService['settleBySystem']>> = [];
    const result = await this.act(id, caller, 'uploadResult', async (tx, batch, now) => {
      const held = await tx
        .select()
        .from(payouts)
        .where(eq(payouts.batchId, batch.id))
        .orderBy(asc(payouts.id))
        .for('update');
      const byCode = new Map(held.map((p) => [p.orderCode, p]));
      const { rows } = parseResultFile(batch.templateId, file, new Map(held.map((p) => [p.orderCode, p.amount])));
      const claimedUtrs = new Set(
        rows.flatMap((r) => ('outcome' in r && r.outcome === 'completed' && r.utr ? [r.utr] : [])),
      );
      const usedElsewhere = new Set(
        claimedUtrs.size === 0
          ? []
          : (
              await tx
                .select({ utr: payouts.utr })
                .from(payouts)
                .where(and(inArray(payouts.utr, [...claimedUtrs]), ne(payouts.state, S.preparing)))
            ).map((r) => r.utr),
      );
      const usedHere = new Set<string>();
      const results: PayoutBatchRowResult[] = [];
      const settlements: PayoutSettlement[] = [];
      for (const row of rows) {
        const refuse = (error: PayoutBatchRowResult['error'], detail: string) =>
          results.push({
            line: row.line,
            payoutCode: row.payoutCode ?? null,
            outcome: 'refused',
            error,
            detail,
            utr: null,
          });
        if ('error' in row) {
          refuse(row.error, row.detail);
          continue;
        }
        const payout = byCode.get(row.payoutCode)!;
        if (payout.state !== S.preparing) {
          refuse('alreadySettled', `payout ${payout.orderCode} is no longer preparing (state ${payout.state})`);
          continue;
        }
        if (row.outcome === 'completed') {
          const utr = row.utr ?? '';
          if (usedElsewhere.has(utr) || usedHere.has(utr)) {
            refuse('utrUsed', `the UTR ${utr} already proves another payout`);
            continue;
          }
          usedHere.add(utr);
          settlements.push({
            payout,
            outcome: 'completed',
            utr,
            note: note('payoutBatchPaid', { batchId: batch.id, utr }),
          });
          results.push({
            line: row.line,
            payoutCode: payout.orderCode,
            outcome: 'completed',
            error: null,
            detail: null,
            utr,
          });
        } else {
          const reason = row.reason ?? 'the bank did not pay it';
          settlements.push({
            payout,
            outcome: 'rejected',
            reason,
            note: note('payoutBatchFailed', { batchId: batch.id, reason }),
          });
          results.push({
            line: row.line,
            payoutCode: payout.orderCode,
            outcome: 'failed',
            error: null,
            detail: reason,
            utr: null,
          });
        }
      }
      settled = await this.deps.payouts.settleBySystem(tx, settlements, caller.actor, now);
      const completed = settlements.filter((s) => s.outcome === 'completed').length;
      const failed = settlements.length - completed;
      const pending = held.filter((p) => p.state === S.preparing).length - settlements.length;
      const state = pending === 0 ? B.completed : B.exported;
      const refusedRows = results.length - settlements.length;
      await tx
        .update(payoutBatches)
        .set({
          state,
          completedCount: sql`${payoutBatches.completedCount} + ${completed}`,
          failedCount: sql`${payoutBatches.failedCount} + ${failed}`,
          resultUploads: sql`${payoutBatches.resultUploads} + 1`,
          lastResult: {
            fileName: file.fileName.slice(0, 255),
            uploadedAt: now.toISOString(),
            rows: results.length,
            completed,
            failed,
            refused: refusedRows,
            pending,
          },
          updatedAt: now,
        })
        .where(eq(payoutBatches.id, batch.id));
      return {
        batchId: batch.id,
        fileName: file.fileName,
        rows: results.length,
        completed,
        failed,
        refused: refusedRows,
        pending,
        state,
        results,
      };
    });
    // Committed: the lists hear of the settled payouts, the dispatcher of their notifications.
    this.deps.payouts.committed(settled.map((payout) => ({ payout, previousState: S.preparing })));
    return result;
  }

  /**
   * Ends a batch as abnormal with a reason. Before confirmation its payouts leave it (still awaiting,
   * back in the queue); after, the ones still preparing move to processing exception, for staff to
   * resolve one by one (to the batch's supplier by hand, or rejected with the funds back).
   */
  async markAbnormal(id: number, reason: string, caller: PayoutCaller) {
    return this.act(id, caller, 'markAbnormal', async (tx, batch, now) => {
      if (batch.state === B.draft || batch.state === B.proposed) {
        await tx.update(payouts).set({ batchId: null }).where(eq(payouts.batchId, batch.id));
      } else {
        const stuck = await tx
          .select({ id: payouts.id })
          .from(payouts)
          .where(and(eq(payouts.batchId, batch.id), eq(payouts.state, S.preparing)))
          .orderBy(asc(payouts.id))
          .for('update');
        if (stuck.length > 0) {
          const ids = stuck.map((p) => p.id);
          await tx
            .update(payouts)
            .set({ state: S.processingException, exceptionReason: reason, updatedAt: now })
            .where(and(inArray(payouts.id, ids), eq(payouts.state, S.preparing)));
          await tx.insert(payoutEvents).values(
            ids.map((payoutId) => ({
              payoutId,
              kind: 'markedAbnormal',
              fromState: S.preparing,
              toState: S.processingException,
              actorUserId: caller.userId,
              actorAccount: caller.actor.account,
              ...noteParts(note('payoutBatchAbnormal', { batchId: batch.id, reason })),
              createdAt: now,
            })),
          );
        }
      }
      await tx
        .update(payoutBatches)
        .set({ state: B.abnormal, abnormalReason: reason, abnormalAt: now, updatedAt: now })
        .where(eq(payoutBatches.id, batch.id));
      return { batchId: batch.id, state: B.abnormal };
    });
  }

  // ---- reads ----

  async getList(
    input: PayoutBatchFilters & { pageIndex: number; pageSize: number },
    caller: Omit<PayoutCaller, 'actor'>,
  ) {
    const where = this.where(input, caller.scope);
    const [rows, [sums]] = await Promise.all([
      this.rows(where)
        .orderBy(desc(payoutBatches.id))
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.db
        .select({
          n: sql<string>`count(*)::text`,
          orderCount: sql<string>`coalesce(sum(${payoutBatches.orderCount}), 0)::text`,
          totalAmount: sql<string>`coalesce(sum(${payoutBatches.totalAmount}), 0)::text`,
        })
        .from(payoutBatches)
        .where(where),
    ]);
    return {
      list: rows.map((r) => this.rowOf(r, caller)),
      total: Number(sums?.n ?? 0),
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
      summary: { orderCount: Number(sums?.orderCount ?? 0), totalAmount: Number(sums?.totalAmount ?? 0) },
    };
  }

  /** The filtered set for the CSV export, in the list's order (newest first), in keyset batches. */
  async *exportList(input: PayoutBatchFilters, caller: Omit<PayoutCaller, 'actor'>): AsyncGenerator<PayoutBatchFields> {
    const where = this.where(input, caller.scope);
    const rows = keysetRows(
      (cursor, limit) =>
        this.rows(and(where, cursor === null ? undefined : sql`${payoutBatches.id} < ${cursor}`))
          .orderBy(desc(payoutBatches.id))
          .limit(limit),
      1000,
    );
    for await (const row of rows) yield fieldsOf(row);
  }

  /** The payouts a batch holds, oldest first, as payout rows (with the caller's actions on them). */
  async getPayouts(
    batchId: number,
    page: { pageIndex: number; pageSize: number },
    caller: Omit<PayoutCaller, 'actor'>,
  ) {
    const [batch] = await this.db.select().from(payoutBatches).where(eq(payoutBatches.id, batchId));
    if (!batch || !inScope(caller.scope, batch.supplierUserId)) throw notFound('no such batch');
    const where = eq(payouts.batchId, batchId);
    const [rows, [sums]] = await Promise.all([
      this.db
        .select()
        .from(payouts)
        .where(where)
        .orderBy(asc(payouts.id))
        .limit(page.pageSize)
        .offset((page.pageIndex - 1) * page.pageSize),
      this.db
        .select({
          n: sql<string>`count(*)::text`,
          amount: sql<string>`coalesce(sum(${payouts.amount}), 0)::text`,
          fee: sql<string>`coalesce(sum(${payouts.fee}), 0)::text`,
        })
        .from(payouts)
        .where(where),
    ]);
    return {
      list: rows.map((p: PayoutRecord) => this.deps.payouts.rowOf(p, caller)),
      total: Number(sums?.n ?? 0),
      pageIndex: page.pageIndex,
      pageSize: page.pageSize,
      summary: { amount: Number(sums?.amount ?? 0), fee: Number(sums?.fee ?? 0) },
    };
  }

  rowOf(r: BatchListRecord, caller: Pick<PayoutCaller, 'role' | 'userId'>): PayoutBatchRow {
    return {
      ...fieldsOf(r),
      allowedActions: allowedPayoutBatchActions(caller.role, factsOf(r, caller.userId)),
    };
  }

  // ---- the rules every change follows ----

  private where(f: PayoutBatchFilters, scope: DataScope): SQL | undefined {
    const tz = this.deps.timeZone;
    return and(
      scope.all ? undefined : inArray(payoutBatches.supplierUserId, [...scope.userIds]),
      f.batchId ? eq(payoutBatches.id, f.batchId) : undefined,
      f.resourceId ? eq(payoutBatches.resourceId, f.resourceId) : undefined,
      f.supplierId ? eq(payoutBatches.supplierId, f.supplierId) : undefined,
      f.state !== undefined ? eq(payoutBatches.state, f.state) : undefined,
      f.templateId ? eq(payoutBatches.templateId, f.templateId) : undefined,
      f.startTime ? gte(payoutBatches.createdAt, parsePlatformTime(f.startTime, tz)) : undefined,
      f.endTime ? lte(payoutBatches.createdAt, parsePlatformTime(f.endTime, tz)) : undefined,
    );
  }

  private rows(where: SQL | undefined) {
    return this.db
      .select({
        id: payoutBatches.id,
        batch: payoutBatches,
        resourceName: resources.name,
        supplierName: suppliers.name,
      })
      .from(payoutBatches)
      .innerJoin(resources, eq(resources.id, payoutBatches.resourceId))
      .innerJoin(suppliers, eq(suppliers.id, payoutBatches.supplierId))
      .where(where)
      .$dynamic();
  }

  /** The account locked (or read) with its supplier, when it may pay a batch; else 422. */
  private async usableResource(db: DbOrTx, id: number, lock: boolean) {
    const query = db
      .select({
        id: resources.id,
        productId: resources.productId,
        supplierId: suppliers.id,
        supplierUserId: suppliers.userId,
      })
      .from(resources)
      .innerJoin(suppliers, eq(suppliers.id, resources.supplierId))
      .where(and(eq(resources.id, id), usableResource()));
    const [resource] = lock ? await query.for('update', { of: resources }) : await query;
    if (!resource) throw refused(textOf('batchResourceUnusable'), 'batchResourceUnusable');
    return resource;
  }

  /** The selection's payouts: awaiting, in no batch, of the product, within the amounts, oldest first. */
  private async select(db: DbOrTx, productId: number, s: Selection, lock: boolean) {
    const query = db
      .select({ id: payouts.id, amount: payouts.amount, merchantUserId: payouts.merchantUserId })
      .from(payouts)
      .where(
        and(
          eq(payouts.productId, productId),
          eq(payouts.state, S.awaiting),
          isNull(payouts.batchId),
          typeof s.minAmount === 'number' ? gte(payouts.amount, s.minAmount) : undefined,
          typeof s.maxAmount === 'number' ? lte(payouts.amount, s.maxAmount) : undefined,
        ),
      )
      .orderBy(asc(payouts.id))
      .limit(s.maxCount);
    return lock ? query.for('update', { skipLocked: true }) : query;
  }

  /** Refuses the action by the contract's rule: 403 by role, 404 outside the scope, 422 by state. */
  private check(action: PayoutBatchAction, caller: Pick<PayoutCaller, 'role' | 'userId'>, batch: PayoutBatchRecord) {
    const refusal = payoutBatchActionRefusal(action, caller.role, factsOf(batch, caller.userId));
    if (refusal === 'role') throw forbidden();
    if (refusal === 'selfApproval') {
      throw refused('a batch must be confirmed by another staff account than its proposer', 'selfApproval');
    }
    if (refusal === 'state' || refusal === 'noFile') {
      const reason = STATE_REFUSALS[action];
      const why = refusal === 'noFile' ? 'its bank file was never exported' : `the batch is in state ${batch.state}`;
      throw refused(`${textOf(reason)}: ${why}`, reason);
    }
  }

  /** Locks the batch, checks the action, runs it and writes its audit row, in one transaction. */
  private async act<T extends object>(
    id: number,
    caller: PayoutCaller,
    action: Exclude<PayoutBatchAction, 'download'>,
    run: (tx: Tx, batch: PayoutBatchRecord, now: Date) => Promise<T>,
  ): Promise<T> {
    let changed: PayoutBatchRecord | undefined;
    let moved: { merchantUserIds: number[] } | undefined;
    const result = await this.db.transaction(async (tx) => {
      const [batch] = await tx.select().from(payoutBatches).where(eq(payoutBatches.id, id)).for('update');
      if (!batch || !inScope(caller.scope, batch.supplierUserId)) throw notFound('no such batch');
      this.check(action, caller, batch);
      changed = batch;
      if (MOVES_ITS_PAYOUTS.includes(action)) {
        const held = await tx
          .selectDistinct({ merchantUserId: payouts.merchantUserId })
          .from(payouts)
          .where(eq(payouts.batchId, batch.id));
        moved = { merchantUserIds: held.map((p) => p.merchantUserId) };
      }
      const now = this.now();
      const answer = await run(tx, batch, now);
      const {
        contentBase64: _bytes,
        results: _rows,
        ...after
      } = answer as T & {
        contentBase64?: string;
        results?: unknown;
      };
      await this.audit(tx, caller.actor, `payoutBatches.${action}`, batch, { state: batch.state }, after, now);
      return answer;
    });
    // Committed: the batch lists refetch.
    if (changed) publishPayoutBatchChange(this.deps.realtime, changed, action, moved);
    return result;
  }

  private async audit(
    tx: Tx,
    actor: Actor,
    action: AuditAction,
    batch: PayoutBatchRecord,
    before: Record<string, unknown> | null,
    after: Record<string, unknown>,
    now: Date = this.now(),
  ) {
    await writeAudit(tx, actor, { action, target: `payoutBatch:${batch.id}`, before, after }, now);
  }
}

type BatchListRecord = { batch: PayoutBatchRecord; resourceName: string; supplierName: string };

/** An enabled bank payout account, not deleted, of an enabled supplier. */
function usableResource(): SQL {
  return and(
    eq(resources.kind, BATCH_RESOURCE_KIND),
    eq(resources.state, 0),
    isNull(resources.deletedAt),
    eq(suppliers.enabled, true),
  )!;
}

const sumOf = (rows: ReadonlyArray<{ amount: number }>) => rows.reduce((sum, p) => sum + p.amount, 0);

function factsOf(batch: PayoutBatchRecord | BatchListRecord, callerUserId: number) {
  const b = 'batch' in batch ? batch.batch : batch;
  return { state: b.state, proposedByCaller: b.proposedBy === callerUserId, hasFile: b.fileHash !== null };
}

const iso = (at: Date | null) => (at ? at.toISOString() : null);

function fieldsOf({ batch: b, resourceName, supplierName }: BatchListRecord): PayoutBatchFields {
  return {
    id: b.id,
    resourceId: b.resourceId,
    resourceName,
    supplierId: b.supplierId,
    supplierName,
    productId: b.productId,
    templateId: b.templateId,
    payoutTime: b.payoutAt.toISOString(),
    minAmount: b.minAmount,
    maxAmount: b.maxAmount,
    maxCount: b.maxCount,
    orderCount: b.orderCount,
    totalAmount: b.totalAmount,
    state: b.state,
    createdBy: b.createdByAccount,
    proposedBy: b.proposedByAccount,
    proposedAt: iso(b.proposedAt),
    approvedBy: b.approvedByAccount,
    approvedAt: iso(b.approvedAt),
    fileName: b.fileName,
    fileHash: b.fileHash,
    exportedAt: iso(b.exportedAt),
    completedCount: b.completedCount,
    failedCount: b.failedCount,
    resultUploads: b.resultUploads,
    abnormalReason: b.abnormalReason,
    createdAt: b.createdAt.toISOString(),
    updatedAt: b.updatedAt.toISOString(),
  };
}

/** The file of a batch as exported: its bytes in base64 with their SHA-256 (computed from the bytes). */
function fileAnswer(b: Pick<PayoutBatchRecord, 'id' | 'fileName' | 'fileContentType' | 'fileBody'>) {
  const body = b.fileBody ?? Buffer.alloc(0);
  return {
    batchId: b.id,
    fileName: b.fileName ?? '',
    contentType: b.fileContentType ?? 'application/octet-stream',
    size: body.length,
    sha256: createHash('sha256').update(body).digest('hex'),
    contentBase64: body.toString('base64'),
  };
}
