import type { Language } from './language.js';

/** A namespace of texts: nested keys, string leaves. Interpolation uses i18next's {{name}}. */
export interface Dict {
  [key: string]: string | Dict;
}

/** One namespace in every language. Each feature owns one (STYLE habit 8); a test checks the keys match. */
export type Locales = Record<Language, Dict>;

/** The leaf keys of a dictionary as dotted paths, sorted: what the completeness test compares. */
export function leafKeys(dict: Dict, prefix = ''): string[] {
  return Object.entries(dict)
    .flatMap(([k, v]) => (typeof v === 'string' ? [`${prefix}${k}`] : leafKeys(v, `${prefix}${k}.`)))
    .sort();
}
