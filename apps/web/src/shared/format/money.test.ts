import { describe, expect, it } from 'vitest';
import { formatMoney, formatRate, parseMoneyInput, parseRateInput } from './money';

describe('money on screen', () => {
  it('divides by 100 with separators in every language', () => {
    expect(formatMoney(123456789, 'en-US')).toBe('1,234,567.89');
    expect(formatMoney(123456789, 'zh-CN')).toBe('1,234,567.89');
    expect(formatMoney(123456789, 'zh-TW')).toBe('1,234,567.89');
    expect(formatMoney(-5, 'en-US')).toBe('-0.05');
    expect(formatMoney(null)).toBe('');
  });

  it('reads typed major units and percentages as integers', () => {
    expect(parseMoneyInput('1,234.5')).toBe(123450);
    expect(parseMoneyInput('')).toBeNull();
    expect(parseMoneyInput('x')).toBeNull();
    expect(parseRateInput('2.5')).toBe(250);
    expect(formatRate(250)).toBe('2.50%');
  });
});
