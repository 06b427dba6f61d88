import type { Role, SupplierRow } from '@paydesk/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { ok, pageOf, renderPage, stubServer, testUser } from '../../test/renderPage';
import { chosen } from '../../test/select';
import SupplierListPage from './SupplierListPage';

const row = (over: Partial<SupplierRow>): SupplierRow => ({
  id: 1,
  userId: 6,
  account: 'supplier1',
  name: 'Supplier One',
  parentId: null,
  parentName: null,
  enabled: true,
  remark: '',
  agentCount: 1,
  balance: 123_456_789,
  frozenBalance: 5_000,
  createdAt: '2024-05-01T10:00:00.000Z',
  proposalKinds: [],
  ...over,
});
const ROWS = [
  row({}),
  row({
    id: 2,
    userId: 7,
    account: 'agent1',
    name: 'Agent One',
    parentId: 1,
    parentName: 'Supplier One',
    agentCount: 0,
    balance: 1_00,
    frozenBalance: 0,
  }),
];
const LIST = ok({
  list: ROWS,
  total: 2,
  pageIndex: 1,
  pageSize: 20,
  summary: { balance: 123_456_889, frozenBalance: 5_000 },
});
const PAGE = '/supplier/list';
let server: ReturnType<typeof stubServer>;

// Typing into antd forms is slow on a shared machine.
vi.setConfig({ testTimeout: 30_000 });

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({
    '/v1.0/supplier/getList': LIST,
    '/v1.0/balance/getProposalList': pageOf([]),
    '/v1.0/view/getList': ok([]),
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await changeLanguage('en-US');
});

const renderAt = (path: string, access: Role = 'admin') => renderPage(<SupplierListPage />, path, testUser({ access }));

async function openCreate() {
  const user = userEvent.setup({ delay: null });
  await user.click(await screen.findByTestId('supplier-create'));
  await screen.findByTestId('supplier-form');
  return user;
}

