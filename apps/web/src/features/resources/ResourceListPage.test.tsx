import { allowedResourceActions, type ResourceActionFacts, type ResourceRow, type Role } from '@paydesk/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import { chosen } from '../../test/select';
import ResourceListPage from './ResourceListPage';

/**
 * A row as the server answers it: `allowedActions` by the contract's rule for `role` and the row's facts
 * (idle, supplier and product enabled unless `facts` says otherwise).
 */
const row = (
  over: Partial<ResourceRow>,
  facts: Partial<ResourceActionFacts> = {},
  role: Role = 'supplier',
): ResourceRow => {
  const fields = fieldsOf(over);
  return {
    ...fields,
    allowedActions: allowedResourceActions(role, {
      kind: fields.kind,
      openOrders: 0,
      supplierEnabled: true,
      productEnabled: true,
      ...facts,
    }),
  };
};
const fieldsOf = (over: Partial<ResourceRow>): Omit<ResourceRow, 'allowedActions'> => ({
  id: 11,
  supplierId: 1,
  supplierName: 'Supplier One',
  productId: 1002,
  productName: 'International card-to-card collection',
  kind: 'cardToCard',
  name: 'HDFC card',
  state: 1,
  details: { accountName: 'Ravi Kumar', bankName: 'HDFC Bank', cardNumber: '4111111111111234', ifsc: 'HDFC0001234' },
  hasSecret: false,
  minAmount: 10_000,
  maxAmount: 5_000_000,
  dailyAmountLimit: null,
  dailyCountLimit: 50,
  link: null,
  jumpLink: null,
  qrCode: null,
  qrImageId: null,
  todayCount: 3,
  todayAmount: 123_456,
  createdAt: '2024-05-01T10:00:00.000Z',
  updatedAt: '2024-05-01T10:00:00.000Z',
  ...over,
});
const ROWS = [row({}), row({ id: 12, name: 'SBI card', state: 0, qrImageId: 7, details: { cardNumber: '99998888' } })];
const list = (rows: ResourceRow[]) =>
  ok({ list: rows, total: rows.length, pageIndex: 1, pageSize: 20, summary: { todayAmount: 246_912 } });
const PNG = 'data:image/png;base64,iVBORw0KGgo=';
let server: ReturnType<typeof stubServer>;

vi.setConfig({ testTimeout: 30_000 });

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({
    '/v1.0/resource/getList': list(ROWS),
    '/v1.0/resource/qrImage': ok({ qrImageId: 7, mime: 'image/png', size: 8, dataUrl: PNG }),
    '/v1.0/supplier/getList': ok({
      list: [{ id: 1, userId: 6, account: 'supplier1', name: 'Supplier One' }],
      total: 1,
      pageIndex: 1,
      pageSize: 500,
    }),
    '/v1.0/view/getList': ok([]),
    '/v1.0/resource/getResourceStaticInfo': ok({
      totalCount: 3,
      todayCount: 5,
      todayAmount: 246_912,
      states: [
        { state: 0, count: 2, todayCount: 5, todayAmount: 246_912 },
        { state: 1, count: 1, todayCount: 0, todayAmount: 0 },
      ],
    }),
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await changeLanguage('en-US');
});

const renderAt = (path: string, access: Role) => renderPage(<ResourceListPage />, path, testUser({ access }));
const SUPPLIER_PAGE = '/internationalCardToCard/list';
/** A row's buttons by action key ('more': its menu), in order. */
const buttonsOf = (id: number, actions = screen.getByTestId(`resource-actions-${id}`)) =>
  within(actions)
    .queryAllByRole('button')
    .map((b) => b.getAttribute('data-testid') ?? '')
    .map((t) => t.replace(/^resource-/, '').replace(`-${id}`, ''));

