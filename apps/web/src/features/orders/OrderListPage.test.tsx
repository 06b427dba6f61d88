import { allowedOrderActions, ORDER_STATE, type OrderRow, type Role } from '@paydesk/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { setToken, setToken2 } from '../../shared/api/session-storage';
import { LiveSocket } from '../../test/liveSocket.js';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import OrderListPage from './OrderListPage';

const row = (over: Partial<OrderRow> = {}): OrderRow => ({
  id: 1,
  orderCode: 'C2405011000001',
  merchantId: 3,
  merchantName: 'Merchant One',
  merchantNo: '10001',
  merchantOrderNo: 'M-1',
  productId: 1001,
  productName: 'UPI collection',
  amount: 123_456,
  fee: 3_086,
  commission: null,
  state: ORDER_STATE.allocated,
  mark: 0,
  locked: false,
  supplemented: false,
  supplementType: null,
  utr: null,
  payerUtr: null,
  payerName: null,
  supplierId: 5,
  supplierName: 'Supplier One',
  isProxy: false,
  resourceId: 9,
  resourceName: 'Demo UPI ICICI',
  usdtAddress: null,
  usdtCount: null,
  userName: 'payer',
  cardNumber: null,
  ifscCode: null,
  clientIp: '10.0.0.1',
  subject: 'Top-up',
  rejectReason: null,
  createdAt: '2024-05-01T10:00:00.000Z',
  allocatedAt: '2024-05-01T10:00:01.000Z',
  expiresAt: '2024-05-01T10:15:00.000Z',
  paidAt: null,
  updatedAt: '2024-05-01T10:00:01.000Z',
  allowedActions: [],
  ...over,
});

/** A row as the server answers it to `role`: with the actions the contract's rule allows it. */
const asServer = (r: OrderRow, role: Role, canTimeoutSupplement = false): OrderRow => ({
  ...r,
  allowedActions: allowedOrderActions(role, { ...r, callbackReachable: true }, { canTimeoutSupplement }),
});

const ALLOCATED = row();
const PAID = row({ id: 2, orderCode: 'C2405011000002', state: ORDER_STATE.callbackSucceeded, commission: 1_000 });
const LOCKED = row({ id: 3, orderCode: 'C2405011000003', state: ORDER_STATE.allocated, mark: 1, locked: true });
const page = (rows: OrderRow[], total = rows.length) =>
  ok({ list: rows, total, pageIndex: 1, pageSize: 20, summary: { amount: 9_876_543, fee: 12_345, commission: 6_789 } });

const STATES = Object.entries(ORDER_STATE).map(([name, id]) => ({ id, name }));
const MARKS = ['normal', 'suspicious', 'test', 'fillIn', 'malicious'].map((name, id) => ({ id, name }));
let server: ReturnType<typeof stubServer>;

vi.setConfig({ testTimeout: 30_000 });

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({
    '/v1.0/order/getList': page([ALLOCATED, PAID, LOCKED]),
    '/v1.0/order/getOrderStatusList': ok(STATES),
    '/v1.0/order/getOrderMarkList': ok(MARKS),
    '/v1.0/merchant/getList': ok({ list: [], total: 0, pageIndex: 1, pageSize: 500 }),
    '/v1.0/supplier/getList': ok({ list: [], total: 0, pageIndex: 1, pageSize: 500 }),
    '/v1.0/view/getList': ok([]),
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await changeLanguage('en-US');
});

/** The page as `access` sees it, the rows answered with that role's allowed actions. */
const renderAt = (path: string, access: Role, rows: OrderRow[] | null = [ALLOCATED, PAID, LOCKED]) => {
  if (rows) server.answers.set('/v1.0/order/getList', page(rows.map((r) => asServer(r, access))));
  return renderPage(<OrderListPage />, path, testUser({ access }));
};
const lastListUrl = () => new URL(server.sent('/v1.0/order/getList').at(-1)!.url, 'http://x');
const actionsOf = (orderCode: string) => screen.getByTestId(`order-actions-${orderCode}`);
const buttonsOf = (orderCode: string) =>
  within(actionsOf(orderCode))
    .queryAllByRole('button')
    .map((b) => b.getAttribute('data-testid'))
    .filter((id): id is string => id !== null)
    .map((id) => id.replace(/^order-/, '').replace(`-${orderCode}`, ''));
/** A row's actions: its buttons, then the entries of its 'more' menu (opened and closed again). */
async function offeredOf(user: ReturnType<typeof userEvent.setup>, orderCode: string) {
  const inline = buttonsOf(orderCode);
  if (!inline.includes('more')) return inline;
  await user.click(screen.getByTestId(`order-more-${orderCode}`));
  const menu = await waitFor(() => {
    const items = [...document.querySelectorAll('.ant-dropdown:not(.ant-dropdown-hidden) [data-testid]')];
    expect(items.length).toBeGreaterThan(0);
    return items;
  });
  await user.keyboard('{Escape}');
  const more = menu
    .map((el) => el.getAttribute('data-testid')!)
    .filter((id) => id.endsWith(`-${orderCode}`))
    .map((id) => id.replace(/^order-/, '').replace(`-${orderCode}`, ''));
  return [...inline.filter((a) => a !== 'more'), '|', ...more];
}
/** Opens a row's 'more' menu and picks `action`. */
async function pickMore(user: ReturnType<typeof userEvent.setup>, orderCode: string, action: string) {
  await user.click(await screen.findByTestId(`order-more-${orderCode}`));
  await user.click(await screen.findByTestId(`order-${action}-${orderCode}`));
}

