import {
  CODE_TEXTS,
  type CodeValue,
  isReason,
  REASON_TEXTS,
  type Reason,
  type ReasonTexts,
  TEXT_LOCALES,
  type TextLocale,
  type ValueKind,
} from '@paydesk/contract';
import type { i18n as I18n } from 'i18next';
import { formatMoney, formatRate } from '../format/money';
import { ApiError } from './http';

/** How the console joins a refusal's text and its detail (the fields a 400 names). */
const WITH_DETAIL: Record<TextLocale, string> = {
  'zh-CN': '{{text}}：{{detail}}',
  'zh-TW': '{{text}}：{{detail}}',
  'en-US': '{{text}}: {{detail}}',
};
/** A failure of the server (500) names its request, for whoever looks it up in the log. */
const WITH_REQUEST: Record<TextLocale, string> = {
  'zh-CN': '{{text}}（请求编号 {{id}}）',
  'zh-TW': '{{text}}（請求編號 {{id}}）',
  'en-US': '{{text}} (request {{id}})',
};

/**
 * The contract's catalogue of server texts as the i18next namespace `server`: `server:code.<code>`,
 * `server:reason.<reason>`. The texts live in the contract only (packages/contract/src/common/server-texts.ts).
 */
export const serverLocales = Object.fromEntries(
  TEXT_LOCALES.map((locale) => [
    locale,
    {
      code: Object.fromEntries(Object.entries(CODE_TEXTS).map(([code, texts]) => [code, texts[locale]])),
      reason: Object.fromEntries(Object.entries(REASON_TEXTS).map(([reason, texts]) => [reason, texts[locale]])),
      withDetail: WITH_DETAIL[locale],
      withRequest: WITH_REQUEST[locale],
    },
  ]),
) as Record<
  TextLocale,
  { code: Record<string, string>; reason: Record<string, string>; withDetail: string; withRequest: string }
>;

/** A value the server sent in `data`, as the reader reads it. */
function shown(kind: ValueKind, value: number, language: string): string | number {
  switch (kind) {
    case 'money':
      return formatMoney(value, language);
    case 'rate':
      return formatRate(value);
    case 'minutes':
      return Math.max(1, Math.ceil(value / 60));
    case 'seconds':
    case 'count':
      return value;
  }
}

/** The reason's text with the values it names, or null when the answer lacks one of them. */
function reasonText(i18n: I18n, reason: Reason, data: Record<string, unknown>): string | null {
  const entry: ReasonTexts = REASON_TEXTS[reason];
  const values: Record<string, string | number> = {};
  for (const [name, kind] of Object.entries(entry.values ?? {})) {
    const value = data[name];
    if (typeof value !== 'number') return null;
    values[name] = shown(kind, value, i18n.language);
  }
  return i18n.t(`server:reason.${reason}`, values);
}

export interface ErrorTextOptions {
  /** The form's own label of a field the server named in a 400 (its dotted path); else the path is shown. */
  fieldLabel?(path: string): string | undefined;
  /** A field problem's message in the reader's language, when the caller knows the contract's text. */
  issueText?(message: string): string | undefined;
  /** The caller shows the server's detail itself (the upload's result panel): the text alone. */
  withoutDetail?: boolean;
}

/**
 * Any error in the reader's language (issue 18): the text of the reason the server sent, else the
 * text of its code, from the contract's catalogue. The server's own words are added only where they
 * say more than the code: the fields of a 400 (each with the form's label when the caller gives it),
 * the request id of a 500.
 * A failure that is not the server's answer (the network, the browser) keeps its own message.
 */
export function errorText(i18n: I18n, error: unknown, options: ErrorTextOptions = {}): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const data = (error.data ?? {}) as { reason?: unknown; issues?: unknown; requestId?: unknown };
  const byReason = isReason(data.reason) ? reasonText(i18n, data.reason, data as Record<string, unknown>) : null;
  if (byReason !== null) return byReason;
  const known = Object.hasOwn(CODE_TEXTS, error.code);
  if (!known) return error.message;
  const text = i18n.t(`server:code.${error.code as CodeValue}`);
  if (typeof data.requestId === 'string') return i18n.t('server:withRequest', { text, id: data.requestId });
  if (options.withoutDetail) return text;
  const issues = Array.isArray(data.issues) ? (data.issues as Array<{ path?: unknown; message?: unknown }>) : [];
  const detail = issues
    .filter((issue) => typeof issue.message === 'string')
    .map((issue) => {
      const path = typeof issue.path === 'string' ? issue.path : '';
      const message = issue.message as string;
      const words = options.issueText?.(message) ?? message;
      // The server's issue message may already start with its path ('mchId: required').
      const bare = path && words.startsWith(`${path}: `) ? words.slice(path.length + 2) : words;
      const label = path ? (options.fieldLabel?.(path) ?? path) : '';
      return label ? `${label}: ${bare}` : bare;
    })
    .join('; ');
  return detail ? i18n.t('server:withDetail', { text, detail }) : text;
}
