export const LANGUAGES = ['zh-CN', 'zh-TW', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * Spec section 1: the browser language when it is zh-CN or en-US, otherwise the saved local setting,
 * otherwise zh-CN.
 */
export function initialLanguage(browserLanguage: string | undefined, saved: string | null): Language {
  if (browserLanguage === 'zh-CN' || browserLanguage === 'en-US') return browserLanguage;
  if (saved && (LANGUAGES as readonly string[]).includes(saved)) return saved as Language;
  return 'zh-CN';
}
