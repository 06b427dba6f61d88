import {
  Code,
  type Envelope,
  endpoints,
  looksLikeCsv,
  ORDER_UPLOAD_TYPES,
  type OrderUploadAnswer,
  type OrderUploadReason,
  productById,
} from '@paydesk/contract';
import type { i18n as I18n } from 'i18next';
import { errorText } from '../../shared/api/errorText';
import { ApiError } from '../../shared/api/http';
import { clearToken, getToken, getToken2, HEARTBEAT_KEY } from '../../shared/api/session-storage';

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
  /** Whether the merchant may upload orders (not under `orders`: realtime events do not reload it). */
  uploadFlag: ['orderUpload', 'flag'] as const,
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

// ---- batch upload (POST /v1.0/api/order/createBatch, multipart) ----

/**
 * The checks of a chosen file before it is sent (spec section 5: 'CSV uploads must be CSV files'):
 * a .csv name and a CSV type (none given counts as CSV: the browser did not know it), within the
 * size limit, not empty. The server checks the name, type and content again.
 */
export function uploadFileProblem(file: { name: string; type: string; size: number }, maxBytes: number) {
  if (!looksLikeCsv(file.name, file.type || 'text/csv')) return 'notCsv' as const;
  if (file.size > maxBytes) return 'tooLarge' as const;
  if (file.size === 0) return 'noRows' as const;
  return null;
}

/** A key naming one upload: sending the same chosen file again answers its first result. */
export function newUploadKey(): string {
  return globalThis.crypto?.randomUUID?.() ?? `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/**
 * The upload template: the header of `columns` and one example row (the first product the merchant
 * may use; the amount in its API units, 500.00), with a BOM so spreadsheet programs read UTF-8.
 */
export function uploadTemplate(columns: readonly string[], productId: number): string {
  const units = productById(productId)?.apiUnitsPerMinor ?? 1;
  const example: Record<string, string> = {
    mchOrderNo: 'ORDER-0001',
    productId: String(productId),
    amount: String(50_000 * units),
    notifyUrl: 'https://merchant.example/notify',
    returnUrl: 'https://merchant.example/return',
    subject: 'Top-up',
  };
  return `\uFEFF${columns.join(',')}\r\n${columns.map((c) => example[c] ?? '').join(',')}\r\n`;
}

/**
 * Sends an upload as multipart/form-data {file, orderType, key} (spec section 7). The shared client
 * speaks JSON only, so this is its multipart twin: the same headers and envelope, 1003 clears the
 * session the same way (the guard then goes to sign-in); other codes are logged and thrown as ApiError.
 */
export async function uploadOrders(file: File, key: string): Promise<OrderUploadAnswer> {
  const form = new FormData();
  // A browser that does not know the .csv type sends none: name it, the name was checked.
  form.append('file', file.type ? file : new File([file], file.name, { type: 'text/csv' }), file.name);
  form.append('orderType', ORDER_UPLOAD_TYPES[0]);
  form.append('key', key);
  const headers: Record<string, string> = {};
  const token = getToken();
  const token2 = getToken2();
  if (token) headers.token = token;
  if (token2) headers.token2 = token2;
  const endpoint = endpoints.orders.createBatch;
  const res = await fetch(`${import.meta.env.VITE_API_BASE ?? ''}${endpoint.path}`, {
    method: 'POST',
    headers,
    credentials: 'include',
    body: form,
  });
  let body: Envelope<unknown>;
  try {
    body = (await res.json()) as Envelope<unknown>;
  } catch {
    body = { code: res.status >= 500 ? Code.internal : res.status, msg: `HTTP ${res.status}`, data: null };
  }
  if (body.code === Code.success) return body.data as OrderUploadAnswer;
  if (body.code === Code.sessionExpired) {
    localStorage.removeItem(HEARTBEAT_KEY);
    clearToken();
  } else {
    console.error(`[api] POST ${endpoint.path} -> ${body.code} ${body.msg}`);
  }
  throw new ApiError(body.code, body.msg, body.data);
}

/**
 * A refused upload in the user's language: the text of its reason (or code), with the server's detail
 * when it names more (the line or the column the parser stopped at). A failure before any answer
 * (the network) is an upload failure with the browser's words as the detail.
 */
export function uploadErrorText(i18n: I18n, error: unknown): { text: string; detail?: string } {
  if (error instanceof ApiError) {
    const issue = (error.data as { issues?: Array<{ message: string }> } | null)?.issues?.[0]?.message;
    const text = errorText(i18n, error, { withoutDetail: true });
    return { text, ...(issue && issue !== error.message ? { detail: issue } : {}) };
  }
  return {
    text: i18n.t('server:reason.uploadFailed'),
    detail: error instanceof Error ? error.message : undefined,
  };
}

/** A refusal found before sending, in the user's language (the same texts as the server's). */
export function uploadProblemText(i18n: I18n, reason: OrderUploadReason): string {
  return i18n.t(`server:reason.${reason}`);
}
