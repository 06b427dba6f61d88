import type { DbOrTx } from '../../db/client.js';
import type { SettingsStore } from '../../platform/settings.js';

/** The system settings (spec section 7) the order and payout engines read, by the names they use. */
export interface OrderSettings {
  enableService: boolean;
  orderTimeoutMinutes: number;
  canTimeoutSupplement: boolean;
  isSupplierRemoveBalanceOnOrderFinished: boolean;
  /** How a merchant's daily limit of a collection product counts: paid orders, or paid and open ones. */
  limitMode: 'strict' | 'relaxed';
  /** Whether the KYC lower limit of the merchant's product requires the payer's name. */
  kyc: boolean;
  /** Whether every collection order must carry a well-formed payer name. */
  needNameCheck: boolean;
  /** The country (ISO 3166-1 alpha-2) of the payer cards card-to-card orders accept. */
  cardCountry: string;
  /** payUrl as /pay/<orderCode> (true) or the legacy /pay?orderCode=<orderCode>. */
  isNewPayUrl: boolean;
  /** The lists' time range applies to completed orders' completion time. */
  completeTimeFilter: boolean;
  /** The payer of an Alipay (5002) order types their name with the UTR (payerNameRequired). */
  alipayByHandSubmitName: boolean;
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
      limitMode: values.LimitMode,
      kyc: values.KYC,
      needNameCheck: values.NeedNameCheck,
      cardCountry: values.CardCountry,
      isNewPayUrl: values.IsNewPayUrl,
      completeTimeFilter: values.CompleteTimeFilter,
      alipayByHandSubmitName: values.AlipayToAlipayByHandSubmitName,
    };
  }

  /** Forget the cached values (tests that write settings rows themselves). */
  invalidate(): void {
    this.store.forget();
  }
}