async function fillCard(user: ReturnType<typeof userEvent.setup>, ifsc: string) {
  await user.click(await screen.findByTestId('resource-create'));
  await screen.findByTestId('resource-form');
  await user.type(screen.getByTestId('resource-form-name'), 'ICICI card');
  await user.type(screen.getByTestId('resource-form-accountName'), 'Asha Rao');
  await user.type(screen.getByTestId('resource-form-bankName'), 'ICICI Bank');
  await user.type(screen.getByTestId('resource-form-cardNumber'), '5500000000000004');
  await user.type(screen.getByTestId('resource-form-ifsc'), ifsc);
  await user.type(screen.getByTestId('resource-form-minAmount'), '100.50');
}

describe('ResourceListPage', () => {
  it('lists the channel’s resources for a supplier: card number masked, today’s amount /100 with totals', async () => {
    renderAt(SUPPLIER_PAGE, 'supplier');
    const table = await screen.findByTestId('resource-list');
    expect(await within(table).findByText('HDFC card')).toBeTruthy();
    expect(within(table).getByText('************1234')).toBeTruthy();
    expect(within(table).queryByText('4111111111111234')).toBeNull();
    expect(within(table).getByText('HDFC0001234')).toBeTruthy();
    expect(screen.getByTestId('list-total-todayAmount').textContent).toBe('2,469.12');
    expect(server.sent('/v1.0/resource/getList')[0]?.url).toContain('productIds=1002');
    // A supplier's own page has no supplier filter and no supplier column.
    expect(screen.queryByTestId('filter-supplierId')).toBeNull();
    expect(screen.queryByText('Supplier One')).toBeNull();
    expect(screen.getByTestId('export-csv').getAttribute('href')).toContain('/v1.0/resource/export?productIds=1002');
    // The channel at a glance: counts by state and today's processing, from getResourceStaticInfo.
    await waitFor(() => expect(screen.getByTestId('resource-stats-enabled').textContent).toContain('2'));
    expect(screen.getByTestId('resource-stats-disabled').textContent).toContain('1');
    expect(screen.getByTestId('resource-stats-todayAmount').textContent).toContain('2,469.12');
    expect(server.sent('/v1.0/resource/getResourceStaticInfo')[0]?.url).toContain('productId=1002');
  });

  it('a bad IFSC shows invalid IFSC format and sends nothing; fixed, it creates the account in minor units', async () => {
    server.answers.set('/v1.0/resource/create', ok(row({ id: 13 })));
    renderAt(SUPPLIER_PAGE, 'supplier');
    const user = userEvent.setup({ delay: null });
    await fillCard(user, 'ICIC1234567');
    await user.click(screen.getByTestId('resource-form-save'));
    expect(await screen.findByText('invalid IFSC format')).toBeTruthy();
    expect(server.sent('/v1.0/resource/create')).toHaveLength(0);
    await user.clear(screen.getByTestId('resource-form-ifsc'));
    await user.type(screen.getByTestId('resource-form-ifsc'), 'ICIC0123456');
    await user.click(screen.getByTestId('resource-form-save'));
    await waitFor(() => expect(server.sent('/v1.0/resource/create')).toHaveLength(1));
    expect(server.sent('/v1.0/resource/create')[0]?.body).toEqual({
      productId: 1002,
      name: 'ICICI card',
      details: { accountName: 'Asha Rao', bankName: 'ICICI Bank', cardNumber: '5500000000000004', ifsc: 'ICIC0123456' },
      minAmount: 10_050,
      maxAmount: null,
      dailyAmountLimit: null,
      dailyCountLimit: null,
      link: null,
      jumpLink: null,
    });
    expect(await screen.findByText('Added')).toBeTruthy();
  });

  it.each([
    ['zh-CN', 'IFSC 格式不正确'],
    ['zh-TW', 'IFSC 格式不正確'],
  ] as const)('the IFSC rule speaks %s', async (lang, text) => {
    await changeLanguage(lang);
    renderAt(SUPPLIER_PAGE, 'supplier');
    const user = userEvent.setup({ delay: null });
    await fillCard(user, 'hdfc0001234');
    await user.click(screen.getByTestId('resource-form-save'));
    expect(await screen.findByText(text)).toBeTruthy();
    expect(server.sent('/v1.0/resource/create')).toHaveLength(0);
  });

  it('the switch is disabled until the QR image has loaded, then says opened successfully', async () => {
    server.answers.set('/v1.0/resource/enableResource', ok({ state: 0 }));
    server.answers.set('/v1.0/resource/getList', list([row({ id: 12, qrImageId: 7, state: 1 })]));
    renderAt(SUPPLIER_PAGE, 'supplier');
    const sw = await screen.findByTestId('resource-enabled-12');
    const img = await screen.findByTestId('resource-qr-12');
    expect(sw.hasAttribute('disabled')).toBe(true);
    fireEvent.load(img);
    await waitFor(() => expect(screen.getByTestId('resource-enabled-12').hasAttribute('disabled')).toBe(false));
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('resource-enabled-12'));
    expect(await screen.findByText('opened successfully')).toBeTruthy();
    expect(server.sent('/v1.0/resource/enableResource')[0]?.body).toEqual({
      resourceId: 12,
      productId: 1002,
      enable: true,
    });
  });

  it('a QR code rendered from the account data (USDT address) lets the switch work; a refusal shows its reason', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const address = 'TXYZopqrstuvwxyzABCDEFGHJKLMNPQRSa';
    server.answers.set(
      '/v1.0/resource/getList',
      list([
        row({
          id: 21,
          productId: 3015,
          kind: 'usdtWallet',
          state: 1,
          details: { address },
          qrCode: address,
        }),
      ]),
    );
    server.answers.set('/v1.0/resource/enableResource', {
      code: 422,
      msg: 'the supplier of this resource is disabled, so it cannot be switched on',
      data: { reason: 'supplierDisabled' },
    });
    renderAt('/uSDTFloating/list', 'supplier');
    expect(await screen.findByText('TXYZop…NPQRSa')).toBeTruthy();
    expect(screen.getByTestId('resource-qr-21')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('resource-enabled-21').hasAttribute('disabled')).toBe(false));
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('resource-enabled-21'));
    expect(
      await screen.findByText('the supplier of this resource is disabled, so it cannot be switched on'),
    ).toBeTruthy();
  });

  it('admin mode lists every supplier with the supplier filter, and filters by it', async () => {
    renderAt('/internationalCardToCard/list-admin', 'admin');
    expect(await screen.findByTestId('filter-supplierId')).toBeTruthy();
    const table = screen.getByTestId('resource-list');
    expect((await within(table).findAllByText('Supplier One')).length).toBeGreaterThan(0);
    expect(screen.getByTestId('resource-create')).toBeTruthy();
    const user = userEvent.setup({ delay: null });
    await user.click(within(screen.getByTestId('list-filters')).getAllByRole('combobox')[0]!);
    await user.click(await screen.findByTitle('Supplier One (supplier1)'));
    await chosen('Supplier One (supplier1)');
    await user.click(screen.getByTestId('list-search'));
    await waitFor(() =>
      expect(server.sent('/v1.0/resource/getList').some((r) => r.url.includes('supplierId=1'))).toBe(true),
    );
  });

  it('bulk enable sends the selected ids', async () => {
    server.answers.set('/v1.0/resource/bulkEnable', ok({ count: 2, state: 0 }));
    renderAt('/internationalCardToCard/list-admin', 'admin');
    const user = userEvent.setup({ delay: null });
    expect(screen.getByTestId('resource-bulk-enable').hasAttribute('disabled')).toBe(true);
    await user.click(await screen.findByTestId('resource-select-11'));
    await user.click(screen.getByTestId('resource-select-12'));
    await user.click(screen.getByTestId('resource-bulk-enable'));
    await waitFor(() => expect(server.sent('/v1.0/resource/bulkEnable')).toHaveLength(1));
    expect(server.sent('/v1.0/resource/bulkEnable')[0]?.body).toEqual({ ids: [11, 12], enable: true });
    expect(await screen.findByText('2 resources enabled')).toBeTruthy();
  });

  it('customer service reads without any action; the detail shows processing orders /100', async () => {
    server.answers.set(
      '/v1.0/resource/getResourceDetailInfo',
      ok({
        id: 11,
        productId: 1002,
        supplierName: 'Supplier One',
        productName: 'International card-to-card collection',
        processingOrderCount: 4,
        processingOrderAmount: 1_234_500,
        state: 1,
        link: 'https://pay.example/r/11',
        jumpLink: null,
        qrCode: null,
        qrImageId: null,
      }),
    );
    // The server offers customer service nothing on any row.
    server.answers.set('/v1.0/resource/getList', list(ROWS.map((r) => ({ ...r, allowedActions: [] }))));
    renderAt('/internationalCardToCard/list-admin/customerService', 'customerService');
    expect(await screen.findByText('HDFC card')).toBeTruthy();
    expect(screen.getByTestId('filter-supplierId')).toBeTruthy();
    for (const id of [
      'resource-create',
      'resource-bulk-enable',
      'resource-edit-11',
      'resource-delete-11',
      'resource-more-11',
      'resource-actions-11',
      'resource-select-11',
    ]) {
      expect(screen.queryByTestId(id), id).toBeNull();
    }
    expect(screen.queryByText('Actions')).toBeNull();
    expect(screen.getByTestId('resource-enabled-11').hasAttribute('disabled')).toBe(true);
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('resource-detail-11'));
    expect((await screen.findByTestId('resource-detail-processing-count')).textContent).toBe('4');
    expect(screen.getByTestId('resource-detail-processing-amount').textContent).toBe('12,345.00');
    expect(screen.getByTestId('resource-detail-qr')).toBeTruthy();
  });

  it('a gateway key secret is never shown back: editing with it empty keeps it (not sent)', async () => {
    server.answers.set(
      '/v1.0/resource/getList',
      list([
        row({
          id: 31,
          productId: 2003,
          kind: 'gatewayPayout',
          name: 'Razorpay main',
          details: { baseUrl: 'https://api.razorpay.com', keyId: 'rzp_live_abc', accountNumber: '1234567890' },
          hasSecret: true,
        }),
      ]),
    );
    server.answers.set('/v1.0/resource/update', ok(row({ id: 31 })));
    renderAt('/razorpayPayProxy/list', 'supplier');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('resource-edit-31'));
    expect((screen.getByTestId('resource-form-keySecret') as HTMLInputElement).value).toBe('');
    expect((screen.getByTestId('resource-form-keyId') as HTMLInputElement).value).toBe('rzp_live_abc');
    await user.click(screen.getByTestId('resource-form-save'));
    await waitFor(() => expect(server.sent('/v1.0/resource/update')).toHaveLength(1));
    expect(server.sent('/v1.0/resource/update')[0]?.body).toMatchObject({
      id: 31,
      productId: 2003,
      details: { keyId: 'rzp_live_abc', accountNumber: '1234567890' },
    });
  });

  it('a QR image of the wrong type or over 512 KiB is refused before sending', async () => {
    server.answers.set('/v1.0/resource/getList', list([row({ id: 41, productId: 5001, kind: 'wechat', details: {} })]));
    renderAt('/otherChannel/wechat', 'supplier');
    const user = userEvent.setup({ delay: null });
    // A WeChat account takes a QR image: upload is its second button, after edit; delete in 'more'.
    expect(buttonsOf(41, await screen.findByTestId('resource-actions-41'))).toEqual(['edit', 'upload', 'more']);
    await user.click(screen.getByTestId('resource-upload-41'));
    const button = await screen.findByTestId('resource-upload-file');
    // rc-upload renders a fresh file input after each pick: look it up each time.
    const input = () => button.closest('.ant-upload')?.querySelector('input[type="file"]') as HTMLInputElement;
    const big = new File([new Uint8Array(512 * 1024 + 1)], 'qr.png', { type: 'image/png' });
    fireEvent.change(input(), { target: { files: [big] } });
    expect(await screen.findByText('the image is larger than 512 KiB')).toBeTruthy();
    const gif = new File([new Uint8Array(10)], 'qr.gif', { type: 'image/gif' });
    fireEvent.change(input(), { target: { files: [gif] } });
    expect(await screen.findByText('file type error')).toBeTruthy();
    expect(server.sent('/v1.0/resource/uploadQr')).toHaveLength(0);
    server.answers.set('/v1.0/resource/uploadQr', ok({ qrImageId: 9, size: 3, sha256: 'x' }));
    fireEvent.change(input(), { target: { files: [new File(['abc'], 'qr.png', { type: 'image/png' })] } });
    await waitFor(() => expect(server.sent('/v1.0/resource/uploadQr')).toHaveLength(1));
    expect(server.sent('/v1.0/resource/uploadQr')[0]?.body).toEqual({ id: 41, mime: 'image/png', imageBase64: 'YWJj' });
    expect(await screen.findByText('QR image uploaded')).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('resource-upload-file')).toBeNull());
  });

  it('the gateway payout page serves gateway payout (2003) and India auto payout (2002): product filter, column and a gateway form for either', async () => {
    const gateway = { baseUrl: 'https://api.razorpay.com', keyId: 'rzp_live_abc', accountNumber: '12345678901' };
    server.answers.set(
      '/v1.0/resource/getList',
      list([
        row({ id: 51, productId: 2002, kind: 'gatewayPayout', name: 'Auto payout', details: gateway, hasSecret: true }),
        row({
          id: 52,
          productId: 2003,
          kind: 'gatewayPayout',
          name: 'Razorpay main',
          details: gateway,
          hasSecret: true,
        }),
      ]),
    );
    server.answers.set('/v1.0/resource/create', ok(row({ id: 53, productId: 2002, kind: 'gatewayPayout' })));
    renderAt('/razorpayPayProxy/list', 'supplier');
    const table = await screen.findByTestId('resource-list');
    expect(await within(table).findByText('Razorpay main')).toBeTruthy();
    expect(within(table).getByText('India auto payout')).toBeTruthy();
    expect(within(table).getByText('Gateway payout')).toBeTruthy();
    expect(decodeURIComponent(server.sent('/v1.0/resource/getList')[0]!.url)).toContain('productIds=2003,2002');
    expect(screen.getByTestId('filter-productId')).toBeTruthy();
    // The stats sum both products.
    await waitFor(() => expect(server.sent('/v1.0/resource/getResourceStaticInfo')).toHaveLength(2));

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('resource-create'));
    const form = await screen.findByTestId('resource-form');
    await user.click(within(form).getAllByRole('combobox')[0]!);
    await user.click(await screen.findByTitle('India auto payout'));
    await chosen('India auto payout');
    // An India auto payout account is a gateway account: no bank account's fields.
    expect(screen.queryByTestId('resource-form-ifsc')).toBeNull();
    fireEvent.change(screen.getByTestId('resource-form-name'), { target: { value: 'Auto via Razorpay' } });
    fireEvent.change(screen.getByTestId('resource-form-baseUrl'), { target: { value: 'https://api.razorpay.com' } });
    fireEvent.change(screen.getByTestId('resource-form-keyId'), { target: { value: 'rzp_live_auto' } });
    fireEvent.change(screen.getByTestId('resource-form-keySecret'), { target: { value: 'k3y-secret' } });
    fireEvent.change(screen.getByTestId('resource-form-webhookSecret'), { target: { value: 'h00k-secret' } });
    fireEvent.change(screen.getByTestId('resource-form-accountNumber'), { target: { value: '2323230041626906' } });
    await user.click(screen.getByTestId('resource-form-save'));
    await waitFor(() => expect(server.sent('/v1.0/resource/create')).toHaveLength(1));
    expect(server.sent('/v1.0/resource/create')[0]?.body).toMatchObject({
      productId: 2002,
      name: 'Auto via Razorpay',
      details: {
        baseUrl: 'https://api.razorpay.com',
        keyId: 'rzp_live_auto',
        keySecret: 'k3y-secret',
        webhookSecret: 'h00k-secret',
        accountNumber: '2323230041626906',
      },
    });
  });

  it('the others page lists every other-channel product together; the form’s fields follow the chosen product', async () => {
    server.answers.set(
      '/v1.0/resource/getList',
      list([
        row({
          id: 61,
          productId: 1001,
          kind: 'upi',
          name: 'UPI desk',
          details: {
            accountName: 'Ravi',
            bankName: 'SBI',
            cardNumber: '30001234567',
            ifsc: 'SBIN0004321',
            vpa: 'r@sbi',
          },
        }),
        row({
          id: 62,
          productId: 5001,
          kind: 'wechat',
          name: 'WeChat desk',
          details: { accountName: 'Li Wei', paymentLink: 'https://pay.example.com/w' },
        }),
      ]),
    );
    server.answers.set('/v1.0/resource/create', ok(row({ id: 63, productId: 5002, kind: 'alipay' })));
    renderAt('/otherChannel/others-admin', 'admin');
    const table = await screen.findByTestId('resource-list');
    expect(await within(table).findByText('WeChat desk')).toBeTruthy();
    expect(within(table).getByText('UPI desk')).toBeTruthy();
    expect(within(table).getByText('WeChat')).toBeTruthy();
    expect(within(table).getByText('https://pay.example.com/w')).toBeTruthy();
    expect(within(table).getByText('r@sbi')).toBeTruthy();
    expect(decodeURIComponent(server.sent('/v1.0/resource/getList')[0]!.url)).toContain(
      'productIds=1001,1045,5001,5002',
    );
    expect(decodeURIComponent(screen.getByTestId('export-csv').getAttribute('href')!)).toContain(
      'productIds=1001,1045,5001,5002',
    );
    // Filter by product: the choice is sent with the page's products.
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('filter-productId'));
    await user.click(await screen.findByTitle('Alipay'));
    await chosen('Alipay');
    await user.click(screen.getByTestId('list-search'));
    await waitFor(() =>
      expect(server.sent('/v1.0/resource/getList').some((r) => r.url.includes('productId=5002'))).toBe(true),
    );
    // Both rows are of kinds that take a QR image (UPI, WeChat).
    expect(screen.getByTestId('resource-upload-61')).toBeTruthy();
    expect(screen.getByTestId('resource-upload-62')).toBeTruthy();

    await user.click(screen.getByTestId('resource-create'));
    const form = await screen.findByTestId('resource-form');
    // The first product (UPI) shows the bank card fields and the UPI ID.
    expect(within(form).getByTestId('resource-form-ifsc')).toBeTruthy();
    expect(within(form).getByTestId('resource-form-vpa')).toBeTruthy();
    const productSelect = within(form).getAllByRole('combobox')[1]!;
    await user.click(productSelect);
    // The filter's dropdown stays in the page: the form's option is the last one.
    await user.click((await screen.findAllByTitle('Alipay')).at(-1)!);
    await waitFor(() => expect(within(form).queryByTestId('resource-form-ifsc')).toBeNull());
    expect(within(form).queryByTestId('resource-form-cardNumber')).toBeNull();
    expect(within(form).getByTestId('resource-form-paymentLink')).toBeTruthy();
  });
  it('offers each row what the server allows it: a bank card takes no QR image; a busy one is not deleted', async () => {
    server.answers.set(
      '/v1.0/resource/getList',
      list([
        row({ id: 11 }),
        row({ id: 12, name: 'Busy card' }, { openOrders: 2 }),
        row({ id: 13, productId: 1001, kind: 'upi', name: 'UPI desk', details: {} }),
        row({ id: 14, productId: 1001, kind: 'upi', name: 'Busy UPI', details: {} }, { openOrders: 1 }),
      ]),
    );
    renderAt(SUPPLIER_PAGE, 'supplier');
    await screen.findByText('Busy UPI');
    expect(buttonsOf(11)).toEqual(['edit', 'delete']);
    expect(buttonsOf(12)).toEqual(['edit']);
    expect(buttonsOf(13)).toEqual(['edit', 'upload', 'more']);
    expect(buttonsOf(14)).toEqual(['edit', 'upload']);
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('resource-more-13'));
    expect(await screen.findByTestId('resource-delete-13')).toBeTruthy();
  });

  it('delete asks first, posts the id and reloads; the server’s refusal is shown in the reader’s language', async () => {
    server.answers.set('/v1.0/resource/delete', {
      code: 422,
      msg: 'the resource has open orders and cannot be deleted',
      data: { reason: 'resourceBusy' },
    });
    renderAt(SUPPLIER_PAGE, 'supplier');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('resource-delete-11'));
    expect(await screen.findByText('Delete resource HDFC card?')).toBeTruthy();
    expect(server.sent('/v1.0/resource/delete')).toHaveLength(0);
    await user.click(screen.getByTestId('resource-ok'));
    expect(await screen.findByText('the resource has open orders and cannot be deleted')).toBeTruthy();
    expect(server.sent('/v1.0/resource/delete')[0]?.body).toEqual({ id: 11 });

    server.answers.set('/v1.0/resource/delete', ok(null));
    const before = server.sent('/v1.0/resource/getList').length;
    await user.click(screen.getByTestId('resource-delete-11'));
    await user.click(await screen.findByTestId('resource-ok'));
    expect(await screen.findByText('Deleted')).toBeTruthy();
    await waitFor(() => expect(server.sent('/v1.0/resource/getList').length).toBeGreaterThan(before));
  });

  it('edit sends the row’s id with the changed fields (never a supplier)', async () => {
    server.answers.set('/v1.0/resource/update', ok(row({ name: 'HDFC main' })));
    renderAt('/internationalCardToCard/list-admin', 'admin');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('resource-edit-11'));
    const name = await screen.findByTestId('resource-form-name');
    await user.clear(name);
    await user.type(name, 'HDFC main');
    await user.click(screen.getByTestId('resource-form-save'));
    await waitFor(() => expect(server.sent('/v1.0/resource/update')).toHaveLength(1));
    const body = server.sent('/v1.0/resource/update')[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({ id: 11, productId: 1002, name: 'HDFC main' });
    expect(body).not.toHaveProperty('supplierId');
    expect(await screen.findByText('Saved')).toBeTruthy();
  });

  it('a resource whose supplier or product is disabled cannot be switched on, and says why; switching off stays', async () => {
    server.answers.set(
      '/v1.0/resource/getList',
      list([
        row({ id: 11, state: 1 }, { supplierEnabled: false }),
        row({ id: 12, name: 'SBI card', state: 0 }, { productEnabled: false }),
      ]),
    );
    renderAt(SUPPLIER_PAGE, 'supplier');
    await screen.findByText('SBI card');
    // Neither has a QR code to wait for: only the rule keeps a switch off.
    await waitFor(() => expect(screen.getByTestId('resource-enabled-12').hasAttribute('disabled')).toBe(false));
    expect(screen.getByTestId('resource-enabled-11').hasAttribute('disabled')).toBe(true);
    expect(screen.getByTestId('resource-enabled-why-11')).toBeTruthy();
    expect(screen.queryByTestId('resource-enabled-why-12')).toBeNull();
  });

  it.each([
    ['zh-CN', '编辑', '上传二维码', '上传 WeChat desk 的二维码图片'],
    ['zh-TW', '編輯', '上傳二維碼', '上傳 WeChat desk 的二維碼圖片'],
  ] as const)('the row actions speak %s', async (lang, edit, upload, title) => {
    await changeLanguage(lang);
    server.answers.set(
      '/v1.0/resource/getList',
      list([row({ id: 41, productId: 5001, kind: 'wechat', name: 'WeChat desk', details: {} })]),
    );
    renderAt('/otherChannel/wechat', 'supplier');
    const user = userEvent.setup({ delay: null });
    expect((await screen.findByTestId('resource-edit-41')).textContent).toBe(edit);
    expect(screen.getByTestId('resource-upload-41').textContent).toBe(upload);
    await user.click(screen.getByTestId('resource-upload-41'));
    expect(await screen.findByText(title)).toBeTruthy();
  });
});
