import { allowedPayoutActions, CODE_TEXTS, Code, PAYOUT_STATE, type PayoutRow, type Role } from '@paydesk/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { clearToken, setToken, setToken2 } from '../../shared/api/session-storage';
import { LiveSocket } from '../../test/liveSocket';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import { PAYOUT_ROW_ACTIONS } from './PayoutActions';
import PayoutListPage from './PayoutListPage';

const S = PAYOUT_STATE;
const row = (over: Partial<PayoutRow> = {}): PayoutRow => ({
  id: 1,
  orderCode: 'P2405011000001',
  mchOrderNo: 'M-1',
  merchantId: 3,
  productId: 2001,
  amount: 123_456,
  fee: 2_351,
  commission: null,
  state: S.awaiting,
  supplierId: null,
  resourceId: null,
  userName: 'Asha Rao',
  cardNumber: '50100234567890',
  ifscCode: 'HDFC0001234',
  bankName: 'HDFC Bank',
  bankBranch: 'Koramangala',
  address: '12 MG Road, Bengaluru',
  remark: null,
  utr: null,
  receiptId: null,
  rejectReason: null,
  exceptionReason: null,
  createdAt: '2024-05-01T10:00:00.000Z',
  claimedAt: null,
  completedAt: null,
  allowedActions: [],
  ...over,
});

/** A row as the server answers it to `role`: with the actions the contract's rule allows it. */
const asServer = (r: PayoutRow, role: Role, claimedByCaller = false): PayoutRow => ({
  ...r,
  allowedActions: allowedPayoutActions(role, { state: r.state, claimedByCaller }),
});

const AWAITING = row();
const IN_PROGRESS = row({
  id: 2,
  orderCode: 'P2405011000002',
  state: S.inProgress,
  supplierId: 5,
  resourceId: 9,
  commission: 1_234,
  claimedAt: '2024-05-01T10:05:00.000Z',
});
const SUBMITTED = row({
  id: 3,
  orderCode: 'P2405011000003',
  state: S.submitted,
  supplierId: 5,
  resourceId: 9,
  utr: 'UTR123456',
});
const EXCEPTION = row({
  id: 4,
  orderCode: 'P2405011000004',
  state: S.processingException,
  supplierId: 5,
  resourceId: 9,
  exceptionReason: 'payee says nothing arrived',
});
const ROWS = [AWAITING, IN_PROGRESS, SUBMITTED, EXCEPTION];
const page = (
  rows: PayoutRow[],
  summary: Record<string, number> = { amount: 9_876_543, fee: 12_345, commission: 6_789 },
) => ok({ list: rows, total: rows.length, pageIndex: 1, pageSize: 20, summary });
const STATES = Object.entries(S).map(([name, id]) => ({ id, name }));
let server: ReturnType<typeof stubServer>;

vi.setConfig({ testTimeout: 30_000 });

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({
    '/v1.0/payoutOrder/getList': page(ROWS),
    '/v1.0/payoutOrder/getPayoutStatusList': ok(STATES),
    '/v1.0/merchant/getList': ok({ list: [], total: 0, pageIndex: 1, pageSize: 500 }),
    '/v1.0/supplier/getList': ok({ list: [], total: 0, pageIndex: 1, pageSize: 500 }),
    '/v1.0/view/getList': ok([]),
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
  await changeLanguage('en-US');
});

/** The page as `access` sees it, the rows answered with that role's allowed actions. */
const renderAt = (path: string, access: Role, rows: PayoutRow[] = ROWS, claimedByCaller = false) => {
  server.answers.set('/v1.0/payoutOrder/getList', page(rows.map((r) => asServer(r, access, claimedByCaller))));
  return renderPage(<PayoutListPage />, path, testUser({ access }));
};
const listRequests = () => server.sent('/v1.0/payoutOrder/getList').map((r) => new URL(r.url, 'http://x').searchParams);

