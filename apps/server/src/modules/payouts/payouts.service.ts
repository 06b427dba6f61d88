import {
  type AuditAction,
  allowedPayoutActions,
  CLAIMED_PAYOUT_STATES,
  Code,
  FINAL_PAYOUT_STATES,
  type ImageUpload,
  isGatewayPayoutProduct,
  isStaff,
  type NoteTemplate,
  note,
  noteParts,
  PAYOUT_MERCHANT_EVENT_KINDS,
  PAYOUT_STATE,
  type PayoutAction,
  type PayoutClaimRoom,
  type PayoutEventKind,
  type PayoutReceipt,
  type PayoutRow,
  payoutActionRefusal,
  type Role,
} from '@paydesk/contract';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { rowsOf, tableRow } from '../../db/raw-rows.js';
import {
  ledgerAccounts,
  ledgerEntries,
  ledgerTransfers,
  partyDailyDeltas,
  partyProducts,
  payoutEvents,
  payoutReceipts,
  payouts,
  resources,
  suppliers,
} from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { DataScope } from '../../platform/context.js';
import { inScope } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { AppError, conflict, forbidden, invalid, notFound, refused } from '../../platform/errors.js';
import { checkImage, dataUrlOf } from '../../platform/images.js';
import { schedulePayoutCallback } from '../callbacks/payout-notification.js';
import { accountCode } from '../ledger/accounts.js';
import {
  lockPayout,
  movePayout,
  PAYOUT_REFUSALS,
  type PayoutRecord,
  type PayoutsDeps,
  platformDay,
  recordPayoutEvent,
} from './payout-core.js';
import { PayoutIntake } from './payout-intake.js';
import { payoutPaidTransfer, payoutReleaseTransfer } from './payout-ledger.js';
import { publishPayoutChange } from './publish.js';

/** Who acts: the role and console account of the session, its data scope and the audit's actor. */
export interface PayoutCaller {
  role: Role;
  userId: number;
  scope: DataScope;
  actor: Actor;
}

/**
 * Whose actions a row offers: a supplier reads its team's payouts (team views) but acts only on those it
 * claimed itself (the action endpoints are not team views), so its rows' actions are computed with its
 * own account as the scope; anyone else as it reads.
 */
export const actingAs = <R extends Pick<PayoutCaller, 'role' | 'userId' | 'scope'>>(
  reader: R,
): Pick<PayoutCaller, 'role' | 'scope'> =>
  reader.role === 'supplier' && !reader.scope.all
    ? { role: reader.role, scope: { all: false, userIds: [reader.userId] } }
    : reader;

/**
 * What the gateway dispatcher does for a gateway payout (gateway-payouts.ts): it is assigned to a
 * gateway account, sent and settled by the system, so nobody claims it, gives it back or submits it.
 */
const SYSTEM_ONLY_FOR_GATEWAY: readonly PayoutAction[] = ['claim', 'cancelClaim', 'submit'];

const S = PAYOUT_STATE;
const answer = (p: PayoutRecord) => ({ orderId: p.id, orderCode: p.orderCode, state: p.state });

/**
 * Payout orders (issue 20; DESIGN section 7): creation (`PayoutIntake`), the supplier's claim queue and
 * every transition after it. Each transition locks the payout, asks the contract's rule
 * (`payoutActionRefusal`, the one the console offers buttons by), moves the state with its timeline
 * row and posts its ledger effect in the same transaction, and writes its audit row.
 */
export class PayoutsService {
  readonly intake: PayoutIntake;
  readonly createFor: PayoutIntake['createFor'];

  constructor(private readonly deps: PayoutsDeps) {
    this.intake = new PayoutIntake(deps);
    this.createFor = this.intake.createFor.bind(this.intake);
  }

  private get db() {
    return this.deps.db;
  }
  private now() {
    return this.deps.clock.now();
  }

