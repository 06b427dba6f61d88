import { randomInt } from 'node:crypto';
import {
  type CreateOrderAnswer,
  type CreateOrderRequest,
  isPayerName,
  type NoteTemplate,
  note,
  noteParts,
  ORDER_STATE,
  type OrderEventKind,
  payerCardCountryOf,
  productById,
} from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { tableRow } from '../../db/raw-rows.js';
import { merchants, type orderAllocations, type orderEvents, orders, resources } from '../../db/schema.js';
import type { Actor } from '../../platform/audit.js';
import { Batcher } from '../../platform/batcher.js';
import { canonicalJson } from '../../platform/canonical-json.js';
import { isConcurrencyFailure, violatedConstraint } from '../../platform/db-errors.js';
import { type AppError, apiError } from '../../platform/errors.js';
import { sha256 } from '../../platform/secrets.js';
import { checkSignedCall } from '../merchants/signed-call.js';
import { type AllocationResult, allocate } from './allocation.js';
import { type OrderParams, OrderPart, type OrderRecord } from './order-core.js';
import { holdTransfer } from './order-payments.js';
import { type PayeeAccount, payeeOf } from './payee.js';
import type { OrderSettings } from './settings.js';
import {
  type AllocationTarget,
  CREATE_CHECKS,
  type CreateChecksRow,
  EXISTING_ORDERS,
  FINISH_ALLOCATION,
  FINISH_ALLOCATION_FAILED,
  INSERT_ORDERS,
  LOCK_MERCHANT_LIMITS,
  MERCHANT_LIMIT_LOCK,
  type NewOrderRow,
  numberOrNull,
  SIGNED_CREATE_CHECKS,
  STRICT_DAY_TOTALS,
} from './statements.js';

/** What newOrderCode makes: 'C', 12 digits of time, 8 random digits (the list filters find it by index). */
export const ORDER_CODE_SHAPE = /^C\d{20}$/i;