describe('SupplierListPage', () => {
  it('lists suppliers and agents with balances /100 and totals over the filtered set; admin has the actions', async () => {
    renderAt(PAGE);
    const list = await screen.findByTestId('supplier-list');
    expect(await within(list).findByText('Agent One')).toBeTruthy();
    expect(within(list).getByText('1,234,567.89')).toBeTruthy();
    expect(screen.getByTestId('list-total-balance').textContent).toBe('1,234,568.89');
    expect(screen.getByTestId('list-total-frozenBalance').textContent).toBe('50.00');
    expect(within(list).getByText('Supplier One (1)')).toBeTruthy();
    expect(screen.getByTestId('supplier-create')).toBeTruthy();
    expect(screen.getByTestId('supplier-edit-supplier1')).toBeTruthy();
    expect(screen.getByTestId('supplier-products-agent1')).toBeTruthy();
    expect(screen.getByTestId('supplier-enabled-supplier1').hasAttribute('disabled')).toBe(false);
  });

  it('the create form asks for a name and checks account and password with the spec texts, sending nothing', async () => {
    renderAt(PAGE);
    const user = await openCreate();
    await user.type(screen.getByTestId('supplier-form-account'), 'bad name!');
    await user.type(screen.getByTestId('supplier-form-password'), 'onlyletters');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('supplier name cannot be empty')).toBeTruthy();
    expect(screen.getByText('account accepts only digits and English letters')).toBeTruthy();
    expect(screen.getByText('password must contain digits and letters')).toBeTruthy();
    expect(server.sent('/v1.0/supplier/create')).toHaveLength(0);
  });

  it('creates a supplier with a new account, and shows the translated refusal when auto-creation is off', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.answers.set('/v1.0/supplier/create', {
      code: 422,
      msg: 'creating a new account with the supplier is switched off (AutoCreateRelateSupplier)',
      data: { reason: 'autoCreateOff' },
    });
    renderAt(PAGE);
    const user = await openCreate();
    await user.type(screen.getByTestId('supplier-form-name'), ' Supplier Two ');
    await user.type(screen.getByTestId('supplier-form-account'), 'supplier2');
    await user.type(screen.getByTestId('supplier-form-password'), 'supply2024');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        'Creating a new account here is switched off in the system settings: link an existing account',
      ),
    ).toBeTruthy();
    expect(server.sent('/v1.0/supplier/create')[0]?.body).toEqual({
      mode: 'newAccount',
      name: 'Supplier Two',
      account: 'supplier2',
      password: 'supply2024',
      // Empty form values travel as null (spec section 5); the server reads a null remark as empty.
      remark: null,
    });
  });

  it('links an unused supplier account', async () => {
    server.answers.set(
      '/v1.0/user/getUnusedUserOptions',
      ok([{ id: 12, account: 'supplier3', nickname: 'S3', role: 'supplier', parentId: null, deleted: false }]),
    );
    server.answers.set('/v1.0/supplier/create', ok({ id: 3, userId: 12 }));
    renderAt(PAGE);
    const user = await openCreate();
    await user.click(screen.getByTestId('supplier-form-mode-link'));
    await user.type(screen.getByTestId('supplier-form-name'), 'Three');
    // The account select appears once the form has seen the mode change (a render later under load).
    await user.click(await within(screen.getByTestId('supplier-form')).findByRole('combobox'));
    await user.click(await screen.findByTitle('supplier3 (S3)'));
    await chosen('supplier3 (S3)');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(server.sent('/v1.0/supplier/create')[0]?.body).toEqual({
        mode: 'linkAccount',
        name: 'Three',
        userId: 12,
        remark: null,
      }),
    );
    expect(await screen.findByText('added successfully')).toBeTruthy();
  });

  it('the enable switch sends setEnabled and says closed successfully', async () => {
    server.answers.set('/v1.0/supplier/setEnabled', ok(null));
    renderAt(PAGE);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('supplier-enabled-agent1'));
    expect(await screen.findByText('closed successfully')).toBeTruthy();
    expect(server.sent('/v1.0/supplier/setEnabled')[0]?.body).toEqual({ id: 2, enabled: false });
  });

  it('edits name and remark', async () => {
    server.answers.set('/v1.0/supplier/update', ok(null));
    renderAt(PAGE);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('supplier-edit-supplier1'));
    const name = await screen.findByTestId('supplier-edit-name');
    await user.clear(name);
    await user.type(name, 'Supplier One Ltd');
    await user.type(screen.getByTestId('supplier-edit-remark'), 'main');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(server.sent('/v1.0/supplier/update')[0]?.body).toEqual({
        id: 1,
        name: 'Supplier One Ltd',
        remark: 'main',
      }),
    );
  });

  it('offers the balance proposals the row allows (its proposalKinds) in the row’s menu', async () => {
    server.answers.set(
      '/v1.0/supplier/getList',
      ok({
        list: [row({ proposalKinds: ['adjust', 'deposit', 'withdraw'] }), { ...ROWS[1]!, proposalKinds: ['deposit'] }],
        total: 2,
        pageIndex: 1,
        pageSize: 20,
        summary: { balance: 0, frozenBalance: 0 },
      }),
    );
    renderAt(PAGE);
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('supplier-more-supplier1'));
    for (const kind of ['deposit', 'withdraw', 'adjust']) {
      expect(await screen.findByTestId(`supplier-propose-${kind}-supplier1`)).toBeTruthy();
    }
    await user.click(screen.getByTestId('supplier-more-agent1'));
    expect(await screen.findByTestId('supplier-propose-deposit-agent1')).toBeTruthy();
    expect(screen.queryByTestId('supplier-propose-withdraw-agent1')).toBeNull();
  });

  it('the customer-service route reads without any action', async () => {
    for (const access of ['customerService', 'technicalMaintenance'] as const) {
      const view = renderAt('/supplier/list/customerService', access);
      expect(await screen.findByText('Agent One')).toBeTruthy();
      expect(screen.queryByTestId('supplier-create')).toBeNull();
      expect(screen.queryByTestId('supplier-edit-supplier1')).toBeNull();
      expect(screen.queryByTestId('supplier-more-supplier1')).toBeNull();
      expect(screen.getByTestId('supplier-products-supplier1')).toBeTruthy();
      expect(screen.getByTestId('supplier-enabled-supplier1').hasAttribute('disabled')).toBe(true);
      expect(screen.getByTestId('export-csv')).toBeTruthy();
      view.unmount();
    }
  });

  it('technical support reads the supplier list: no changes and no product settings', async () => {
    renderAt(PAGE, 'technicalSupport');
    expect(await screen.findByText('Agent One')).toBeTruthy();
    expect(screen.queryByTestId('supplier-create')).toBeNull();
    expect(screen.queryByTestId('supplier-products-supplier1')).toBeNull();
    expect(screen.queryByTestId('supplier-actions-supplier1')?.querySelector('button') ?? null).toBeNull();
    expect(screen.getByTestId('supplier-enabled-supplier1').hasAttribute('disabled')).toBe(true);
  });

  it('reads in Simplified and Traditional Chinese', async () => {
    await changeLanguage('zh-CN');
    const first = renderAt(PAGE);
    expect(await screen.findByRole('columnheader', { name: '码商名称' })).toBeTruthy();
    expect(screen.getByText('新增码商')).toBeTruthy();
    expect((await screen.findByTestId('list-total-balance')).textContent).toBe('1,234,568.89');
    first.unmount();
    await changeLanguage('zh-TW');
    renderAt(PAGE);
    expect(await screen.findByRole('columnheader', { name: '碼商名稱' })).toBeTruthy();
    expect(screen.getByText('新增碼商')).toBeTruthy();
  });
});