  /**
   * A supplier claims an awaiting payout onto its least recently used enabled payout account of the
   * product (-> in progress), its commission fixed from its product settings. Refused when the
   * supplier is disabled, has no such account or product (noPayoutAccount), already holds the most
   * payouts in progress the setting PayoutMaxInProgress allows (claimLimit), or its available balance
   * (its deposit) does not cover the amount (depositShort). Claims of one supplier queue on its row;
   * claims of one payout on the payout's: the first wins, the others get 409 claimFailed. A payout of a
   * gateway product is never claimed by hand (gatewayPayout): the gateway dispatcher assigns it.
   */
  async claim(id: number, caller: PayoutCaller) {
    return this.committing(async (tx) => {
      const [supplier] = await tx.select().from(suppliers).where(eq(suppliers.userId, caller.userId)).for('update');
      if (!supplier) throw refused('your account has no supplier record yet', 'notASupplier');
      if (!supplier.enabled) throw refused(PAYOUT_REFUSALS.supplierOff, 'supplierOff');
      const payout = await lockPayout(tx, id);
      if (!payout) throw notFound('no such payout');
      this.check('claim', caller, payout);
      const [party] = await tx
        .select()
        .from(partyProducts)
        .where(and(eq(partyProducts.userId, caller.userId), eq(partyProducts.productId, payout.productId)));
      const [account] = party?.enabled
        ? await tx
            .select({ id: resources.id })
            .from(resources)
            .where(
              and(
                eq(resources.supplierId, supplier.id),
                eq(resources.productId, payout.productId),
                eq(resources.state, 0),
                isNull(resources.deletedAt),
              ),
            )
            .orderBy(sql`${resources.lastAllocatedAt} asc nulls first`, asc(resources.id))
            .limit(1)
        : [];
      if (!party?.enabled || !account) throw refused(PAYOUT_REFUSALS.noPayoutAccount, 'noPayoutAccount');
      const { held, limit, deposit } = await this.claimRoom(tx, supplier.id);
      if (held >= limit) {
        throw new AppError(Code.businessRule, `${PAYOUT_REFUSALS.claimLimit} (${limit})`, {
          reason: 'claimLimit',
          limit,
        });
      }
      if (deposit < payout.amount) throw refused(PAYOUT_REFUSALS.depositShort, 'depositShort');
      const now = this.now();
      await tx.update(resources).set({ lastAllocatedAt: now }).where(eq(resources.id, account.id));
      const moved = await this.move(tx, payout, {
        to: S.inProgress,
        kind: 'claimed',
        actor: caller.actor,
        note: note('payoutClaimed', { resourceId: account.id }),
        set: {
          supplierId: supplier.id,
          supplierUserId: caller.userId,
          resourceId: account.id,
          commission: Number((BigInt(payout.amount) * BigInt(party.commissionRate)) / 10_000n),
          claimNo: payout.claimNo + 1,
          claimedAt: now,
        },
        now,
      });
      await this.audit(tx, caller, 'payouts.claim', payout, { state: moved.state, resourceId: account.id }, now);
      return { before: payout, moved };
    });
  }

  /**
   * What a supplier may take on now, as `claim` refuses by it: the payouts it holds in progress against
   * the setting PayoutMaxInProgress, and its deposit (available balance) that must cover a payout's amount.
   */
  async claimRoom(db: DbOrTx, supplierId: number): Promise<{ held: number; limit: number; deposit: number }> {
    const limit = await this.deps.settings.get('PayoutMaxInProgress', db);
    const [held] = await db
      .select({ n: count() })
      .from(payouts)
      .where(and(eq(payouts.supplierId, supplierId), inArray(payouts.state, [...CLAIMED_PAYOUT_STATES])));
    const deposit = await this.deps.ledger.balanceOf(db, accountCode('supplier', supplierId, 'available'));
    return { held: held?.n ?? 0, limit, deposit };
  }

