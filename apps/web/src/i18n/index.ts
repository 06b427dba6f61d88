import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { initialLanguage, LANGUAGES, type Language, payerLanguage } from './language';
import type { Locales } from './types';

export const LANGUAGE_KEY = 'language';
const DAYJS_LOCALE: Record<Language, string> = { 'zh-CN': 'zh-cn', 'zh-TW': 'zh-tw', 'en-US': 'en' };

/**
 * The namespaces setupI18n loads. i18n sits below the features whose texts these are, so it cannot
 * import them: the entry points (main.tsx, the test setup) register app/locales.ts's list first.
 */
const NAMESPACES: Record<string, Locales> = {};

export function registerNamespaces(namespaces: Record<string, Locales>) {
  Object.assign(NAMESPACES, namespaces);
}

/** Every registered namespace, by language, as i18next resources. */
function resources() {
  return Object.fromEntries(
    LANGUAGES.map((lang) => [lang, Object.fromEntries(Object.entries(NAMESPACES).map(([ns, l]) => [ns, l[lang]]))]),
  );
}

/** Starts i18next in the console's language (spec section 1), or with `payer` the payer page's. */
export function setupI18n(browserLanguage = navigator.language, options: { payer?: boolean } = {}) {
  const saved = localStorage.getItem(LANGUAGE_KEY);
  const language = options.payer
    ? payerLanguage(navigator.languages?.length ? navigator.languages : [browserLanguage], saved)
    : initialLanguage(browserLanguage, saved);
  dayjs.locale(DAYJS_LOCALE[language]);
  void i18next.use(initReactI18next).init({
    resources: resources(),
    lng: language,
    fallbackLng: false,
    ns: Object.keys(NAMESPACES),
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = language;
  return i18next;
}

/** Switching saves the choice (spec section 1: the saved local setting). */
export async function changeLanguage(language: Language) {
  localStorage.setItem(LANGUAGE_KEY, language);
  dayjs.locale(DAYJS_LOCALE[language]);
  document.documentElement.lang = language;
  await i18next.changeLanguage(language);
}

export const currentLanguage = () => (i18next.language as Language) ?? 'zh-CN';
