import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../i18n/language';
import { leafKeys } from '../i18n/types';
import { NAMESPACES } from './locales';

describe('every namespace exists in zh-CN, zh-TW and en-US with the same keys', () => {
  it.each(Object.entries(NAMESPACES))('%s', (_ns, locales) => {
    const reference = leafKeys(locales['zh-CN']);
    expect(reference.length).toBeGreaterThan(0);
    for (const lang of LANGUAGES) {
      expect(leafKeys(locales[lang]), `${lang} keys`).toEqual(reference);
    }
  });

  it('has no empty text', () => {
    const empty = (d: unknown): boolean =>
      typeof d === 'string' ? d.trim() === '' : Object.values(d as object).some(empty);
    for (const [ns, locales] of Object.entries(NAMESPACES)) {
      for (const lang of LANGUAGES) expect(empty(locales[lang]), `${ns} ${lang}`).toBe(false);
    }
  });
});
