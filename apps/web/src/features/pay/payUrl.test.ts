import { describe, expect, it } from 'vitest';
import { payerOrderCodeOf } from './payUrl';

const at = (url: string) => {
  const u = new URL(url, 'https://pay.example');
  return { pathname: u.pathname, search: u.search };
};

describe('the payer page reads its order from either address (IsNewPayUrl)', () => {
  it('the new form /pay/<orderCode>', () => {
    expect(payerOrderCodeOf(at('/pay/C2411231200001234'))).toBe('C2411231200001234');
    expect(payerOrderCodeOf(at('/pay/C2411231200001234/'))).toBe('C2411231200001234');
  });

  it('the legacy form /pay?orderCode=<orderCode>', () => {
    expect(payerOrderCodeOf(at('/pay?orderCode=C2411231200001234'))).toBe('C2411231200001234');
    expect(payerOrderCodeOf(at('/pay/?orderCode=C2411231200001234&lang=en'))).toBe('C2411231200001234');
  });

  it('an address naming no order gives no code (the page says the order is not found)', () => {
    expect(payerOrderCodeOf(at('/pay'))).toBe('');
    expect(payerOrderCodeOf(at('/pay?code=C1'))).toBe('');
    expect(payerOrderCodeOf(at('/pay/a/b'))).toBe('');
  });
});
