import type { ResourceKind } from '@paydesk/contract';

/**
 * How a resource page works: `supplier` lists and manages its own resources; `admin` lists every
 * supplier's (supplier filter) and manages them; `customerService` reads them (no changes).
 */
export type ResourceMode = 'supplier' | 'admin' | 'customerService';

/** A channel: the products it lists (all of one resource kind) and what its page offers. */
export interface Channel {
  key: string;
  kind: ResourceKind;
  products: readonly number[];
  /** The page offers uploading a QR image (other payment channels). */
  qrUpload: boolean;
}

const channel = (key: string, kind: ResourceKind, products: readonly number[], qrUpload = false): Channel => ({
  key,
  kind,
  products,
  qrUpload,
});

export const CHANNELS = {
  cardToCard: channel('cardToCard', 'cardToCard', [1002]),
  // 2001 (bank payout) is its own kind on the server and has no page of its own (yet).
  indiaAutoPayout: channel('indiaAutoPayout', 'indiaAutoPayout', [2002]),
  gatewayPayout: channel('gatewayPayout', 'gatewayPayout', [2003]),
  usdtFloating: channel('usdtFloating', 'usdtWallet', [3015]),
  usdtPayProxy: channel('usdtPayProxy', 'usdtPayout', [3016]),
  kenya: channel('kenya', 'kenyaMobileMoney', [4001]),
  otherCardToCard: channel('otherCardToCard', 'upi', [1001, 1045], true),
  wechat: channel('wechat', 'wechat', [5001], true),
  alipay: channel('alipay', 'alipay', [5002], true),
} as const satisfies Record<string, Channel>;

export interface ResourcePageConfig {
  channel: Channel;
  mode: ResourceMode;
}

const pages = (c: Channel, supplier?: string, admin?: string, customerService?: string) => ({
  ...(supplier ? { [supplier]: { channel: c, mode: 'supplier' as const } } : {}),
  ...(admin ? { [admin]: { channel: c, mode: 'admin' as const } } : {}),
  ...(customerService ? { [customerService]: { channel: c, mode: 'customerService' as const } } : {}),
});

/**
 * Route name (packages/contract/src/routes/routes.ts) -> channel and mode. The "others" other-channel
 * routes (otherChannelOthers, otherChannelOthersAdmin) have no entry: every collection product already
 * has its own page.
 */
export const RESOURCE_PAGES: Readonly<Record<string, ResourcePageConfig>> = {
  ...pages(
    CHANNELS.cardToCard,
    'internationalCardToCardList',
    'internationalCardToCardListAdmin',
    'internationalCardToCardListAdminCustomerService',
  ),
  ...pages(
    CHANNELS.indiaAutoPayout,
    'indiaAutoPayoutList',
    'indiaAutoPayoutListAdmin',
    'indiaAutoPayoutListAdminCustomerService',
  ),
  ...pages(
    CHANNELS.gatewayPayout,
    'razorpayPayProxyList',
    'razorpayPayProxyListAdmin',
    'razorpayPayProxyListAdminCustomerService',
  ),
  ...pages(CHANNELS.usdtFloating, 'usdtFloatingList', 'usdtFloatingListAdmin', 'usdtFloatingListAdminCustomerService'),
  ...pages(CHANNELS.usdtPayProxy, 'usdtPayProxyList', 'usdtPayProxyListAdmin', 'usdtPayProxyListAdminCustomerService'),
  ...pages(CHANNELS.kenya, undefined, 'kenyaListAdmin', 'kenyaListAdminCustomerService'),
  ...pages(CHANNELS.otherCardToCard, 'otherChannelCardToCard', 'otherChannelCardToCardAdmin'),
  ...pages(CHANNELS.wechat, 'otherChannelWechat', 'otherChannelWechatAdmin'),
  ...pages(CHANNELS.alipay, 'otherChannelAlipay', 'otherChannelAlipayAdmin'),
};

/** The route names served by ResourceListPage. */
export const RESOURCE_PAGE_NAMES = Object.keys(RESOURCE_PAGES);

/** A channel's own fields, in form and column order. */
export const KIND_FIELDS: Readonly<Record<ResourceKind, readonly string[]>> = {
  upi: ['accountName', 'bankName', 'cardNumber', 'ifsc', 'vpa'],
  cardToCard: ['accountName', 'bankName', 'cardNumber', 'ifsc'],
  bankPayout: ['accountName', 'bankName', 'accountNumber', 'ifsc'],
  indiaAutoPayout: ['accountName', 'bankName', 'accountNumber', 'ifsc'],
  gatewayPayout: ['keyId', 'keySecret', 'accountNumber'],
  usdtWallet: ['address'],
  usdtPayout: ['address'],
  kenyaMobileMoney: ['phone', 'accountName'],
  wechat: ['accountName', 'paymentLink'],
  alipay: ['accountName', 'paymentLink'],
};

/** Fields that may be left empty in a form. */
export const OPTIONAL_FIELDS: ReadonlySet<string> = new Set(['vpa', 'paymentLink']);

/** Card and account numbers in a list: all but the last 4 digits masked. */
export function maskNumber(v: string | undefined): string {
  if (!v) return '';
  return v.length <= 4 ? v : `${'*'.repeat(Math.min(v.length - 4, 12))}${v.slice(-4)}`;
}

/** A wallet address in a list: its start and end. */
export function shortAddress(v: string | undefined): string {
  if (!v) return '';
  return v.length <= 14 ? v : `${v.slice(0, 6)}…${v.slice(-6)}`;
}
