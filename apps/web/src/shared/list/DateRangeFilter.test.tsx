import { fireEvent, screen, waitFor } from '@testing-library/react';
import dayjs from 'dayjs';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { ok, renderPage, stubServer } from '../../test/renderPage';
import { dateRangePresets } from './DateRangeFilter';
import { FILTER_DATE_FORMAT, type ListParams, ListTable, type Page } from './ListTable';

beforeAll(() => {
  setupI18n('en-US');
});
afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await i18next.changeLanguage('en-US');
});

const span = (range: [dayjs.Dayjs, dayjs.Dayjs]) => range.map((d) => d.format(FILTER_DATE_FORMAT));

describe('date range presets', () => {
  it('today, yesterday, the last 7 days with today, and this month, as of when one is picked', () => {
    const now = () => dayjs('2026-03-01T10:15:00');
    const presets = dateRangePresets(i18next.t, now);
    expect(presets.map((p) => p.label)).toEqual(['Today', 'Yesterday', 'Last 7 days', 'This month']);
    expect(presets.map((p) => span(p.value()))).toEqual([
      ['2026-03-01 00:00:00', '2026-03-01 23:59:59'],
      ['2026-02-28 00:00:00', '2026-02-28 23:59:59'],
      ['2026-02-23 00:00:00', '2026-03-01 23:59:59'],
      ['2026-03-01 00:00:00', '2026-03-31 23:59:59'],
    ]);
  });

  it.each([
    ['zh-CN', ['今天', '昨天', '最近 7 天', '本月']],
    ['zh-TW', ['今天', '昨天', '最近 7 天', '本月']],
  ])('%s names them', async (language, labels) => {
    await i18next.changeLanguage(language);
    expect(dateRangePresets(i18next.t).map((p) => p.label)).toEqual(labels);
  });

  it('a list’s date filter offers them, and picking one filters the list by that range of the platform’s days', async () => {
    // 20:00 UTC is 01:30 the next day in India, the platform's zone (renderPage's user): "yesterday" is
    // the platform's 1 March, the day the server reads the range in, not the UTC browser's 28 February.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-01T20:00:00Z'));
    stubServer({ '/v1.0/view/getList': ok([]) });
    const fetchPage = vi.fn(async (_p: ListParams): Promise<Page<{ id: number }>> => ({ list: [], total: 0 }));
    renderPage(
      <ListTable<{ id: number }>
        testId="dated-list"
        queryKey={['dated']}
        rowKey="id"
        fetchPage={fetchPage}
        columns={[{ title: 'Id', dataIndex: 'id' }]}
        filters={[{ kind: 'dateRange', name: 'time', label: 'Time' }]}
      />,
      '/home',
    );
    await waitFor(() => expect(fetchPage).toHaveBeenCalledTimes(1));
    const input =
      screen.getAllByTestId('filter-time')[0]!.querySelector('input') ?? screen.getAllByTestId('filter-time')[0]!;
    fireEvent.mouseDown(input);
    fireEvent.click(input);
    fireEvent.click(await screen.findByText('Yesterday'));
    fireEvent.click(screen.getByTestId('list-search'));
    await waitFor(() =>
      expect(fetchPage).toHaveBeenLastCalledWith(
        expect.objectContaining({ startTime: '2026-03-01 00:00:00', endTime: '2026-03-01 23:59:59' }),
      ),
    );
  });
});