  /**
   * The calling supplier's claim room: the facts `claim` refuses by (`claimRoomRefusal`), so its rows
   * offer a claim only within them; undefined for anyone else. Gateway products are never in it: their
   * adapter pays them, nobody claims them by hand.
   */
  async claimRoomOf(db: DbOrTx, caller: { role: Role; userId: number }): Promise<PayoutClaimRoom | undefined> {
    if (caller.role !== 'supplier') return undefined;
    const [supplier] = await db
      .select({ id: suppliers.id, enabled: suppliers.enabled })
      .from(suppliers)
      .where(eq(suppliers.userId, caller.userId));
    if (!supplier) return { products: [], held: 0, limit: 0, deposit: 0 };
    const products = supplier.enabled
      ? await db
          .selectDistinct({ productId: partyProducts.productId })
          .from(partyProducts)
          .innerJoin(
            resources,
            and(
              eq(resources.productId, partyProducts.productId),
              eq(resources.supplierId, supplier.id),
              eq(resources.state, 0),
              isNull(resources.deletedAt),
            ),
          )
          .where(and(eq(partyProducts.userId, caller.userId), eq(partyProducts.enabled, true)))
      : [];
    const { held, limit, deposit } = await this.claimRoom(db, supplier.id);
    return {
      products: products.map((p) => p.productId).filter((id) => !isGatewayPayoutProduct(id)),
      held,
      limit,
      deposit,
    };
  }

  /** Gives a claimed payout back to the queue (in progress -> awaiting): no account, no commission. */
  async cancelClaim(id: number, caller: PayoutCaller) {
    return this.act(id, caller, 'cancelClaim', async (tx, payout, now) =>
      this.move(tx, payout, {
        to: S.awaiting,
        kind: 'claimCancelled',
        actor: caller.actor,
        note: '',
        set: {
          supplierId: null,
          supplierUserId: null,
          resourceId: null,
          commission: null,
          claimedAt: null,
          receiptId: null,
        },
        now,
      }),
    );
  }

