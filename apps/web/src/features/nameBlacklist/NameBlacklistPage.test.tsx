import type { BlacklistRow } from '@paydesk/contract';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { ok, pageOf, renderPage, stubServer, testUser } from '../../test/renderPage';
import NameBlacklistPage from './NameBlacklistPage';

const ROW: BlacklistRow = {
  id: 4,
  name: 'Ravi Kumar',
  kind: 'payer',
  remark: 'chargebacks',
  createdAt: '2026-11-01T08:00:00.000Z',
  createdBy: 'service',
};
const LIST = '/v1.0/system/nameBlacklist/list';

beforeAll(() => {
  setupI18n('en-US');
});
afterEach(() => vi.unstubAllGlobals());

describe('NameBlacklistPage', () => {
  it.each([
    ['zh-CN', '付款人（代收）'],
    ['zh-TW', '付款人（代收）'],
    ['en-US', 'Payer (collections)'],
  ])('lists names with what they apply to (%s)', async (language, kind) => {
    await act(() => i18next.changeLanguage(language));
    stubServer({ [LIST]: pageOf([ROW]) });
    renderPage(<NameBlacklistPage />, '/system/nameBlacklist', testUser({ access: 'customerService' }));
    expect(await screen.findByText('Ravi Kumar')).toBeTruthy();
    expect(screen.getAllByText(kind).length).toBeGreaterThan(0);
    expect(screen.getByTestId('blacklist-delete-4')).toBeTruthy();
    await act(() => i18next.changeLanguage('en-US'));
  });

  it('adds a name for payouts and collections alike by default', async () => {
    const server = stubServer({
      [LIST]: pageOf([]),
      '/v1.0/system/nameBlacklist/add': ok({ ...ROW, id: 5, name: 'Mule Account', kind: 'both' }),
    });
    renderPage(<NameBlacklistPage />, '/system/nameBlacklist', testUser({ access: 'admin' }));
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('blacklist-add'));
    await user.type(await screen.findByTestId('blacklist-form-name'), 'Mule Account');
    await user.click(screen.getByTestId('blacklist-form-submit'));
    await waitFor(() =>
      expect(server.sent('/v1.0/system/nameBlacklist/add').at(-1)?.body).toEqual({
        name: 'Mule Account',
        kind: 'both',
        // An untouched remark goes as null (empty fields always do); the server reads it as ''.
        remark: null,
      }),
    );
  });

  it('only reads on the read-only route', async () => {
    stubServer({ [LIST]: pageOf([ROW]) });
    renderPage(<NameBlacklistPage />, '/system/nameBlacklist/readonly', testUser({ access: 'technicalMaintenance' }));
    expect(await screen.findByText('Ravi Kumar')).toBeTruthy();
    expect(screen.queryByTestId('blacklist-add')).toBeNull();
    expect(screen.queryByTestId('blacklist-delete-4')).toBeNull();
  });
});
