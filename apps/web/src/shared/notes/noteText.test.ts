import { NOTE_KEYS, NOTE_TEMPLATES } from '@paydesk/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { LANGUAGES } from '../../i18n/language';
import { notesLocales } from './locales';
import { noteText } from './noteText';

const names = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('the server’s notes in the console', () => {
  let i18n: ReturnType<typeof setupI18n>;
  beforeAll(() => {
    i18n = setupI18n('en-US');
  });

  it('every template is translated with exactly the values the server fills in', () => {
    for (const lang of LANGUAGES) {
      const texts = notesLocales[lang] as Record<string, string>;
      for (const key of NOTE_KEYS)
        expect(names(texts[key] ?? ''), `${lang} ${key}`).toEqual(names(NOTE_TEMPLATES[key]));
    }
  });

  it('renders a template in the console’s language, and stored text otherwise', async () => {
    const paid = { note: 'order C1 paid', noteTemplate: { key: 'orderPaid', values: { orderCode: 'C1' } } };
    await changeLanguage('zh-TW');
    expect(noteText(i18n, paid)).toBe('訂單 C1 已付款');
    await changeLanguage('en-US');
    expect(noteText(i18n, paid)).toBe('order C1 paid');
    // Typed by someone, or a key this console does not know yet: as the server stored it.
    expect(noteText(i18n, { note: 'payer never paid', noteTemplate: null })).toBe('payer never paid');
    expect(noteText(i18n, { note: 'a newer note', noteTemplate: { key: 'notYetKnown', values: {} } })).toBe(
      'a newer note',
    );
  });
});