/** A row's actions: its buttons, then the entries of its 'more' menu (opened and closed again). */
async function offeredOf(user: ReturnType<typeof userEvent.setup>, orderCode: string) {
  const bar = await screen.findByTestId(`payout-actions-${orderCode}`);
  const inline = within(bar)
    .queryAllByRole('button')
    .map((b) => b.getAttribute('data-testid')!)
    .map((id) => id.replace(/^payout-/, '').replace(`-${orderCode}`, ''));
  if (!inline.includes('more')) return inline;
  await user.click(screen.getByTestId(`payout-more-${orderCode}`));
  const menu = await waitFor(() => {
    const items = [...document.querySelectorAll('.ant-dropdown:not(.ant-dropdown-hidden) [data-testid]')];
    expect(items.length).toBeGreaterThan(0);
    return items;
  });
  await user.keyboard('{Escape}');
  const more = menu
    .map((el) => el.getAttribute('data-testid')!)
    .filter((id) => id.endsWith(`-${orderCode}`))
    .map((id) => id.replace(/^payout-/, '').replace(`-${orderCode}`, ''));
  return [...inline.filter((a) => a !== 'more'), ...more];
}
/** What the page should offer on a row: its allowedActions, in the declared order. */
const declared = (r: PayoutRow) =>
  PAYOUT_ROW_ACTIONS.map((a) => a.key).filter((k) => r.allowedActions.includes(k as never));

describe('PayoutListPage: the list', () => {
  it('admin sees every payout: money /100, the totals row, state labels, staff filters and the CSV link', async () => {
    renderAt('/payProxyOrder/list', 'admin');
    const list = await screen.findByTestId('payout-list');
    expect(await within(list).findByText(AWAITING.orderCode)).toBeTruthy();
    expect(within(list).getAllByText('1,234.56').length).toBe(4);
    expect(screen.getByTestId('list-total-amount').textContent).toBe('98,765.43');
    expect(
      within(screen.getByTestId(`payout-state-${EXCEPTION.orderCode}`)).getByText('Processing exception'),
    ).toBeTruthy();
    expect(screen.getByTestId('filter-merchantId')).toBeTruthy();
    expect(screen.getByTestId('filter-supplierId')).toBeTruthy();
    expect(listRequests().at(-1)!.has('isProxy')).toBe(false);
    expect(listRequests().at(-1)!.has('queue')).toBe(false);
    expect(screen.getByTestId('export-csv').getAttribute('href')).toBe('/v1.0/payoutOrder/export');
    expect(screen.queryByTestId('payout-create')).toBeNull();
    expect(screen.queryByTestId('payout-tabs')).toBeNull();
  });

  it('sends the payout filters: state by code, amount as typed + 0.0001, the same on the CSV link', async () => {
    renderAt('/payProxyOrder/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await screen.findByText(AWAITING.orderCode);
    await user.type(screen.getByTestId('filter-amount'), '1234.56');
    await user.type(screen.getByTestId('filter-utr'), ' UTR12 ');
    const before = listRequests().length;
    await user.click(screen.getByTestId('list-search'));
    await waitFor(() => expect(listRequests().length).toBeGreaterThan(before));
    const sent = listRequests().at(-1)!;
    expect(sent.get('amount')).toBe('1234.5601');
    expect(sent.get('utr')).toBe('UTR12');
    const href = new URL(screen.getByTestId('export-csv').getAttribute('href')!, 'http://x');
    expect(href.searchParams.get('utr')).toBe('UTR12');
  });

  it.each([
    ['admin', '/payProxyOrder/list', false],
    ['customerService', '/payProxyOrder/list/customerService', false],
    ['merchant', '/payProxyOrder/list/merchant', false],
    ['supplier', '/payProxyOrder/list/supplier', true],
  ] as const)('%s: each row offers exactly its allowedActions (the server’s rule)', async (access, path, mine) => {
    renderAt(path, access, ROWS, mine);
    const user = userEvent.setup({ delay: null });
    await screen.findByText(AWAITING.orderCode);
    for (const r of ROWS) {
      const served = asServer(r, access, mine);
      const offered = await offeredOf(user, r.orderCode).catch(() => []);
      expect(offered, `${access} ${r.orderCode}`).toEqual(declared(served));
    }
  });

  it('a merchant: only cancel on an awaiting payout, no commission, and the New payout button', async () => {
    renderAt('/payProxyOrder/list/merchant', 'merchant');
    const user = userEvent.setup({ delay: null });
    await screen.findByText(AWAITING.orderCode);
    expect(await offeredOf(user, AWAITING.orderCode)).toEqual(['cancel']);
    expect(screen.queryByTestId(`payout-actions-${IN_PROGRESS.orderCode}`)?.textContent ?? '').toBe('');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).not.toContain('Commission');
    expect(screen.getByTestId('payout-create')).toBeTruthy();
  });

  it('the supplier’s pages: its list without isProxy (the server’s SupplierUnifyQueryGroup decides; with the claim queue tab) and its agents’', async () => {
    const own = renderAt('/payProxyOrder/list/supplier', 'supplier');
    await screen.findByText(AWAITING.orderCode);
    expect(listRequests().at(-1)!.has('isProxy')).toBe(false);
    expect(screen.getByTestId('payout-tabs')).toBeTruthy();
    own.unmount();
    renderAt('/payProxyOrder/list/supplierProxy', 'supplier');
    await screen.findByText(AWAITING.orderCode);
    expect(listRequests().at(-1)!.get('isProxy')).toBe('true');
    expect(screen.queryByTestId('payout-tabs')).toBeNull();
  });

  it('shows the server’s refusal when the list cannot load', async () => {
    server.answers.set('/v1.0/payoutOrder/getList', { code: 403, msg: 'forbidden', data: null });
    renderPage(<PayoutListPage />, '/payProxyOrder/list', testUser({ access: 'admin' }));
    await waitFor(() => expect(server.sent('/v1.0/payoutOrder/getList').length).toBeGreaterThan(0));
    expect(await screen.findByTestId('list-error')).toBeTruthy();
  });
});

