/**
 * The product (channel) catalogue of DESIGN section 6. Ids are part of the merchant API and never
 * change; what staff may change (enabled, limits) lives in the database, seeded from the defaults here.
 */
export type ProductDirection = 'collection' | 'payout';
export type ProductCurrency = 'INR' | 'KES' | 'CNY' | 'USDT';

export interface ProductDef {
  id: number;
  /** English name; the console shows `products:name.<id>` in the user's language (useProductName). */
  name: string;
  direction: ProductDirection;
  /** The kind of resource (receiving or payout account) allocation picks for an order. */
  resourceKind: string;
  /** Merchant API amount units per minor unit: 1, except product 1045 whose API amount is in 1/10000. */
  apiUnitsPerMinor: number;
  /** USDT collection gives each order a unique floating amount. */
  floatingAmount: boolean;
  /**
   * The currency of the product's amounts (ISO 4217, or USDT): what the payer page names next to the
   * amount. An amount's minor unit is 1/100 of it.
   */
  currency: ProductCurrency;
  /** Default per-order limits in minor units (migration 0005 inserts them). */
  defaultMinAmount: number;
  defaultMaxAmount: number;
}

export const PRODUCTS = [
  p(1001, 'UPI collection', 'collection', 'upi', 'INR'),
  p(1002, 'International card-to-card collection', 'collection', 'cardToCard', 'INR'),
  { ...p(1045, 'Collection (API amount in 1/10000)', 'collection', 'upi', 'INR'), apiUnitsPerMinor: 100 },
  p(2001, 'Bank payout', 'payout', 'bankPayout', 'INR'),
  // India auto payout is paid through a gateway as 2003 is (DESIGN section 7): the same kind of account.
  p(2002, 'India auto payout', 'payout', 'gatewayPayout', 'INR'),
  p(2003, 'Gateway payout', 'payout', 'gatewayPayout', 'INR'),
  { ...p(3015, 'USDT collection', 'collection', 'usdtWallet', 'USDT'), floatingAmount: true },
  p(3016, 'USDT payout', 'payout', 'usdtPayout', 'USDT'),
  p(4001, 'Kenya mobile-money collection', 'collection', 'kenyaMobileMoney', 'KES'),
  p(5001, 'WeChat', 'collection', 'wechat', 'CNY'),
  p(5002, 'Alipay', 'collection', 'alipay', 'CNY'),
] as const satisfies readonly ProductDef[];

export type ProductId = (typeof PRODUCTS)[number]['id'];
export const PRODUCT_IDS = PRODUCTS.map((x) => x.id) as ProductId[];

export function productById(id: number): ProductDef | undefined {
  return PRODUCTS.find((x) => x.id === id);
}

function p(
  id: number,
  name: string,
  direction: ProductDirection,
  resourceKind: string,
  currency: ProductCurrency,
): ProductDef {
  // 100.00 to 50,000.00 by default; staff change them per product and per party.
  return {
    id,
    name,
    direction,
    resourceKind,
    currency,
    apiUnitsPerMinor: 1,
    floatingAmount: false,
    defaultMinAmount: 10_000,
    defaultMaxAmount: 5_000_000,
  };
}
