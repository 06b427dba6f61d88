import type { DbOrTx } from '../../db/client.js';
import type { SettingsStore } from '../../platform/settings.js';

/** The system settings (spec section 7) the order and payout engines read, by the names they use. */
export interface OrderSettings {
  enableService: boolean;
  orderTimeoutMinutes: number;
  canTimeoutSupplement: boolean;
  isSupplierRemoveBalanceOnOrderFinished: boolean;
}

/** The order engines' view of the settings store (cached there; a change acts within a second). */
export class OrderSettingsReader {
  constructor(private readonly store: SettingsStore) {}

  /**
   * Inside a transaction pass it as `db`: a read on the pool would, on the embedded database (one
   * connection), wait for that transaction to end while the transaction waits for the read.
   */
  async get(db?: DbOrTx): Promise<OrderSettings> {
    const values = await this.store.values(db);
    return {
      enableService: values.enableService,
      orderTimeoutMinutes: values.OrderTimeoutMinutes,
      canTimeoutSupplement: values.CanTimeoutSupplement,
      isSupplierRemoveBalanceOnOrderFinished: values.IsSupplierRemoveBalanceOnOrderFinished,
    };
  }

  /** Forget the cached values (tests that write settings rows themselves). */
  invalidate(): void {
    this.store.forget();
  }
}