describe('PayoutListPage: live updates over the websocket', () => {
  it('subscribes to payouts; a payout claimed elsewhere shows its new state and loses its claim without a reload', async () => {
    vi.stubGlobal('WebSocket', LiveSocket);
    setToken('session-token');
    onTestFinished(() => clearToken());
    renderAt('/payProxyOrder/list/supplier', 'supplier');
    const user = userEvent.setup({ delay: null });
    expect(await offeredOf(user, AWAITING.orderCode)).toEqual(['claim']);
    const socket = LiveSocket.last!;
    act(() => socket.open());
    expect(socket.subscribed()).toContain('payouts');
    const reads = server.sent('/v1.0/payoutOrder/getList').length;

    // Another supplier claimed it: the server's list now answers it in progress, not this supplier's.
    const taken = { ...AWAITING, state: S.inProgress, supplierId: 6, claimedAt: '2024-05-01T10:06:00.000Z' };
    server.answers.set('/v1.0/payoutOrder/getList', page([taken, IN_PROGRESS].map((r) => asServer(r, 'supplier'))));
    act(() => socket.push('payouts', { orderCode: AWAITING.orderCode, state: S.inProgress }));
    await waitFor(() => expect(server.sent('/v1.0/payoutOrder/getList').length).toBeGreaterThan(reads));
    await waitFor(() =>
      expect(screen.getByTestId(`payout-state-${AWAITING.orderCode}`).textContent).toBe('In progress'),
    );
    expect(screen.queryByTestId(`payout-claim-${AWAITING.orderCode}`)).toBeNull();
    expect(screen.queryByText(SUBMITTED.orderCode)).toBeNull();
  });
});

