import { randomInt } from 'node:crypto';
import {
  type ConsolePayoutRequest,
  type NoteTemplate,
  PAYOUT_STATE,
  type PayoutAnswer,
  productById,
} from '@paydesk/contract';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { rowsOf } from '../../db/raw-rows.js';
import { partyDailyDeltas, payouts } from '../../db/schema.js';
import type { Actor } from '../../platform/audit.js';
import { writeAudit } from '../../platform/audit.js';
import { canonicalJson } from '../../platform/canonical-json.js';
import { violatedConstraint } from '../../platform/db-errors.js';
import { AppError, apiError } from '../../platform/errors.js';
import { sha256 } from '../../platform/secrets.js';
import { OrderSettingsReader } from '../orders/settings.js';
import { CREATE_CHECKS, type CreateChecksRow, numberOrNull } from '../orders/statements.js';
import { type PayoutRecord, type PayoutsDeps, payoutAnswerOf, platformDay, recordPayoutEvent } from './payout-core.js';
import { payoutHoldTransfer } from './payout-ledger.js';
import { publishPayoutChange } from './publish.js';

/** A payout's parameters as the merchant sent them, without the signature (what the console form sends). */
export type PayoutParams = ConsolePayoutRequest & { clientIp?: string | number | undefined };

/** What newPayoutCode makes: 'P', 12 digits of time, 8 random digits (the list filters find it by index). */
export const PAYOUT_CODE_SHAPE = /^P\d{20}$/i;

