import type { PayScriptRecord, Role } from '@paydesk/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { pageOf, renderPage, stubServer, testUser } from '../../test/renderPage';
import { chosen } from '../../test/select';
import PayScriptRecordPage from './PayScriptRecordPage';

const PAGE = '/system/dynamicPayScriptRecord';
const RECORDS = '/v1.0/dynamicPayScriptRecord/getList';

const RECORD = (over: Partial<PayScriptRecord> = {}): PayScriptRecord => ({
  id: 11,
  scriptId: 1,
  scriptName: 'UPI gateway',
  version: 2,
  kind: 'render',
  source: 'payerPage',
  orderCode: 'C26112700000000000001',
  ok: false,
  input: { orderCode: 'C26112700000000000001', amount: 10_000 },
  output: null,
  error: 'TypeError: the host evil.example is not among the hosts this version declares',
  durationMs: 12,
  fetches: [{ url: 'https://evil.example/x', method: 'GET', status: null, durationMs: 0, error: 'not declared' }],
  logs: [],
  createdBy: null,
  createdAt: '2026-11-27T10:00:00.000Z',
  ...over,
});

let server: ReturnType<typeof stubServer>;
beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(async () => {
  await act(() => i18next.changeLanguage('en-US'));
  server = stubServer({
    [RECORDS]: pageOf([
      RECORD(),
      RECORD({
        id: 10,
        kind: 'parse',
        source: 'test',
        orderCode: null,
        ok: true,
        error: null,
        output: { status: 'paid' },
        fetches: [],
        createdBy: 'support',
      }),
    ]),
    '/v1.0/dynamicPayScript/getList': pageOf([{ id: 1, name: 'UPI gateway' }]),
  });
});
afterEach(() => vi.unstubAllGlobals());

/** An option of the open dropdown (the list's own cells may carry the same title). */
const option = (title: string) =>
  waitFor(() => {
    const found = document.querySelector(`.ant-select-dropdown:not(.ant-select-dropdown-hidden) [title="${title}"]`);
    if (!found) throw new Error(`no option ${title}`);
    return found as HTMLElement;
  });

const renderAt = (path: string, access: Role) => renderPage(<PayScriptRecordPage />, path, testUser({ access }));

describe.each(['zh-CN', 'zh-TW', 'en-US'] as const)('PayScriptRecordPage (%s)', (lang) => {
  it('lists every run with its script and version, call, source, outcome and error', async () => {
    await act(() => i18next.changeLanguage(lang));
    renderAt(PAGE, 'technicalSupport');
    const list = await screen.findByTestId('payscript-record-list');
    expect(await within(list).findAllByText('UPI gateway v2')).toHaveLength(2);
    const texts = {
      'zh-CN': ['付款页渲染', '通知解析', '付款页', '测试运行', '失败', '成功'],
      'zh-TW': ['付款頁繪製', '通知解析', '付款頁', '測試執行', '失敗', '成功'],
      'en-US': ['Payer page render', 'Notification parse', 'Payer page', 'Test run', 'Error', 'OK'],
    }[lang];
    for (const text of texts.slice(0, 4)) expect(within(list).getByText(text)).toBeTruthy();
    expect(within(list).getByTestId('payscript-record-outcome-11').textContent).toBe(
      { 'zh-CN': '失败', 'zh-TW': '失敗', 'en-US': 'Failed' }[lang],
    );
    expect(within(list).getByText(/is not among the hosts/)).toBeTruthy();
  });
});

describe('PayScriptRecordPage', () => {
  it('filters by outcome and call, and exports what it shows', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt(`${PAGE}/readonly`, 'technicalMaintenance');
    await screen.findAllByText('UPI gateway v2');
    const combos = within(screen.getByTestId('list-filters')).getAllByRole('combobox');
    fireEvent.mouseDown(combos[1]!);
    await user.click(await option('Payer page render'));
    await chosen('Payer page render');
    fireEvent.mouseDown(combos[2]!);
    await user.click(await option('Error'));
    await chosen('Error');
    await user.click(screen.getByTestId('list-search'));
    await waitFor(() => {
      const url = server.sent(RECORDS).at(-1)!.url;
      expect(url).toContain('outcome=error');
      expect(url).toContain('kind=render');
    });
    const exported = screen.getByTestId('export-csv').getAttribute('href') ?? '';
    expect(exported).toContain('/v1.0/dynamicPayScriptRecord/export');
    expect(exported).toContain('outcome=error');
  });

  it('opens a record with its input, result or error, and outbound calls', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt(PAGE, 'admin');
    await user.click(await screen.findByTestId('payscript-record-view-11'));
    const record = await screen.findByTestId('payscript-record');
    expect(within(record).getByTestId('payscript-record-input').textContent).toContain('"amount": 10000');
    expect(within(record).getByTestId('payscript-record-error').textContent).toContain('is not among the hosts');
    expect(within(record).getByTestId('payscript-record-fetches').textContent).toContain('https://evil.example/x');
    expect(within(record).queryByTestId('payscript-record-output')).toBeNull();
  });
});
