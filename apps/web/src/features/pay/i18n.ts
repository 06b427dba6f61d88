import { commonLocales } from '../../i18n/common.locales';
import { LANGUAGE_KEY, startI18n } from '../../i18n/core';
import { payerLanguage } from '../../i18n/language';
import { payLocales } from './locales';

/**
 * The payer page's i18n: its own texts and the common ones only, in the payer's language (the choice
 * made on the page, else the browser's languages, else English: `payerLanguage`).
 */
export function setupPayerI18n() {
  const saved = localStorage.getItem(LANGUAGE_KEY);
  const language = payerLanguage(navigator.languages?.length ? navigator.languages : [navigator.language], saved);
  return startI18n(language, { common: commonLocales, pay: payLocales });
}
