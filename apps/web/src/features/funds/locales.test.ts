import { TRANSFER_TYPES } from '@paydesk/contract';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../i18n/language';
import { type Dict, leafKeys } from '../../i18n/types';
import { fundsLocales } from './locales';

const types = (lang: (typeof LANGUAGES)[number]) =>
  (fundsLocales[lang] as unknown as Record<string, Dict>).type as Record<string, string>;

describe('funds locales', () => {
  it('every language has exactly the keys of zh-CN', () => {
    const reference = leafKeys(fundsLocales['zh-CN']);
    for (const lang of LANGUAGES) expect(leafKeys(fundsLocales[lang]), lang).toEqual(reference);
  });

  it.each(LANGUAGES)('%s names every transfer type a fund record can show, the orders’ included', (lang) => {
    // Without a label the page shows the raw type ('orderPaid') in every language.
    expect(Object.keys(types(lang)).sort()).toEqual([...TRANSFER_TYPES].sort());
  });

  it('the three languages say different things', () => {
    const [cn, tw, en] = LANGUAGES.map(types);
    expect(cn!.orderPaid).not.toBe(en!.orderPaid);
    expect(tw!.orderPaid).not.toBe(cn!.orderPaid);
  });
});
