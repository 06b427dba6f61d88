import { describe, expect, it } from 'vitest';
import { englishNoteText, NOTE_KEYS, NOTE_TEMPLATES, note, noteParts } from './notes.js';

describe('note templates', () => {
  it('renders a template in English with its values', () => {
    expect(englishNoteText(note('confirmedBy', { account: 'supplier1' }))).toBe('confirmed by supplier1');
    expect(englishNoteText(note('callbackSucceeded', { callbackId: 12, attempt: 3 }))).toBe(
      'the merchant answered SUCCESS (callback #12, attempt 3)',
    );
    expect(englishNoteText(note('resourcesFreed'))).toBe('resources freed');
  });

  it('stores a typed note as typed, and a template as its text and itself', () => {
    expect(noteParts('the payer never paid')).toEqual({ note: 'the payer never paid', noteTemplate: null });
    const hold = note('orderHold', { orderCode: 'C1' });
    expect(noteParts(hold)).toEqual({ note: 'hold for order C1', noteTemplate: hold });
  });

  it('every template names its values in the {{name}} form only', () => {
    for (const key of NOTE_KEYS) {
      const text: string = NOTE_TEMPLATES[key];
      expect(text.replace(/\{\{\w+\}\}/g, ''), key).not.toMatch(/[{}]/);
    }
  });
});
