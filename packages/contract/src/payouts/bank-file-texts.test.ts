import { describe, expect, it } from 'vitest';
import { isReason, type LocalTexts, REASON_TEXTS, TEXT_LOCALES } from '../common/server-texts.js';
import {
  BANK_FILE_REASON_TEXTS,
  BANK_RESULT_ROW_ERROR_TEXTS,
  BANK_RESULT_ROW_ERRORS,
  BANK_TEMPLATE_IDS,
  BANK_TEMPLATE_NAMES,
} from './bank-file-texts.js';

const CJK = /[\u3400-\u9fff]/;

/** Texts of every language, the Chinese ones in Chinese (the catalogue test checks the reasons the same way). */
function untranslated(group: Record<string, LocalTexts>): string[] {
  return Object.entries(group).flatMap(([key, texts]) =>
    TEXT_LOCALES.filter((locale) => {
      const text = texts[locale];
      if (typeof text !== 'string' || text.trim() === '') return true;
      return locale !== 'en-US' && (!CJK.test(text) || text === texts['en-US']);
    }).map((locale) => `${key}: ${locale}`),
  );
}

describe('bank file texts', () => {
  it('name every template in zh-CN, zh-TW and en-US', () => {
    expect(Object.keys(BANK_TEMPLATE_NAMES).sort()).toEqual([...BANK_TEMPLATE_IDS].sort());
    expect(untranslated(BANK_TEMPLATE_NAMES)).toEqual([]);
  });

  it('say every row error in zh-CN, zh-TW and en-US', () => {
    expect(Object.keys(BANK_RESULT_ROW_ERROR_TEXTS).sort()).toEqual([...BANK_RESULT_ROW_ERRORS].sort());
    expect(untranslated(BANK_RESULT_ROW_ERROR_TEXTS)).toEqual([]);
  });

  it('register the whole-file refusals in the server texts catalogue, with the spec’s texts', () => {
    for (const [reason, texts] of Object.entries(BANK_FILE_REASON_TEXTS)) {
      expect(isReason(reason), reason).toBe(true);
      expect(REASON_TEXTS[reason as keyof typeof REASON_TEXTS]).toBe(texts);
    }
    expect(REASON_TEXTS.unsupportedTemplate['en-US']).toBe('Unsupported template type');
    expect(REASON_TEXTS.templateWithoutResults['en-US']).toBe('Current template does not support upload details');
  });
});
