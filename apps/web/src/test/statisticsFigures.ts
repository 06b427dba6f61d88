import type { StatisticsFigures } from '@paydesk/contract';

/** What of the figures' money a role sees (the rest is null), as the statistics calls answer it. */
export type Money = Pick<StatisticsFigures, 'fee' | 'commission' | 'platformRevenue'>;
export const STAFF_MONEY: Money = { fee: 300, commission: 100, platformRevenue: 200 };
export const MERCHANT_MONEY: Money = { fee: 300, commission: null, platformRevenue: null };
export const SUPPLIER_MONEY: Money = { fee: null, commission: 100, platformRevenue: null };

/** Figures of nothing but `money` and `over`: for the statistics page's and the home page's tests. */
export const figures = (money: Money, over: Partial<StatisticsFigures> = {}): StatisticsFigures => ({
  createdCount: 0,
  createdAmount: 0,
  successCount: 0,
  successAmount: 0,
  successRate: null,
  failedCount: 0,
  timedOutCount: 0,
  reversedCount: 0,
  reversedAmount: 0,
  cancelledCount: 0,
  ...money,
  ...over,
});
