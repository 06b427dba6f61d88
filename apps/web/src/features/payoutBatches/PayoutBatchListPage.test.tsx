import { PAYOUT_BATCH_STATE, type PayoutBatchRow, type PayoutRow, type Role } from '@paydesk/contract';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { clearToken, setToken, setToken2 } from '../../shared/api/session-storage';
import { LiveSocket } from '../../test/liveSocket';
import { ok, pageOf, renderPage, stubServer, testUser } from '../../test/renderPage';
import PayoutBatchListPage from './PayoutBatchListPage';

const B = PAYOUT_BATCH_STATE;
const batch = (over: Partial<PayoutBatchRow> = {}): PayoutBatchRow => ({
  id: 7,
  resourceId: 3,
  resourceName: 'Demo payout HDFC',
  supplierId: 1,
  supplierName: 'Supplier One',
  productId: 2001,
  templateId: 'icici-cib-bulk',
  payoutTime: '2026-11-27 10:00:00',
  minAmount: null,
  maxAmount: null,
  maxCount: 500,
  orderCount: 2,
  totalAmount: 864_336,
  state: B.draft,
  createdBy: 'admin',
  proposedBy: null,
  proposedAt: null,
  approvedBy: null,
  approvedAt: null,
  fileName: null,
  fileHash: null,
  exportedAt: null,
  completedCount: 0,
  failedCount: 0,
  resultUploads: 0,
  abnormalReason: null,
  createdAt: '2026-11-26T08:00:00.000Z',
  updatedAt: '2026-11-26T08:00:00.000Z',
  allowedActions: ['propose', 'markAbnormal'],
  ...over,
});
const DRAFT = batch();
/** Proposed by the admin looking at it: approving it is another account's (not offered). */
const PROPOSED = batch({
  id: 8,
  state: B.proposed,
  proposedBy: 'admin',
  proposedAt: '2026-11-26T08:05:00.000Z',
  allowedActions: ['markAbnormal'],
});
/** Proposed by someone else: this admin may approve it. */
const PROPOSED_BY_OTHER = batch({
  id: 9,
  state: B.proposed,
  proposedBy: 'superadmin',
  proposedAt: '2026-11-26T08:05:00.000Z',
  allowedActions: ['approve', 'markAbnormal'],
});
const EXPORTED = batch({
  id: 10,
  state: B.exported,
  fileName: 'batch-10-icici.csv',
  fileHash: 'ab'.repeat(32),
  exportedAt: '2026-11-26T09:00:00.000Z',
  allowedActions: ['download', 'uploadResult', 'markAbnormal'],
});

const payout = (over: Partial<PayoutRow>): PayoutRow => ({
  id: 1,
  orderCode: 'P261126100000A0000001',
  mchOrderNo: 'PO-1',
  merchantId: 1,
  productId: 2001,
  amount: 432_117,
  fee: 6981,
  commission: null,
  state: 0,
  supplierId: null,
  resourceId: null,
  userName: 'Asha Rao',
  cardNumber: '501000001',
  ifscCode: 'HDFC0001234',
  bankName: 'HDFC Bank',
  bankBranch: 'Koramangala',
  address: '12 MG Road',
  remark: null,
  utr: null,
  receiptId: null,
  rejectReason: null,
  exceptionReason: null,
  createdAt: '2026-11-26T07:00:00.000Z',
  claimedAt: null,
  completedAt: null,
  allowedActions: [],
  ...over,
});

const RESOURCES = [
  { id: 3, name: 'Demo payout HDFC', supplierId: 1, supplierName: 'Supplier One', productId: 2001, awaitingCount: 12 },
];
const TEMPLATES = [
  {
    id: 'icici-cib-bulk',
    bank: 'ICICI',
    extension: 'csv',
    delimiter: ',',
    header: true,
    encoding: 'utf-8',
    columns: [],
    supportsResult: true,
  },
  {
    id: 'hdfc-enet-vendor',
    bank: 'HDFC',
    extension: 'csv',
    delimiter: ',',
    header: false,
    encoding: 'utf-8',
    columns: [],
    supportsResult: true,
  },
];

