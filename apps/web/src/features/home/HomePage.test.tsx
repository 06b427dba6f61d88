import type { Role } from '@paydesk/contract';
import { screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import HomePage from './HomePage';

beforeAll(() => {
  setupI18n('en-US');
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

const renderHome = (access: Role, totals: object, contactInfo = '') => {
  stubServer({
    '/v1.0/user/getTotalBalance': ok(totals),
    '/message/init': ok({ unread: [], readed: [], trash: [] }),
    // The figures (HomeFigures.test.tsx): not shown here.
    '/v1.0/order/simplestatisticsV2': ok({ shown: false, todayDate: '2026-11-27', collection: null, payout: null }),
    // The work waiting (WaitingWork.test.tsx): nothing here.
    '/v1.0/todo/counts': ok({ items: [] }),
    '/v1.0/merchant/getMine': ok({
      id: 1,
      userId: 8,
      account: 'merchant1',
      merchantNo: 'M12345678',
      name: 'Merchant One',
      enabled: true,
      signType: 'HMAC-SHA256',
      ipWhitelist: [],
      notifyUrl: null,
      callbackEnabled: true,
      remark: '',
      balance: 0,
      frozenBalance: 0,
      secretRotatedAt: '2026-01-01T00:00:00.000Z',
      createdAt: '2026-01-01T00:00:00.000Z',
    }),
  });
  return renderPage(<HomePage />, '/home', testUser({ access, contactInfo }));
};

describe('HomePage balance cards', () => {
  it('a merchant sees its balance and frozen balance /100 with separators, no revenue', async () => {
    renderHome('merchant', { kind: 'merchant', balance: 500_000_00, frozenBalance: 12_345, revenue: null });
    expect((await screen.findByTestId('home-balance')).textContent).toContain('500,000.00');
    expect(screen.getByTestId('home-balance').textContent).toContain('Balance');
    expect(screen.getByTestId('home-frozen-balance').textContent).toContain('123.45');
    expect(screen.queryByTestId('home-revenue')).toBeNull();
    // Its API credentials are on its home page: the merchant number, the secret only on request.
    expect((await screen.findByTestId('merchant-credentials-card')).textContent).toContain('M12345678');
  });

  it('staff see the platform totals and the revenue, in Traditional Chinese too', async () => {
    await changeLanguage('zh-TW');
    renderHome('admin', { kind: 'platform', balance: 1_250_000_000, frozenBalance: 0, revenue: 98_765 });
    expect((await screen.findByTestId('home-balance')).textContent).toContain('12,500,000.00');
    expect(screen.getByTestId('home-balance').textContent).toContain('商戶與碼商可用餘額合計');
    expect(screen.getByTestId('home-revenue').textContent).toContain('987.65');
    expect(screen.getByTestId('home-revenue').textContent).toContain('平台收益');
    expect(screen.queryByTestId('merchant-credentials-card')).toBeNull();
  });

  it('a merchant or supplier finds the support contact (ContactInfo) on its home page; staff do not', async () => {
    const contact = 'Telegram @paydesk_help\nWhatsApp +91 98765 43210';
    renderHome('supplier', { kind: 'supplier', balance: 0, frozenBalance: 0, revenue: null }, contact);
    expect((await screen.findByTestId('home-contact')).textContent).toBe(contact);
    expect(screen.getByText('Contact support')).toBeTruthy();
  });

  it('shows no contact card while the contact is empty, nor to staff', async () => {
    const { unmount } = renderHome('merchant', { kind: 'merchant', balance: 0, frozenBalance: 0, revenue: null });
    await screen.findByTestId('home-balance');
    expect(screen.queryByTestId('home-contact')).toBeNull();
    unmount();
    renderHome('admin', { kind: 'platform', balance: 0, frozenBalance: 0, revenue: 0 }, 'Telegram @paydesk_help');
    await screen.findByTestId('home-balance');
    expect(screen.queryByTestId('home-contact')).toBeNull();
  });
});