describe('PayoutListPage: the action forms', () => {
  it('submit UTR: checked by the endpoint’s rule, posted trimmed with the payout id', async () => {
    server.answers.set(
      '/v1.0/payoutOrder/submit',
      ok({ orderId: 2, orderCode: IN_PROGRESS.orderCode, state: S.submitted }),
    );
    renderAt('/payProxyOrder/list/supplier', 'supplier', [IN_PROGRESS], true);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId(`payout-submit-${IN_PROGRESS.orderCode}`));
    await user.type(screen.getByTestId('payout-submit-utr'), 'abc');
    await user.click(screen.getByTestId('payout-submit-send'));
    expect(await screen.findByText('The UTR is 6 to 128 letters or digits (USDT: the transaction hash)')).toBeTruthy();
    expect(server.sent('/v1.0/payoutOrder/submit')).toHaveLength(0);
    await user.clear(screen.getByTestId('payout-submit-utr'));
    await user.type(screen.getByTestId('payout-submit-utr'), '  432112345678 ');
    await user.click(screen.getByTestId('payout-submit-send'));
    await waitFor(() => expect(server.sent('/v1.0/payoutOrder/submit')).toHaveLength(1));
    expect(server.sent('/v1.0/payoutOrder/submit')[0]!.body).toEqual({ orderId: 2, utr: '432112345678' });
    expect(await screen.findByText(`UTR of ${IN_PROGRESS.orderCode} submitted`)).toBeTruthy();
  });

  it('submit UTR with a receipt: a picked image is checked, previewed, removable, and sent as base64 with the UTR', async () => {
    server.answers.set(
      '/v1.0/payoutOrder/submit',
      ok({ orderId: 2, orderCode: IN_PROGRESS.orderCode, state: S.submitted }),
    );
    renderAt('/payProxyOrder/list/supplier', 'supplier', [IN_PROGRESS], true);
    const user = userEvent.setup({ delay: null, applyAccept: false });
    await user.click(await screen.findByTestId(`payout-submit-${IN_PROGRESS.orderCode}`));
    const picker = () =>
      screen.getByTestId('payout-submit-receipt').querySelector('input[type=file]') as HTMLInputElement;
    // Not an image, or too large: the server's texts, nothing kept.
    await user.upload(picker(), new File(['not a picture'], 'receipt.txt', { type: 'text/plain' }));
    expect(await screen.findByText('File type error')).toBeTruthy();
    await user.upload(picker(), new File([new Uint8Array(512 * 1024 + 1)], 'big.png', { type: 'image/png' }));
    expect(await screen.findByText('the image is larger than 512 KiB')).toBeTruthy();
    expect(screen.queryByTestId('payout-submit-receipt-preview')).toBeNull();
    // A picture: previewed with its text alternative, removable, picked again.
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    await user.upload(picker(), new File([png], 'receipt.png', { type: 'image/png' }));
    expect(await screen.findByAltText(`Receipt to send with payout ${IN_PROGRESS.orderCode}`)).toBeTruthy();
    await user.click(screen.getByTestId('payout-submit-receipt-remove'));
    expect(screen.queryByAltText(`Receipt to send with payout ${IN_PROGRESS.orderCode}`)).toBeNull();
    await user.upload(picker(), new File([png], 'receipt.png', { type: 'image/png' }));
    await screen.findByAltText(`Receipt to send with payout ${IN_PROGRESS.orderCode}`);
    await user.type(screen.getByTestId('payout-submit-utr'), '432112345679');
    await user.click(screen.getByTestId('payout-submit-send'));
    await waitFor(() => expect(server.sent('/v1.0/payoutOrder/submit')).toHaveLength(1));
    expect(server.sent('/v1.0/payoutOrder/submit')[0]!.body).toEqual({
      orderId: 2,
      utr: '432112345679',
      receipt: { mime: 'image/png', imageBase64: btoa(String.fromCharCode(...png)) },
    });
  });

  it('mark abnormal and reject need a reason (in the user’s language)', async () => {
    await changeLanguage('zh-CN');
    renderAt('/payProxyOrder/list/supplier', 'supplier', [IN_PROGRESS], true);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId(`payout-more-${IN_PROGRESS.orderCode}`));
    await user.click(await screen.findByTestId(`payout-markAbnormal-${IN_PROGRESS.orderCode}`));
    await user.click(await screen.findByTestId('payout-abnormal-submit'));
    expect(await screen.findByText('请填写异常原因')).toBeTruthy();
    server.answers.set(
      '/v1.0/payoutOrder/markAbnormal',
      ok({ orderId: 2, orderCode: IN_PROGRESS.orderCode, state: 9 }),
    );
    await user.type(screen.getByTestId('payout-abnormal-reason'), ' 收款人未到账 ');
    await user.click(screen.getByTestId('payout-abnormal-submit'));
    await waitFor(() => expect(server.sent('/v1.0/payoutOrder/markAbnormal')).toHaveLength(1));
    expect(server.sent('/v1.0/payoutOrder/markAbnormal')[0]!.body).toEqual({ orderId: 2, reason: '收款人未到账' });
  });

  it('resolve (token2): to rejected with a note', async () => {
    setToken2('t2');
    server.answers.set(
      '/v1.0/payoutOrder/resolve',
      ok({ orderId: 4, orderCode: EXCEPTION.orderCode, state: S.rejected }),
    );
    renderAt('/payProxyOrder/list', 'admin', [EXCEPTION]);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId(`payout-resolve-${EXCEPTION.orderCode}`));
    await user.click(await screen.findByText('Rejected (funds back to the merchant)'));
    await user.type(screen.getByTestId('payout-resolve-reason'), 'payee account closed');
    await user.click(screen.getByTestId('payout-resolve-submit'));
    await waitFor(() => expect(server.sent('/v1.0/payoutOrder/resolve')).toHaveLength(1));
    expect(server.sent('/v1.0/payoutOrder/resolve')[0]!.body).toEqual({
      orderId: 4,
      to: 'rejected',
      reason: 'payee account closed',
    });
  });

  it('confirm (token2) asks first, then posts the id', async () => {
    setToken2('t2');
    server.answers.set(
      '/v1.0/payoutOrder/confirm',
      ok({ orderId: 3, orderCode: SUBMITTED.orderCode, state: S.completed }),
    );
    renderAt('/payProxyOrder/list', 'admin', [SUBMITTED]);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId(`payout-confirm-${SUBMITTED.orderCode}`));
    expect(await screen.findByText(/Confirm that the payee of P2405011000003 was paid/)).toBeTruthy();
    await user.click(screen.getByTestId('payout-ok'));
    await waitFor(() => expect(server.sent('/v1.0/payoutOrder/confirm')).toHaveLength(1));
    expect(server.sent('/v1.0/payoutOrder/confirm')[0]!.body).toEqual({ orderId: 3 });
  });
});

