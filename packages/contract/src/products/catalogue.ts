/**
 * The product (channel) catalogue of DESIGN section 6. Ids are part of the merchant API and never
 * change; what staff may change (enabled, limits) lives in the database, seeded from the defaults here.
 */
export type ProductDirection = 'collection' | 'payout';

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
  /** Default per-order limits in minor units (migration 0005 inserts them). */
  defaultMinAmount: number;
  defaultMaxAmount: number;
}

export const PRODUCTS = [
  p(1001, 'UPI collection', 'collection', 'upi'),
  p(1002, 'International card-to-card collection', 'collection', 'cardToCard'),
  { ...p(1045, 'Collection (API amount in 1/10000)', 'collection', 'upi'), apiUnitsPerMinor: 100 },
  p(2001, 'Bank payout', 'payout', 'bankPayout'),
  p(2002, 'India auto payout', 'payout', 'indiaAutoPayout'),
  p(2003, 'Gateway payout', 'payout', 'gatewayPayout'),
  { ...p(3015, 'USDT collection', 'collection', 'usdtWallet'), floatingAmount: true },
  p(3016, 'USDT payout', 'payout', 'usdtPayout'),
  p(4001, 'Kenya mobile-money collection', 'collection', 'kenyaMobileMoney'),
  p(5001, 'WeChat', 'collection', 'wechat'),
  p(5002, 'Alipay', 'collection', 'alipay'),
] as const satisfies readonly ProductDef[];

export type ProductId = (typeof PRODUCTS)[number]['id'];
export const PRODUCT_IDS = PRODUCTS.map((x) => x.id) as ProductId[];

export function productById(id: number): ProductDef | undefined {
  return PRODUCTS.find((x) => x.id === id);
}

function p(id: number, name: string, direction: ProductDirection, resourceKind: string): ProductDef {
  // 100.00 to 50,000.00 by default; staff change them per product and per party.
  return {
    id,
    name,
    direction,
    resourceKind,
    apiUnitsPerMinor: 1,
    floatingAmount: false,
    defaultMinAmount: 10_000,
    defaultMaxAmount: 5_000_000,
  };
}