/** 'C', the UTC time to the second, 8 random digits: unique by index, not guessable in practice. */
function newOrderCode(now: Date): string {
  const t = now
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(2, 14);
  return `C${t}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

/**
 * Indexes a create can collide with when it loses a race it could not see coming: a second open order
 * of one amount (or usdtCount) on one account, and an order code drawn twice (a retry draws new ones).
 */
const LOST_RACE_INDEXES = new Set(['orders_open_amount_uq', 'orders_open_usdt_uq', 'orders_order_code_uq']);

/** `SIGNED_CREATE_CHECKS`' row of a call: the create's checks and the merchant's whole row. */
type SignedChecksRow = CreateChecksRow & { pd_merchant: Record<string, unknown> };

/** A batch of creates found a mchOrderNo taken by a concurrent create after its check: run it again. */
class MerchantOrderNoTaken extends Error {}

/**
 * Runs a create's transaction again (twice at most) when it lost a race it could not see coming: an
 * order of the same amount committed on the chosen account between the open orders' snapshot and
 * the account's lock, a mchOrderNo taken meanwhile, or a deadlock with a payment or a waiting
 * allocation. Nothing of a lost try remains.
 */
async function retryingLostRaces<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      const lost =
        LOST_RACE_INDEXES.has(violatedConstraint(error) ?? '') ||
        isConcurrencyFailure(error) ||
        error instanceof MerchantOrderNoTaken;
      if (!lost || attempt >= 3) throw error;
    }
  }
}

/** A new order, checked and priced, on its way into a batch (see `OrdersService.createFor`). */
interface NewOrder {
  merchant: { id: number; userId: number };
  params: OrderParams;
  productId: number;
  amount: number;
  apiAmount: number;
  fee: number;
  requestHash: string;
  /** The merchant's daily limit of the product (minor units), null when none. */
  dailyLimit: number | null;
  /** The timeline's note of where it came from. */
  via: NoteTemplate;
  /**
   * When the create call reached the service (a signed call: before its checks): the order's creation
   * time. Its allocation is the batch's time, so the order performance page's 'time to allocate'
   * includes the checks and the wait for the batch.
   */
  receivedAt: Date;
}

/** What became of a new order in its batch. */
type NewOrderOutcome =
  | { kind: 'created'; order: OrderRecord; account: PayeeAccount | null }
  /** The merchant had used the mchOrderNo already: this order (the caller compares the content). */
  | { kind: 'existing'; order: OrderRecord }
  /** Every account that could take it was held elsewhere: it is created alone, waiting for them. */
  | { kind: 'deferred' }
  /** Refused inside the batch (the strict daily limit): nothing of it is written. */
  | { kind: 'refused'; error: AppError };

/** Most orders created in one transaction. */
const MAX_CREATE_BATCH = 64;

/**
 * Intake and allocation of collection orders (DESIGN sections 5 and 6): the signed merchant API and
 * every other way in (`createFor`), creates written in batches, and the allocation of one order
 * (a reselect, a supplement of an order whose allocation failed).
 */
export class OrderIntake extends OrderPart {
  /** Concurrent creates share a transaction (group commit): see `createBatch`. */
  private readonly creates = new Batcher<NewOrder, NewOrderOutcome>(
    (batch) => this.createBatch(batch),
    MAX_CREATE_BATCH,
  );

  /**
   * Concurrent signed calls share their first read (one round trip for them all, like their batch):
   * under load it was a round trip per call, the largest part of a create's database work after its
   * batch. Answers each call's row, or undefined for an unknown merchant.
   */
  private readonly signedChecks = new Batcher<{ merchantNo: string; productId: number }, SignedChecksRow | undefined>(
    async (calls) => {
      const rows = await SIGNED_CREATE_CHECKS.rows<SignedChecksRow & { i: string | number }>(this.db, {
        merchantNos: calls.map((c) => c.merchantNo),
        productIds: calls.map((c) => c.productId),
        today: this.today(),
      });
      const byCall = new Map(rows.map((r) => [Number(r.i) - 1, r]));
      return calls.map((_, k) => byCall.get(k));
    },
    MAX_CREATE_BATCH,
  );

  // ---- the merchant API ----

  /**
   * POST /v1.0/api/order/create: checks the signed call (service switch, merchant, caller address,
   * signature), then creates the order like every other way in (`createFor`).
   */
  async create(params: CreateOrderRequest, ctx: { ip: string; baseUrl: string }): Promise<CreateOrderAnswer> {
    const receivedAt = this.now();
    const { merchantId, checks } = await this.authenticate(params, ctx.ip);
    // signType says how the call is signed, not what is ordered: a repeat without it is the same order.
    const { sign: _sign, signType: _signType, ...order } = params;
    const { created: _created, ...answer } = await this.createFor(
      merchantId,
      order,
      { baseUrl: ctx.baseUrl, via: note('viaApi', { ip: ctx.ip }), receivedAt },
      checks,
    );
    // Kept as allocation failed: the API answers 2008 with the order's code.
    if (answer.state === ORDER_STATE.allocationFailed) {
      throw apiError('allocationFailed', undefined, { orderCode: answer.orderCode });
    }
    return answer;
  }

  /**
   * The checks of a signed API call (merchants/signed-call.ts, in the documented order), with the
   * merchant's row read together with what the create checks next (one round trip for both, shared
   * with the signed calls that arrived meanwhile). Answers the merchant's id and that row.
   */
  private async authenticate(
    params: CreateOrderRequest,
    ip: string,
  ): Promise<{ merchantId: number; checks: CreateChecksRow }> {
    let checks: CreateChecksRow | undefined;
    const { merchantId } = await checkSignedCall(params, ip, {
      serviceOpen: async () => (await this.settings.get()).enableService,
      signingOf: async (merchantNo) => {
        const row = await this.signedChecks.submit({ merchantNo, productId: this.productKeyOf(params.productId) });
        checks = row;
        return row ? this.deps.merchants.signingOf(tableRow(merchants, row.pd_merchant)) : null;
      },
    });
    return { merchantId, checks: checks! };
  }

  /** The product id the checks look up: an unknown product finds no row (the merchant check comes first). */
  private productKeyOf(productId: unknown): number {
    const id = Number(productId);
    return productById(id) ? id : 0;
  }

  /**
   * Creates a collection order for a known merchant (the signed API, or a batch upload in the
   * merchant's console session): every rule after the caller's authentication is here, so both ways
   * in share them. Service switch and merchant enabled (checked again: a batch runs for a while),
   * product a collection product enabled for the platform and the merchant (2004), amount a whole
   * number of minor units (2009), within limits (2006), KYC name from the KYC lower limit when the
   * KYC setting is on (2010), the payer's name when NeedNameCheck is on (2014), a card-to-card
   * payer card of the CardCountry setting's country (2015), a payer name not blacklisted (2016), above the fee (2006), daily limit (2007:
   * paid volume here; LimitMode strict adds the open orders under the merchant's lock in the batch);
   * the order is kept idempotent on mchOrderNo (same content: the same order; other: 2005),
   * allocated, and the supplier's money held. `via` is the timeline's note of where it came from.
   * payUrl takes the IsNewPayUrl setting's form.
   * An order no account could take is kept as allocation failed and answered with that state.
   */
  async createFor(
    merchantId: number,
    params: OrderParams,
    /** `receivedAt`: when the call came (the order's creation time), if before this step. */
    ctx: { baseUrl: string; via: NoteTemplate; receivedAt?: Date },
    /** `CREATE_CHECKS`' row when the caller read it already (the signed API reads it with the merchant). */
    checks?: CreateChecksRow,
  ): Promise<CreateOrderAnswer & { created: boolean }> {
    const receivedAt = ctx.receivedAt ?? this.now();
    const settings = await this.settings.get();
    if (!settings.enableService) throw apiError('serviceClosed');
    const productId = Number(params.productId);
    const def = productById(productId);
    // The merchant, the product, the merchant's settings of it and today's paid volume: one query.
    const [found] = checks
      ? [checks]
      : await CREATE_CHECKS.rows<CreateChecksRow>(this.db, {
          merchantId,
          productId: this.productKeyOf(productId),
          today: this.today(),
        });
    if (!found?.merchant_enabled) throw apiError('merchantUnavailable');
    if (def?.direction !== 'collection') throw apiError('productUnavailable');
    if (!found.product_enabled) throw apiError('productUnavailable');
    if (!found.party_enabled) throw apiError('productUnavailable');
    const merchant = { id: merchantId, userId: Number(found.merchant_user_id) };
    const party = {
      minAmount: numberOrNull(found.min_amount),
      maxAmount: numberOrNull(found.max_amount),
      kycLowerLimit: numberOrNull(found.kyc_lower_limit),
      feeRate: Number(found.fee_rate),
      perTransactionFee: Number(found.per_transaction_fee),
      dailyLimit: numberOrNull(found.daily_limit),
    };
    const product = { minAmount: Number(found.product_min_amount), maxAmount: Number(found.product_max_amount) };
    const paidToday = Number(found.paid_today ?? 0);

    const apiAmount = BigInt(String(params.amount));
    const units = BigInt(def.apiUnitsPerMinor);
    if (apiAmount % units !== 0n) {
      throw apiError(
        'amountPrecision',
        `amount ${apiAmount} is not a whole number of 1/100 (send a multiple of ${units})`,
      );
    }
    const amount = Number(apiAmount / units);
    const min = party.minAmount ?? product.minAmount;
    const max = party.maxAmount ?? product.maxAmount;
    if (amount < min || amount > max) {
      throw apiError('amountOutOfRange', `amount must be between ${min} and ${max} (1/100 units)`);
    }
    if (settings.kyc && party.kycLowerLimit !== null && amount >= party.kycLowerLimit && !params.userName) {
      throw apiError('kycRequired');
    }
    if (settings.needNameCheck && !isPayerName(params.userName)) throw apiError('payerNameInvalid');
    if (def.resourceKind === 'cardToCard') {
      const country = payerCardCountryOf(params);
      if (country !== null && country !== settings.cardCountry) {
        throw apiError(
          'cardCountryRefused',
          `the payer’s card is of ${country} (a bank branch given as an IFSC code): this channel accepts cards of ${settings.cardCountry}`,
        );
      }
    }
    if (await this.deps.nameBlacklist.blocks(params.userName, 'payer')) throw apiError('payerNameBlocked');
    const fee = Number((BigInt(amount) * BigInt(party.feeRate)) / 10_000n) + party.perTransactionFee;
    if (fee >= amount) throw apiError('amountOutOfRange', `amount must be more than the fee (${fee})`);
    // The day's paid volume alone: what the relaxed mode counts, and a first check of the strict one
    // (which adds the open orders under the merchant's lock, in the batch: `strictDayTotals`).
    if (party.dailyLimit !== null && paidToday + amount > party.dailyLimit) {
      throw apiError('dailyLimitReached');
    }

    // The hash of the parameters (all but `sign`, as text): a repeat of mchOrderNo must match it.
    const requestHash = sha256(
      canonicalJson(Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]))),
    );
    const item: NewOrder = {
      merchant,
      params,
      productId,
      amount,
      apiAmount: Number(apiAmount),
      fee,
      requestHash,
      dailyLimit: party.dailyLimit,
      via: ctx.via,
      receivedAt,
    };
    // Floating USDT amounts are found one order at a time; every other create joins the next batch.
    const outcome = def.floatingAmount ? await this.createAlone(item) : await this.creates.submit(item);
    if (outcome.kind === 'deferred') throw new Error('a create alone is never deferred');
    if (outcome.kind === 'refused') throw outcome.error;
    if (outcome.kind === 'existing' && outcome.order.requestHash !== requestHash) throw apiError('duplicateOrderNo');
    const { order } = outcome;
    const account = outcome.kind === 'created' ? outcome.account : null;
    const created = outcome.kind === 'created';
    return {
      created,
      orderCode: order.orderCode,
      mchOrderNo: order.merchantOrderNo,
      productId: order.productId,
      amount: order.apiAmount,
      state: order.state,
      payUrl: settings.isNewPayUrl
        ? `${ctx.baseUrl}/pay/${order.orderCode}`
        : `${ctx.baseUrl}/pay?orderCode=${order.orderCode}`,
      expireTime: order.expiresAt ? order.expiresAt.toISOString() : null,
      payee: account ? payeeOf(account, order) : await this.payeeOfOrder(this.db, order),
    };
  }

  /**
   * Writes a batch of new orders in one transaction (group commit): each is allocated in turn (the
   * batch's own holds and amounts count for the orders after it) and written once, already in its
   * final state. When the batch fails, each order is created alone, so one order's failure is its own.
   */
  private async createBatch(items: NewOrder[]): Promise<Array<NewOrderOutcome | Error>> {
    let outcomes: NewOrderOutcome[];
    try {
      outcomes = await retryingLostRaces(() => this.db.transaction((tx) => this.insertNew(tx, items, false)));
    } catch (error) {
      if (items.length === 1) return [error instanceof Error ? error : new Error(String(error))];
      return Promise.all(items.map((item) => this.createAlone(item).catch((e: unknown) => e as Error)));
    }
    for (const o of outcomes) if (o.kind === 'created') this.publish(o.order);
    return Promise.all(
      outcomes.map((o, i) =>
        o.kind === 'deferred' ? this.createAlone(items[i]!).catch((e: unknown) => e as Error) : o,
      ),
    );
  }

  /** One new order in its own transaction, waiting for a held account if it must. */
  private async createAlone(item: NewOrder): Promise<NewOrderOutcome> {
    const [outcome] = await retryingLostRaces(() => this.db.transaction((tx) => this.insertNew(tx, [item], true)));
    if (outcome!.kind === 'created') this.publish(outcome!.order);
    return outcome!;
  }

  /**
   * The new orders of a batch inside `tx`: allocated (per product, in their order), written with their
   * allocation records and events in one statement, and their suppliers' holds posted in one transfer
   * batch. An order whose mchOrderNo the merchant used before is not written: that order answers (and
   * its allocation is dropped). `wait`: one order alone, which may wait for held accounts; in a batch
   * such an order is deferred.
   */
  private async insertNew(tx: Tx, items: NewOrder[], wait: boolean): Promise<NewOrderOutcome[]> {
    const settings = await this.settings.get(tx);
    const now = this.now();
    const today = this.today(now);
    const hold = !settings.isSupplierRemoveBalanceOnOrderFinished;
    const keyOf = (item: NewOrder) => `${item.merchant.id}:${item.params.mchOrderNo}`;

    // A repeat of a mchOrderNo within the batch follows its first; one used before shows at the insert.
    const outcomes: Array<NewOrderOutcome | undefined> = [];
    const firstOf = new Map<string, number>();
    let fresh: number[] = [];
    items.forEach((item, i) => {
      if (firstOf.has(keyOf(item))) return;
      firstOf.set(keyOf(item), i);
      fresh.push(i);
    });

    // The strict daily limit: the orders of merchants with a limit are counted under their merchants'
    // locks (see `strictDayTotals`); a repeat of a mchOrderNo answers its order and counts nothing new.
    const limited = settings.limitMode === 'strict' ? fresh.filter((i) => items[i]!.dailyLimit !== null) : [];
    const counted = limited.length > 0 ? await this.strictDayTotals(tx, limited, items, today) : null;
    if (counted) {
      for (const [i, order] of counted.existing) outcomes[i] = { kind: 'existing', order };
      fresh = fresh.filter((i) => !counted.existing.has(i));
    }

    const allocations = new Map<number, AllocationResult>();
    for (const productId of new Set(fresh.map((i) => items[i]!.productId))) {
      const group = fresh.filter((i) => items[i]!.productId === productId);
      const results = await allocate(tx, {
        productId,
        today,
        holds: hold,
        floating: productById(productId)!.floatingAmount,
        wait,
        requests: group.map((i) => ({ amount: items[i]!.amount, avoidResourceId: null, orderId: null })),
      });
      group.forEach((i, k) => {
        allocations.set(i, results[k]!);
      });
    }
    // The accounts are chosen now: the allocation records carry this time, so the order performance
    // page's time to allocate runs from the call's arrival to the choice (the allocation included).
    const chosenAt = this.now().toISOString();
    for (const i of fresh) if (allocations.get(i)!.deferred) outcomes[i] = { kind: 'deferred' };
    // Each limited order, in the batch's order, counts when it is open (allocated): one whose
    // allocation failed is not open; a deferred one is counted when it is created alone.
    const overLimit = new Set<number>();
    if (counted) {
      for (const i of limited) {
        if (counted.existing.has(i)) continue;
        const { chosen, deferred } = allocations.get(i)!;
        if (deferred || !chosen) continue;
        const item = items[i]!;
        const key = `${item.merchant.userId}:${item.productId}`;
        const total = (counted.totals.get(key) ?? 0) + item.amount;
        if (total > item.dailyLimit!) {
          overLimit.add(i);
          outcomes[i] = { kind: 'refused', error: apiError('dailyLimitReached') };
        } else {
          counted.totals.set(key, total);
        }
      }
    }
    const writing = fresh.filter((i) => !allocations.get(i)!.deferred && !overLimit.has(i));

    const at = now.toISOString();
    const expiresAt = new Date(now.getTime() + settings.orderTimeoutMinutes * 60_000).toISOString();
    const text = (v: string | number | undefined) => (v === undefined || v === '' ? null : String(v));
    const rows: NewOrderRow[] = [];
    const records: Array<Record<string, unknown>> = [];
    const events: Array<Record<string, unknown>> = [];
    const holds: ReturnType<typeof holdTransfer>[] = [];
    for (const i of writing) {
      const item = items[i]!;
      const { chosen, usdtCount, candidates } = allocations.get(i)!;
      const orderCode = newOrderCode(now);
      const state = chosen ? ORDER_STATE.allocated : ORDER_STATE.allocationFailed;
      const p = item.params;
      rows.push({
        order_code: orderCode,
        merchant_id: item.merchant.id,
        merchant_user_id: item.merchant.userId,
        merchant_order_no: String(p.mchOrderNo),
        request_hash: item.requestHash,
        product_id: item.productId,
        amount: item.amount,
        api_amount: item.apiAmount,
        fee: item.fee,
        state,
        supplier_id: chosen?.supplierId ?? null,
        supplier_user_id: chosen?.supplierUserId ?? null,
        is_proxy: chosen?.isProxy ?? false,
        resource_id: chosen?.resourceId ?? null,
        allocation_no: chosen ? 1 : 0,
        hold_open: chosen !== null && hold,
        usdt_count: usdtCount,
        usdt_address: usdtCount === null ? null : (chosen?.payee.details.address ?? null),
        user_name: text(p.userName),
        card_number: text(p.cardNumber),
        ifsc_code: text(p.ifscCode),
        bank_name: text(p.bankName),
        vpa: text(p.vpa),
        mode: text(p.mode),
        address: text(p.address),
        client_ip: text(p.clientIp),
        subject: text(p.subject),
        body: text(p.body),
        extra: text(p.extra),
        notify_url: text(p.notifyUrl),
        return_url: text(p.returnUrl),
        created_at: item.receivedAt.toISOString(),
        allocated_at: chosen ? at : null,
        expires_at: chosen ? expiresAt : null,
        updated_at: at,
      });
      records.push({
        order_code: orderCode,
        chosen_resource_id: chosen?.resourceId ?? null,
        candidates,
        created_at: chosenAt,
      });
      const event = (kind: OrderEventKind, from: number | null, to: number, text: string | NoteTemplate, time = at) => {
        const { note: english, noteTemplate } = noteParts(text);
        events.push({
          order_code: orderCode,
          kind,
          from_state: from,
          to_state: to,
          note: english,
          note_template: noteTemplate,
          created_at: time,
          ord: events.length,
        });
      };
      event('created', null, ORDER_STATE.created, item.via, item.receivedAt.toISOString());
      if (chosen) {
        event(
          'allocated',
          ORDER_STATE.created,
          ORDER_STATE.allocated,
          `${chosen.resourceName} (${chosen.supplierName})`,
        );
        if (hold) holds.push(holdTransfer(orderCode, 1, chosen.supplierId, item.amount, null));
      } else {
        event('allocationFailed', ORDER_STATE.created, ORDER_STATE.allocationFailed, '');
      }
    }
    if (rows.length > 0) {
      const written = await INSERT_ORDERS.rows<Record<string, unknown>>(tx, {
        orders: JSON.stringify(rows),
        allocations: JSON.stringify(records),
        events: JSON.stringify(events),
        now: at,
      });
      const byCode = new Map(written.map((raw) => [raw.order_code as string, tableRow(orders, raw)]));
      // Not written: the merchant had used the mchOrderNo (its order answers), or a concurrent create
      // took it after this batch began (that order is not visible yet: the batch runs again).
      const used = writing.filter((_, k) => !byCode.has(rows[k]!.order_code as string));
      const before =
        used.length === 0
          ? []
          : await EXISTING_ORDERS.rows<Record<string, unknown>>(tx, {
              merchantIds: used.map((i) => items[i]!.merchant.id),
              orderNos: used.map((i) => String(items[i]!.params.mchOrderNo)),
            });
      if (before.length !== used.length) throw new MerchantOrderNoTaken();
      for (const raw of before) {
        const order = tableRow(orders, raw);
        outcomes[firstOf.get(`${order.merchantId}:${order.merchantOrderNo}`)!] = { kind: 'existing', order };
      }
      writing.forEach((i, k) => {
        const order = byCode.get(rows[k]!.order_code as string);
        if (order) outcomes[i] = { kind: 'created', order, account: allocations.get(i)!.chosen?.payee ?? null };
      });
      await this.deps.ledger.transferMany(
        tx,
        holds.filter((h) => byCode.has(h.orderCode)),
      );
    }
    // A repeat within the batch answers the order its first made or found (or is deferred or refused with it).
    return items.map((item, i) => {
      const first = outcomes[firstOf.get(keyOf(item))!]!;
      if (i === firstOf.get(keyOf(item))) return first;
      return first.kind === 'deferred' || first.kind === 'refused' ? first : { kind: 'existing', order: first.order };
    });
  }

  /**
   * The strict daily limit's count, inside the create's transaction: locks the merchants of `limited`
   * (one advisory lock each, in id order, held to the commit: the creates of one merchant with a limit
   * take turns, across processes), then reads, after every earlier create of theirs committed, the
   * orders already made under these mchOrderNos (a repeat answers its order) and each merchant
   * product's day: paid today plus every open order (created or allocated: if paid now, it is paid
   * today). A payment moves an amount from open to paid in one commit; a timeout, failure or
   * rejection only lowers the count; so what is accepted under the lock never takes the count past
   * the limit.
   */
  private async strictDayTotals(
    tx: Tx,
    limited: number[],
    items: NewOrder[],
    today: string,
  ): Promise<{ existing: Map<number, OrderRecord>; totals: Map<string, number> }> {
    const merchantUserIds = [...new Set(limited.map((i) => items[i]!.merchant.userId))].sort((a, b) => a - b);
    await LOCK_MERCHANT_LIMITS.rows(tx, { lock: MERCHANT_LIMIT_LOCK, userIds: merchantUserIds });
    const before = await EXISTING_ORDERS.rows<Record<string, unknown>>(tx, {
      merchantIds: limited.map((i) => items[i]!.merchant.id),
      orderNos: limited.map((i) => String(items[i]!.params.mchOrderNo)),
    });
    const found = new Map(
      before.map((raw) => {
        const order = tableRow(orders, raw);
        return [`${order.merchantId}:${order.merchantOrderNo}`, order] as const;
      }),
    );
    const existing = new Map<number, OrderRecord>();
    for (const i of limited) {
      const order = found.get(`${items[i]!.merchant.id}:${items[i]!.params.mchOrderNo}`);
      if (order) existing.set(i, order);
    }
    const keys = [
      ...new Map(
        limited.map((i) => [`${items[i]!.merchant.userId}:${items[i]!.productId}`, items[i]!] as const),
      ).values(),
    ];
    const rows = await STRICT_DAY_TOTALS.rows<{ user_id: number; product_id: number; total: string | number }>(tx, {
      userIds: keys.map((item) => item.merchant.userId),
      productIds: keys.map((item) => item.productId),
      today,
    });
    const totals = new Map(rows.map((r) => [`${r.user_id}:${r.product_id}`, Number(r.total)]));
    return { existing, totals };
  }

  /** What the payer pays to for this order (null when it has no account). */
  async payeeOfOrder(db: DbOrTx, order: OrderRecord) {
    if (order.resourceId === null) return null;
    const [resource] = await db.select().from(resources).where(eq(resources.id, order.resourceId));
    return resource ? payeeOf(resource, order) : null;
  }

  // ---- allocation ----

  /**
   * Allocates `order` (inside the caller's transaction): state allocated with the supplier's hold, or
   * allocation failed. `avoid`: the account a reselect moves away from (taken only when no other fits).
   */
  async allocate(
    tx: Tx,
    order: OrderRecord,
    settings: OrderSettings,
    avoid: number | null,
    actor: Actor | null,
  ): Promise<{ order: OrderRecord; account: PayeeAccount | null }> {
    const now = this.now();
    const hold = !settings.isSupplierRemoveBalanceOnOrderFinished;
    const [{ chosen, usdtCount, candidates }] = (await allocate(tx, {
      productId: order.productId,
      today: this.today(now),
      holds: hold,
      floating: productById(order.productId)!.floatingAmount,
      wait: true,
      requests: [{ amount: order.amount, avoidResourceId: avoid, orderId: order.id }],
    })) as [AllocationResult];
    // When the account was chosen (see insertNew): what the order performance page measures.
    const allocation = {
      orderId: order.id,
      chosenResourceId: chosen?.resourceId ?? null,
      candidates,
      createdAt: this.now(),
    };

    if (!chosen) {
      const failed = await this.finishAllocation(
        tx,
        allocation,
        [this.eventRow(order, 'allocationFailed', order.state, ORDER_STATE.allocationFailed, actor, '')],
        null,
      );
      return { order: failed.order, account: null };
    }

    const allocationNo = order.allocationNo + 1;
    if (hold) {
      await this.deps.ledger.transfer(
        tx,
        holdTransfer(order.orderCode, allocationNo, chosen.supplierId, order.amount, actor?.userId ?? null),
      );
    }
    const allocatedEvent = this.eventRow(
      order,
      'allocated',
      order.state,
      ORDER_STATE.allocated,
      actor,
      `${chosen.resourceName} (${chosen.supplierName})`,
    );
    return this.finishAllocation(tx, allocation, [allocatedEvent], {
      resourceId: chosen.resourceId,
      supplierId: chosen.supplierId,
      supplierUserId: chosen.supplierUserId,
      isProxy: chosen.isProxy,
      allocationNo,
      holdOpen: hold,
      usdtCount,
      expiresAt: new Date(now.getTime() + settings.orderTimeoutMinutes * 60_000),
    });
  }

  /**
   * Ends an allocation in one statement (a round trip is the create's main cost): the allocation
   * record, the order's events, and the order's new state: allocated to `to` (the account's last use
   * stamped too, and its public fields answered for the payer), or allocation failed when `to` is null.
   */
  private async finishAllocation(
    tx: Tx,
    allocation: typeof orderAllocations.$inferInsert,
    events: (typeof orderEvents.$inferInsert)[],
    to: AllocationTarget | null,
  ): Promise<{ order: OrderRecord; account: PayeeAccount | null }> {
    const common = {
      orderId: allocation.orderId,
      chosenResourceId: allocation.chosenResourceId ?? null,
      candidates: JSON.stringify(allocation.candidates),
      now: allocation.createdAt.toISOString(),
      eventKinds: events.map((e) => e.kind),
      eventFrom: events.map((e) => e.fromState ?? null),
      eventTo: events.map((e) => e.toState ?? null),
      eventActorIds: events.map((e) => e.actorUserId ?? null),
      eventActors: events.map((e) => e.actorAccount ?? null),
      eventNotes: events.map((e) => e.note ?? ''),
      eventTemplates: events.map((e) => (e.noteTemplate ? JSON.stringify(e.noteTemplate) : null)),
      eventTimes: events.map((e) => e.createdAt.toISOString()),
    };
    if (to === null) {
      const [raw] = await FINISH_ALLOCATION_FAILED.rows<Record<string, unknown>>(tx, {
        ...common,
        state: ORDER_STATE.allocationFailed,
      });
      if (!raw) throw new Error(`order ${allocation.orderId} vanished during its allocation`);
      return { order: tableRow(orders, raw), account: null };
    }
    const [raw] = await FINISH_ALLOCATION.rows<Record<string, unknown>>(tx, {
      ...common,
      state: ORDER_STATE.allocated,
      resourceId: to.resourceId,
      supplierId: to.supplierId,
      supplierUserId: to.supplierUserId,
      isProxy: to.isProxy,
      allocationNo: to.allocationNo,
      holdOpen: to.holdOpen,
      usdtCount: to.usdtCount,
      expiresAt: to.expiresAt.toISOString(),
    });
    if (!raw) throw new Error(`order ${allocation.orderId} vanished during its allocation`);
    // The account's columns sit beside the order's under r_ names; mapped as drizzle maps them.
    const stamped = tableRow(resources, { kind: raw.r_kind, details: raw.r_details, qr_image_id: raw.r_qr_image_id });
    return {
      order: tableRow(orders, raw),
      account: { kind: stamped.kind, details: stamped.details, qrImageId: stamped.qrImageId },
    };
  }
}