describe('PayoutListPage: the claim queue', () => {
  it('cards with the payee’s details to copy; one tap claims; a lost race says claim failed', async () => {
    const queued = [AWAITING, row({ id: 7, orderCode: 'P2405011000007', amount: 50_000, userName: 'Ravi Kumar' })];
    renderAt('/payProxyOrder/list/supplier', 'supplier', [IN_PROGRESS], true);
    const user = userEvent.setup({ delay: null });
    await screen.findByText(IN_PROGRESS.orderCode);
    server.answers.set('/v1.0/payoutOrder/getList', page(queued.map((r) => asServer(r, 'supplier'))));
    await user.click(screen.getByRole('tab', { name: 'Claim queue' }));
    const card = await screen.findByTestId(`payout-queue-card-${AWAITING.orderCode}`);
    expect(listRequests().at(-1)!.get('queue')).toBe('true');
    expect(within(card).getByText('1,234.56')).toBeTruthy();
    for (const value of ['Asha Rao', '50100234567890', 'HDFC0001234', 'HDFC Bank']) {
      const field = within(card).getByText(value);
      // Each detail has its copy button beside it.
      expect(field.closest('.ant-typography')!.querySelector('.ant-typography-copy')).toBeTruthy();
    }
    expect(screen.getByTestId('payout-queue-card-P2405011000007')).toBeTruthy();

    server.answers.set(
      '/v1.0/payoutOrderClaim/claimOrder',
      ok({ orderId: 1, orderCode: AWAITING.orderCode, state: 2 }),
    );
    await user.click(screen.getByTestId(`payout-queue-claim-${AWAITING.orderCode}`));
    await waitFor(() => expect(server.sent('/v1.0/payoutOrderClaim/claimOrder')).toHaveLength(1));
    expect(server.sent('/v1.0/payoutOrderClaim/claimOrder')[0]!.body).toEqual({ orderId: 1 });
    expect(await screen.findByText(`Claimed ${AWAITING.orderCode}`)).toBeTruthy();

    server.answers.set('/v1.0/payoutOrderClaim/claimOrder', {
      code: 409,
      msg: 'claim failed: another supplier claimed it first',
      data: { reason: 'claimFailed' },
    });
    await user.click(screen.getByTestId('payout-queue-claim-P2405011000007'));
    expect(await screen.findByText('Claim failed: claim failed: another supplier claimed it first')).toBeTruthy();
  });

  it('offers a claim only within the supplier’s room, and says why not', async () => {
    const big = row({ id: 7, orderCode: 'P2405011000007', amount: 500_000 });
    const queueAnswer = (claimRoom: { products: number[]; held: number; limit: number; deposit: number }) =>
      ok({
        list: [AWAITING, big].map((r) => ({
          ...r,
          allowedActions: allowedPayoutActions('supplier', { ...r, claimedByCaller: false, claimRoom }),
        })),
        total: 2,
        pageIndex: 1,
        pageSize: 20,
        claimRoom,
      });
    renderAt('/payProxyOrder/list/supplier', 'supplier', [IN_PROGRESS], true);
    const user = userEvent.setup({ delay: null });
    await screen.findByText(IN_PROGRESS.orderCode);
    // A deposit of 2,000.00: the first is claimable, the second is not, and the card says why.
    server.answers.set(
      '/v1.0/payoutOrder/getList',
      queueAnswer({ products: [2001], held: 1, limit: 5, deposit: 200_000 }),
    );
    await user.click(screen.getByRole('tab', { name: 'Claim queue' }));
    expect(await screen.findByTestId(`payout-queue-claim-${AWAITING.orderCode}`)).toBeTruthy();
    expect(screen.queryByTestId('payout-queue-claim-P2405011000007')).toBeNull();
    expect(screen.getByTestId('payout-queue-not-now-P2405011000007').textContent).toBe(
      'Your available balance (2,000.00) does not cover this payout',
    );
    expect(screen.queryByTestId('payout-queue-full')).toBeNull();

    // At the limit of payouts in progress: no card offers a claim, and the queue says so.
    server.answers.set(
      '/v1.0/payoutOrder/getList',
      queueAnswer({ products: [2001], held: 5, limit: 5, deposit: 200_000 }),
    );
    await user.click(screen.getByTestId('payout-queue-refresh'));
    expect((await screen.findByTestId('payout-queue-full')).textContent).toContain(
      'You hold 5 payouts in progress, the most allowed (5): finish one to claim more.',
    );
    await waitFor(() => expect(screen.queryByTestId(`payout-queue-claim-${AWAITING.orderCode}`)).toBeNull());
  });

  it('on a phone: the list is cards too, and a queued card claims with one tap', async () => {
    vi.stubGlobal('matchMedia', () => ({ matches: true, addEventListener() {}, removeEventListener() {} }));
    renderAt('/payProxyOrder/list/supplier', 'supplier', [IN_PROGRESS], true);
    expect(await screen.findByTestId(`list-card-${IN_PROGRESS.id}`)).toBeTruthy();
    server.answers.set('/v1.0/payoutOrder/getList', page([asServer(AWAITING, 'supplier')]));
    server.answers.set(
      '/v1.0/payoutOrderClaim/claimOrder',
      ok({ orderId: 1, orderCode: AWAITING.orderCode, state: 2 }),
    );
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('tab', { name: 'Claim queue' }));
    await user.click(await screen.findByTestId(`payout-queue-claim-${AWAITING.orderCode}`));
    await waitFor(() => expect(server.sent('/v1.0/payoutOrderClaim/claimOrder')).toHaveLength(1));
  });

  it('?tab=queue opens on the claim queue (where the notifier’s claimable-payout toast leads)', async () => {
    renderAt('/payProxyOrder/list/supplier?tab=queue', 'supplier', []);
    expect(await screen.findByText('Nothing to claim right now')).toBeTruthy();
    expect(listRequests().at(-1)!.get('queue')).toBe('true');
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('tab', { name: 'Payouts' }));
    await waitFor(() => expect(listRequests().at(-1)!.has('queue')).toBe(false));
  });

  it('an empty queue says so', async () => {
    renderAt('/payProxyOrder/list/supplier', 'supplier', []);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('tab', { name: 'Claim queue' }));
    expect(await screen.findByText('Nothing to claim right now')).toBeTruthy();
  });
});