async function search(user: ReturnType<typeof userEvent.setup>) {
  const before = server.sent('/v1.0/order/getList').length;
  await user.click(screen.getByTestId('list-search'));
  await waitFor(() => expect(server.sent('/v1.0/order/getList').length).toBeGreaterThan(before));
}

describe('OrderListPage: the list', () => {
  it('admin sees every order: money /100, the totals row, state labels, staff filters and the CSV link', async () => {
    renderAt('/order/list', 'admin');
    const list = await screen.findByTestId('order-list');
    expect(await within(list).findByText('C2405011000001')).toBeTruthy();
    expect(within(list).getAllByText('1,234.56').length).toBe(3);
    expect(screen.getByTestId('list-total-amount').textContent).toBe('98,765.43');
    // What fits 1366 px: the code, state, amount, creation time, merchant order and merchant, then
    // the actions; the fee and commission (and their totals) are a click away in the column settings.
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Order code',
      'State',
      'Amount',
      'Created',
      'Merchant order no',
      'Merchant',
      'Actions',
    ]);
    expect(screen.queryByTestId('list-total-fee')).toBeNull();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('list-columns'));
    await user.click(await screen.findByTestId('list-column-fee'));
    await user.click(screen.getByTestId('list-column-commission'));
    expect((await screen.findByTestId('list-total-fee')).textContent).toBe('123.45');
    expect(screen.getByTestId('list-total-commission').textContent).toBe('67.89');
    expect(within(screen.getByTestId('order-state-C2405011000002')).getByText('Callback succeeded')).toBeTruthy();
    expect(within(screen.getByTestId('order-state-C2405011000003')).getByText('Locked')).toBeTruthy();
    expect(screen.getByTestId('filter-merchantId')).toBeTruthy();
    expect(screen.getByTestId('filter-supplierId')).toBeTruthy();
    expect(lastListUrl().searchParams.has('isProxy')).toBe(false);
    expect(screen.getByTestId('export-csv').getAttribute('href')).toBe('/v1.0/order/export');
  });

  it('sends the filters as spec section 5 says: amount + 0.0001, USDT count x1,000,000, dates formatted', async () => {
    renderAt('/order/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await screen.findByText('C2405011000001');
    const [from, to] = screen.getAllByTestId('filter-time');
    await user.click(from!);
    await user.type(from!, '2024-05-01 00:00:00{Enter}');
    await user.type(to!, '2024-05-02 23:59:59{Enter}');
    await user.keyboard('{Escape}');
    await user.type(screen.getByTestId('filter-amount'), '500');
    await user.click(screen.getByTestId('list-more-filters'));
    await user.type(screen.getByTestId('filter-usdtCount'), '12.5');
    await user.type(screen.getByTestId('filter-orderCode'), '  C2405  ');
    await user.type(screen.getByTestId('filter-utr'), '   ');
    await search(user);
    const url = lastListUrl();
    expect(url.searchParams.get('amount')).toBe('500.0001');
    expect(url.searchParams.get('usdtCount')).toBe('12500000');
    expect(url.searchParams.get('orderCode')).toBe('C2405');
    expect(url.searchParams.has('utr')).toBe(false);
    expect(url.searchParams.get('startTime')).toBe('2024-05-01 00:00:00');
    expect(url.searchParams.get('endTime')).toBe('2024-05-02 23:59:59');
    expect(url.searchParams.get('pageIndex')).toBe('1');
    // The CSV link carries the same filters, converted the same way.
    const href = new URL(screen.getByTestId('export-csv').getAttribute('href')!, 'http://x');
    expect(href.pathname).toBe('/v1.0/order/export');
    expect(href.searchParams.get('usdtCount')).toBe('12500000');
    expect(href.searchParams.get('amount')).toBe('500.0001');
    expect(href.searchParams.get('startTime')).toBe('2024-05-01 00:00:00');
  });

  it('a USDT count with more than 6 decimals is refused with a clear text and sends nothing', async () => {
    renderAt('/order/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await screen.findByText('C2405011000001');
    const before = server.sent('/v1.0/order/getList').length;
    await user.click(screen.getByTestId('list-more-filters'));
    await user.type(screen.getByTestId('filter-usdtCount'), '1.1234567');
    await user.click(screen.getByTestId('list-search'));
    expect(await screen.findByText(/A USDT count has at most 6 decimals/)).toBeTruthy();
    expect(server.sent('/v1.0/order/getList').length).toBe(before);
  });

  it('a supplier’s pages ask for its list (no isProxy: the server’s SupplierUnifyQueryGroup decides) or its agents’ (isProxy=true), without staff filters', async () => {
    const own = renderAt('/order/list/supplier', 'supplier');
    await screen.findByText('C2405011000001');
    expect(lastListUrl().searchParams.has('isProxy')).toBe(false);
    expect(screen.queryByTestId('filter-merchantId')).toBeNull();
    expect(screen.queryByTestId('filter-supplierId')).toBeNull();
    expect(screen.getByTestId('export-csv').getAttribute('href')).toBe('/v1.0/order/export');
    // A supplier sees its commission, not the merchant's fee.
    await userEvent.setup({ delay: null }).click(screen.getByTestId('list-columns'));
    expect(screen.queryByTestId('list-column-fee')).toBeNull();
    await userEvent.setup({ delay: null }).click(await screen.findByTestId('list-column-commission'));
    expect(await screen.findByTestId('list-total-commission')).toBeTruthy();
    expect(screen.queryByTestId('list-total-fee')).toBeNull();
    own.unmount();
    renderAt('/order/list/supplierProxy', 'supplier');
    await screen.findByText('C2405011000001');
    expect(lastListUrl().searchParams.get('isProxy')).toBe('true');
    // The agents' page names which agent took each order.
    expect(screen.getByRole('columnheader', { name: 'Supplier' })).toBeTruthy();
    expect(server.sent('/v1.0/merchant/getList')).toHaveLength(0);
  });

  it('shows the load error in the reader’s words with the request id, and retries', async () => {
    server.answers.set('/v1.0/order/getList', {
      code: 500,
      msg: 'internal error (request r-42)',
      data: { requestId: 'r-42' },
    });
    renderAt('/order/list/merchant', 'merchant', null);
    expect((await screen.findByTestId('list-error')).textContent).toContain('internal error (request r-42)');
    server.answers.set('/v1.0/order/getList', page([ALLOCATED]));
    await userEvent.setup({ delay: null }).click(screen.getByTestId('list-retry'));
    expect(await screen.findByText('C2405011000001')).toBeTruthy();
    expect(screen.queryByTestId('list-error')).toBeNull();
  });

  it('labels states and marks in Simplified and Traditional Chinese', async () => {
    await changeLanguage('zh-CN');
    const first = renderAt('/order/list/merchant', 'merchant');
    expect(await within(await screen.findByTestId('order-state-C2405011000002')).findByText('回调成功')).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('list-columns'));
    await user.click(await screen.findByTestId('list-column-mark'));
    expect(screen.getAllByText('正常').length).toBeGreaterThan(0);
    first.unmount();
    await changeLanguage('zh-TW');
    renderAt('/order/list/merchant', 'merchant');
    expect(await within(await screen.findByTestId('order-state-C2405011000002')).findByText('回呼成功')).toBeTruthy();
    // The column shown stays shown (kept per user and page).
    expect(screen.getAllByText('可疑').length).toBeGreaterThan(0);
  });
});