vi.setConfig({ testTimeout: 30_000 });
let server: ReturnType<typeof stubServer>;

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({
    '/v1.0/payoutBatch/getList': ok({
      list: [DRAFT, PROPOSED, PROPOSED_BY_OTHER, EXPORTED],
      total: 4,
      pageIndex: 1,
      pageSize: 20,
      summary: { orderCount: 8, totalAmount: 3_457_344 },
    }),
    '/v1.0/payoutBatch/getResourceList': ok(RESOURCES),
    '/v1.0/payoutBatch/getTemplateList': ok(TEMPLATES),
    '/v1.0/payoutBatch/getPayoutCount': ok({ count: 2, totalAmount: 864_336 }),
    '/v1.0/supplier/getList': pageOf([]),
    '/v1.0/view/getList': ok([]),
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await changeLanguage('en-US');
});

const renderAt = (path: string, access: Role) => renderPage(<PayoutBatchListPage />, path, testUser({ access }));
const rowOf = (id: number) => screen.getByTestId(`batch-row-${id}`).closest('tr')!;
/** The actions a row offers: its buttons and its 'more' menu's entries, by test hook. */
async function actionsOf(id: number): Promise<string[]> {
  const user = userEvent.setup({ delay: null });
  const ids = within(rowOf(id))
    .queryAllByRole('button')
    .map((b) => b.getAttribute('data-testid') ?? '');
  const more = within(rowOf(id)).queryByTestId(`batch-more-${id}`);
  if (more) {
    await user.click(more);
    const menu = await screen.findByTestId(`batch-markAbnormal-${id}`);
    const entries = [...menu.closest('ul')!.querySelectorAll('[data-testid]')].map((e) =>
      e.getAttribute('data-testid'),
    );
    ids.push(...(entries as string[]));
    await user.keyboard('{Escape}');
  }
  return ids
    .filter((v) => v.startsWith('batch-') && !v.startsWith('batch-more-') && !v.startsWith('batch-payouts-'))
    .map((v) => v.replace(`-${id}`, '').replace('batch-', ''))
    .sort();
}

