import { describe, expect, it } from 'vitest';
import { initialLanguage, payerLanguage } from './language';

describe('initial language (spec section 1)', () => {
  it('takes the browser language when it is zh-CN or en-US', () => {
    expect(initialLanguage('en-US', 'zh-TW')).toBe('en-US');
    expect(initialLanguage('zh-CN', 'en-US')).toBe('zh-CN');
  });
  it('otherwise the saved setting, otherwise zh-CN', () => {
    expect(initialLanguage('zh-TW', 'zh-TW')).toBe('zh-TW');
    expect(initialLanguage('fr-FR', 'en-US')).toBe('en-US');
    expect(initialLanguage('fr-FR', 'klingon')).toBe('zh-CN');
    expect(initialLanguage(undefined, null)).toBe('zh-CN');
  });
});

describe('the payer page’s language', () => {
  it('speaks English to payers whose browsers are in English or in a language we do not speak', () => {
    expect(payerLanguage(['en-IN', 'hi'], null)).toBe('en-US');
    expect(payerLanguage(['hi-IN', 'en-GB'], null)).toBe('en-US');
    expect(payerLanguage(['hi-IN'], null)).toBe('en-US');
    expect(payerLanguage([], null)).toBe('en-US');
  });
  it('Chinese by region or script, the first language we speak winning', () => {
    expect(payerLanguage(['zh-TW'], null)).toBe('zh-TW');
    expect(payerLanguage(['zh-Hant-HK'], null)).toBe('zh-TW');
    expect(payerLanguage(['zh-HK', 'en'], null)).toBe('zh-TW');
    expect(payerLanguage(['zh-CN', 'en-US'], null)).toBe('zh-CN');
    expect(payerLanguage(['fr-FR', 'zh'], null)).toBe('zh-CN');
  });
  it('the language chosen on the page stays chosen', () => {
    expect(payerLanguage(['en-IN'], 'zh-TW')).toBe('zh-TW');
    expect(payerLanguage(['zh-CN'], 'en-US')).toBe('en-US');
    expect(payerLanguage(['zh-CN'], 'klingon')).toBe('zh-CN');
  });
});