describe('OrderListPage: row actions by role and state', () => {
  // '|' parts a row's two buttons from its 'more' menu.
  it('admin: an allocated order can be confirmed, supplemented, reselected, rejected, freed; a paid one called back; a locked one only unlocked or marked', async () => {
    renderAt('/order/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await screen.findByText('C2405011000001');
    expect(await offeredOf(user, ALLOCATED.orderCode)).toEqual([
      'confirm',
      'supplement',
      '|',
      'reselect',
      'reject',
      'freeResource',
      'updateMark',
    ]);
    // Reverse is the super admin's alone.
    expect(await offeredOf(user, PAID.orderCode)).toEqual(['callback', 'updateMark']);
    expect(await offeredOf(user, LOCKED.orderCode)).toEqual(['unlock', 'updateMark']);
  });

  it('superAdmin may reverse a paid order; technicalMaintenance reads only; customer service acts but never unlocks', async () => {
    const user = userEvent.setup({ delay: null });
    const sa = renderAt('/order/list', 'superAdmin');
    await screen.findByText('C2405011000001');
    expect(await offeredOf(user, PAID.orderCode)).toEqual(['callback', 'reverse', '|', 'updateMark']);
    sa.unmount();

    const tm = renderAt('/order/list/customerService', 'technicalMaintenance');
    await screen.findByText('C2405011000001');
    // No action is open to the role: no actions column at all.
    expect(screen.queryByTestId(`order-actions-${ALLOCATED.orderCode}`)).toBeNull();
    tm.unmount();

    renderAt('/order/list/customerService', 'customerService');
    await screen.findByText('C2405011000001');
    expect(await offeredOf(user, ALLOCATED.orderCode)).toEqual([
      'confirm',
      'supplement',
      '|',
      'reselect',
      'reject',
      'freeResource',
      'updateMark',
    ]);
    expect(await offeredOf(user, LOCKED.orderCode)).toEqual(['updateMark']);
  });

  it('a supplier confirms or rejects its allocated orders and nothing else; a merchant has no actions', async () => {
    const user = userEvent.setup({ delay: null });
    const sup = renderAt('/order/list/supplier', 'supplier');
    await screen.findByText('C2405011000001');
    expect(await offeredOf(user, ALLOCATED.orderCode)).toEqual(['confirm', 'reject']);
    expect(buttonsOf(PAID.orderCode)).toEqual([]);
    expect(buttonsOf(LOCKED.orderCode)).toEqual([]);
    sup.unmount();

    renderAt('/order/list/merchant', 'merchant');
    await screen.findByText('C2405011000001');
    expect(screen.queryByTestId(`order-actions-${ALLOCATED.orderCode}`)).toBeNull();
  });

  it('offers only what the server put in the row’s allowedActions, whatever the state suggests', async () => {
    const TIMED_OUT = row({ id: 4, orderCode: 'C2405011000004', state: ORDER_STATE.timedOut });
    const user = userEvent.setup({ delay: null });
    // CanTimeoutSupplement off: customer service is not offered supplement on a timed-out order.
    const off = renderAt('/order/list/customerService', 'customerService', [TIMED_OUT]);
    await screen.findByText(TIMED_OUT.orderCode);
    expect(await offeredOf(user, TIMED_OUT.orderCode)).toEqual(['reselect', 'reject', '|', 'updateMark']);
    off.unmount();
    // On: it is.
    server.answers.set('/v1.0/order/getList', page([asServer(TIMED_OUT, 'customerService', true)]));
    const on = renderPage(<OrderListPage />, '/order/list/customerService', testUser({ access: 'customerService' }));
    await screen.findByText(TIMED_OUT.orderCode);
    expect(await offeredOf(user, TIMED_OUT.orderCode)).toEqual(['supplement', 'reselect', '|', 'reject', 'updateMark']);
    on.unmount();
    // The console does not guess from the state: an allocated row the server allows only rejecting.
    server.answers.set('/v1.0/order/getList', page([{ ...ALLOCATED, allowedActions: ['reject'] }]));
    renderPage(<OrderListPage />, '/order/list', testUser({ access: 'superAdmin' }));
    await screen.findByText(ALLOCATED.orderCode);
    expect(await offeredOf(user, ALLOCATED.orderCode)).toEqual(['reject']);
  });

  it('confirm asks first, then posts the order code and says so', async () => {
    server.answers.set('/v1.0/order/confirmOrder', ok({ orderCode: ALLOCATED.orderCode, state: 6 }));
    renderAt('/order/list/supplier', 'supplier');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId(`order-confirm-${ALLOCATED.orderCode}`));
    expect(await screen.findByText(/Confirm the money of order C2405011000001 has arrived/)).toBeTruthy();
    expect(server.sent('/v1.0/order/confirmOrder')).toHaveLength(0);
    await user.click(screen.getByTestId('order-ok'));
    await waitFor(() => expect(server.sent('/v1.0/order/confirmOrder')).toHaveLength(1));
    expect(server.sent('/v1.0/order/confirmOrder')[0]!.body).toEqual({ orderCode: ALLOCATED.orderCode });
    expect(await screen.findByText('Receipt confirmed')).toBeTruthy();
  });

  it('changing the mark posts the order id and the mark', async () => {
    server.answers.set('/v1.0/order/updateOrderMark', ok({ orderCode: ALLOCATED.orderCode, mark: 2, locked: false }));
    renderAt('/order/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await pickMore(user, ALLOCATED.orderCode, 'updateMark');
    const select = await screen.findByTestId('order-mark-choice');
    await user.click(within(select).getByRole('combobox'));
    const options = await screen.findAllByText('Test');
    await user.click(options.at(-1)!);
    await user.click(screen.getByTestId('order-mark-submit'));
    await waitFor(() => expect(server.sent('/v1.0/order/updateOrderMark')).toHaveLength(1));
    expect(server.sent('/v1.0/order/updateOrderMark')[0]!.body).toEqual({ id: ALLOCATED.id, orderMark: 2 });
    expect(await screen.findByText('Mark updated')).toBeTruthy();
  });

  it('unlock warns about the risks and waits for an explicit confirmation', async () => {
    server.answers.set('/v1.0/order/unlockOrder', ok({ count: 1 }));
    renderAt('/order/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId(`order-unlock-${LOCKED.orderCode}`));
    expect(await screen.findByText(/which may lose money/)).toBeTruthy();
    const submit = screen.getByTestId('order-unlock-submit') as HTMLButtonElement;
    expect(submit.disabled).toBe(true);
    await user.click(screen.getByTestId('order-unlock-understood'));
    await waitFor(() => expect(submit.disabled).toBe(false));
    await user.click(submit);
    await waitFor(() => expect(server.sent('/v1.0/order/unlockOrder')).toHaveLength(1));
    expect(server.sent('/v1.0/order/unlockOrder')[0]!.body).toEqual({ orderCodes: [LOCKED.orderCode] });
    expect(await screen.findByText('Order unlocked')).toBeTruthy();
  });
});

describe('OrderListPage: the reject dialog', () => {
  it('needs a reason, posts it trimmed, and shows the server’s reason when refused', async () => {
    server.answers.set('/v1.0/order/reject', {
      code: 422,
      msg: 'this action is not allowed in the order’s current state',
      data: { reason: 'stateNotAllowed' },
    });
    renderAt('/order/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await pickMore(user, ALLOCATED.orderCode, 'reject');
    expect(await screen.findByText('Reject order C2405011000001')).toBeTruthy();
    await user.click(screen.getByTestId('order-reject-submit'));
    expect(await screen.findByText('Enter the reason')).toBeTruthy();
    expect(server.sent('/v1.0/order/reject')).toHaveLength(0);

    await user.type(screen.getByTestId('order-reject-reason'), '  payer cancelled  ');
    await user.click(screen.getByTestId('order-reject-submit'));
    await waitFor(() => expect(server.sent('/v1.0/order/reject')).toHaveLength(1));
    expect(server.sent('/v1.0/order/reject')[0]!.body).toEqual({
      orderCode: ALLOCATED.orderCode,
      rejectReason: 'payer cancelled',
    });
    expect(
      await screen.findByText('Reject failed: This action is not allowed in the order’s current state'),
    ).toBeTruthy();
    // Still open, to correct or cancel.
    expect(screen.getByTestId('order-reject-reason')).toBeTruthy();

    // A refusal this console has no text for shows the server's message as sent.
    // A refusal without a reason: the code's text, not the server's English.
    server.answers.set('/v1.0/order/reject', { code: 409, msg: 'something new went wrong', data: null });
    await user.click(screen.getByTestId('order-reject-submit'));
    expect(await screen.findByText('Reject failed: conflict: it already exists or it changed meanwhile')).toBeTruthy();

    server.answers.set('/v1.0/order/reject', ok({ orderCode: ALLOCATED.orderCode, state: 7 }));
    const listCalls = server.sent('/v1.0/order/getList').length;
    await user.click(screen.getByTestId('order-reject-submit'));
    expect(await screen.findByText('Order rejected')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('order-reject-reason')).toBeNull());
    // The list reloads to show the new state.
    await waitFor(() => expect(server.sent('/v1.0/order/getList').length).toBeGreaterThan(listCalls));
  });

  it('speaks Simplified Chinese', async () => {
    await changeLanguage('zh-CN');
    renderAt('/order/list/supplier', 'supplier');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId(`order-reject-${ALLOCATED.orderCode}`));
    await user.click(await screen.findByTestId('order-reject-submit'));
    expect(await screen.findByText('请填写驳回原因')).toBeTruthy();
  });
});

describe('OrderListPage: supplement', () => {
  it('checks the UTR and posts it with isOffsetReplenishmentOrder=false', async () => {
    server.answers.set('/v1.0/order/replenishmentOrder', ok({ orderCode: ALLOCATED.orderCode, state: 6 }));
    setToken2('t2');
    renderAt('/order/list/customerService', 'customerService');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId(`order-supplement-${ALLOCATED.orderCode}`));
    await user.type(await screen.findByTestId('order-supplement-utr'), 'abc');
    await user.click(screen.getByTestId('order-supplement-submit'));
    expect(await screen.findByText('A UTR is 6 to 128 letters and digits')).toBeTruthy();
    expect(server.sent('/v1.0/order/replenishmentOrder')).toHaveLength(0);
    await user.clear(screen.getByTestId('order-supplement-utr'));
    await user.type(screen.getByTestId('order-supplement-utr'), '412345678901');
    await user.click(screen.getByTestId('order-supplement-submit'));
    await waitFor(() => expect(server.sent('/v1.0/order/replenishmentOrder')).toHaveLength(1));
    expect(server.sent('/v1.0/order/replenishmentOrder')[0]!.body).toEqual({
      orderCode: ALLOCATED.orderCode,
      isOffsetReplenishmentOrder: false,
      utr: '412345678901',
    });
    expect(await screen.findByText('Order supplemented')).toBeTruthy();
  });
});

