import { describe, expect, it } from 'vitest';
import { majorToMinor, minorToMajorText, moneyFilter } from './money.js';

describe('money', () => {
  it('reads major units as decimal text, half up, without floats', () => {
    expect(majorToMinor('12.34')).toBe(1234);
    expect(majorToMinor('100.0001')).toBe(10000);
    expect(majorToMinor('0.005')).toBe(1);
    expect(majorToMinor('0.0049')).toBe(0);
    expect(majorToMinor('-3.1')).toBe(-310);
    expect(majorToMinor('1e5')).toBeNull();
    expect(majorToMinor('abc')).toBeNull();
    // 0.1 + 0.2 would be 0.30000000000000004 as a float; as text it is exact.
    expect(majorToMinor('0.3000')).toBe(30);
  });

  it('writes minor units as major text', () => {
    expect(minorToMajorText(1234)).toBe('12.34');
    expect(minorToMajorText(-5)).toBe('-0.05');
    expect(minorToMajorText(0)).toBe('0.00');
  });

  it('parses a money filter, empty meaning none and garbage refused', () => {
    expect(moneyFilter.parse('500.0001')).toBe(50000);
    expect(moneyFilter.parse('')).toBeNull();
    expect(moneyFilter.parse(undefined)).toBeUndefined();
    expect(moneyFilter.safeParse('12,5').success).toBe(false);
  });
});
