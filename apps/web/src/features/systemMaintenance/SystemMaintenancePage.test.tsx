import type { FixReport } from '@paydesk/contract';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { clearToken2, setToken2 } from '../../shared/api/session-storage';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import SystemMaintenancePage from './SystemMaintenancePage';

const BASE = '/v1.0/system-config';
const REPORT: FixReport = {
  dryRun: true,
  fromDay: '2026-10-28',
  toDay: '2026-11-27',
  checked: 42,
  changed: 1,
  changes: [
    {
      table: 'resource_daily',
      day: '2026-11-27',
      resourceId: 7,
      resourceName: 'UPI main',
      userId: null,
      account: null,
      productId: 1001,
      countBefore: 5,
      countAfter: 2,
      amountBefore: 150_000,
      amountAfter: 30_000,
    },
  ],
};

beforeAll(() => {
  setupI18n('en-US');
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearToken2();
});

describe('SystemMaintenancePage', () => {
  it.each([
    ['zh-CN', '5 → 2', '服务运行中'],
    ['zh-TW', '5 → 2', '服務運行中'],
    ['en-US', '5 → 2', 'Service running'],
  ])('shows the switch and a check’s report as a table of before and after (%s)', async (language, count, running) => {
    await act(() => i18next.changeLanguage(language));
    const server = stubServer({
      [`${BASE}/getenableService`]: ok({ enable: true }),
      [`${BASE}/checkSystemResources`]: ok(REPORT),
    });
    renderPage(<SystemMaintenancePage />, '/system/maintenance', testUser({ access: 'admin' }));
    expect(await screen.findByText(running)).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('maint-check'));
    expect(await screen.findByText(count)).toBeTruthy();
    expect(screen.getByText('UPI main #7')).toBeTruthy();
    expect(server.sent(`${BASE}/checkSystemResources`).at(-1)?.url).toContain('days=31');
    // An admin reads the switch but only superAdmin turns it (the setting's writeRoles).
    expect(screen.getByTestId('maint-service-switch').getAttribute('disabled')).not.toBeNull();
    await act(() => i18next.changeLanguage('en-US'));
  });

  it('fixes after the second-level password and a confirmation, and shows what changed', async () => {
    setToken2('t2');
    const server = stubServer({
      [`${BASE}/getenableService`]: ok({ enable: true }),
      [`${BASE}/fixSystemResources`]: ok({ ...REPORT, dryRun: false }),
    });
    renderPage(<SystemMaintenancePage />, '/system/maintenance', testUser({ access: 'superAdmin' }));
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('maint-fix'));
    await user.click(await screen.findByTestId('maint-fix-ok'));
    await waitFor(() => expect(server.sent(`${BASE}/fixSystemResources`)).toHaveLength(1));
    expect(await screen.findByText('Checked 42 rows from 2026-10-28 to 2026-11-27: 1 corrected.')).toBeTruthy();
  });

  it('a super administrator pauses the service through its setting after a confirmation', async () => {
    const server = stubServer({
      [`${BASE}/getenableService`]: ok({ enable: true }),
      [`${BASE}/setenableService`]: ok({ enable: false }),
    });
    renderPage(<SystemMaintenancePage />, '/system/maintenance', testUser({ access: 'superAdmin' }));
    expect(await screen.findByText('Service running')).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('maint-service-switch'));
    await user.click(await screen.findByTestId('maint-service-confirm'));
    await waitFor(() => expect(server.sent(`${BASE}/setenableService`).at(-1)?.body).toEqual({ enable: false }));
  });

  it('resets the pool after a confirmation and shows what it did', async () => {
    setToken2('t2');
    const server = stubServer({
      [`${BASE}/getenableService`]: ok({ enable: false }),
      [`${BASE}/resetSystemResourcePool`]: ok({ resourcesReset: 12, futureStamps: 1, deltasFolded: 30 }),
    });
    renderPage(<SystemMaintenancePage />, '/system/maintenance', testUser({ access: 'admin' }));
    expect(await screen.findByText('Service paused')).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('maint-reset'));
    await user.click(await screen.findByTestId('maint-reset-ok'));
    await waitFor(() => expect(server.sent(`${BASE}/resetSystemResourcePool`)).toHaveLength(1));
    const report = await screen.findByTestId('maint-reset-report');
    expect(report.textContent).toContain('12');
    expect(report.textContent).toContain('30');
  });

  it('on the read-only route: the switch and the check, no fix or reset', async () => {
    stubServer({
      [`${BASE}/getenableService`]: ok({ enable: true }),
      [`${BASE}/checkSystemResources`]: ok({ ...REPORT, changed: 0, changes: [] }),
    });
    renderPage(<SystemMaintenancePage />, '/system/maintenance/readonly', testUser({ access: 'technicalMaintenance' }));
    expect(await screen.findByText('Service running')).toBeTruthy();
    expect(screen.queryByTestId('maint-fix')).toBeNull();
    expect(screen.queryByTestId('maint-reset')).toBeNull();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('maint-check'));
    expect(await screen.findByText('No row differs')).toBeTruthy();
  });
});
