import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { renderPage, stubWebSocket, testUser } from '../../test/renderPage';
import { PayPasswordBanner } from './PayPasswordBanner';

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => stubWebSocket());
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

const banner = (profilePath: string | undefined) => (
  <Routes>
    <Route path="/home" element={<PayPasswordBanner profilePath={profilePath} />} />
    <Route path="/profile/list" element={<p>profile page</p>} />
  </Routes>
);

describe('PayPasswordBanner', () => {
  it('EnablePayPassword on and no second-level password: says so and leads to the profile page', async () => {
    renderPage(banner('/profile/list'), '/home', testUser({ payPasswordRequired: true, hasPayPassword: false }));
    expect(screen.getByTestId('pay-password-banner').textContent).toContain(
      'A separate second-level password is required and your account has none yet',
    );
    await userEvent.setup().click(screen.getByTestId('pay-password-set'));
    expect(await screen.findByText('profile page')).toBeTruthy();
  });

  it('shows nothing when the key is off or a second-level password is set', () => {
    for (const over of [
      { payPasswordRequired: false, hasPayPassword: false },
      { payPasswordRequired: true, hasPayPassword: true },
    ]) {
      const { unmount } = renderPage(banner('/profile/list'), '/home', testUser(over));
      expect(screen.queryByTestId('pay-password-banner'), JSON.stringify(over)).toBeNull();
      unmount();
    }
  });

  it('speaks the reader’s language; without a profile page to open, no button', async () => {
    await changeLanguage('zh-TW');
    renderPage(banner(undefined), '/home', testUser({ payPasswordRequired: true, hasPayPassword: false }));
    expect(screen.getByTestId('pay-password-banner').textContent).toContain('系統要求單獨的二級密碼');
    expect(screen.queryByTestId('pay-password-set')).toBeNull();
  });
});