describe('OrderListPage: the detail drawer', () => {
  const DETAIL = {
    order: ALLOCATED,
    payee: {
      kind: 'upi',
      accountName: 'Demo Account One',
      vpa: 'demo.one@icici',
      upiLink: 'upi://pay?pa=demo.one@icici&am=1234.56',
      qrCode: 'upi://pay?pa=demo.one@icici&am=1234.56',
    },
    timeline: [
      {
        at: '2024-05-01T10:00:00.000Z',
        kind: 'created',
        fromState: null,
        toState: 0,
        actor: null,
        note: 'merchant API from 10.0.0.7',
        noteTemplate: { key: 'viaApi', values: { ip: '10.0.0.7' } },
      },
      {
        at: '2024-05-01T10:00:01.000Z',
        kind: 'allocated',
        fromState: 0,
        toState: 1,
        actor: null,
        note: 'Demo UPI ICICI (Supplier One)',
        noteTemplate: null,
      },
      {
        at: '2024-05-01T10:02:00.000Z',
        kind: 'marked',
        fromState: null,
        toState: null,
        actor: 'service',
        note: 'mark 0 -> 1, locked',
        noteTemplate: { key: 'markedLocked', values: { fromMark: 0, toMark: 1 } },
      },
      {
        at: '2024-05-01T10:03:00.000Z',
        kind: 'callbackSucceeded',
        fromState: 6,
        toState: 3,
        actor: null,
        note: 'the merchant answered SUCCESS (callback #4, attempt 2)',
        noteTemplate: { key: 'callbackSucceeded', values: { callbackId: 4, attempt: 2 } },
      },
    ],
    transfers: [
      {
        id: 77,
        type: 'orderHold',
        idempotencyKey: 'C2405011000001:hold:1',
        note: 'hold for order C2405011000001',
        noteTemplate: { key: 'orderHold', values: { orderCode: 'C2405011000001' } },
        createdAt: '2024-05-01T10:00:01.000Z',
        entries: [
          { account: 'supplier:5:available', amount: -123_456 },
          { account: 'supplier:5:frozen', amount: 123_456 },
        ],
      },
    ],
  };
  const ALLOCATION = {
    orderCode: ALLOCATED.orderCode,
    attempts: [
      {
        at: '2024-05-01T10:00:01.000Z',
        chosenResourceId: 9,
        candidates: [
          { resourceId: 9, resourceName: 'Demo UPI ICICI', supplierName: 'Supplier One', outcome: 'chosen' },
          { resourceId: 10, resourceName: 'Demo UPI Axis', supplierName: 'Supplier One', outcome: 'sameAmountOpen' },
          { resourceId: 11, resourceName: 'Agent UPI', supplierName: 'Agent One', outcome: 'balanceShort' },
        ],
      },
    ],
  };

  /** Admin opens the detail drawer of the allocated order (DETAIL and ALLOCATION answered). */
  async function openStaffDrawer() {
    server.answers.set('/v1.0/order/getDetail', ok({ ...DETAIL, order: asServer(ALLOCATED, 'admin') }));
    server.answers.set('/v1.0/order/getOrderAllocateInfo', ok(ALLOCATION));
    renderAt('/order/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId(`order-detail-${ALLOCATED.orderCode}`));
    return screen.findByTestId('order-detail');
  }

  it('on a phone the actions sit in the drawer’s footer, not beside the title', async () => {
    vi.stubGlobal('matchMedia', () => ({ matches: true, addEventListener() {}, removeEventListener() {} }));
    await openStaffDrawer();
    const footer = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('.ant-drawer-footer');
      expect(el).not.toBeNull();
      return el!;
    });
    expect(within(footer).getByTestId(`order-confirm-${ALLOCATED.orderCode}`)).toBeTruthy();
    expect(document.querySelector('.ant-drawer-extra')).toBeNull();
  });

  it('staff see the fields, the payee, the timeline, the transfers and why each account was skipped', async () => {
    const drawer = await openStaffDrawer();
    expect((await within(drawer).findByTestId('order-detail-amount')).textContent).toBe('1,234.56');
    const payee = within(drawer).getByTestId('order-detail-payee');
    expect(within(payee).getByText('demo.one@icici')).toBeTruthy();
    expect(within(payee).getByText('Demo Account One')).toBeTruthy();
    const timeline = within(drawer).getByTestId('order-detail-timeline');
    const entries = within(timeline).getAllByTestId('order-timeline-entry');
    expect(entries).toHaveLength(4);
    expect(entries[1]!.textContent).toContain('Allocated');
    expect(entries[1]!.textContent).toContain('Created → Allocated');
    expect(entries[1]!.textContent).toContain('Demo UPI ICICI (Supplier One)');
    expect(entries[1]!.textContent).toContain('System');
    expect(entries[2]!.textContent).toContain('service');
    // The server's notes from their templates; mark codes by their names.
    expect(entries[0]!.textContent).toContain('merchant API from 10.0.0.7');
    expect(entries[2]!.textContent).toContain('mark Normal -> Suspicious, locked');
    // Every kind the server writes has its label (no raw 'callbackSucceeded').
    expect(entries[3]!.textContent).toContain('Callback succeeded');
    const transfers = within(drawer).getByTestId('order-detail-transfers');
    expect(within(transfers).getByText('Order hold')).toBeTruthy();
    // Ledger accounts in words, the order's parties by name; the code stays at hand as the title.
    const account = within(transfers).getByText('Supplier Supplier One frozen balance');
    expect(account.getAttribute('title')).toBe('supplier:5:frozen');
    expect(within(transfers).getByText('-1,234.56')).toBeTruthy();
    const allocation = await within(drawer).findByTestId('order-detail-allocation');
    expect(await within(allocation).findByText('An open order of the same amount on this account')).toBeTruthy();
    expect(within(allocation).getByText('Supplier balance too low')).toBeTruthy();
    expect(within(allocation).getByText('Chosen: Demo UPI ICICI')).toBeTruthy();
    expect(server.sent('/v1.0/order/getDetail')[0]!.url).toContain(`orderCode=${ALLOCATED.orderCode}`);
    // The row's actions are at hand in the drawer too.
    expect(within(drawer).getByTestId(`order-confirm-${ALLOCATED.orderCode}`)).toBeTruthy();
    // Fields this UPI order leaves empty are not listed; staff see fee, commission and supplier.
    const fields = within(drawer).getByTestId('order-detail-fields');
    expect(within(fields).queryByText('IFSC')).toBeNull();
    expect(within(fields).queryByText('Card number')).toBeNull();
    expect(within(fields).getByText('Top-up')).toBeTruthy();
    for (const label of ['Fee', 'Commission', 'Supplier']) expect(within(fields).getByText(label)).toBeTruthy();
  });

  it('the server’s notes read in Chinese; a note without a template stays as written', async () => {
    await changeLanguage('zh-CN');
    const drawer = await openStaffDrawer();
    const entries = within(within(drawer).getByTestId('order-detail-timeline')).getAllByTestId('order-timeline-entry');
    expect(entries[0]!.textContent).toContain('商户 API，来自 10.0.0.7');
    expect(entries[1]!.textContent).toContain('Demo UPI ICICI (Supplier One)');
    expect(entries[2]!.textContent).toContain('标记 正常 → 可疑，已锁定');
    expect(entries[3]!.textContent).toContain('商户已回复 SUCCESS（回调 #4，第 2 次）');
    expect(within(drawer).getByTestId('order-detail-transfers').textContent).toContain('订单 C2405011000001 冻结');
    expect(drawer.textContent).not.toMatch(/merchant API|answered SUCCESS|hold for order/);
  });

  it('a merchant’s drawer has no supplier side, a supplier’s no fee (as the server sends them)', async () => {
    const merchantView = { ...ALLOCATED, supplierId: null, supplierName: null, resourceId: null, resourceName: null };
    server.answers.set('/v1.0/order/getDetail', ok({ ...DETAIL, order: merchantView, transfers: [] }));
    server.answers.set('/v1.0/order/getList', page([merchantView]));
    const merchant = renderAt('/order/list/merchant', 'merchant');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId(`order-detail-${ALLOCATED.orderCode}`));
    let fields = await within(await screen.findByTestId('order-detail')).findByTestId('order-detail-fields');
    expect(within(fields).getByText('Fee')).toBeTruthy();
    for (const label of ['Commission', 'Supplier', 'Receiving account'])
      expect(within(fields).queryByText(label)).toBeNull();
    merchant.unmount();

    server.answers.set('/v1.0/order/getDetail', ok({ ...DETAIL, order: { ...ALLOCATED, fee: null } }));
    renderAt('/order/list/supplier', 'supplier');
    await user.click(await screen.findByTestId(`order-detail-${ALLOCATED.orderCode}`));
    fields = await within(await screen.findByTestId('order-detail')).findByTestId('order-detail-fields');
    expect(within(fields).queryByText('Fee')).toBeNull();
    expect(within(fields).getByText('Commission')).toBeTruthy();
  });

  it('a supplier’s drawer has no allocation record (it is staff’s), and a load failure says why', async () => {
    server.answers.set('/v1.0/order/getDetail', { code: 404, msg: 'no such order', data: null });
    renderAt('/order/list/supplier', 'supplier');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId(`order-detail-${ALLOCATED.orderCode}`));
    const drawer = await screen.findByTestId('order-detail');
    expect(await within(drawer).findByText('The order failed to load: not found')).toBeTruthy();
    expect(within(drawer).queryByTestId('order-detail-allocation')).toBeNull();
    expect(server.sent('/v1.0/order/getOrderAllocateInfo')).toHaveLength(0);
  });
});