describe('PayoutListPage: New payout (merchant)', () => {
  async function openForm(user: ReturnType<typeof userEvent.setup>) {
    setToken2('t2');
    renderAt('/payProxyOrder/list/merchant', 'merchant');
    await user.click(await screen.findByTestId('payout-create'));
    return screen.findByTestId('payout-create-form');
  }

  it('checks the form by the contract’s rule with the spec’s texts, then posts the amount in minor units', async () => {
    const user = userEvent.setup({ delay: null });
    await openForm(user);
    await user.click(screen.getByTestId('payout-create-submit'));
    // Each required field says it: name, card number, IFSC, bank branch, address and amount.
    await waitFor(() =>
      expect(screen.getAllByText('name, card number, bank branch, address and amount cannot be empty').length).toBe(6),
    );
    expect(server.sent('/v1.0/payoutOrder/create')).toHaveLength(0);

    await user.type(screen.getByTestId('payout-create-amount'), '1,500.5');
    await user.type(screen.getByTestId('payout-create-userName'), 'Asha Rao');
    await user.type(screen.getByTestId('payout-create-cardNumber'), '5010-0234');
    await user.type(screen.getByTestId('payout-create-ifscCode'), 'HDFC1001234');
    await user.type(screen.getByTestId('payout-create-bankBranch'), 'Koramangala');
    await user.type(screen.getByTestId('payout-create-address'), '12 MG Road');
    await user.click(screen.getByTestId('payout-create-submit'));
    expect(await screen.findByText('invalid IFSC format')).toBeTruthy();
    expect(screen.getByText('card number must be digits only, at most 20')).toBeTruthy();

    await user.clear(screen.getByTestId('payout-create-ifscCode'));
    await user.type(screen.getByTestId('payout-create-ifscCode'), 'HDFC0001234');
    await user.clear(screen.getByTestId('payout-create-cardNumber'));
    await user.type(screen.getByTestId('payout-create-cardNumber'), '50100234');
    server.answers.set(
      '/v1.0/payoutOrder/create',
      ok({
        orderCode: 'P2405011000099',
        mchOrderNo: 'x',
        productId: 2001,
        amount: 150_050,
        fee: 2_751,
        state: 0,
        stateName: 'awaiting',
        utr: null,
        createTime: '2024-05-01T10:00:00.000Z',
        completeTime: null,
        rejectReason: null,
      }),
    );
    await user.click(screen.getByTestId('payout-create-submit'));
    await waitFor(() => expect(server.sent('/v1.0/payoutOrder/create')).toHaveLength(1));
    expect(server.sent('/v1.0/payoutOrder/create')[0]!.body).toMatchObject({
      productId: '2001',
      amount: '150050',
      userName: 'Asha Rao',
      cardNumber: '50100234',
      ifscCode: 'HDFC0001234',
      bankBranch: 'Koramangala',
      address: '12 MG Road',
    });
    expect(await screen.findByText('Payout P2405011000099 created')).toBeTruthy();
  });

  it('speaks Traditional Chinese, and shows a refusal of the server in the form', async () => {
    await changeLanguage('zh-TW');
    const user = userEvent.setup({ delay: null });
    await openForm(user);
    await user.type(screen.getByTestId('payout-create-ifscCode'), 'bad');
    await user.click(screen.getByTestId('payout-create-submit'));
    expect(await screen.findByText('IFSC 格式錯誤')).toBeTruthy();
    expect(screen.getAllByText('姓名、卡號、分行、地址和金額不能為空').length).toBeGreaterThan(0);

    for (const [field, value] of Object.entries({
      amount: '100',
      userName: 'Asha Rao',
      cardNumber: '50100234',
      bankBranch: 'Koramangala',
      address: '12 MG Road',
    })) {
      await user.type(screen.getByTestId(`payout-create-${field}`), value);
    }
    await user.clear(screen.getByTestId('payout-create-ifscCode'));
    await user.type(screen.getByTestId('payout-create-ifscCode'), 'HDFC0001234');
    server.answers.set('/v1.0/payoutOrder/create', {
      code: Code.insufficientBalance,
      msg: 'balance not enough for the payout amount plus its fee',
      data: null,
    });
    await user.click(screen.getByTestId('payout-create-submit'));
    expect((await screen.findByTestId('payout-create-error')).textContent).toContain(
      CODE_TEXTS[Code.insufficientBalance]['zh-TW'],
    );
    // Still open, to correct or cancel.
    expect(screen.getByTestId('payout-create-form')).toBeTruthy();
  });
});