/** 'P', the UTC time to the second, 8 random digits: unique by index, not guessable in practice. */
function newPayoutCode(now: Date): string {
  const t = now
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(2, 14);
  return `P${t}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

const text = (v: string | number | undefined) => (v === undefined || String(v).trim() === '' ? null : String(v));

/**
 * The day's payouts of a merchant's product: the folded total and the deltas not folded yet (the same
 * rows the collection's daily limits read; orders/daily-folder.ts folds them).
 */
async function dayTotal(tx: Tx, userId: number, productId: number, day: string): Promise<number> {
  const result = await tx.execute(sql`
    select (coalesce((select amount from party_daily where user_id = ${userId} and product_id = ${productId} and day = ${day}), 0)
          + coalesce((select sum(amount) from party_daily_deltas where user_id = ${userId} and product_id = ${productId} and day = ${day}), 0))::bigint as total`);
  return Number(rowsOf<{ total: unknown }>(result)[0]?.total ?? 0);
}

/**
 * Creating payouts (issue 20 item 1; DESIGN sections 5 and 7): for a merchant already known (the signed
 * API after its signature, the console's session), with the API's rules in its documented order and
 * the amount plus fee held from the merchant's balance in the same transaction.
 */
export class PayoutIntake {
  readonly settings: OrderSettingsReader;

  constructor(private readonly deps: PayoutsDeps) {
    this.settings = new OrderSettingsReader(deps.settings);
  }

  /**
   * Service switch (2011), merchant enabled (2002), product a payout product enabled for the platform
   * and the merchant (2004), amount within the limits (2006), idempotent on mchOrderNo (same content:
   * the same payout; other: 2005), the merchant's daily limit of the product (2007, exact: checked
   * under the lock the hold takes on the merchant's balance), the amount plus fee held (2013 when the
   * balance is short; nothing is written then). `via` is the timeline's note of where it came from.
   */
  async createFor(
    merchantId: number,
    params: PayoutParams,
    ctx: { via: NoteTemplate; actor: Actor | null; audit: boolean },
  ): Promise<PayoutAnswer & { created: boolean }> {
    const settings = await this.settings.get();
    if (!settings.enableService) throw apiError('serviceClosed');
    const productId = Number(params.productId);
    const def = productById(productId);
    const now = this.deps.clock.now();
    const day = platformDay(now, this.deps.timeZone);
    const [found] = await CREATE_CHECKS.rows<CreateChecksRow>(this.deps.db, {
      merchantId,
      productId: def ? productId : 0,
      today: day,
    });
    if (!found?.merchant_enabled) throw apiError('merchantUnavailable');
    if (def?.direction !== 'payout' || !found.product_enabled || !found.party_enabled) {
      throw apiError('productUnavailable');
    }
    const amount = Number(params.amount);
    const min = numberOrNull(found.min_amount) ?? Number(found.product_min_amount);
    const max = numberOrNull(found.max_amount) ?? Number(found.product_max_amount);
    if (!Number.isSafeInteger(amount) || amount < min || amount > max) {
      throw apiError('amountOutOfRange', `amount must be between ${min} and ${max} (1/100 units)`);
    }
    const fee = Number((BigInt(amount) * BigInt(found.fee_rate)) / 10_000n) + Number(found.per_transaction_fee);
    const dailyLimit = numberOrNull(found.daily_limit);
    const merchantUserId = Number(found.merchant_user_id);
    const requestHash = sha256(
      canonicalJson(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]))),
    );
    const mchOrderNo = String(params.mchOrderNo);

    const existing = async () => {
      const [row] = await this.deps.db
        .select()
        .from(payouts)
        .where(and(eq(payouts.merchantId, merchantId), eq(payouts.merchantOrderNo, mchOrderNo)));
      return row;
    };
    const repeat = (row: PayoutRecord) => {
      if (row.requestHash !== requestHash) throw apiError('duplicateOrderNo');
      return { ...payoutAnswerOf(row), created: false };
    };
    const before = await existing();
    if (before) return repeat(before);
    if (await this.deps.nameBlacklist.blocks(params.userName, 'payee')) throw apiError('payeeNameBlocked');

    try {
      const created = await this.deps.db.transaction(async (tx) => {
        const [payout] = await tx
          .insert(payouts)
          .values({
            orderCode: newPayoutCode(now),
            merchantId,
            merchantUserId,
            merchantOrderNo: mchOrderNo,
            requestHash,
            productId,
            amount,
            fee,
            state: PAYOUT_STATE.awaiting,
            userName: text(params.userName),
            cardNumber: text(params.cardNumber),
            ifscCode: text(params.ifscCode),
            bankName: text(params.bankName),
            bankBranch: text(params.bankBranch),
            address: text(params.address),
            remark: text(params.remark),
            clientIp: text(params.clientIp),
            notifyUrl: text(params.notifyUrl),
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        if (!payout) throw new Error('payout insert answered no row');
        // The hold locks the merchant's available balance: every payout of the merchant queues here,
        // so the day's total read next is exact for the limit.
        try {
          await this.deps.ledger.transfer(tx, payoutHoldTransfer(payout, ctx.actor?.userId ?? null));
        } catch (error) {
          if (error instanceof AppError && error.data?.reason === 'insufficientBalance') {
            throw apiError('insufficientBalance');
          }
          throw error;
        }
        if (dailyLimit !== null && (await dayTotal(tx, merchantUserId, productId, day)) + amount > dailyLimit) {
          throw apiError('dailyLimitReached');
        }
        await tx.insert(partyDailyDeltas).values({ userId: merchantUserId, productId, day, count: 1, amount });
        await recordPayoutEvent(tx, payout, 'created', null, payout.state, ctx.actor, ctx.via, now);
        if (ctx.audit && ctx.actor) {
          await writeAudit(
            tx,
            ctx.actor,
            {
              action: 'payouts.create',
              target: `payout:${payout.orderCode}`,
              after: { mchOrderNo, productId, amount, fee },
            },
            now,
          );
        }
        return payout;
      });
      // A new payout in the lists, and in the suppliers' claim queue.
      publishPayoutChange(this.deps.db, this.deps.realtime, created, null);
      return { ...payoutAnswerOf(created), created: true };
    } catch (error) {
      // A concurrent create of the same mchOrderNo won: answer as its repeat.
      if (violatedConstraint(error) === 'payouts_merchant_order_no_uq') {
        const row = await existing();
        if (row) return repeat(row);
      }
      throw error;
    }
  }
}
