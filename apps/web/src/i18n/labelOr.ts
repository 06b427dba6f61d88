import type { i18n as I18n } from 'i18next';

/** A label of a namespace by key, else the value as the server sent it (a kind this console does not know yet). */
export function labelOr(i18n: I18n, key: string, raw: string): string {
  return i18n.exists(key) ? i18n.t(key) : raw;
}