describe('PayoutListPage: New payout offers the merchant’s enabled payout products', () => {
  it('only USDT enabled: the wallet address alone, checked as one', async () => {
    server.answers.set(
      '/v1.0/userProduct/getList',
      ok({
        list: [
          { productId: 1001, enabled: true },
          { productId: 3016, enabled: true },
        ],
        total: 2,
        pageIndex: 1,
        pageSize: 100,
      }),
    );
    setToken2('t2');
    renderAt('/payProxyOrder/list/merchant', 'merchant');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('payout-create'));
    await waitFor(() => expect(screen.queryByTestId('payout-create-userName')).toBeNull());
    expect(screen.queryByTestId('payout-create-ifscCode')).toBeNull();
    await user.type(screen.getByTestId('payout-create-amount'), '10');
    await user.type(screen.getByTestId('payout-create-address'), '0xabc');
    await user.click(screen.getByTestId('payout-create-submit'));
    expect(
      await screen.findByText('address must be a USDT wallet address (TRON: T and 33 letters or digits)'),
    ).toBeTruthy();
  });

  it('none enabled: says so', async () => {
    server.answers.set('/v1.0/userProduct/getList', ok({ list: [], total: 0, pageIndex: 1, pageSize: 100 }));
    setToken2('t2');
    renderAt('/payProxyOrder/list/merchant', 'merchant');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('payout-create'));
    expect(await screen.findByTestId('payout-create-no-product')).toBeTruthy();
  });
});

