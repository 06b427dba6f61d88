import {
  BANK_RESULT_MAX_BYTES,
  type Endpoint,
  type EndpointOutput,
  endpoints,
  looksLikeCsv,
  type PayoutBatchRowResult,
  payoutBatchRuleText,
  routeByPath,
  TEXT_LOCALES,
  type TextLocale,
} from '@paydesk/contract';
import type { i18n as I18n } from 'i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { callForm } from '../../shared/api/http';
import { useSession } from '../../shared/session/session';

const api = endpoints.payoutBatches;

/**
 * Query keys of the batch pages: the lists and a batch's payouts under `payoutBatches`, the realtime
 * topic the server publishes batch changes on (the session refetches what is under a topic's name);
 * the form's reads apart.
 */
export const batchKeys = {
  lists: ['payoutBatches'] as const,
  list: (view: string) => ['payoutBatches', view] as const,
  payouts: (batchId: number) => ['payoutBatches', 'payouts', batchId] as const,
  resources: ['payoutBatchForm', 'resources'] as const,
  templates: ['payoutBatchForm', 'templates'] as const,
  count: ['payoutBatchForm', 'count'] as const,
  suppliers: ['payoutBatchForm', 'suppliers'] as const,
};

/** The reader's language as the contract's texts are keyed (the console only speaks these). */
export function textLocale(i18n: I18n): TextLocale {
  const lang = i18n.language as TextLocale;
  return TEXT_LOCALES.includes(lang) ? lang : 'zh-CN';
}

/**
 * A read of these pages that failed, in the reader's language: the spec's text of what could not be
 * read ('Failed to get the batch list'), then why (the server's refusal or the network's words).
 */
export class LoadFailed extends Error {
  constructor(i18n: I18n, what: string, cause: unknown) {
    super();
    this.name = 'LoadFailed';
    // Read when shown, so the text follows a change of language while the failure is on screen.
    Object.defineProperty(this, 'message', {
      get: () => `${i18n.t(`payoutBatches:load.${what}`)}: ${errorText(i18n, cause)}`,
    });
  }
}

/** Runs a read; a failure says which one failed (LoadFailed). */
export async function load<T>(i18n: I18n, what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw new LoadFailed(i18n, what, error);
  }
}

/** A refusal of the create form in the reader's language: a rule's field message by payoutBatchRuleText. */
export function createErrorText(i18n: I18n, error: unknown, fieldLabel: (path: string) => string | undefined) {
  return errorText(i18n, error, {
    fieldLabel,
    issueText: (message) => payoutBatchRuleText(message, textLocale(i18n)),
  });
}

/**
 * Whether the signed-in user may call `endpoint` from this page: its role is listed by the contract
 * and the page is not a read-only variant.
 */
export function useMay(endpoint: Endpoint): boolean {
  const { user } = useSession();
  const { pathname } = useLocation();
  const readOnly = routeByPath(pathname)?.readOnly === true;
  const access = endpoint.access;
  return !readOnly && user !== null && (access === 'public' || access.includes(user.access));
}

type BankFile = EndpointOutput<typeof api.download>;

/**
 * Saves a bank file the server answered (base64 bytes) as a download named by the server, so what
 * reaches the bank is exactly the bytes whose SHA-256 the batch records.
 */
export function saveBankFile(file: BankFile): void {
  const binary = atob(file.contentBase64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const url = URL.createObjectURL(new Blob([bytes], { type: file.contentType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the bytes once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * The checks of a chosen result file before it is sent (spec section 8: 'CSV uploads must be CSV
 * files'): a .csv name and a CSV type (none given counts as CSV), not empty, within the size the
 * server reads. Answers the server's reason key, which the server would answer too.
 */
export function resultFileProblem(file: { name: string; type: string; size: number }) {
  if (!looksLikeCsv(file.name, file.type || 'text/csv')) return 'notCsv' as const;
  if (file.size === 0) return 'resultFileEmpty' as const;
  if (file.size > BANK_RESULT_MAX_BYTES) return 'resultFileTooLarge' as const;
  return null;
}

/** Sends a batch's result file (multipart: file, batchId). */
export function uploadResultFile(batchId: number, file: File) {
  const form = new FormData();
  form.append('batchId', String(batchId));
  // A browser that does not know the .csv type sends none: name it, the name was checked.
  form.append('file', file.type ? file : new File([file], file.name, { type: 'text/csv' }), file.name);
  return callForm(api.uploadResult, form);
}

/** A row of a result file that settled nothing, in the reader's language, with the server's detail. */
export function rowErrorText(i18n: I18n, row: PayoutBatchRowResult): string {
  if (!row.error) return row.detail ?? '';
  const text = i18n.t(`payoutBatches:rowError.${row.error}`);
  return row.detail ? `${text} (${row.detail})` : text;
}
