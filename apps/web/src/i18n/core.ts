import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, type Language } from './language';
import type { Locales } from './types';

/** Where the chosen language is saved (spec section 1: the saved local setting). */
export const LANGUAGE_KEY = 'language';

/**
 * Starts i18next in `language` with the given namespaces only. The console passes every feature's;
 * the payer page its own two, so a payer's phone downloads none of the console's texts.
 */
export function startI18n(language: Language, namespaces: Record<string, Locales>) {
  const resources = Object.fromEntries(
    LANGUAGES.map((lang) => [lang, Object.fromEntries(Object.entries(namespaces).map(([ns, l]) => [ns, l[lang]]))]),
  );
  void i18next.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: false,
    ns: Object.keys(namespaces),
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
  document.documentElement.lang = language;
  await i18next.changeLanguage(language);
}

export const currentLanguage = () => (i18next.language as Language) ?? 'zh-CN';
