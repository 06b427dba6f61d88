export const LANGUAGES = ['zh-CN', 'zh-TW', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];

const isLanguage = (value: string | null | undefined): value is Language =>
  !!value && (LANGUAGES as readonly string[]).includes(value);

/**
 * Spec section 1: the browser language when it is zh-CN or en-US, otherwise the saved local setting,
 * otherwise zh-CN.
 */
export function initialLanguage(browserLanguage: string | undefined, saved: string | null): Language {
  if (browserLanguage === 'zh-CN' || browserLanguage === 'en-US') return browserLanguage;
  if (isLanguage(saved)) return saved;
  return 'zh-CN';
}

/**
 * The payer page's language (the console's rule is the spec's, above): the payer is a merchant's
 * customer anywhere, most often in India, so a browser in en-IN or hi-IN must not get Simplified
 * Chinese. The choice made on the page (saved) first, then the first of the browser's languages that
 * we speak (any English; Traditional Chinese by region or script; any other Chinese), else English.
 */
export function payerLanguage(browserLanguages: readonly string[], saved: string | null): Language {
  if (isLanguage(saved)) return saved;
  for (const tag of browserLanguages) {
    const lower = tag.toLowerCase();
    if (lower === 'en' || lower.startsWith('en-')) return 'en-US';
    if (/^zh-(tw|hk|mo|hant)\b/.test(lower)) return 'zh-TW';
    if (lower === 'zh' || lower.startsWith('zh-')) return 'zh-CN';
  }
  return 'en-US';
}
