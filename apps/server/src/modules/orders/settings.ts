import type { Db, DbOrTx } from '../../db/client.js';
import type { Clock } from '../../platform/clock.js';
import { flagOf, positiveIntOf, readSettings } from '../../platform/settings.js';

/** The system settings (spec section 7) the order engine reads. */
export interface OrderSettings {
  enableService: boolean;
  orderTimeoutMinutes: number;
  canTimeoutSupplement: boolean;
  isSupplierRemoveBalanceOnOrderFinished: boolean;
}

const DEFAULTS = {
  enableService: true as unknown,
  OrderTimeoutMinutes: 15 as unknown,
  CanTimeoutSupplement: false as unknown,
  IsSupplierRemoveBalanceOnOrderFinished: false as unknown,
};

/**
 * Settings read at most every few seconds per process: order creation is the hot path, and a change
 * made on the global config page takes effect everywhere within `ttlMs`.
 */
export class OrderSettingsCache {
  private cached: { at: number; value: OrderSettings } | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly ttlMs = 5_000,
  ) {}

  /**
   * The settings, read again when the cached ones are older than `ttlMs`. Inside a transaction pass
   * it as `db`: a read on the pool would, on the embedded database (one connection), wait for that
   * transaction to end while the transaction waits for the read, and every query after it would hang.
   */
  async get(db: DbOrTx = this.db): Promise<OrderSettings> {
    const now = this.clock.now().getTime();
    if (this.cached && now - this.cached.at < this.ttlMs && now >= this.cached.at) return this.cached.value;
    const raw = await readSettings(db, DEFAULTS);
    const value: OrderSettings = {
      enableService: flagOf(raw.enableService, true),
      orderTimeoutMinutes: positiveIntOf(raw.OrderTimeoutMinutes, 15),
      canTimeoutSupplement: flagOf(raw.CanTimeoutSupplement, false),
      isSupplierRemoveBalanceOnOrderFinished: flagOf(raw.IsSupplierRemoveBalanceOnOrderFinished, false),
    };
    this.cached = { at: now, value };
    return value;
  }

  /** Forget the cached values (tests, and the config page after a change in this process). */
  invalidate(): void {
    this.cached = null;
  }
}
