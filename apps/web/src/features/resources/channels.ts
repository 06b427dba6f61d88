import { type ResourceKind, resourceKindOf, SECRET_DETAIL_FIELDS } from '@paydesk/contract';

/**
 * How a resource page works: `supplier` lists and manages its own resources; `admin` lists every
 * supplier's (supplier filter) and manages them; `customerService` reads them (no changes).
 */
export type ResourceMode = 'supplier' | 'admin' | 'customerService';

/**
 * A channel: the products its pages list (the first is the form's default). Its products may be of
 * different kinds: each product's `resourceKind` gives the form's fields. Which rows take a QR image
 * is the contract's rule (`takesQrImage`), answered on each row as its `allowedActions`.
 */
export interface Channel {
  key: string;
  products: readonly number[];
}

const channel = (key: string, products: readonly number[]): Channel => ({ key, products });

export const CHANNELS = {
  cardToCard: channel('cardToCard', [1002]),
  // Bank payout (2001): bank accounts whose payouts suppliers claim and pay by hand.
  payout: channel('payout', [2001]),
  // Gateway payout (2003) and India auto payout (2002): gateway accounts, paid by the server (DESIGN section 7).
  gatewayPayout: channel('gatewayPayout', [2003, 2002]),
  usdtFloating: channel('usdtFloating', [3015]),
  usdtPayProxy: channel('usdtPayProxy', [3016]),
  kenya: channel('kenya', [4001]),
  otherCardToCard: channel('otherCardToCard', [1001, 1045]),
  wechat: channel('wechat', [5001]),
  alipay: channel('alipay', [5002]),
  // "Others": every other-channel collection product together, with a product filter.
  otherChannels: channel('otherChannels', [1001, 1045, 5001, 5002]),
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

/** Route name (packages/contract/src/routes/routes.ts) -> channel and mode. */
export const RESOURCE_PAGES: Readonly<Record<string, ResourcePageConfig>> = {
  ...pages(
    CHANNELS.cardToCard,
    'internationalCardToCardList',
    'internationalCardToCardListAdmin',
    'internationalCardToCardListAdminCustomerService',
  ),
  ...pages(
    CHANNELS.payout,
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
  ...pages(CHANNELS.otherChannels, 'otherChannelOthers', 'otherChannelOthersAdmin'),
};

/** The route names served by ResourceListPage. */
export const RESOURCE_PAGE_NAMES = Object.keys(RESOURCE_PAGES);

/** The resource kind of a product (its catalogue `resourceKind`); throws for a product outside the catalogue. */
export function kindOf(productId: number): ResourceKind {
  const kind = resourceKindOf(productId);
  if (!kind) throw new Error(`product ${productId} has no resource kind`);
  return kind;
}

/** The own fields of every product of a channel, each once, in form order: the list's columns. */
export function channelFields(c: Channel): string[] {
  return [...new Set(c.products.flatMap((id) => KIND_FIELDS[kindOf(id)]))];
}

/** A channel's own fields, in form and column order. */
export const KIND_FIELDS: Readonly<Record<ResourceKind, readonly string[]>> = {
  upi: ['accountName', 'bankName', 'cardNumber', 'ifsc', 'vpa'],
  cardToCard: ['accountName', 'bankName', 'cardNumber', 'ifsc'],
  bankPayout: ['accountName', 'bankName', 'accountNumber', 'ifsc'],
  gatewayPayout: ['baseUrl', 'keyId', 'keySecret', 'webhookSecret', 'accountNumber'],
  usdtWallet: ['address'],
  usdtPayout: ['address'],
  kenyaMobileMoney: ['phone', 'accountName'],
  wechat: ['accountName', 'paymentLink'],
  alipay: ['accountName', 'paymentLink'],
};

/** Secret fields: typed as passwords, never shown back; left empty on edit, the sealed one is kept. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set<string>(SECRET_DETAIL_FIELDS);

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
