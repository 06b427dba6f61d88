import { ORDER_EVENT_KINDS, ORDER_MARKS, ORDER_STATES } from '@paydesk/contract';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../i18n/language';
import { type Dict, leafKeys } from '../../i18n/types';
import { ordersLocales } from './locales';

/** Why an allocation skipped an account: the server's outcome keys (modules/orders/allocation.ts). */
const OUTCOMES = [
  'chosen',
  'eligible',
  'notNeeded',
  'resourceDisabled',
  'supplierDisabled',
  'parentDisabled',
  'supplierProductOff',
  'balanceShort',
  'belowMinAmount',
  'aboveMaxAmount',
  'dailyAmountLimit',
  'dailyCountLimit',
  'supplierDailyLimit',
  'sameAmountOpen',
  'busy',
  'noFloatingAmount',
];

const section = (lang: (typeof LANGUAGES)[number], name: string) =>
  (ordersLocales[lang] as unknown as Record<string, Dict>)[name]!;

describe('orders locales', () => {
  it('every language has exactly the keys of zh-CN', () => {
    const reference = leafKeys(ordersLocales['zh-CN']);
    for (const lang of LANGUAGES) expect(leafKeys(ordersLocales[lang]), lang).toEqual(reference);
  });

  it.each(LANGUAGES)('%s labels every state, mark, allocation outcome and timeline event', (lang) => {
    expect(Object.keys(section(lang, 'state')).map(Number).sort()).toEqual([...ORDER_STATES].sort());
    expect(Object.keys(section(lang, 'mark')).map(Number).sort()).toEqual([...ORDER_MARKS].sort());
    expect(Object.keys(section(lang, 'outcome')).sort()).toEqual([...OUTCOMES].sort());
    // Every kind of event the server writes in an order's timeline.
    expect(Object.keys(section(lang, 'timeline')).sort()).toEqual([...ORDER_EVENT_KINDS].sort());
  });

  it('the three languages say different things (nothing left untranslated)', () => {
    const [cn, tw, en] = LANGUAGES.map((lang) => section(lang, 'state'));
    expect(cn!['3']).not.toBe(en!['3']);
    expect(tw!['3']).not.toBe(cn!['3']);
  });
});
