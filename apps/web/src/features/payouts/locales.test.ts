import { PAYOUT_EVENT_KINDS, PAYOUT_STATES } from '@paydesk/contract';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../i18n/language';
import { type Dict, leafKeys } from '../../i18n/types';
import { PAYOUT_FORM_TEXTS } from './api';
import { payoutsLocales } from './locales';

const section = (lang: (typeof LANGUAGES)[number], name: string) =>
  (payoutsLocales[lang] as unknown as Record<string, Dict>)[name]!;

describe('payouts locales', () => {
  it('every language has exactly the keys of zh-CN', () => {
    const reference = leafKeys(payoutsLocales['zh-CN']);
    for (const lang of LANGUAGES) expect(leafKeys(payoutsLocales[lang]), lang).toEqual(reference);
  });

  it.each(LANGUAGES)('%s labels every state, timeline event and contract text of the form', (lang) => {
    expect(Object.keys(section(lang, 'state')).map(Number).sort()).toEqual([...PAYOUT_STATES].sort());
    expect(Object.keys(section(lang, 'timeline')).sort()).toEqual([...PAYOUT_EVENT_KINDS].sort());
    expect(Object.keys(section(lang, 'text')).sort()).toEqual(Object.keys(PAYOUT_FORM_TEXTS).sort());
  });

  it('the English texts of the form are the spec’s, as the contract words them', () => {
    const en = section('en-US', 'text');
    expect(en.required).toBe(PAYOUT_FORM_TEXTS.required);
    expect(en.ifscCode).toBe(PAYOUT_FORM_TEXTS.ifscCode);
    expect(en.cardNumber).toBe(PAYOUT_FORM_TEXTS.cardNumber);
  });

  it('the three languages say different things (nothing left untranslated)', () => {
    const [cn, tw, en] = LANGUAGES.map((lang) => section(lang, 'state'));
    expect(cn!['3']).not.toBe(en!['3']);
    expect(tw!['0']).not.toBe(cn!['0']);
  });
});
