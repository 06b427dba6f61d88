import type { OrderClearRun } from '@paydesk/contract';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { ok, pageOf, renderPage, stubServer, testUser } from '../../test/renderPage';
import OrderClearHistoryPage from './OrderClearHistoryPage';

const RUN: OrderClearRun = {
  id: 7,
  trigger: 'manual',
  startedBy: 'superadmin',
  state: 'succeeded',
  cycleDays: 90,
  cutoff: '2026-08-29T08:00:00.000Z',
  startedAt: '2026-11-27T08:00:00.000Z',
  finishedAt: '2026-11-27T08:00:05.000Z',
  error: null,
  orders: 1234,
  payouts: 56,
  orderEvents: 4321,
  payoutEvents: 222,
  allocations: 1300,
  callbacks: 1250,
  callbackAttempts: 1400,
  receipts: 50,
  payScriptCalls: 9,
};
const LIST = '/v1.0/system/orderClearHistory/list';
const RUN_NOW = '/v1.0/system/orderClearHistory/run';

beforeAll(() => {
  setupI18n('en-US');
});
afterEach(() => vi.unstubAllGlobals());

describe('OrderClearHistoryPage', () => {
  it.each([
    ['zh-CN', '手动 (superadmin)', '完成'],
    ['zh-TW', '手動 (superadmin)', '完成'],
    ['en-US', 'Manual (superadmin)', 'Done'],
  ])('lists runs with who started them and what each removed (%s)', async (language, trigger, state) => {
    await act(() => i18next.changeLanguage(language));
    stubServer({ [LIST]: pageOf([RUN]) });
    renderPage(<OrderClearHistoryPage />, '/system/orderClearHistory', testUser({ access: 'admin' }));
    expect(await screen.findByText(trigger)).toBeTruthy();
    expect(screen.getByText(state)).toBeTruthy();
    expect(screen.getByText('4321')).toBeTruthy();
    // Admin reads; only superAdmin runs a clear.
    expect(screen.queryByTestId('order-clear-run')).toBeNull();
    await act(() => i18next.changeLanguage('en-US'));
  });

  it('lets superAdmin start a clear after a confirmation', async () => {
    const server = stubServer({ [LIST]: pageOf([]), [RUN_NOW]: ok({ ...RUN, state: 'running', finishedAt: null }) });
    renderPage(<OrderClearHistoryPage />, '/system/orderClearHistory', testUser({ access: 'superAdmin' }));
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('order-clear-run'));
    await user.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() => expect(server.sent(RUN_NOW)).toHaveLength(1));
    // It looks for the run going, and reads the list again when none is.
    await waitFor(() => expect(server.sent(LIST).some((r) => r.url.includes('state=running'))).toBe(true));
  });

  it('only reads on the read-only route', async () => {
    stubServer({ [LIST]: pageOf([RUN]) });
    renderPage(
      <OrderClearHistoryPage />,
      '/system/orderClearHistory/readonly',
      testUser({ access: 'technicalMaintenance' }),
    );
    expect(await screen.findByText('Manual (superadmin)')).toBeTruthy();
    expect(screen.queryByTestId('order-clear-run')).toBeNull();
  });
});
