import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import i18next from 'i18next';
import { LANGUAGE_KEY, startI18n } from './core';
import { initialLanguage, type Language } from './language';
import { NAMESPACES } from './resources';

export { changeLanguage, currentLanguage, LANGUAGE_KEY } from './core';

const DAYJS_LOCALE: Record<Language, string> = { 'zh-CN': 'zh-cn', 'zh-TW': 'zh-tw', 'en-US': 'en' };

/** Starts i18next with every namespace in the console's language (spec section 1); dates follow it. */
export function setupI18n(browserLanguage = navigator.language) {
  const language = initialLanguage(browserLanguage, localStorage.getItem(LANGUAGE_KEY));
  dayjs.locale(DAYJS_LOCALE[language]);
  i18next.off('languageChanged', followLanguage);
  i18next.on('languageChanged', followLanguage);
  return startI18n(language, NAMESPACES);
}

function followLanguage(language: string) {
  dayjs.locale(DAYJS_LOCALE[language as Language] ?? 'zh-cn');
}
