import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/zh-tw';
import i18next from 'i18next';
import type { Language } from './language';

const DAYJS_LOCALE: Record<Language, string> = { 'zh-CN': 'zh-cn', 'zh-TW': 'zh-tw', 'en-US': 'en' };

function followLanguage(language: string) {
  dayjs.locale(DAYJS_LOCALE[language as Language] ?? 'zh-cn');
}

/** Dates (dayjs) speak the console's language from now on, and follow every switch. */
export function datesFollowLanguage() {
  followLanguage(i18next.language);
  i18next.off('languageChanged', followLanguage);
  i18next.on('languageChanged', followLanguage);
}
