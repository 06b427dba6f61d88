import type { CreateOrderRequest, NoteTemplate, OrderEventKind } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { orderEvents, orders } from '../../db/schema.js';
import type { Actor } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { DataScope } from '../../platform/context.js';
import type { RealtimeHub } from '../../platform/realtime/hub.js';
import type { SettingsStore } from '../../platform/settings.js';
import { formatPlatformTime } from '../../platform/time.js';
import type { CallbacksService } from '../callbacks/callbacks.service.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { MerchantsService } from '../merchants/merchants.service.js';
import { SignedCalls } from '../merchants/signed-call.js';
import type { SuppliersService } from '../suppliers/suppliers.service.js';
import type { NameBlacklist } from '../system/name-blacklist.js';
import { orderEventRow } from './order-state.js';
import { publishOrderChange } from './publish.js';
import { OrderSettingsReader } from './settings.js';

export interface OrdersDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  merchants: MerchantsService;
  suppliers: SuppliersService;
  callbacks: CallbacksService;
  realtime: RealtimeHub;
  timeZone: string;
  settings: SettingsStore;
  /** Payer names refused at create (system management › name blacklist). */
  nameBlacklist: Pick<NameBlacklist, 'blocks'>;
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
  callbacksOff: 'the merchant has callbacks off or no notify URL',
} as const;

/**
 * What the parts of the order engine share: dependencies, the settings cache, the clock and the
 * platform day, and the rules every state change follows (`moveTo`, the timeline rows, publishing).
 */
export class OrderCore {
  readonly settings: OrderSettingsReader;
  /** The checks of signed merchant calls that read the merchant by themselves (the query calls). */
  readonly signedCalls: SignedCalls;

  constructor(readonly deps: OrdersDeps) {
    this.settings = new OrderSettingsReader(deps.settings);
    this.signedCalls = new SignedCalls({
      db: deps.db,
      merchants: deps.merchants,
      serviceOpen: async () => (await this.settings.get()).enableService,
    });
  }

  get db() {
    return this.deps.db;
  }
  now() {
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

  // ---- the state and timeline rules every part writes by ----

  async moveTo(
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

  async event(
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

  eventRow(
    order: Pick<OrderRecord, 'id'>,
    kind: OrderEventKind,
    fromState: number | null,
    toState: number | null,
    actor: Actor | null,
    text: string | NoteTemplate,
  ): typeof orderEvents.$inferInsert {
    return orderEventRow(order, kind, fromState, toState, actor, text, this.now());
  }

  /** After the commit of a change of `order`: the consoles hear of it, and a callback it scheduled is claimed now. */
  publish(order: OrderRecord): void {
    publishOrderChange(this.db, this.deps.realtime, order);
    this.deps.callbacks.committed(order);
  }
}

/** A part of the order engine (intake, payments, actions): reads the shared core as its own. */
export abstract class OrderPart {
  constructor(protected readonly core: OrderCore) {}

  protected get deps() {
    return this.core.deps;
  }
  protected get db() {
    return this.core.db;
  }
  protected get settings() {
    return this.core.settings;
  }
  protected now() {
    return this.core.now();
  }
  protected today(at?: Date) {
    return this.core.today(at);
  }
  protected moveTo(...args: Parameters<OrderCore['moveTo']>) {
    return this.core.moveTo(...args);
  }
  protected event(...args: Parameters<OrderCore['event']>) {
    return this.core.event(...args);
  }
  protected eventRow(...args: Parameters<OrderCore['eventRow']>) {
    return this.core.eventRow(...args);
  }
  protected publish(order: OrderRecord) {
    this.core.publish(order);
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