describe('OrderListPage: live updates over the websocket', () => {
  beforeEach(() => {
    vi.stubGlobal('WebSocket', LiveSocket);
    setToken('session-token');
  });

  it('subscribes to orders; on page 1 unfiltered it refetches; once filtered it shows "n new" instead', async () => {
    renderAt('/order/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await screen.findByText('C2405011000001');
    const socket = LiveSocket.last!;
    act(() => socket.open());
    expect(
      socket.sent.some((s) => JSON.parse(s).commandType === 'subscribe' && JSON.parse(s).data.topic === 'orders'),
    ).toBe(true);

    server.answers.set('/v1.0/order/getList', page([row({ id: 9, orderCode: 'C2405011000009' }), ALLOCATED]));
    act(() => socket.push('orders', { orderCode: 'C1', state: 1 }));
    expect(await screen.findByText('C2405011000009')).toBeTruthy();
    expect(screen.queryByTestId('order-new-marker')).toBeNull();

    // Filtered: the rows stay as they are; a probe counts what arrived in the filtered set.
    await user.click(screen.getByTestId('list-more-filters'));
    await user.type(screen.getByTestId('filter-userName'), 'payer');
    await search(user);
    await waitFor(() => expect(lastListUrl().searchParams.get('userName')).toBe('payer'));
    const listCalls = server.sent('/v1.0/order/getList').length;
    server.answers.set('/v1.0/order/getList', page([ALLOCATED], 4));
    act(() => socket.push('orders', { orderCode: 'C1', state: 1 }));
    const marker = await screen.findByTestId('order-new-marker');
    expect(marker.textContent).toContain('2 new orders');
    const probe = new URL(server.sent('/v1.0/order/getList').at(-1)!.url, 'http://x');
    expect(probe.searchParams.get('pageSize')).toBe('1');
    expect(probe.searchParams.get('userName')).toBe('payer');
    expect(server.sent('/v1.0/order/getList').length).toBe(listCalls + 1);
    // The rows on screen did not move.
    expect(screen.getByText('C2405011000009')).toBeTruthy();

    await user.click(marker);
    await waitFor(() => expect(screen.queryByText('C2405011000009')).toBeNull());
    expect(screen.queryByTestId('order-new-marker')).toBeNull();
  });
});

describe('find by picture (AllowPictureQueryOrder)', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const renderWith = (access: Role, pictureQueryEnabled: boolean, path = '/order/list') => {
    server.answers.set('/v1.0/order/getList', page([asServer(ALLOCATED, access)]));
    return renderPage(<OrderListPage />, path, testUser({ access, pictureQueryEnabled }));
  };

  it('off (getInfo): not offered, even to staff', async () => {
    renderWith('customerService', false);
    await screen.findByTestId(`order-detail-${ALLOCATED.orderCode}`);
    expect(screen.queryByTestId('picture-query-open')).toBeNull();
  });

  it('on: not offered to technical support nor on a supplier’s list', async () => {
    const support = renderWith('technicalSupport', true);
    await screen.findByTestId(`order-detail-${ALLOCATED.orderCode}`);
    expect(screen.queryByTestId('picture-query-open')).toBeNull();
    support.unmount();
    renderWith('supplier', true, '/order/list/supplier');
    await screen.findByTestId(`order-detail-${ALLOCATED.orderCode}`);
    expect(screen.queryByTestId('picture-query-open')).toBeNull();
  });

  it('on: sends the picked picture, shows the UTRs and amounts read and the orders found; an order opens its detail', {
    timeout: 60_000,
  }, async () => {
    const found = asServer({ ...ALLOCATED, payerUtr: '407812345678', amount: 123_450 }, 'customerService');
    server.answers.set(
      '/v1.0/order/pictureQuery',
      ok({
        text: 'Rs 1,234.50\nUPI Ref No: 407812345678',
        utrs: ['407812345678'],
        amounts: [123_450],
        matchedBy: 'utr',
        orders: [found],
      }),
    );
    server.answers.set('/v1.0/order/getDetail', ok({ order: found, payee: null, timeline: [], transfers: [] }));
    renderWith('customerService', true);
    const user = userEvent.setup({ delay: null, applyAccept: false });
    await user.click(await screen.findByRole('button', { name: /Find by picture/ }));
    expect(screen.getByRole('button', { name: 'Read and find' })).toHaveProperty('disabled', true);
    const picker = screen.getByTestId('picture-query-file').querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(picker, new File([png], 'receipt.png', { type: 'image/png' }));
    expect(await screen.findByAltText('The receipt to read')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Read and find' }));

    await waitFor(() => expect(server.sent('/v1.0/order/pictureQuery')).toHaveLength(1));
    expect(server.sent('/v1.0/order/pictureQuery')[0]!.body).toEqual({
      receipt: { mime: 'image/png', imageBase64: btoa(String.fromCharCode(...png)) },
    });
    expect((await screen.findByTestId('picture-query-utrs', {}, { timeout: 5_000 })).textContent).toBe('407812345678');
    expect(screen.getByTestId('picture-query-amounts').textContent).toContain('1,234.50');
    expect(screen.getByText('Orders with this UTR')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: `Open order ${ALLOCATED.orderCode}` }));
    await waitFor(() => expect(server.sent('/v1.0/order/getDetail')).toHaveLength(1));
    expect(server.sent('/v1.0/order/getDetail')[0]!.url).toContain(`orderCode=${ALLOCATED.orderCode}`);
    expect(screen.queryByTestId('picture-query-orders')).toBeNull();
  });

  it('on: a refusal shows its reason in the reader’s language', { timeout: 60_000 }, async () => {
    server.answers.set('/v1.0/order/pictureQuery', {
      code: 422,
      msg: 'finding orders by picture is switched off (AllowPictureQueryOrder)',
      data: { reason: 'pictureQueryOff' },
    });
    renderWith('admin', true);
    const user = userEvent.setup({ delay: null, applyAccept: false });
    await user.click(await screen.findByTestId('picture-query-open'));
    const picker = screen.getByTestId('picture-query-file').querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(picker, new File([png], 'receipt.png', { type: 'image/png' }));
    // The picture is read into the dialog first: sending is offered once it shows.
    expect(await screen.findByAltText('The receipt to read', {}, { timeout: 10_000 })).toBeTruthy();
    await user.click(screen.getByTestId('picture-query-send'));
    await waitFor(() => expect(server.sent('/v1.0/order/pictureQuery')).toHaveLength(1));
    expect((await screen.findByTestId('picture-query-error', {}, { timeout: 10_000 })).textContent).toContain(
      'Finding orders by picture is switched off (AllowPictureQueryOrder)',
    );
  });
});