describe('PayoutBatchListPage: the list', () => {
  it('shows each batch with its state, account, count and amount, the totals of the filtered set, and the CSV link', async () => {
    renderAt('/payoutBatch/list', 'admin');
    await screen.findByTestId('batch-row-7');
    const row = rowOf(7);
    expect(row.textContent).toContain('Demo payout HDFC');
    expect(row.textContent).toContain('Supplier One');
    expect(row.textContent).toContain('8,643.36');
    expect(row.textContent).toContain('2026-11-27 10:00:00');
    expect(screen.getByTestId('batch-state-7').textContent).toBe('Draft');
    expect(screen.getByTestId('batch-state-8').textContent).toBe('Awaiting approval');
    expect(screen.getByTestId('batch-state-10').textContent).toBe('Exported');
    expect(rowOf(8).textContent).toContain('admin · ');
    expect(screen.getByTestId('list-total-totalAmount').textContent).toBe('34,573.44');
    expect(screen.getByTestId('export-csv').getAttribute('href')).toBe('/v1.0/payoutBatch/exportList');
    expect(screen.getByTestId('batch-create-open')).toBeTruthy();
  });

  it('offers on each row exactly the actions of its allowedActions: the proposer is not offered approve', async () => {
    renderAt('/payoutBatch/list', 'admin');
    await screen.findByTestId('batch-row-7');
    expect(await actionsOf(7)).toEqual(['markAbnormal', 'propose']);
    expect(await actionsOf(8)).toEqual(['markAbnormal']);
    expect(await actionsOf(9)).toEqual(['approve', 'markAbnormal']);
    expect(await actionsOf(10)).toEqual(['download', 'markAbnormal', 'uploadResult']);
  });

  it('sends the filters and carries them in the CSV link', async () => {
    renderAt('/payoutBatch/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await screen.findByTestId('batch-row-7');
    await user.type(screen.getByTestId('filter-batchId'), '9');
    const before = server.sent('/v1.0/payoutBatch/getList').length;
    await user.click(screen.getByTestId('list-search'));
    await waitFor(() => expect(server.sent('/v1.0/payoutBatch/getList').length).toBeGreaterThan(before));
    expect(new URL(server.sent('/v1.0/payoutBatch/getList').at(-1)!.url, 'http://x').searchParams.get('batchId')).toBe(
      '9',
    );
    expect(screen.getByTestId('export-csv').getAttribute('href')).toBe('/v1.0/payoutBatch/exportList?batchId=9');
  });

  it('customer service reads batches without making them: no "New batch", no actions, the payouts to look at', async () => {
    server.answers.set(
      '/v1.0/payoutBatch/getList',
      pageOf([batch({ allowedActions: [] }), batch({ id: 8, state: B.proposed, allowedActions: [] })]),
    );
    renderAt('/payoutBatch/list/customerService', 'customerService');
    await screen.findByTestId('batch-row-7');
    expect(screen.queryByTestId('batch-create-open')).toBeNull();
    expect(await actionsOf(7)).toEqual([]);
    expect(screen.getByTestId('batch-payouts-7')).toBeTruthy();
    // The resource list is for the staff who make batches: not asked.
    expect(server.sent('/v1.0/payoutBatch/getResourceList')).toHaveLength(0);
  });

  it('says that the batch list could not be read, in the reader’s language', async () => {
    server.answers.set('/v1.0/payoutBatch/getList', { code: 500, msg: 'boom', data: null });
    renderAt('/payoutBatch/list', 'admin');
    expect((await screen.findByTestId('list-error')).textContent).toContain('Failed to get the batch list');
    await changeLanguage('zh-TW');
    await waitFor(() => expect(screen.getByTestId('list-error').textContent).toContain('載入失敗'));
    await screen.findByText(/取得批次列表失敗/);
  });
});

describe('PayoutBatchListPage: live updates over the websocket', () => {
  it('subscribes to payoutBatches; a batch changed elsewhere refetches the list and the open batch’s payouts', async () => {
    vi.stubGlobal('WebSocket', LiveSocket);
    setToken('session-token');
    onTestFinished(() => clearToken());
    server.answers.set('/v1.0/payoutBatch/getPayouts', pageOf([payout({})]));
    renderAt('/payoutBatch/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await screen.findByTestId('batch-row-7');
    const socket = LiveSocket.last!;
    act(() => socket.open());
    expect(socket.subscribed()).toContain('payoutBatches');
    await user.click(screen.getByTestId('batch-row-8'));
    await within(await screen.findByTestId('batch-drawer')).findByTestId('batch-payout-P261126100000A0000001');
    const drawerReads = server.sent('/v1.0/payoutBatch/getPayouts').length;

    // Another admin approved batch 8: the list shows it confirmed without a reload, the drawer follows.
    server.answers.set(
      '/v1.0/payoutBatch/getList',
      ok({
        list: [DRAFT, { ...PROPOSED, state: B.confirmed, approvedBy: 'superadmin', allowedActions: ['exportFile'] }],
        total: 2,
        pageIndex: 1,
        pageSize: 20,
        summary: { orderCount: 4, totalAmount: 1_728_672 },
      }),
    );
    act(() => socket.push('payoutBatches', { batchId: 8, change: 'approve' }));
    await waitFor(() => expect(screen.getByTestId('batch-state-8').textContent).toBe('Confirmed'));
    expect(screen.queryByTestId('batch-row-9')).toBeNull();
    await waitFor(() => expect(server.sent('/v1.0/payoutBatch/getPayouts').length).toBeGreaterThan(drawerReads));
  });
});

describe('PayoutBatchListPage: row actions', () => {
  it('proposes a draft after confirming, and says so', async () => {
    server.answers.set('/v1.0/payoutBatch/propose', ok({ batchId: 7, state: B.proposed }));
    renderAt('/payoutBatch/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('batch-propose-7'));
    expect(await screen.findByText(/Propose batch #7 \(2 payouts, 8,643\.36 in all\)/)).toBeTruthy();
    await user.click(screen.getByTestId('batch-ok'));
    expect(await screen.findByText('Batch #7 proposed for approval')).toBeTruthy();
    expect(server.sent('/v1.0/payoutBatch/propose')[0]!.body).toEqual({ batchId: 7 });
  });

  it('approves another account’s proposal with token2', async () => {
    setToken2('T2');
    server.answers.set(
      '/v1.0/payoutBatch/approve',
      ok({ batchId: 9, state: B.confirmed, orderCount: 2, totalAmount: 864_336 }),
    );
    renderAt('/payoutBatch/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('batch-approve-9'));
    expect(await screen.findByText(/paid from payout account Demo payout HDFC/)).toBeTruthy();
    await user.click(screen.getByTestId('batch-ok'));
    expect(await screen.findByText('Batch #9 confirmed: 2 payouts preparing')).toBeTruthy();
    const [sent] = server.requests.filter((r) => r.path === '/v1.0/payoutBatch/approve');
    expect(sent!.body).toEqual({ batchId: 9 });
  });

  it('downloads the bank file: the base64 bytes become a file named by the server', async () => {
    const content = 'Add Details 1,Amt\nP1,1500.00\n';
    server.answers.set(
      '/v1.0/payoutBatch/download',
      ok({
        batchId: 10,
        fileName: 'batch-10-icici.csv',
        contentType: 'text/csv',
        size: content.length,
        sha256: 'ab'.repeat(32),
        contentBase64: btoa(content),
      }),
    );
    const blobs: Blob[] = [];
    const { createObjectURL, revokeObjectURL } = URL;
    URL.createObjectURL = (b: Blob) => {
      blobs.push(b);
      return 'blob:bank-file';
    };
    URL.revokeObjectURL = () => undefined;
    onTestFinished(() => {
      URL.createObjectURL = createObjectURL;
      URL.revokeObjectURL = revokeObjectURL;
    });
    const clicked: Array<{ href: string; download: string }> = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    renderAt('/payoutBatch/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('batch-download-10'));
    expect(await screen.findByText(/Download the bank file batch-10-icici\.csv of batch #10 again/)).toBeTruthy();
    await user.click(screen.getByTestId('batch-ok'));
    expect(await screen.findByText('Downloaded batch-10-icici.csv')).toBeTruthy();
    expect(clicked).toEqual([{ href: 'blob:bank-file', download: 'batch-10-icici.csv' }]);
    expect(blobs[0]!.type).toBe('text/csv');
    expect(await blobs[0]!.text()).toBe(content);
  });

  it('marks a batch abnormal with a reason', async () => {
    server.answers.set('/v1.0/payoutBatch/markAbnormal', ok({ batchId: 7, state: B.abnormal }));
    renderAt('/payoutBatch/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('batch-markAbnormal-7'));
    await user.click(await screen.findByTestId('batch-abnormal-submit'));
    expect(await screen.findByText('Enter the reason')).toBeTruthy();
    await user.type(screen.getByTestId('batch-abnormal-reason'), '  bank rejected the file ');
    await user.click(screen.getByTestId('batch-abnormal-submit'));
    expect(await screen.findByText('Batch #7 marked abnormal')).toBeTruthy();
    expect(server.sent('/v1.0/payoutBatch/markAbnormal')[0]!.body).toEqual({
      batchId: 7,
      reason: 'bank rejected the file',
    });
  });

  it('uploads a result file: a non-CSV file is refused here, a CSV one answers a result per row', async () => {
    setToken2('T2');
    server.answers.set(
      '/v1.0/payoutBatch/uploadResult',
      ok({
        batchId: 10,
        fileName: 'result.csv',
        rows: 3,
        completed: 1,
        failed: 1,
        refused: 1,
        pending: 0,
        state: B.completed,
        results: [
          {
            line: 2,
            payoutCode: 'P1',
            outcome: 'completed',
            error: null,
            detail: null,
            utr: 'ICIC000123456',
          },
          { line: 3, payoutCode: 'P2', outcome: 'failed', error: null, detail: 'account closed', utr: null },
          {
            line: 4,
            payoutCode: 'PX',
            outcome: 'refused',
            error: 'unknownPayout',
            detail: 'no payout PX in batch 10',
            utr: null,
          },
        ],
      }),
    );
    renderAt('/payoutBatch/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('batch-uploadResult-10'));
    await screen.findByTestId('batch-upload-send');
    const input = () => screen.getByTestId('batch-upload-file').querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input(), new File(['a'], 'result.xlsx', { type: 'application/vnd.ms-excel' }));
    expect(screen.getByTestId('batch-upload-error').textContent).toContain('CSV uploads must be CSV files');
    expect(screen.getByTestId('batch-upload-send').hasAttribute('disabled')).toBe(true);

    const before = server.sent('/v1.0/payoutBatch/getList').length;
    await user.upload(input(), new File(['Add Details 1,Amt,Status\n'], 'result.csv', { type: 'text/csv' }));
    expect(screen.getByTestId('batch-upload-chosen').textContent).toContain('result.csv');
    expect(screen.queryByTestId('batch-upload-error')).toBeNull();
    await user.click(screen.getByTestId('batch-upload-send'));
    expect((await screen.findByTestId('batch-upload-summary')).textContent).toBe(
      '3 rows: 1 completed, 1 failed, 1 not applied; 0 payouts of the batch still await a result',
    );
    expect(screen.getByTestId('batch-upload-result-2').textContent).toBe('Completed');
    expect(screen.getByTestId('batch-upload-result-3').textContent).toBe('Failed');
    expect(screen.getByTestId('batch-upload-result-4').textContent).toBe('Not applied');
    expect(screen.getByTestId('batch-upload-message-3').textContent).toBe('account closed');
    expect(screen.getByTestId('batch-upload-message-4').textContent).toBe(
      'No payout of this batch has this reference (no payout PX in batch 10)',
    );
    const form = server.sent('/v1.0/payoutBatch/uploadResult')[0]!.body as FormData;
    expect(form.get('batchId')).toBe('10');
    expect((form.get('file') as File).name).toBe('result.csv');
    // The list reloads: the batch's state changed.
    await waitFor(() => expect(server.sent('/v1.0/payoutBatch/getList').length).toBeGreaterThan(before));
  });

  it('a refused result file says why in the reader’s language', async () => {
    setToken2('T2');
    server.answers.set('/v1.0/payoutBatch/uploadResult', {
      code: 400,
      msg: 'format parsing failed',
      data: { reason: 'parseFailed' },
    });
    renderAt('/payoutBatch/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('batch-uploadResult-10'));
    await screen.findByTestId('batch-upload-send');
    const input = screen.getByTestId('batch-upload-file').querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['x'], 'result.csv', { type: 'text/csv' }));
    await user.click(screen.getByTestId('batch-upload-send'));
    expect((await screen.findByTestId('batch-upload-error')).textContent).toMatch(/format parsing failed/i);
  });
});

describe('PayoutBatchListPage: the batch’s payouts', () => {
  it('opens a drawer with the batch’s details and payouts, with their totals', async () => {
    server.answers.set(
      '/v1.0/payoutBatch/getPayouts',
      ok({
        list: [
          payout({}),
          payout({ id: 2, orderCode: 'P261126100000A0000002', amount: 432_219, userName: 'Meera Iyer' }),
        ],
        total: 2,
        pageIndex: 1,
        pageSize: 50,
        summary: { amount: 864_336, fee: 13_964 },
      }),
    );
    renderAt('/payoutBatch/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('batch-row-10'));
    const drawer = await screen.findByTestId('batch-drawer');
    await within(drawer).findByTestId('batch-payout-P261126100000A0000002');
    expect(drawer.textContent).toContain('Batch #10');
    expect(drawer.textContent).toContain('batch-10-icici.csv');
    expect(drawer.textContent).toContain('Meera Iyer');
    expect(drawer.textContent).toContain('4,322.19');
    expect(drawer.textContent).toContain('Awaiting claim');
    expect(within(drawer).getByTestId('batch-payouts-total').textContent).toBe(
      'Total: 2 payouts, amount 8,643.36, fee 139.64',
    );
    expect(new URL(server.sent('/v1.0/payoutBatch/getPayouts')[0]!.url, 'http://x').searchParams.get('batchId')).toBe(
      '10',
    );
    // The batch's actions are at hand in the drawer too.
    expect(within(drawer).getByTestId('batch-download-10')).toBeTruthy();
  });

  it('says that the order list could not be read', async () => {
    server.answers.set('/v1.0/payoutBatch/getPayouts', { code: 500, msg: 'boom', data: null });
    renderAt('/payoutBatch/list', 'admin');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('batch-payouts-7'));
    expect((await screen.findByTestId('batch-payouts-error')).textContent).toContain('Failed to get the order list');
  });
});

describe('PayoutBatchListPage: "New batch"', () => {
  async function openForm() {
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('batch-create-open'));
    await screen.findByTestId('batch-create-form');
    return user;
  }
  const fieldError = (field: string) =>
    screen.getByTestId(`batch-create-${field}`).closest('.ant-form-item')!.querySelector('.ant-form-item-explain')
      ?.textContent ?? '';
  async function pick(user: ReturnType<typeof userEvent.setup>, field: string, option: string) {
    const select = screen.getByTestId(`batch-create-${field}`);
    fireEvent.mouseDown(select.querySelector('input') ?? select);
    await user.click(await screen.findByTitle(option));
    await waitFor(() => expect(select.textContent).toContain(option));
  }

  /** A form the contract accepts: supplier1's account, the HDFC template, tomorrow 10:00, two amounts, 2 payouts. */
  async function fillValid(
    user: ReturnType<typeof userEvent.setup>,
    labels = {
      resource: 'Demo payout HDFC · Supplier One (12 awaiting)',
      template: 'HDFC Bank ENet vendor payment (CSV without header)',
    },
  ) {
    await pick(user, 'resourceId', labels.resource);
    await pick(user, 'templateId', labels.template);
    const time = screen.getByTestId('batch-create-payoutTime');
    const timeInput = time.querySelector('input') ?? time;
    fireEvent.mouseDown(timeInput);
    fireEvent.click(timeInput);
    fireEvent.click(await screen.findByTestId('batch-create-tomorrow'));
    await user.type(screen.getByTestId('batch-create-minAmount'), '4321.17');
    await user.type(screen.getByTestId('batch-create-maxAmount'), '4,322.19');
    await user.clear(screen.getByTestId('batch-create-maxCount'));
    await user.type(screen.getByTestId('batch-create-maxCount'), '2');
  }

  it('refuses what the contract refuses, with its texts: account, template and time required, at most 500, min not above max', async () => {
    renderAt('/payoutBatch/list', 'admin');
    const user = await openForm();
    await user.click(screen.getByTestId('batch-create-submit'));
    await waitFor(() => expect(fieldError('resourceId')).toBe('A resource is required'));
    expect(fieldError('templateId')).toBe('A template must be chosen');
    expect(fieldError('payoutTime')).toBe('A payout time is required');

    await user.clear(screen.getByTestId('batch-create-maxCount'));
    await user.type(screen.getByTestId('batch-create-maxCount'), '501');
    await user.type(screen.getByTestId('batch-create-minAmount'), '100');
    await user.type(screen.getByTestId('batch-create-maxAmount'), '50');
    await user.click(screen.getByTestId('batch-create-submit'));
    await waitFor(() => expect(fieldError('maxCount')).toBe('Maximum order count is at most 500'));
    await waitFor(() => expect(fieldError('minAmount')).toBe('Minimum amount must not exceed maximum amount'));
    expect(server.sent('/v1.0/payoutBatch/create')).toHaveLength(0);
  });

  it('shows the rules in the reader’s language', async () => {
    await changeLanguage('zh-CN');
    renderAt('/payoutBatch/list', 'admin');
    const user = await openForm();
    await user.clear(screen.getByTestId('batch-create-maxCount'));
    await user.type(screen.getByTestId('batch-create-maxCount'), '600');
    await user.type(screen.getByTestId('batch-create-minAmount'), '9');
    await user.type(screen.getByTestId('batch-create-maxAmount'), '1');
    await user.click(screen.getByTestId('batch-create-submit'));
    await waitFor(() => expect(fieldError('resourceId')).toBe('请选择资源'));
    expect(fieldError('templateId')).toBe('请选择模板');
    expect(fieldError('payoutTime')).toBe('请选择代付时间');
    expect(fieldError('maxCount')).toBe('最大订单数不能超过 500');
    expect(fieldError('minAmount')).toBe('最小金额不能大于最大金额');
  });

  it('creates a batch in minor units with the payout time, after showing what it would take', async () => {
    server.answers.set('/v1.0/payoutBatch/create', ok({ batchId: 11, orderCount: 2, totalAmount: 864_336 }));
    renderAt('/payoutBatch/list', 'admin');
    const user = await openForm();
    await fillValid(user);
    await waitFor(() =>
      expect(screen.getByTestId('batch-create-preview').textContent).toBe(
        'With these conditions the batch would take 2 payouts now, 8,643.36 in all',
      ),
    );
    // The stub answers every count alike: wait for the count asked with the last field typed too.
    await waitFor(() => {
      const counted = new URL(server.sent('/v1.0/payoutBatch/getPayoutCount').at(-1)!.url, 'http://x').searchParams;
      expect(Object.fromEntries(counted)).toEqual({
        resourceId: '3',
        minAmount: '432117',
        maxAmount: '432219',
        maxCount: '2',
      });
    });
    const before = server.sent('/v1.0/payoutBatch/getList').length;
    await user.click(screen.getByTestId('batch-create-submit'));
    expect(await screen.findByText('Batch #11 created: 2 payouts, 8,643.36 in all')).toBeTruthy();
    const body = server.sent('/v1.0/payoutBatch/create')[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({
      resourceId: 3,
      templateId: 'hdfc-enet-vendor',
      minAmount: 432_117,
      maxAmount: 432_219,
      maxCount: 2,
    });
    expect(body.payoutTime).toMatch(/^\d{4}-\d{2}-\d{2} 10:00:00$/);
    await waitFor(() => expect(server.sent('/v1.0/payoutBatch/getList').length).toBeGreaterThan(before));
    await waitFor(() => expect(screen.queryByTestId('batch-create-form')).toBeNull());
  });

  it('says when the resource list cannot be read', async () => {
    server.answers.set('/v1.0/payoutBatch/getResourceList', { code: 500, msg: 'boom', data: null });
    renderAt('/payoutBatch/list', 'admin');
    await openForm();
    expect((await screen.findByTestId('batch-create-load-error')).textContent).toContain(
      'Failed to get the resource list',
    );
  });

  it('shows the server’s refusal: a field by the form’s label with the rule in the reader’s language, or the reason', async () => {
    server.answers.set('/v1.0/payoutBatch/create', {
      code: 400,
      msg: 'invalid input',
      data: { issues: [{ path: 'maxCount', message: 'Maximum order count is at most 500' }] },
    });
    server.answers.set('/v1.0/payoutBatch/getPayoutCount', { code: 500, msg: 'boom', data: null });
    await changeLanguage('zh-TW');
    renderAt('/payoutBatch/list', 'admin');
    const user = await openForm();
    await fillValid(user, {
      resource: 'Demo payout HDFC · Supplier One（待處理 12 筆）',
      template: 'HDFC 銀行 ENet 供應商付款（CSV，無表頭）',
    });
    await waitFor(() =>
      expect(screen.getByTestId('batch-create-preview').textContent).toContain('取得代付訂單數量失敗'),
    );
    await user.click(screen.getByTestId('batch-create-submit'));
    expect((await screen.findByTestId('batch-create-error')).textContent).toContain(
      '最大訂單數: 最大訂單數不能超過 500',
    );
    server.answers.set('/v1.0/payoutBatch/create', {
      code: 422,
      msg: 'no payouts',
      data: { reason: 'batchNoPayouts' },
    });
    await user.click(screen.getByTestId('batch-create-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('batch-create-error').textContent).toBe('沒有符合條件的待處理代付訂單'),
    );
    expect(screen.getByTestId('batch-create-form')).toBeTruthy();
  });
});
