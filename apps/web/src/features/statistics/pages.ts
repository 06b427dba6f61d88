import type { StatisticsOrderType } from '@paydesk/contract';

/** Whose figures a statistics page reads: staff everyone's, a supplier its team's, a merchant its own. */
export type StatisticsMode = 'staff' | 'supplier' | 'merchant';

export interface StatisticsPageConfig {
  orderType: StatisticsOrderType;
  mode: StatisticsMode;
  /** The split by party is by merchant (the "ByMerchant" pages, and a merchant's own), else by supplier. */
  groupByMerchant: boolean;
}

/** The statistics routes (contract route names) and what each shows. One page serves them all. */
export const STATISTICS_PAGES: Readonly<Record<string, StatisticsPageConfig>> = {
  orderStatistics: { orderType: 'collection', mode: 'staff', groupByMerchant: false },
  orderStatisticsCustomerService: { orderType: 'collection', mode: 'staff', groupByMerchant: false },
  orderStatisticsByMerchantCustomerService: { orderType: 'collection', mode: 'staff', groupByMerchant: true },
  orderStatisticsByMerchantV2: { orderType: 'collection', mode: 'staff', groupByMerchant: true },
  orderStatisticsSupplierV2: { orderType: 'collection', mode: 'supplier', groupByMerchant: false },
  orderStatisticsMerchant: { orderType: 'collection', mode: 'merchant', groupByMerchant: true },
  payProxyOrderStatistics: { orderType: 'payout', mode: 'staff', groupByMerchant: false },
  payProxyOrderStatisticsCustomerService: { orderType: 'payout', mode: 'staff', groupByMerchant: false },
  payProxyOrderStatisticsByMerchant: { orderType: 'payout', mode: 'staff', groupByMerchant: true },
  payProxyOrderStatisticsByMerchantCustomerService: { orderType: 'payout', mode: 'staff', groupByMerchant: true },
  payProxyOrderStatisticsSupplier: { orderType: 'payout', mode: 'supplier', groupByMerchant: false },
  payProxyOrderStatisticsMerchant: { orderType: 'payout', mode: 'merchant', groupByMerchant: true },
};
