import { randomInt } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import {
  ACTION_FROM,
  ACTIONS_WHEN_LOCKED,
  Code,
  type CreateOrderAnswer,
  type CreateOrderRequest,
  codeCatalogue,
  LOCKING_MARKS,
  type NoteTemplate,
  note,
  noteParts,
  ORDER_STATE,
  type OrderAction,
  type OrderEventKind,
  type OrderMark,
  type OrderTransferType,
  productById,
  type SignType,
  SUPPLEMENT_TYPE,
} from '@paydesk/contract';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { tableRow } from '../../db/raw-rows.js';
import { merchants, type orderAllocations, orderEvents, orders, resources } from '../../db/schema.js';
import { type Actor, SYSTEM_ACTOR, writeAudit } from '../../platform/audit.js';
import { Batcher } from '../../platform/batcher.js';
import { canonicalJson } from '../../platform/canonical-json.js';
import type { Clock } from '../../platform/clock.js';
import type { DataScope } from '../../platform/context.js';
import { isConcurrencyFailure, violatedConstraint } from '../../platform/db-errors.js';
import { AppError, conflict, notFound, refused } from '../../platform/errors.js';
import type { RealtimeHub } from '../../platform/realtime/hub.js';
import { sha256 } from '../../platform/secrets.js';
import { formatPlatformTime } from '../../platform/time.js';
import type { CallbacksService } from '../callbacks/callbacks.service.js';
import type { LedgerService, Posting } from '../ledger/ledger.service.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import type { SuppliersService } from '../suppliers/suppliers.service.js';
import { type AllocationResult, allocate } from './allocation.js';
import { type PayeeAccount, payeeOf } from './payee.js';
import { publishOrderChange } from './publish.js';
import { type OrderSettings, OrderSettingsCache } from './settings.js';
import { signatureMatches } from './signature.js';
import {
  ADD_DAILY,
  type AllocationTarget,
  CREATE_CHECKS,
  type CreateChecksRow,
  EXISTING_ORDERS,
  FINISH_ALLOCATION,
  FINISH_ALLOCATION_FAILED,
  INSERT_ORDERS,
  type NewOrderRow,
  numberOrNull,
  PAY_ORDER,
  SIGNED_CREATE_CHECKS,
} from './statements.js';

export interface OrdersDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  merchants: MerchantsService;
  suppliers: SuppliersService;
  callbacks: CallbacksService;
  realtime: RealtimeHub;
  timeZone: string;
}

export type OrderRecord = typeof orders.$inferSelect;
/** An order's parameters as the merchant sent them, without the signature (`sign`, `signType`). */
export type OrderParams = Omit<CreateOrderRequest, 'sign' | 'signType'>;

/** The console's texts of refusals (the console translates them by `data.reason`). */
export const ORDER_TEXTS = {
  notAllowed: 'this action is not allowed in the order’s current state',
  locked: 'the order is locked for investigation: unlock it first',
  changed: 'someone else acted on this order first: reload it',
  timeoutSupplementOff: 'timed-out orders may not be supplemented (CanTimeoutSupplement is off)',
  utrUsed: 'this UTR already confirmed another order',
  supplierBalanceShort: 'the supplier’s available balance does not cover this order',
  merchantBalanceShort: 'the merchant’s available balance does not cover the reversal',
  allocationFailed: 'allocation failed: no receiving account can take this order',
  notLocked: 'the order is not locked',
} as const;

const apiError = (code: keyof typeof Code, message?: string, data: { orderCode?: string } | null = null) => {
  const value = Code[code];
  return new AppError(value, message ?? codeCatalogue[value as keyof typeof codeCatalogue].message, data);
};

