import {
  type ConsolePayoutRequest,
  consolePayoutRequest,
  MERCHANT_API_TEXTS,
  PAYOUT_TEXTS,
  USDT_PAYOUT_PRODUCT_ID,
} from '@paydesk/contract';
import type { i18n as I18n } from 'i18next';
import type { ErrorTextOptions } from '../../shared/api/errorText';
import { parseMoneyInput } from '../../shared/format/money';

/**
 * Query keys of the payout pages: everything under `payouts` is reloaded after an action; the state
 * list is not (it never changes).
 */
export const payoutKeys = {
  all: ['payouts'] as const,
  list: (view: string) => ['payouts', 'list', view] as const,
  queue: ['payouts', 'queue'] as const,
  detail: (id: number) => ['payouts', 'detail', id] as const,
  /** A payout's receipt image, by the receipt's id (a new receipt is another query). */
  receipt: (id: number, receiptId: number) => ['payouts', 'receipt', id, receiptId] as const,
  statuses: ['payoutFilters', 'statuses'] as const,
  /** The merchant's enabled products, for the creation form. */
  enabledProducts: ['payoutFilters', 'enabledProducts'] as const,
  merchants: ['payoutFilters', 'merchants'] as const,
  suppliers: ['payoutFilters', 'suppliers'] as const,
};

/** The contract's texts of a payout's fields (its English words), by the key of `payouts:text.<key>`. */
export const PAYOUT_FORM_TEXTS = {
  ...PAYOUT_TEXTS,
  mchOrderNo: MERCHANT_API_TEXTS.mchOrderNo,
  amount: MERCHANT_API_TEXTS.amount,
} as const;
export type PayoutFormTextKey = keyof typeof PAYOUT_FORM_TEXTS;
const KEY_OF_TEXT = new Map<string, PayoutFormTextKey>(
  Object.entries(PAYOUT_FORM_TEXTS).map(([key, text]) => [text, key as PayoutFormTextKey]),
);

/** One of the contract's payout texts in the user's language (else as the server wrote it). */
export function payoutText(i18n: I18n, english: string): string {
  const key = KEY_OF_TEXT.get(english);
  return key ? i18n.t(`payouts:text.${key}`) : english;
}

/** How the payout pages word the fields of a 400: the form's labels and the contract's texts. */
export function payoutIssues(i18n: I18n): ErrorTextOptions {
  return {
    fieldLabel: (path) => {
      const key = `payouts:field.${path.split('.').pop()}`;
      return i18n.exists(key) ? i18n.t(key) : undefined;
    },
    issueText: (message) => payoutText(i18n, message),
  };
}

/** The creation form's values as typed: the amount in major units ('1,500.00'). */
export interface PayoutFormValues {
  productId: string;
  mchOrderNo: string;
  amount: string;
  userName?: string;
  cardNumber?: string;
  ifscCode?: string;
  bankName?: string;
  bankBranch?: string;
  address?: string;
  remark?: string;
}

/**
 * The form's values as the contract takes them: the amount in minor units (a typed amount that is
 * not money, with more than two decimals or not above zero, stays as typed, so the contract's rule
 * refuses it), empty fields left out.
 */
export function toPayoutRequest(values: PayoutFormValues): ConsolePayoutRequest {
  const typed = (values.amount ?? '').trim();
  const plain = /^\d[\d,]*(\.\d{1,2})?$/.test(typed);
  const minor = plain ? parseMoneyInput(typed) : null;
  const request: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...values, amount: minor !== null ? String(minor) : typed })) {
    const text = typeof value === 'string' ? value.trim() : '';
    if (text !== '') request[key] = text;
  }
  return request as ConsolePayoutRequest;
}

/**
 * The contract's own rule on the form (consolePayoutRequest, the server's), field by field: the first
 * problem of each field as the contract words it in English (payoutText translates it).
 */
export function payoutFormProblems(values: PayoutFormValues): Partial<Record<keyof PayoutFormValues, string>> {
  const result = consolePayoutRequest.safeParse(toPayoutRequest(values));
  if (result.success) return {};
  const problems: Partial<Record<keyof PayoutFormValues, string>> = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '') as keyof PayoutFormValues;
    problems[field] ??= issue.message;
  }
  return problems;
}

/** Whether the product is the USDT payout (the address is the wallet; no bank fields). */
export const isUsdtPayout = (productId: string | number | undefined) =>
  String(productId) === String(USDT_PAYOUT_PRODUCT_ID);
