/**
 * Query keys of the order pages. Everything under `orders` is refreshed by the realtime socket when
 * the server publishes on the 'orders' topic; the lists live under `orderList` so a list the user has
 * paged or filtered is not reshuffled under them (they get an "n new" marker instead).
 */
export const orderKeys = {
  all: ['orders'] as const,
  /** Re-run (locally) on every 'orders' event: the list pages watch it. */
  live: ['orders', 'live'] as const,
  lists: ['orderList'] as const,
  list: (view: string) => ['orderList', view] as const,
  probe: (view: string) => ['orderList', view, 'probe'] as const,
  detail: (orderCode: string) => ['orders', 'detail', orderCode] as const,
  allocation: (orderCode: string) => ['orders', 'allocation', orderCode] as const,
  /** Filter options: not under `orders`, so realtime events do not reload them. */
  statuses: ['orderFilters', 'statuses'] as const,
  marks: ['orderFilters', 'marks'] as const,
  merchants: ['orderFilters', 'merchants'] as const,
  suppliers: ['orderFilters', 'suppliers'] as const,
};

/** What a user may type as a USDT count: up to 6 decimals. */
const USDT_TYPED = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

/**
 * Spec section 5: the USDT count filter is sent multiplied by 1,000,000 (micro-units), on the decimal
 * text, never through a float: '12.5' -> '12500000'. Null when the text is not a count.
 */
export function usdtMicroText(typed: string): string | null {
  const m = USDT_TYPED.exec(typed.trim());
  if (!m) return null;
  const [, whole, fraction = ''] = m;
  return (BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0'))).toString();
}

/** Micro-units to the USDT count as text: 12500000 -> '12.5'. */
export function usdtCountText(micro: number | null | undefined): string {
  if (micro === null || micro === undefined) return '';
  const v = BigInt(micro);
  const fraction = (v % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '');
  return `${v / 1_000_000n}${fraction ? `.${fraction}` : ''}`;
}

export class UsdtCountInvalid extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsdtCountInvalid';
  }
}

/**
 * The list's filters as the server takes them: the typed USDT count in micro-units. A count that is
 * not a number is refused here (the list shows the error) rather than silently dropped.
 */
export function toOrderQuery<F extends Record<string, unknown>>(filters: F, invalidText: string): F {
  const typed = filters.usdtCount;
  if (typed === undefined || typed === null || typed === '') return filters;
  const micro = usdtMicroText(String(typed));
  if (micro === null) throw new UsdtCountInvalid(invalidText);
  return { ...filters, usdtCount: micro };
}