/** 'C', the UTC time to the second, 8 random digits: unique by index, not guessable in practice. */
function newOrderCode(now: Date): string {
  const t = now
    .toISOString()
    .replace(/[-:TZ.]/g, '')
    .slice(2, 14);
  return `C${t}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

function ipAllowed(whitelist: readonly string[], ip: string): boolean {
  if (whitelist.length === 0) return true;
  const family = isIP(ip);
  if (family === 0) return false;
  const list = new BlockList();
  for (const entry of whitelist) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
}

/** Adds postings to the same account together and drops zeros (a transfer names each account once). */
function merged(postings: Posting[]): Posting[] {
  const byAccount = new Map<string, number>();
  for (const p of postings) byAccount.set(p.account, (byAccount.get(p.account) ?? 0) + p.amount);
  return [...byAccount].filter(([, amount]) => amount !== 0).map(([account, amount]) => ({ account, amount }));
}

const supplierAccount = (id: number, bucket: 'available' | 'frozen') => `supplier:${id}:${bucket}`;

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
  | { kind: 'deferred' };

/** Most orders created in one transaction. */
const MAX_CREATE_BATCH = 64;

/** The supplier's hold for an allocation of an order: its available balance moves to frozen. */
function holdTransfer(
  orderCode: string,
  allocationNo: number,
  supplierId: number,
  amount: number,
  actorUserId: number | null,
) {
  return {
    idempotencyKey: `${orderCode}:hold:${allocationNo}`,
    type: 'orderHold' satisfies OrderTransferType,
    orderCode,
    note: note('orderHold', { orderCode }),
    actorUserId,
    postings: [
      { account: supplierAccount(supplierId, 'available'), amount: -amount },
      { account: supplierAccount(supplierId, 'frozen'), amount },
    ],
  };
}

/** The idempotency key of an order's payment transfer (its reversal finds it by this key). */
const payTransferKey = (orderCode: string) => `${orderCode}:pay`;

/**
 * The collection order engine (DESIGN sections 5 and 6): creation through the signed merchant API,
 * allocation, and every action as a compare-and-set of the order's state in one transaction with its
 * ledger transfer. A lost race answers 409 and changes nothing.
 */
export class OrdersService {
  readonly settings: OrderSettingsCache;

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

  constructor(readonly deps: OrdersDeps) {
    this.settings = new OrderSettingsCache(deps.db, deps.clock);
  }

  private get db() {
    return this.deps.db;
  }
  private now() {
    return this.deps.clock.now();
  }
  /** The platform's calendar day of `at` (kept per minute: formatting in a time zone is costly). */
  today(at: Date = this.now()): string {
    const minute = Math.floor(at.getTime() / 60_000);
    if (this.day.minute !== minute) {
      this.day = { minute, value: formatPlatformTime(at, this.deps.timeZone).slice(0, 10) };
    }
    return this.day.value;
  }
  private day = { minute: Number.NaN, value: '' };

  // ---- the merchant API ----

  /**
   * POST /v1.0/api/order/create: checks the signed call (service switch, merchant, caller address,
   * signature), then creates the order like every other way in (`createFor`).
   */
  async create(params: CreateOrderRequest, ctx: { ip: string; baseUrl: string }): Promise<CreateOrderAnswer> {
    const receivedAt = this.now();
    const { merchantId, checks } = await this.checkSignedCall(params, ctx.ip);
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
   * The checks of a signed API call, in the documented order: service switch (2011), merchant known
   * and enabled (2002), caller IP in the whitelist (2003), signature (2001; also when a `signType`
   * sent is not the merchant's). Answers the merchant's id and what the create checks next, read with
   * the merchant's row (one round trip for both, shared with the signed calls that arrived meanwhile).
   */
  private async checkSignedCall(
    params: CreateOrderRequest,
    ip: string,
  ): Promise<{ merchantId: number; checks: CreateChecksRow }> {
    const settings = await this.settings.get();
    if (!settings.enableService) throw apiError('serviceClosed');
    const row = await this.signedChecks.submit({
      merchantNo: String(params.mchId),
      productId: this.productKeyOf(params.productId),
    });
    const signing = row ? this.deps.merchants.signingOf(tableRow(merchants, row.pd_merchant)) : null;
    if (!signing?.enabled) throw apiError('merchantUnavailable');
    if (!ipAllowed(signing.ipWhitelist, ip)) throw apiError('ipNotWhitelisted');
    const configured = signing.signType as SignType;
    const named = (params.signType ?? configured) as SignType;
    if (named !== configured) {
      // Said plainly only to a caller whose signature verifies under the type it named (it holds the
      // secret); anyone else gets the plain 2001 and learns nothing of the merchant's type.
      const knowsSecret = signatureMatches(params, signing.secret, named);
      throw apiError(
        'badSignature',
        knowsSecret ? `signType ${named} is not this merchant’s signature type (${configured})` : undefined,
      );
    }
    if (!signatureMatches(params, signing.secret, configured)) throw apiError('badSignature');
    return { merchantId: signing.merchantId, checks: row! };
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
   * number of minor units (2009), within limits and above the fee (2006), KYC name (2010), daily limit
   * (2007); the order is kept idempotent on mchOrderNo (same content: the same order; other: 2005),
   * allocated, and the supplier's money held. `via` is the timeline's note of where it came from.
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
    if (party.kycLowerLimit !== null && amount >= party.kycLowerLimit && !params.userName)
      throw apiError('kycRequired');
    const fee = Number((BigInt(amount) * BigInt(party.feeRate)) / 10_000n) + party.perTransactionFee;
    if (fee >= amount) throw apiError('amountOutOfRange', `amount must be more than the fee (${fee})`);
    if (party.dailyLimit !== null && (paidToday ?? 0) + amount > party.dailyLimit) {
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
      via: ctx.via,
      receivedAt,
    };
    // Floating USDT amounts are found one order at a time; every other create joins the next batch.
    const outcome = def.floatingAmount ? await this.createAlone(item) : await this.creates.submit(item);
    if (outcome.kind === 'deferred') throw new Error('a create alone is never deferred');
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
      payUrl: `${ctx.baseUrl}/pay/${order.orderCode}`,
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
    const fresh: number[] = [];
    items.forEach((item, i) => {
      if (firstOf.has(keyOf(item))) return;
      firstOf.set(keyOf(item), i);
      fresh.push(i);
    });

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
    const writing = fresh.filter((i) => !allocations.get(i)!.deferred);
    for (const i of fresh) if (allocations.get(i)!.deferred) outcomes[i] = { kind: 'deferred' };

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
    // A repeat within the batch answers the order its first made or found (or is deferred with it).
    return items.map((item, i) => {
      const first = outcomes[firstOf.get(keyOf(item))!]!;
      if (i === firstOf.get(keyOf(item))) return first;
      return first.kind === 'deferred' ? first : { kind: 'existing', order: first.order };
    });
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
  private async allocate(
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

  /** Releases the supplier's hold of the current allocation, if one is open. */
  private async releaseHold(
    tx: Tx,
    order: OrderRecord,
    actor: Actor | null,
    why: 'releaseReselected' | 'releaseRejected' | 'releaseFreed' | 'releaseReversed' | 'releaseTimedOut',
  ): Promise<void> {
    if (!order.holdOpen || order.supplierId === null) return;
    await this.deps.ledger.transfer(tx, {
      idempotencyKey: `${order.orderCode}:release:${order.allocationNo}`,
      type: 'orderRelease' satisfies OrderTransferType,
      orderCode: order.orderCode,
      note: note(why, { orderCode: order.orderCode }),
      actorUserId: actor?.userId ?? null,
      postings: [
        { account: supplierAccount(order.supplierId, 'frozen'), amount: -order.amount },
        { account: supplierAccount(order.supplierId, 'available'), amount: order.amount },
      ],
    });
  }

  // ---- payment ----

  /**
   * The payment transfer (DESIGN section 5): the supplier's money (its hold, or its available balance
   * when the hold was released or never taken) goes to the merchant less the fee, the suppliers'
   * commission, and the platform's revenue; then the merchant is notified.
   */
  private async pay(
    tx: Tx,
    order: OrderRecord,
    actor: Actor | null,
    how: { supplementType: number | null; utr: string | null; note: NoteTemplate },
  ): Promise<OrderRecord> {
    if (order.supplierId === null || order.resourceId === null)
      throw refused(ORDER_TEXTS.allocationFailed, 'allocationFailed');
    const now = this.now();
    const commission = await this.deps.suppliers.commissionPostings(tx, {
      supplierId: order.supplierId,
      productId: order.productId,
      amount: order.amount,
    });
    const commissionTotal = commission.reduce((sum, p) => sum + p.amount, 0);
    const fromHold = order.holdOpen;
    // Rows only this order needs come first. The rows every payment of the merchant shares (its daily
    // totals, its balance) and every payment at all (the platform's revenue) are locked last, the
    // balances in the very last statement, so each payment holds them for the fewest statements
    // before its commit: they decide how many payments per second one merchant can take.
    const { note: english, noteTemplate } = noteParts(how.note);
    let paid: OrderRecord;
    try {
      const [raw] = await PAY_ORDER.rows<Record<string, unknown>>(tx, {
        orderId: order.id,
        fromState: order.state,
        toState: ORDER_STATE.paidNotifying,
        commission: commissionTotal,
        paidFromHold: fromHold,
        supplementType: how.supplementType,
        utr: how.utr,
        actorUserId: actor?.userId ?? null,
        actorAccount: actor?.account ?? null,
        note: english,
        noteTemplate: noteTemplate === null ? null : JSON.stringify(noteTemplate),
        now: now.toISOString(),
      });
      paid = tableRow(orders, raw!);
    } catch (error) {
      if (violatedConstraint(error) === 'orders_utr_uq') throw conflict(ORDER_TEXTS.utrUsed, 'utrUsed');
      throw error;
    }
    const scheduled = await this.deps.callbacks.schedule(tx, paid, 'auto');
    if (!scheduled) await this.event(tx, order, 'callbackSkipped', null, null, null, note('callbacksOff'));
    await this.addDaily(tx, paid, 1);
    const postings = merged([
      { account: supplierAccount(order.supplierId, fromHold ? 'frozen' : 'available'), amount: -order.amount },
      ...commission,
      { account: `merchant:${order.merchantId}:available`, amount: order.amount - order.fee },
      { account: 'platform:revenue', amount: order.fee - commissionTotal },
    ]);
    try {
      await this.deps.ledger.transfer(tx, {
        idempotencyKey: payTransferKey(order.orderCode),
        type: 'orderPaid' satisfies OrderTransferType,
        orderCode: order.orderCode,
        // Both parties read this note in their fund records: how it was paid, never who confirmed it
        // (the transfer's actor keeps that for staff).
        note:
          how.supplementType === SUPPLEMENT_TYPE.offset
            ? note('orderPaidOffset', { orderCode: order.orderCode })
            : how.supplementType === SUPPLEMENT_TYPE.utr
              ? note('orderPaidUtr', { orderCode: order.orderCode, utr: how.utr ?? '' })
              : note('orderPaid', { orderCode: order.orderCode }),
        actorUserId: actor?.userId ?? null,
        postings,
      });
    } catch (error) {
      if (error instanceof AppError && error.code === Code.businessRule && !fromHold) {
        throw refused(ORDER_TEXTS.supplierBalanceShort, 'supplierBalanceShort');
      }
      throw error;
    }
    return paid;
  }

  /** What the resource, the merchant and the supplier processed on the day of payment. */
  private async addDaily(tx: Tx, order: OrderRecord, sign: 1 | -1): Promise<void> {
    await ADD_DAILY.rows(tx, {
      resourceId: order.resourceId,
      // Both parties' rows in user id order (concurrent payments lock them alike).
      userIds: [order.merchantUserId, order.supplierUserId]
        .filter((id): id is number => id !== null)
        .sort((a, b) => a - b),
      productId: order.productId,
      day: this.today(order.paidAt ?? this.now()),
      count: sign,
      amount: sign * order.amount,
    });
  }

  // ---- actions ----

  /**
   * One action on one order: reads it in the caller's scope (404 outside), checks the state and lock
   * (422), then in a transaction locks the row and re-checks that nothing changed since (409).
   */
  private async act(
    orderCode: string,
    scope: DataScope,
    action: OrderAction,
    actor: Actor,
    run: (tx: Tx, order: OrderRecord, settings: OrderSettings) => Promise<OrderRecord>,
  ): Promise<OrderRecord> {
    const seen = await this.findInScope(this.db, orderCode, scope);
    await this.checkAllowed(seen, action);
    const settings = await this.settings.get();
    const result = await this.db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, seen.id)).for('update');
      if (
        !order ||
        order.state !== seen.state ||
        order.locked !== seen.locked ||
        order.allocationNo !== seen.allocationNo
      ) {
        throw conflict(ORDER_TEXTS.changed, 'orderChanged');
      }
      const after = await run(tx, order, settings);
      await writeAudit(
        tx,
        actor,
        {
          action: `orders.${action}`,
          target: `order:${order.orderCode}`,
          before: { state: order.state, mark: order.mark, locked: order.locked, resourceId: order.resourceId },
          after: { state: after.state, mark: after.mark, locked: after.locked, resourceId: after.resourceId },
        },
        this.now(),
      );
      return after;
    });
    this.publish(result);
    return result;
  }

  /**
   * Refuses an action the order's state does not allow. When the order was in a state that allowed it
   * and someone moved it on (the race was lost before this request even read the order), the answer is
   * the same 409 as a race lost inside the lock; an action this order never allowed is a 422.
   */
  private async checkAllowed(order: OrderRecord, action: OrderAction): Promise<void> {
    if (order.locked && !ACTIONS_WHEN_LOCKED.includes(action)) throw refused(ORDER_TEXTS.locked, 'orderLocked');
    const from = ACTION_FROM[action] as readonly number[];
    if (from.includes(order.state)) return;
    const [wasAllowed] = await this.db
      .select({ id: orderEvents.id })
      .from(orderEvents)
      .where(
        and(
          eq(orderEvents.orderId, order.id),
          or(inArray(orderEvents.fromState, [...from]), inArray(orderEvents.toState, [...from])),
        ),
      )
      .limit(1);
    if (wasAllowed) throw conflict(ORDER_TEXTS.changed, 'orderChanged');
    throw refused(ORDER_TEXTS.notAllowed, 'stateNotAllowed');
  }

  async findInScope(db: DbOrTx, orderCode: string, scope: DataScope): Promise<OrderRecord> {
    const [order] = await db.select().from(orders).where(eq(orders.orderCode, orderCode));
    if (!order || !orderInScope(order, scope)) throw notFound('no such order');
    return order;
  }

  /** The supplier (or staff) confirms the money arrived. */
  confirm(orderCode: string, scope: DataScope, actor: Actor) {
    return this.act(orderCode, scope, 'confirm', actor, (tx, order) =>
      this.pay(tx, order, actor, {
        supplementType: null,
        utr: null,
        note: note('confirmedBy', { account: actor.account ?? 'system' }),
      }),
    );
  }

  /** Supplement with the payer's UTR, or offset against the supplier's balance (no UTR). */
  supplement(
    input: { orderCode: string; isOffsetReplenishmentOrder: boolean; utr?: string | null },
    scope: DataScope,
    actor: Actor,
  ) {
    return this.act(input.orderCode, scope, 'supplement', actor, async (tx, order, settings) => {
      if (order.state === ORDER_STATE.timedOut && !settings.canTimeoutSupplement) {
        throw refused(ORDER_TEXTS.timeoutSupplementOff, 'timeoutSupplementOff');
      }
      const utr = input.isOffsetReplenishmentOrder ? (input.utr ?? null) : input.utr!;
      if (utr) {
        const [other] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.utr, utr));
        if (other) throw conflict(ORDER_TEXTS.utrUsed, 'utrUsed');
      }
      let target = order;
      if (order.state === ORDER_STATE.allocationFailed) {
        // The payer paid: an account must take the order before its payment can be posted.
        target = (await this.allocate(tx, order, settings, null, actor)).order;
        if (target.state !== ORDER_STATE.allocated) throw refused(ORDER_TEXTS.allocationFailed, 'allocationFailed');
      }
      const type = input.isOffsetReplenishmentOrder ? SUPPLEMENT_TYPE.offset : SUPPLEMENT_TYPE.utr;
      return this.pay(tx, target, actor, {
        supplementType: type,
        utr,
        note: input.isOffsetReplenishmentOrder ? note('supplementOffset') : note('supplementUtr', { utr: utr ?? '' }),
      });
    });
  }

  /** Reselect (reassign): release the current account and allocate again, away from it when another fits. */
  reselect(orderCode: string, scope: DataScope, actor: Actor) {
    return this.act(orderCode, scope, 'reselect', actor, async (tx, order, settings) => {
      await this.releaseHold(tx, order, actor, 'releaseReselected');
      return (await this.allocate(tx, { ...order, holdOpen: false }, settings, order.resourceId, actor)).order;
    });
  }

  reject(input: { orderCode: string; rejectReason: string }, scope: DataScope, actor: Actor) {
    return this.act(input.orderCode, scope, 'reject', actor, async (tx, order) => {
      await this.releaseHold(tx, order, actor, 'releaseRejected');
      return this.moveTo(tx, order, ORDER_STATE.rejected, actor, 'rejected', input.rejectReason, {
        rejectReason: input.rejectReason,
      });
    });
  }

  /** Frees the account of an allocated order now: the hold is released and the order times out. */
  freeResource(orderCode: string, scope: DataScope, actor: Actor) {
    return this.act(orderCode, scope, 'freeResource', actor, async (tx, order) => {
      await this.releaseHold(tx, order, actor, 'releaseFreed');
      return this.moveTo(tx, order, ORDER_STATE.timedOut, actor, 'resourceFreed', note('resourcesFreed'));
    });
  }

  /** Sends the merchant callback again now (a new delivery with the same notification id). */
  triggerCallback(orderCode: string, scope: DataScope, actor: Actor) {
    return this.act(orderCode, scope, 'callback', actor, async (tx, order) => {
      const scheduled = await this.deps.callbacks.schedule(tx, order, 'manual');
      if (!scheduled) throw refused('the merchant has callbacks off or no notify URL', 'callbacksOff');
      await this.event(tx, order, 'callbackTriggered', null, null, actor, '');
      return order;
    });
  }

  /** Reverses a paid order: the exact opposite of its payment, then the hold it consumed is released. */
  reverse(orderCode: string, scope: DataScope, actor: Actor) {
    return this.act(orderCode, scope, 'reverse', actor, async (tx, order) => {
      // The daily totals before the balances, in the order a payment takes them (no deadlock).
      await this.addDaily(tx, order, -1);
      const transferId = await this.deps.ledger.transferIdByKey(tx, payTransferKey(order.orderCode));
      if (transferId === null) throw new Error(`order ${order.orderCode} is paid but has no payment transfer`);
      try {
        await this.deps.ledger.reverse(tx, {
          transferId,
          idempotencyKey: `${order.orderCode}:reverse`,
          note: note('orderReversal', { orderCode: order.orderCode }),
          actorUserId: actor.userId,
        });
      } catch (error) {
        if (error instanceof AppError && error.code === Code.businessRule) {
          throw refused(ORDER_TEXTS.merchantBalanceShort, 'merchantBalanceShort');
        }
        throw error;
      }
      if (order.paidFromHold) {
        // The reversal put the amount back on the supplier's hold: the order is over, so release it.
        await this.releaseHold(tx, { ...order, holdOpen: true }, actor, 'releaseReversed');
      }
      await this.deps.callbacks.cancelPending(tx, order.id);
      return this.moveTo(tx, order, ORDER_STATE.reversed, actor, 'reversed', '');
    });
  }

  /** Marks an order; suspicious and malicious lock it until someone unlocks it. */
  async updateMark(input: { id: number; orderMark: number }, scope: DataScope, actor: Actor) {
    const [row] = await this.db.select({ orderCode: orders.orderCode }).from(orders).where(eq(orders.id, input.id));
    if (!row) throw notFound('no such order');
    const mark = input.orderMark as OrderMark;
    const after = await this.act(row.orderCode, scope, 'updateMark', actor, async (tx, order) => {
      const locked = order.locked || LOCKING_MARKS.includes(mark);
      const [updated] = await tx
        .update(orders)
        .set({ mark, locked, updatedAt: this.now() })
        .where(eq(orders.id, order.id))
        .returning();
      await this.event(
        tx,
        updated!,
        'marked',
        null,
        null,
        actor,
        note(locked && !order.locked ? 'markedLocked' : 'marked', { fromMark: order.mark, toMark: mark }),
      );
      return updated!;
    });
    return { orderCode: after.orderCode, mark: after.mark, locked: after.locked };
  }

  /** Unlocks the listed orders in the caller's scope that are locked; answers how many it unlocked. */
  async unlock(orderCodes: string[], scope: DataScope, actor: Actor): Promise<{ count: number }> {
    let count = 0;
    for (const code of [...new Set(orderCodes)]) {
      const order = await this.findInScope(this.db, code, scope);
      if (!order.locked) continue;
      await this.act(code, scope, 'unlock', actor, async (tx, locked) => {
        const [updated] = await tx
          .update(orders)
          .set({ locked: false, updatedAt: this.now() })
          .where(eq(orders.id, locked.id))
          .returning();
        await this.event(tx, updated!, 'unlocked', null, null, actor, '');
        return updated!;
      });
      count += 1;
    }
    return { count };
  }

  // ---- timeouts ----

  /**
   * Times out allocated orders whose time is up (the job runs this): each is released in its own
   * transaction; rows another process holds are skipped. Locked orders wait for their investigation.
   */
  async expireDue(limit = 200): Promise<number> {
    const now = this.now();
    const due = await this.db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.state, ORDER_STATE.allocated), sql`${orders.expiresAt} <= ${now}`, eq(orders.locked, false)))
      .orderBy(orders.expiresAt)
      .limit(limit);
    let expired = 0;
    for (const { id } of due) {
      const done = await this.db.transaction(async (tx) => {
        const [order] = await tx
          .select()
          .from(orders)
          .where(and(eq(orders.id, id), eq(orders.state, ORDER_STATE.allocated), eq(orders.locked, false)))
          .for('update', { skipLocked: true });
        if (!order?.expiresAt || order.expiresAt > now) return null;
        await this.releaseHold(tx, order, SYSTEM_ACTOR, 'releaseTimedOut');
        return this.moveTo(tx, order, ORDER_STATE.timedOut, null, 'timedOut', '');
      });
      if (done) {
        expired += 1;
        this.publish(done);
      }
    }
    return expired;
  }

  // ---- the payer ----

  /** The payer submits the UTR of the payment; the supplier checks it and confirms. */
  async submitPayerUtr(orderCode: string, utr: string): Promise<{ orderCode: string; payerUtr: string }> {
    const updated = await this.db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.orderCode, orderCode)).for('update');
      if (!order) throw notFound('no such order');
      if (order.state !== ORDER_STATE.allocated && order.state !== ORDER_STATE.timedOut) {
        throw refused('this order is not awaiting payment', 'notAwaitingPayment');
      }
      const [row] = await tx
        .update(orders)
        .set({ payerUtr: utr, updatedAt: this.now() })
        .where(eq(orders.id, order.id))
        .returning();
      await this.event(tx, row!, 'payerUtr', null, null, null, note('payerUtr', { utr }));
      return row!;
    });
    this.publish(updated);
    return { orderCode: updated.orderCode, payerUtr: utr };
  }

  // ---- helpers ----

  private async moveTo(
    tx: Tx,
    order: OrderRecord,
    state: number,
    actor: Actor | null,
    kind: OrderEventKind,
    text: string | NoteTemplate,
    extra: Partial<typeof orders.$inferInsert> = {},
  ): Promise<OrderRecord> {
    const [updated] = await tx
      .update(orders)
      .set({ state, holdOpen: false, updatedAt: this.now(), ...extra })
      .where(eq(orders.id, order.id))
      .returning();
    await this.event(tx, updated!, kind, order.state, state, actor, text);
    return updated!;
  }

  private async event(
    tx: Tx,
    order: OrderRecord,
    kind: OrderEventKind,
    fromState: number | null,
    toState: number | null,
    actor: Actor | null,
    text: string | NoteTemplate,
  ): Promise<void> {
    await tx.insert(orderEvents).values(this.eventRow(order, kind, fromState, toState, actor, text));
  }

  private eventRow(
    order: Pick<OrderRecord, 'id'>,
    kind: OrderEventKind,
    fromState: number | null,
    toState: number | null,
    actor: Actor | null,
    text: string | NoteTemplate,
  ): typeof orderEvents.$inferInsert {
    return {
      orderId: order.id,
      kind,
      fromState,
      toState,
      actorUserId: actor?.userId ?? null,
      actorAccount: actor?.account ?? null,
      ...noteParts(text),
      createdAt: this.now(),
    };
  }

  private publish(order: OrderRecord): void {
    publishOrderChange(this.db, this.deps.realtime, order);
  }
}

/** Whether the caller's scope reaches the order: its merchant, or its supplier's team. */
export function orderInScope(order: Pick<OrderRecord, 'merchantUserId' | 'supplierUserId'>, scope: DataScope): boolean {
  if (scope.all) return true;
  return (
    scope.userIds.includes(order.merchantUserId) ||
    (order.supplierUserId !== null && scope.userIds.includes(order.supplierUserId))
  );
}
