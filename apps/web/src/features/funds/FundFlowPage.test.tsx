import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import FundFlowPage from './FundFlowPage';

beforeAll(() => {
  setupI18n('en-US');
});
afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

const figures = (n: number) => ({
  collectionCount: n,
  collections: n * 100_000,
  payoutCount: 1,
  payouts: 50_000,
  fees: 3_000,
  commissions: 1_000,
  platformRevenue: 2_000,
  deposits: 0,
  withdrawals: 0,
  adjustments: -500,
});
const answer = (agree: boolean) =>
  ok({
    startDay: '2026-11-26',
    endDay: '2026-11-27',
    timeZone: 'Asia/Kolkata',
    days: [
      { day: '2026-11-27', ...figures(2) },
      { day: '2026-11-26', ...figures(1) },
    ],
    totals: {
      ...figures(3),
      payoutCount: 2,
      payouts: 100_000,
      fees: 6_000,
      commissions: 2_000,
      platformRevenue: 4_000,
      adjustments: -1_000,
    },
    check: {
      agree,
      directions: [
        {
          direction: 'collection',
          rollupCount: agree ? 3 : 4,
          ledgerCount: 3,
          rollupRevenue: 4_000,
          ledgerRevenue: 4_000,
        },
        { direction: 'payout', rollupCount: 2, ledgerCount: 2, rollupRevenue: 0, ledgerRevenue: 0 },
      ],
    },
  });

describe('finance fund flow', () => {
  it('each day’s money from the ledger with the totals, and that rollups and ledger agree', async () => {
    const server = stubServer({ '/v1.0/finance/fundFlow': answer(true) });
    renderPage(<FundFlowPage />, '/finance/fundFlow', testUser({ access: 'admin' }));
    const days = await screen.findByTestId('fund-flow-days');
    const rows = days.querySelectorAll('tr.ant-table-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('2026-11-27');
    expect(rows[0]!.textContent).toContain('2,000.00');
    const totals = screen.getByTestId('fund-flow-totals');
    expect(totals.textContent).toContain('3,000.00');
    expect(totals.textContent).toContain('-10.00');
    const check = screen.getByTestId('fund-flow-check');
    expect(check.className).toContain('success');
    expect(check.textContent).toContain('the statistics’ rollups and the ledger agree');
    // No range: the server's default (the last 7 days).
    expect(server.sent('/v1.0/finance/fundFlow')[0]!.url).not.toContain('startDay');
    expect(screen.getByTestId('fund-flow-export').getAttribute('href')).toContain('/v1.0/finance/fundFlow/export');
  });

  it('says plainly when they differ, with both sides’ figures', async () => {
    stubServer({ '/v1.0/finance/fundFlow': answer(false) });
    renderPage(<FundFlowPage />, '/finance/fundFlow', testUser({ access: 'admin' }));
    const check = await screen.findByTestId('fund-flow-check');
    expect(check.className).toContain('error');
    expect(check.textContent).toContain('differ');
    expect(check.textContent).toContain('successful: 4 in the rollups, 3 in the ledger');
  });

  it('a preset range asks for its days, on the platform’s calendar', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-27T20:00:00Z'));
    const server = stubServer({ '/v1.0/finance/fundFlow': answer(true) });
    renderPage(<FundFlowPage />, '/finance/fundFlow', testUser({ access: 'admin' }));
    await screen.findByTestId('fund-flow-days');
    const input =
      screen.getAllByTestId('fund-flow-range')[0]!.querySelector('input') ??
      screen.getAllByTestId('fund-flow-range')[0]!;
    fireEvent.mouseDown(input);
    fireEvent.click(input);
    fireEvent.click(await screen.findByText('Last 7 days'));
    fireEvent.click(screen.getByTestId('fund-flow-search'));
    // 20:00 UTC is already 28 November in India.
    await waitFor(() =>
      expect(server.sent('/v1.0/finance/fundFlow').at(-1)!.url).toContain('startDay=2026-11-22&endDay=2026-11-28'),
    );
  });

  it('in Chinese', async () => {
    await changeLanguage('zh-CN');
    stubServer({ '/v1.0/finance/fundFlow': answer(true) });
    renderPage(<FundFlowPage />, '/finance/fundFlow', testUser({ access: 'admin' }));
    const days = await screen.findByTestId('fund-flow-days');
    expect(within(days).getAllByText('平台收入').length).toBeGreaterThan(0);
    expect(screen.getByTestId('fund-flow-check').textContent).toContain('统计汇总与账本一致');
  });
});
