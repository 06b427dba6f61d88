/** Whose view a payout list page is: staff see every payout, a supplier its team's, a merchant its own. */
export type PayoutListMode = 'staff' | 'supplier' | 'merchant';

export interface PayoutPageConfig {
  mode: PayoutListMode;
  /**
   * Sent with every request of the page: its agents' payouts (true). A supplier's own page sends none:
   * the server answers its own payouts, or its whole team's under SupplierUnifyQueryGroup.
   */
  isProxy?: boolean;
  /** The supplier's own page also has its claim queue (a tab; cards that work on a phone). */
  claimQueue?: boolean;
}

/** The payout list routes (contract route names) and what each shows. One page serves them all. */
export const PAYOUT_PAGES: Readonly<Record<string, PayoutPageConfig>> = {
  payProxyOrderList: { mode: 'staff' },
  payProxyOrderListCustomerService: { mode: 'staff' },
  payProxyOrderListSupplier: { mode: 'supplier', claimQueue: true },
  payProxyOrderListSupplierProxy: { mode: 'supplier', isProxy: true },
  payProxyOrderListMerchant: { mode: 'merchant' },
};
