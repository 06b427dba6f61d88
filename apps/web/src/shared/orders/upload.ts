import {
  endpoints,
  looksLikeCsv,
  type OrderUploadAnswer,
  type OrderUploadReason,
  type OrderUploadType,
  productById,
  USDT_PAYOUT_PRODUCT_ID,
} from '@paydesk/contract';
import type { i18n as I18n } from 'i18next';
import { errorText } from '../api/errorText';
import { ApiError, callForm } from '../api/http';

// ---- batch upload (POST /v1.0/api/order/createBatch, multipart), of collection orders or payouts ----

/**
 * Whether the merchant may upload, per order type (not under `orders` or `payouts`: realtime events
 * do not reload it).
 */
export const UPLOAD_FLAG_KEY = ['orderUpload', 'flag'] as const;

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

/** An example payee of a payout template: a bank account, or a USDT wallet for product 3016. */
function payoutExample(productId: number): Record<string, string> {
  const base = { mchOrderNo: 'PAYOUT-0001', productId: String(productId), amount: '50000' };
  if (productId === USDT_PAYOUT_PRODUCT_ID) return { ...base, address: 'TExampLeWaLLetAddressForThePayee12' };
  return {
    ...base,
    userName: 'Asha Rao',
    cardNumber: '50100234567890',
    ifscCode: 'HDFC0001234',
    bankName: 'HDFC Bank',
    bankBranch: 'Koramangala',
    address: '12 MG Road Bengaluru',
    notifyUrl: 'https://merchant.example/notify',
  };
}

/**
 * The upload template: the header of `columns` and one example row for the first product the merchant
 * may use, with a BOM so spreadsheet programs read UTF-8. A collection amount is in the product's API
 * units (500.00: x100, x10000 for 1045), a payout's in minor units (500.00 is 50000), as each API takes it.
 */
export function uploadTemplate(orderType: OrderUploadType, columns: readonly string[], productId: number): string {
  let example: Record<string, string>;
  if (orderType === 'payout') {
    example = payoutExample(productId);
  } else {
    const units = productById(productId)?.apiUnitsPerMinor ?? 1;
    example = {
      mchOrderNo: 'ORDER-0001',
      productId: String(productId),
      amount: String(50_000 * units),
      notifyUrl: 'https://merchant.example/notify',
      returnUrl: 'https://merchant.example/return',
      subject: 'Top-up',
    };
  }
  return `\uFEFF${columns.join(',')}\r\n${columns.map((c) => example[c] ?? '').join(',')}\r\n`;
}

/**
 * Sends an upload as multipart/form-data {file, orderType, key} (spec section 7) through the shared
 * client: the same headers and envelope, 1003 ends the session, 1024/1025 ask for the second-level
 * password (a payout upload needs it) and send the form again.
 */
export function uploadOrders(file: File, key: string, orderType: OrderUploadType): Promise<OrderUploadAnswer> {
  const form = new FormData();
  // A browser that does not know the .csv type sends none: name it, the name was checked.
  form.append('file', file.type ? file : new File([file], file.name, { type: 'text/csv' }), file.name);
  form.append('orderType', orderType);
  form.append('key', key);
  return callForm(endpoints.orders.createBatch, form);
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