  /**
   * The supplier paid the payee and names the transfer's UTR (in progress -> submitted). One UTR, one
   * payout. Optionally with the transfer's receipt image, checked by content (PNG, JPEG, WebP, at most
   * 512 KiB: else 400 `fileType`/`imageTooLarge` and nothing changes), stored in payout_receipts; the
   * payout keeps only its id.
   */
  async submit(id: number, utr: string, receipt: ImageUpload | undefined, caller: PayoutCaller) {
    const checked = receipt ? checkImage(receipt.mime, receipt.imageBase64) : null;
    if (checked && !checked.ok) {
      const message = PAYOUT_REFUSALS[checked.reason];
      throw invalid([{ path: 'receipt.imageBase64', message }], checked.reason);
    }
    const image = checked?.ok ? checked.image : null;
    let stored: Record<string, unknown> = {};
    try {
      return await this.act(
        id,
        caller,
        'submit',
        async (tx, payout, now) => {
          let receiptId: number | null = null;
          if (image) {
            const [row] = await tx
              .insert(payoutReceipts)
              .values({
                payoutId: payout.id,
                mime: image.mime,
                bytes: image.bytes,
                sha256: image.sha256,
                size: image.size,
                uploadedByUserId: caller.actor.userId,
                uploadedByAccount: caller.actor.account,
                createdAt: now,
              })
              .returning({ id: payoutReceipts.id });
            receiptId = row!.id;
            stored = { receipt: { receiptId, mime: image.mime, size: image.size, sha256: image.sha256 } };
          }
          return this.move(tx, payout, {
            to: S.submitted,
            kind: 'submitted',
            actor: caller.actor,
            note: note(image ? 'payoutSubmittedWithReceipt' : 'payoutSubmitted', { utr }),
            set: { utr, receiptId, submittedAt: now },
            now,
          });
        },
        () => stored,
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('this UTR already proves another payout', 'utrUsed');
      throw error;
    }
  }

  /**
   * The hook of the bank SMS match (the records issue): the payee's bank shows the money, so a submitted
   * payout waits for an admin's confirmation (submitted -> pending confirmation). By the system.
   */
  async markPendingConfirmation(id: number, evidence: string, actor: Actor) {
    return this.committing(async (tx) => {
      const payout = await lockPayout(tx, id);
      if (!payout) throw notFound('no such payout');
      if (payout.state !== S.submitted) throw refused(PAYOUT_REFUSALS.payoutState, 'payoutState');
      const moved = await this.move(tx, payout, {
        to: S.pendingConfirmation,
        kind: 'pendingConfirmation',
        actor,
        note: evidence,
        now: this.now(),
      });
      return { before: payout, moved };
    });
  }

  /**
   * An admin confirms the payee was paid (submitted or pending confirmation -> completed): the merchant's
   * hold is paid out, the amount plus commission to the supplier, the fee less commission to the platform.
   */
  async confirm(id: number, caller: PayoutCaller) {
    return this.act(id, caller, 'confirm', async (tx, payout, now) => {
      if (payout.supplierId === null) throw refused(PAYOUT_REFUSALS.payoutState, 'payoutState');
      await this.deps.ledger.transfer(
        tx,
        payoutPaidTransfer(
          { ...payout, supplierId: payout.supplierId, commission: payout.commission ?? 0 },
          caller.userId,
        ),
      );
      const completed = await this.move(tx, payout, {
        to: S.completed,
        kind: 'completed',
        actor: caller.actor,
        note: '',
        set: { completedAt: now },
        now,
      });
      await this.notifyMerchant(tx, completed, now);
      return completed;
    });
  }

  /**
   * Reject with a reason. Staff end the payout (-> rejected, the merchant's funds released); the
   * supplier gives back one it cannot pay (in progress -> rejecting), for staff to decide.
   */
  async reject(id: number, reason: string, caller: PayoutCaller) {
    return this.act(id, caller, 'reject', async (tx, payout, now) => {
      if (caller.role === 'supplier') {
        return this.move(tx, payout, { to: S.rejecting, kind: 'rejecting', actor: caller.actor, note: reason, now });
      }
      return this.release(tx, payout, S.rejected, 'rejected', reason, caller.actor, now, { rejectReason: reason });
    });
  }

  /** Cancel a payout nobody claimed (awaiting -> cancelled): the merchant's funds released. */
  async cancel(id: number, caller: PayoutCaller) {
    return this.act(id, caller, 'cancel', async (tx, payout, now) =>
      this.release(tx, payout, S.cancelled, 'cancelled', '', caller.actor, now, {}),
    );
  }

  /** Something is wrong with a payout under way (-> processing exception) until staff resolve it. */
  async markAbnormal(id: number, reason: string, caller: PayoutCaller) {
    return this.act(id, caller, 'markAbnormal', async (tx, payout, now) =>
      this.move(tx, payout, {
        to: S.processingException,
        kind: 'markedAbnormal',
        actor: caller.actor,
        note: reason,
        set: { exceptionReason: reason },
        now,
      }),
    );
  }

  /** Resolve a processing exception: back to its supplier (-> in progress, UTR cleared) or rejected. */
  async resolve(id: number, to: 'inProgress' | 'rejected', reason: string, caller: PayoutCaller) {
    return this.act(id, caller, 'resolve', async (tx, payout, now) => {
      if (to === 'rejected') {
        return this.release(tx, payout, S.rejected, 'resolved', reason, caller.actor, now, { rejectReason: reason });
      }
      // A gateway payout the gateway holds is asked about again (the dispatcher polls it). One it never
      // took (unanswered, or its account unusable) goes back to be sent: with the same idempotency key,
      // so a gateway that did take it answers that payout instead of making a second one, and one that
      // refused it refuses again (reject it then). Left in progress, nobody would ever move it.
      const resend = isGatewayPayoutProduct(payout.productId) && payout.gatewayId === null;
      return this.move(tx, payout, {
        to: resend ? S.preparing : S.inProgress,
        kind: 'resolved',
        actor: caller.actor,
        note: reason,
        set: {
          utr: null,
          receiptId: null,
          submittedAt: null,
          ...(resend
            ? { gatewayAttempts: 0, gatewayDueAt: now }
            : payout.gatewayId === null
              ? {}
              : { gatewayDueAt: now }),
        },
        now,
      });
    });
  }

  /**
   * Settles payouts by the system's word (a bank's result file), in the caller's transaction, which
   * holds their locks: each completed one is paid out as `confirm` pays (the merchant's hold to the
   * supplier with its commission, the fee less commission to the platform), each rejected one released
   * as staff's `reject` releases (the day's total given back). Set-wise, for up to a batch's 500: one
   * ledger write for all transfers, one compare-and-set update from the states read under the lock,
   * one insert of their timeline rows. A payout not in the state read (a defect under the lock) fails
   * the whole call with 409, nothing written.
   */
  async settleBySystem(tx: Tx, settlements: readonly PayoutSettlement[], actor: Actor, now: Date) {
    if (settlements.length === 0) return [];
    const transfers = settlements.map(({ payout, outcome }) => {
      if (outcome === 'rejected') return payoutReleaseTransfer(payout, 'payoutReleaseRejected', actor.userId);
      if (payout.supplierId === null) throw refused(PAYOUT_REFUSALS.payoutState, 'payoutState');
      return payoutPaidTransfer(
        { ...payout, supplierId: payout.supplierId, commission: payout.commission ?? 0 },
        actor.userId,
      );
    });
    await this.deps.ledger.transferMany(tx, transfers);
    const changes = settlements.map((s) => ({
      id: s.payout.id,
      from_state: s.payout.state,
      state: s.outcome === 'completed' ? S.completed : S.rejected,
      utr: s.outcome === 'completed' ? s.utr : null,
      reason: s.outcome === 'rejected' ? s.reason : null,
    }));
    const moved = rowsOf<Record<string, unknown>>(
      await tx.execute(sql`
        update payouts p
           set state = v.state,
               utr = coalesce(v.utr, p.utr),
               reject_reason = coalesce(v.reason, p.reject_reason),
               completed_at = case when v.state = ${S.completed} then ${now.toISOString()}::timestamptz else p.completed_at end,
               updated_at = ${now.toISOString()}::timestamptz
          from jsonb_to_recordset(${JSON.stringify(changes)}::jsonb)
               as v(id bigint, from_state integer, state integer, utr text, reason text)
         where p.id = v.id and p.state = v.from_state
        returning p.*`),
    ).map((raw) => tableRow(payouts, raw));
    if (moved.length !== settlements.length) {
      throw conflict('someone else acted on a payout of this batch first: reload it', 'concurrentChange');
    }
    await tx.insert(payoutEvents).values(
      settlements.map((s, i) => ({
        payoutId: s.payout.id,
        kind: s.outcome,
        fromState: s.payout.state,
        toState: changes[i]!.state,
        actorUserId: actor.userId,
        actorAccount: actor.account,
        ...noteParts(s.note),
        createdAt: now,
      })),
    );
    // Each merchant hears of its payouts as they settle (a batch is rare, one insert each).
    for (const payout of moved) await this.notifyMerchant(tx, payout, now);
    const released = settlements.filter((s) => s.outcome === 'rejected');
    if (released.length > 0) {
      await tx.insert(partyDailyDeltas).values(
        released.map(({ payout }) => ({
          userId: payout.merchantUserId,
          productId: payout.productId,
          day: platformDay(payout.createdAt, this.deps.timeZone),
          count: -1,
          amount: -payout.amount,
        })),
      );
    }
    return moved;
  }

  /**
   * A payout with its timeline and ledger transfers, for whoever may see it: staff any, a merchant its
   * own, a supplier its own and its team's and any awaiting one (it may claim it). Others get 404.
   */
  async getDetail(id: number, caller: Omit<PayoutCaller, 'actor'>) {
    const [payout] = await this.db.select().from(payouts).where(eq(payouts.id, id));
    if (!payout || !this.visible(payout, caller)) throw notFound('no such payout');
    const events = await this.db
      .select()
      .from(payoutEvents)
      .where(eq(payoutEvents.payoutId, id))
      .orderBy(asc(payoutEvents.id));
    const transfers = await this.db
      .select({
        id: ledgerTransfers.id,
        type: ledgerTransfers.type,
        idempotencyKey: ledgerTransfers.idempotencyKey,
        createdAt: ledgerTransfers.createdAt,
        account: ledgerAccounts.code,
        amount: ledgerEntries.amount,
      })
      .from(ledgerTransfers)
      .innerJoin(ledgerEntries, eq(ledgerEntries.transferId, ledgerTransfers.id))
      .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, ledgerEntries.accountId))
      .where(eq(ledgerTransfers.orderCode, payout.orderCode))
      .orderBy(asc(ledgerTransfers.id), asc(ledgerEntries.id));
    const own = this.ownAccountPrefix(payout, caller);
    const byTransfer = new Map<number, PayoutDetailTransfer>();
    for (const t of transfers) {
      const entry = byTransfer.get(t.id) ?? {
        id: t.id,
        type: t.type,
        idempotencyKey: t.idempotencyKey,
        createdAt: t.createdAt.toISOString(),
        entries: [],
      };
      if (own === null || t.account.startsWith(own)) entry.entries.push({ account: t.account, amount: t.amount });
      byTransfer.set(t.id, entry);
    }
    const staff = isStaff(caller.role);
    return {
      payout: this.rowOf(payout, actingAs(caller), await this.claimRoomOf(this.db, caller)),
      // A supplier's story of the payout leaves out the merchant's callbacks (its address, its answers).
      timeline: (caller.role === 'supplier'
        ? events.filter((e) => !PAYOUT_MERCHANT_EVENT_KINDS.includes(e.kind as PayoutEventKind))
        : events
      ).map((e) => ({
        at: e.createdAt.toISOString(),
        kind: e.kind,
        fromState: e.fromState,
        toState: e.toState,
        actor: staff || inScope(caller.scope, e.actorUserId) ? e.actorAccount : null,
        note: e.note,
        noteTemplate: e.noteTemplate,
      })),
      transfers: [...byTransfer.values()].filter((t) => t.entries.length > 0),
    };
  }

  /**
   * The receipt image attached to a payout's UTR, for whoever may read the payout's detail (else 404);
   * null when it has none.
   */
  async receipt(id: number, caller: Omit<PayoutCaller, 'actor'>): Promise<PayoutReceipt | null> {
    const [payout] = await this.db.select().from(payouts).where(eq(payouts.id, id));
    if (!payout || !this.visible(payout, caller)) throw notFound('no such payout');
    if (payout.receiptId === null) return null;
    const [image] = await this.db.select().from(payoutReceipts).where(eq(payoutReceipts.id, payout.receiptId));
    if (!image) return null;
    return {
      receiptId: image.id,
      mime: image.mime,
      size: image.size,
      uploadedBy:
        isStaff(caller.role) || inScope(caller.scope, image.uploadedByUserId) ? image.uploadedByAccount : null,
      uploadedAt: image.createdAt.toISOString(),
      dataUrl: dataUrlOf(image.mime, image.bytes),
    };
  }

  /**
   * A payout as the console reads it, with the actions the caller may take on it now; with a supplier's
   * `claimRoom` (`claimRoomOf`), a claim is offered only where the claim would be taken.
   */
  rowOf(p: PayoutRecord, caller: Pick<PayoutCaller, 'role' | 'scope'>, claimRoom?: PayoutClaimRoom): PayoutRow {
    const merchantView = caller.role === 'merchant';
    return {
      id: p.id,
      orderCode: p.orderCode,
      mchOrderNo: p.merchantOrderNo,
      merchantId: p.merchantId,
      productId: p.productId,
      amount: p.amount,
      fee: p.fee,
      commission: merchantView ? null : p.commission,
      state: p.state,
      supplierId: merchantView ? null : p.supplierId,
      resourceId: merchantView ? null : p.resourceId,
      userName: p.userName,
      cardNumber: p.cardNumber,
      ifscCode: p.ifscCode,
      bankName: p.bankName,
      bankBranch: p.bankBranch,
      address: p.address,
      remark: p.remark,
      utr: p.utr,
      receiptId: p.receiptId,
      rejectReason: p.rejectReason,
      exceptionReason: p.exceptionReason,
      createdAt: p.createdAt.toISOString(),
      claimedAt: p.claimedAt ? p.claimedAt.toISOString() : null,
      completedAt: p.completedAt ? p.completedAt.toISOString() : null,
      allowedActions: allowedPayoutActions(caller.role, {
        state: p.state,
        claimedByCaller: inScope(caller.scope, p.supplierUserId),
        inBatch: p.batchId !== null,
        productId: p.productId,
        amount: p.amount,
        claimRoom,
      }).filter((action) => !(isGatewayPayoutProduct(p.productId) && SYSTEM_ONLY_FOR_GATEWAY.includes(action))),
    };
  }

  // ---- the rules every transition follows ----

  private visible(p: PayoutRecord, caller: Pick<PayoutCaller, 'role' | 'scope'>): boolean {
    if (caller.scope.all) return true;
    if (caller.role === 'merchant') return inScope(caller.scope, p.merchantUserId);
    if (caller.role === 'supplier') return p.state === S.awaiting || inScope(caller.scope, p.supplierUserId);
    return false;
  }

  /** Whose ledger entries the caller reads: null for staff (all), else its own accounts' prefix. */
  private ownAccountPrefix(p: PayoutRecord, caller: Pick<PayoutCaller, 'role' | 'scope'>): string | null {
    if (caller.scope.all) return null;
    if (caller.role === 'merchant') return `merchant:${p.merchantId}:`;
    if (caller.role === 'supplier' && p.supplierId !== null) return `supplier:${p.supplierId}:`;
    return '\u0000'; // nothing of anyone else's
  }

  /** Refuses the action by the contract's rule: 403 by role, 404 when not the caller's, 409/422 by state. */
  private check(action: PayoutAction, caller: PayoutCaller, payout: PayoutRecord): void {
    if (action !== 'claim' && !this.visible(payout, caller)) throw notFound('no such payout');
    if (isGatewayPayoutProduct(payout.productId) && SYSTEM_ONLY_FOR_GATEWAY.includes(action)) {
      throw refused(PAYOUT_REFUSALS.gatewayPayout, 'gatewayPayout');
    }
    const refusal = payoutActionRefusal(action, caller.role, {
      state: payout.state,
      claimedByCaller: inScope(caller.scope, payout.supplierUserId),
      inBatch: payout.batchId !== null,
    });
    if (refusal === 'role') throw forbidden();
    if (refusal === 'notYours') throw notFound('no such payout');
    if (refusal === 'state') {
      // A claim or a cancelled claim that lost to another: spec section 8's 'claim failed'.
      // A payout a batch reserved is taken too, by the batch's account.
      if (action === 'claim' && (CLAIMED_PAYOUT_STATES.includes(payout.state as never) || payout.batchId !== null)) {
        throw conflict(PAYOUT_REFUSALS.claimFailed, 'claimFailed');
      }
      if (action === 'cancelClaim') throw conflict(PAYOUT_REFUSALS.cancelClaimFailed, 'cancelClaimFailed');
      throw refused(PAYOUT_REFUSALS.payoutState, 'payoutState');
    }
  }

  private async act(
    id: number,
    caller: PayoutCaller,
    action: PayoutAction,
    run: (tx: Tx, payout: PayoutRecord, now: Date) => Promise<PayoutRecord>,
    /** What the audit row records beyond the new state (read once `run` is done). */
    auditAfter: () => Record<string, unknown> = () => ({}),
  ) {
    return this.committing(async (tx) => {
      const payout = await lockPayout(tx, id);
      if (!payout) throw notFound('no such payout');
      this.check(action, caller, payout);
      const now = this.now();
      const moved = await run(tx, payout, now);
      await this.audit(tx, caller, `payouts.${action}` as const, payout, { state: moved.state, ...auditAfter() }, now);
      return { before: payout, moved };
    });
  }

  /**
   * Runs a transition's transaction and, once it committed, tells the lists (realtime) and this
   * process's callback dispatcher (a final state scheduled its merchant's notification).
   */
  private async committing(run: (tx: Tx) => Promise<{ before: PayoutRecord; moved: PayoutRecord }>) {
    const { before, moved } = await this.db.transaction(run);
    this.committed([{ payout: moved, previousState: before.state }]);
    return answer(moved);
  }

  /** After commit: each payout published to the consoles that list it; the callback dispatcher poked. */
  committed(changes: ReadonlyArray<{ payout: PayoutRecord; previousState: number | null }>): void {
    for (const { payout, previousState } of changes) {
      publishPayoutChange(this.db, this.deps.realtime, payout, previousState);
    }
    if (changes.some(({ payout }) => FINAL_PAYOUT_STATES.includes(payout.state as never))) this.deps.afterCommit?.();
  }

  /** `movePayout` under the caller's lock: a lost compare-and-set cannot happen there, so it is a defect. */
  private async move(tx: Tx, payout: PayoutRecord, change: Parameters<typeof movePayout>[2]) {
    const moved = await movePayout(tx, payout, change);
    if (!moved) throw conflict('someone else acted on this payout first: reload it', 'concurrentChange');
    return moved;
  }

  /** Ends a payout unpaid: the merchant's hold released, the day's total given back, the state moved. */
  private async release(
    tx: Tx,
    payout: PayoutRecord,
    to: number,
    kind: 'rejected' | 'cancelled' | 'resolved',
    reason: string,
    actor: Actor,
    now: Date,
    set: Partial<typeof payouts.$inferInsert>,
  ) {
    await this.deps.ledger.transfer(
      tx,
      payoutReleaseTransfer(
        payout,
        to === S.cancelled ? 'payoutReleaseCancelled' : 'payoutReleaseRejected',
        actor.userId,
      ),
    );
    await tx.insert(partyDailyDeltas).values({
      userId: payout.merchantUserId,
      productId: payout.productId,
      day: platformDay(payout.createdAt, this.deps.timeZone),
      count: -1,
      amount: -payout.amount,
    });
    const ended = await this.move(tx, payout, { to, kind, actor, note: reason, set, now });
    await this.notifyMerchant(tx, ended, now);
    return ended;
  }

  /**
   * The merchant's notification of a final state, committed with the state it tells (the callbacks'
   * outbox); when the merchant takes no callbacks, the timeline says so, so the payout's story ends.
   */
  private async notifyMerchant(tx: Tx, payout: PayoutRecord, now: Date) {
    const scheduled = await schedulePayoutCallback(tx, payout, now);
    if (!scheduled) await recordPayoutEvent(tx, payout, 'callbackSkipped', null, null, null, note('callbacksOff'), now);
  }

  private async audit(
    tx: Tx,
    caller: PayoutCaller,
    action: AuditAction,
    payout: PayoutRecord,
    after: Record<string, unknown>,
    now: Date,
  ) {
    await writeAudit(
      tx,
      caller.actor,
      { action, target: `payout:${payout.orderCode}`, before: { state: payout.state }, after },
      now,
    );
  }
}

/** What the system settles a payout to, with its timeline note. */
export type PayoutSettlement =
  | { payout: PayoutRecord; outcome: 'completed'; utr: string; note: string | NoteTemplate }
  | { payout: PayoutRecord; outcome: 'rejected'; reason: string; note: string | NoteTemplate };

interface PayoutDetailTransfer {
  id: number;
  type: string;
  idempotencyKey: string;
  createdAt: string;
  entries: Array<{ account: string; amount: number }>;
}
