import { describe, expect, it } from 'vitest';
import { initialLanguage } from './language';

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