describe('PayoutListPage: the detail drawer', () => {
  it('shows the fields, the payee, the timeline and the ledger transfers, with the row’s actions', async () => {
    server.answers.set(
      '/v1.0/payoutOrder/getDetail',
      ok({
        payout: asServer(SUBMITTED, 'admin'),
        timeline: [
          {
            at: '2024-05-01T10:00:00.000Z',
            kind: 'created',
            fromState: null,
            toState: 0,
            actor: null,
            note: '',
            noteTemplate: null,
          },
          {
            at: '2024-05-01T10:05:00.000Z',
            kind: 'claimed',
            fromState: 0,
            toState: 2,
            actor: 'supplier1',
            note: '',
            noteTemplate: null,
          },
          {
            at: '2024-05-01T10:20:00.000Z',
            kind: 'submitted',
            fromState: 2,
            toState: 8,
            actor: 'supplier1',
            note: 'UTR123456',
            noteTemplate: null,
          },
        ],
        transfers: [
          {
            id: 11,
            type: 'payoutHold',
            idempotencyKey: 'payout-hold:P2405011000003',
            createdAt: '2024-05-01T10:00:00.000Z',
            entries: [
              { account: 'merchant:3:available', amount: -125_807 },
              { account: 'merchant:3:frozen', amount: 125_807 },
            ],
          },
        ],
      }),
    );
    renderAt('/payProxyOrder/list', 'admin', [SUBMITTED]);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId(`payout-detail-${SUBMITTED.orderCode}`));
    const drawer = await screen.findByTestId('payout-detail');
    expect(server.sent('/v1.0/payoutOrder/getDetail')[0]!.url).toContain('orderId=3');
    const timeline = await within(drawer).findByTestId('payout-detail-timeline');
    expect(within(timeline).getAllByTestId('payout-timeline-entry')).toHaveLength(3);
    expect(within(timeline).getByText('Claimed')).toBeTruthy();
    expect(within(timeline).getByText('In progress → Submitted')).toBeTruthy();
    const transfers = within(drawer).getByTestId('payout-detail-transfers');
    expect(within(transfers).getByText('Payout hold')).toBeTruthy();
    expect(within(transfers).getByText('-1,258.07')).toBeTruthy();
    expect(within(drawer).getByTestId('payout-detail-payee').textContent).toContain('HDFC0001234');
    expect(within(drawer).getAllByTestId(`payout-confirm-${SUBMITTED.orderCode}`).length).toBeGreaterThan(0);
  });
});

describe('PayoutListPage: the receipt in the detail drawer', () => {
  it('shows the receipt the supplier attached, with its text alternative (who attached it only where the reader may know)', async () => {
    const withReceipt = { ...SUBMITTED, receiptId: 41 };
    server.answers.set(
      '/v1.0/payoutOrder/getDetail',
      ok({ payout: asServer(withReceipt, 'merchant'), timeline: [], transfers: [] }),
    );
    server.answers.set(
      '/v1.0/payoutOrder/receipt',
      ok({
        receiptId: 41,
        mime: 'image/png',
        size: 70,
        uploadedBy: null,
        uploadedAt: '2024-05-01T10:20:00.000Z',
        dataUrl: 'data:image/png;base64,iVBORw0KGgo=',
      }),
    );
    renderAt('/payProxyOrder/list/merchant', 'merchant', [withReceipt]);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId(`payout-detail-${SUBMITTED.orderCode}`));
    const card = await screen.findByTestId('payout-detail-receipt');
    const image = await within(card).findByAltText(`Payment receipt of payout ${SUBMITTED.orderCode}`);
    expect(image.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(server.sent('/v1.0/payoutOrder/receipt')[0]!.url).toContain('orderId=3');
    expect(within(card).getByText(/^Attached at /)).toBeTruthy();
  });

  it('a payout without a receipt shows no receipt card and asks the server for none', async () => {
    server.answers.set(
      '/v1.0/payoutOrder/getDetail',
      ok({ payout: asServer(SUBMITTED, 'admin'), timeline: [], transfers: [] }),
    );
    renderAt('/payProxyOrder/list', 'admin', [SUBMITTED]);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId(`payout-detail-${SUBMITTED.orderCode}`));
    await screen.findByTestId('payout-detail-payee');
    expect(screen.queryByTestId('payout-detail-receipt')).toBeNull();
    expect(server.sent('/v1.0/payoutOrder/receipt')).toHaveLength(0);
  });
});
