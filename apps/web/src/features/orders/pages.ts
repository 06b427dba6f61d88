import type { Role } from '@paydesk/contract';

/** Whose view an order list page is: staff see every order, a supplier its team's, a merchant its own. */
export type OrderListMode = 'staff' | 'supplier' | 'merchant';

export interface OrderPageConfig {
  mode: OrderListMode;
  /**
   * Sent with every request of the page: its agents' orders (true). A supplier's own page sends none:
   * the server answers its own orders, or its whole team's under SupplierUnifyQueryGroup.
   */
  isProxy?: boolean;
}

/** The order list routes (contract route names) and what each shows. One page serves them all. */
export const ORDER_PAGES: Readonly<Record<string, OrderPageConfig>> = {
  orderList: { mode: 'staff' },
  orderListCustomerService: { mode: 'staff' },
  orderListSupplier: { mode: 'supplier' },
  orderListSupplierProxy: { mode: 'supplier', isProxy: true },
  orderListMerchant: { mode: 'merchant' },
};

/** Where the new-order notifier's "view orders" goes for a role (merchants have no notifier). */
export function orderListPathFor(role: Role): string | null {
  switch (role) {
    case 'superAdmin':
    case 'admin':
      return '/order/list';
    case 'customerService':
    case 'technicalMaintenance':
      return '/order/list/customerService';
    case 'supplier':
      return '/order/list/supplier';
    default:
      return null;
  }
}

/** Where the notifier's claimable-payout toast goes: the supplier's payout page, on its claim queue tab. */
export const CLAIM_QUEUE_PATH = '/payProxyOrder/list/supplier?tab=queue';
