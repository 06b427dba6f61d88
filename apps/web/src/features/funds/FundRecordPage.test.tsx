import type { FundRecordRow, Role } from '@paydesk/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import FundRecordPage from './FundRecordPage';

const row = (over: Partial<FundRecordRow>): FundRecordRow => ({
  id: 1,
  createdAt: '2024-05-01T10:00:00.000Z',
  partyKind: 'merchant',
  partyId: 1,
  userId: 8,
  account: 'merchant1',
  partyName: 'Merchant One',
  bucket: 'available',
  type: 'manualAdjustment',
  orderCode: null,
  amount: 123_456_789,
  balanceBefore: 0,
  balanceAfter: 123_456_789,
  note: 'opening balance (demo)',
  noteTemplate: null,
  transferId: 3,
  ...over,
});

const ROWS = [
  row({}),
  row({
    id: 2,
    type: 'collectionPaid',
    orderCode: 'C20240501001',
    amount: -2_500,
    balanceBefore: 123_456_789,
    balanceAfter: 123_454_289,
    note: 'order C20240501001 paid: supplement with UTR 712345678901',
    noteTemplate: { key: 'orderPaidUtr', values: { orderCode: 'C20240501001', utr: '712345678901' } },
  }),
];
const PAGE = ok({ list: ROWS, total: 2, pageIndex: 1, pageSize: 20, summary: { amount: 123_454_289 } });
let server: ReturnType<typeof stubServer>;

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({
    '/v1.0/fundRecord/getList': PAGE,
    '/v1.0/user/getUserOptions': ok([
      { id: 8, account: 'merchant1', nickname: 'M', role: 'merchant', parentId: null, deleted: false },
    ]),
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

const renderAt = (path: string, access: Role) => renderPage(<FundRecordPage />, path, testUser({ access }));

describe('FundRecordPage', () => {
  it('a merchant sees its entries: money /100 with separators, translated types, the totals row, no party filters', async () => {
    renderAt('/fundRecord/fundRecord', 'merchant');
    const list = await screen.findByTestId('fund-records');
    expect(await within(list).findByText('Manual adjustment')).toBeTruthy();
    // An order type the console does not know yet shows as the server sent it.
    expect(within(list).getByText('collectionPaid')).toBeTruthy();
    expect(within(list).getAllByText('1,234,567.89').length).toBeGreaterThan(0);
    expect(within(list).getByText('-25.00')).toBeTruthy();
    // A typed note as typed; the server's own note from its template.
    expect(within(list).getByText('opening balance (demo)')).toBeTruthy();
    expect(within(list).getByText('order C20240501001 paid: supplement with UTR 712345678901')).toBeTruthy();
    expect(within(list).getByText('1,234,542.89', { selector: 'td *' })).toBeTruthy();
    expect(screen.getByTestId('list-total-amount').textContent).toBe('1,234,542.89');
    expect(screen.queryByTestId('filter-partyKind')).toBeNull();
    expect(screen.queryByTestId('filter-userId')).toBeNull();
    expect(screen.queryByRole('columnheader', { name: 'Account' })).toBeNull();
    expect(server.sent('/v1.0/user/getUserOptions')).toHaveLength(0);
    const href = screen.getByTestId('export-csv').getAttribute('href');
    expect(href).toBe('/v1.0/fundRecord/export');
  });

  it('staff variants filter by party kind and account and show the party column', async () => {
    for (const [path, access] of [
      ['/fundRecord/fundRecordAdmin', 'admin'],
      ['/fundRecord/fundRecordAdmin/customerService', 'customerService'],
    ] as const) {
      const view = renderAt(path, access);
      expect(await screen.findByTestId('filter-partyKind')).toBeTruthy();
      expect(screen.getByTestId('filter-userId')).toBeTruthy();
      expect(screen.getByRole('columnheader', { name: 'Account' })).toBeTruthy();
      expect((await screen.findAllByText('merchant1')).length).toBeGreaterThan(0);
      await waitFor(() => expect(server.sent('/v1.0/user/getUserOptions').length).toBeGreaterThan(0));
      view.unmount();
    }
  });

  it('reads in Simplified and Traditional Chinese, money still /100 with separators', async () => {
    await changeLanguage('zh-CN');
    const first = renderAt('/fundRecord/fundRecord', 'merchant');
    expect(await screen.findByText('人工调账')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '变动前余额' })).toBeTruthy();
    expect(screen.getByText('订单 C20240501001 已支付：以 UTR 712345678901 补单')).toBeTruthy();
    expect(screen.getByText('opening balance (demo)')).toBeTruthy();
    expect(screen.getByTestId('list-total-amount').textContent).toBe('1,234,542.89');
    first.unmount();
    await changeLanguage('zh-TW');
    renderAt('/fundRecord/fundRecord', 'supplier');
    expect(await screen.findByText('人工調帳')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '異動後餘額' })).toBeTruthy();
    expect(screen.getByText('訂單 C20240501001 已付款：以 UTR 712345678901 補單')).toBeTruthy();
    expect(screen.getByTestId('list-total-amount').textContent).toBe('1,234,542.89');
  });
});
