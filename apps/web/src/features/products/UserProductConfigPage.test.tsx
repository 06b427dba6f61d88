import { PRODUCTS, type ProductRow, type Role, type UserProductRow, type UserProductSlot } from '@paydesk/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { LANGUAGES } from '../../i18n/language';
import { PartyProductsPanel } from '../../shared/products/PartyProductsPanel';
import { productName } from '../../shared/products/productName';
import { ok, pageOf, renderPage, stubServer, testUser } from '../../test/renderPage';
import { chosen } from '../../test/select';
import { productsLocales } from './locales';
import UserProductConfigPage from './UserProductConfigPage';

const row = (over: Partial<UserProductRow>): UserProductRow => ({
  id: 1,
  userId: 8,
  account: 'merchant1',
  nickname: 'Merchant One',
  role: 'merchant',
  parentAccount: null,
  productId: 1001,
  enabled: true,
  feeRate: 250,
  perTransactionFee: 500,
  commissionRate: 0,
  dailyLimit: null,
  minAmount: null,
  maxAmount: null,
  kycLowerLimit: null,
  updatedAt: '2024-05-01T10:00:00.000Z',
  ...over,
});

const MERCHANT_ROW = row({});
const AGENT_ROW = row({
  id: 2,
  userId: 7,
  account: 'agent1',
  nickname: 'Agent One',
  role: 'supplier',
  parentAccount: 'supplier1',
  feeRate: 0,
  perTransactionFee: 0,
  commissionRate: 200,
  dailyLimit: 100_000_000,
});

const CATALOGUE: ProductRow[] = PRODUCTS.map((p) => ({
  id: p.id,
  name: p.name,
  direction: p.direction,
  resourceKind: p.resourceKind,
  apiUnitsPerMinor: p.apiUnitsPerMinor,
  floatingAmount: p.floatingAmount,
  enabled: true,
  minAmount: 10_000,
  maxAmount: 5_000_000,
}));

const PAGE = '/system/userProductConfig';
const SAVE = '/v1.0/userProduct/save';
let server: ReturnType<typeof stubServer>;

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(() => {
  server = stubServer({
    '/v1.0/userProduct/getList': pageOf([MERCHANT_ROW, AGENT_ROW]),
    '/v1.0/user/getUserOptions': ok([]),
    '/v1.0/product/getList': ok(CATALOGUE),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const renderAt = (path: string, access: Role = 'admin') =>
  renderPage(<UserProductConfigPage />, path, testUser({ access }));

async function retype(user: ReturnType<typeof userEvent.setup>, testId: string, text: string) {
  const input = screen.getByTestId(testId);
  await user.clear(input);
  if (text) await user.type(input, text);
}

describe('UserProductConfigPage', { timeout: 30_000 }, () => {
  it('lists settings with translated product names, rates in percent and money divided by 100', async () => {
    renderAt(PAGE);
    const list = await screen.findByTestId('user-product-list');
    expect(await within(list).findByText('merchant1 (Merchant One)')).toBeTruthy();
    expect(within(list).getAllByText('1001 UPI collection')).toHaveLength(2);
    expect(within(list).getByText('2.50%')).toBeTruthy();
    expect(within(list).getByText('5.00')).toBeTruthy();
    expect(within(list).getByText('2.00%')).toBeTruthy();
    expect(within(list).getByText('1,000,000.00')).toBeTruthy();
    expect(within(list).getByText('supplier1')).toBeTruthy();
    expect(screen.getByTestId('export-csv').getAttribute('href')).toBe('/v1.0/userProduct/export');
  });

  it('the edit dialog sends amounts in minor units and rates in basis points', async () => {
    server.answers.set(SAVE, ok(MERCHANT_ROW));
    const user = userEvent.setup({ delay: null });
    renderAt(PAGE);
    await user.click(await screen.findByTestId('user-product-edit-merchant1-1001'));
    await screen.findByTestId('user-product-form');
    expect(screen.queryByTestId('user-product-form-commission-rate')).toBeNull();
    await retype(user, 'user-product-form-fee-rate', '2.75');
    await retype(user, 'user-product-form-per-transaction-fee', '3.5');
    await retype(user, 'user-product-form-daily-limit', '1,000,000');
    await retype(user, 'user-product-form-min-amount', '200');
    await retype(user, 'user-product-form-kyc-lower-limit', '5000.01');
    await user.click(screen.getByTestId('user-product-form-submit'));
    await waitFor(() => expect(server.sent(SAVE)).toHaveLength(1));
    expect(server.sent(SAVE)[0]?.body).toEqual({
      userId: 8,
      productId: 1001,
      enabled: true,
      feeRate: 275,
      perTransactionFee: 350,
      commissionRate: 0,
      dailyLimit: 100_000_000,
      minAmount: 20_000,
      maxAmount: null,
      kycLowerLimit: 500_001,
    });
    expect(await screen.findByText('Saved')).toBeTruthy();
  });

  it('refuses a rate above 100 % or an amount with three decimals before sending anything', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt(PAGE);
    await user.click(await screen.findByTestId('user-product-edit-merchant1-1001'));
    await retype(user, 'user-product-form-fee-rate', '100.01');
    await retype(user, 'user-product-form-min-amount', '1.005');
    await user.click(screen.getByTestId('user-product-form-submit'));
    expect(await screen.findByText('Enter a percentage from 0 to 100 with at most two decimals')).toBeTruthy();
    expect(await screen.findByText('Enter an amount above 0 with at most two decimals')).toBeTruthy();
    expect(server.sent(SAVE)).toHaveLength(0);
  });

  it('shows the server’s commission refusal translated, with the parent’s rate, and keeps the dialog open', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.answers.set(SAVE, {
      code: 422,
      msg: "an agent's commission may not exceed its parent's (3.00%)",
      data: { reason: 'commissionAboveParent', max: 300 },
    });
    const user = userEvent.setup({ delay: null });
    renderAt(PAGE);
    await user.click(await screen.findByTestId('user-product-edit-agent1-1001'));
    expect(screen.queryByTestId('user-product-form-fee-rate')).toBeNull();
    await retype(user, 'user-product-form-commission-rate', '3.5');
    await user.click(screen.getByTestId('user-product-form-submit'));
    const error = await screen.findByTestId('user-product-form-error');
    expect(error.textContent).toBe("Save failed: An agent's commission may not exceed its parent's (at most 3.00%)");
    expect(server.sent(SAVE)[0]?.body).toMatchObject({
      userId: 7,
      commissionRate: 350,
      feeRate: 0,
      perTransactionFee: 0,
    });
    expect(screen.getByTestId('user-product-form')).toBeTruthy();

    await changeLanguage('zh-CN');
    await user.click(screen.getByTestId('user-product-form-submit'));
    await waitFor(() =>
      expect(screen.getByTestId('user-product-form-error').textContent).toBe(
        '保存失败：代理的佣金率不能高于其上级码商（最高 3.00%）',
      ),
    );
    await changeLanguage('en-US');
  });

  it.each([
    ['superAdmin', 'en-US', 'Edit'],
    ['admin', 'zh-CN', '编辑'],
    ['admin', 'zh-TW', '編輯'],
  ] as const)('%s is offered edit on every row (%s), as the only action', async (access, lang, label) => {
    await changeLanguage(lang);
    renderAt(PAGE, access);
    for (const id of ['merchant1-1001', 'agent1-1001']) {
      const bar = await screen.findByTestId(`user-product-actions-${id}`);
      expect(
        within(bar)
          .getAllByRole('button')
          .map((b) => b.getAttribute('data-testid')),
      ).toEqual([`user-product-edit-${id}`]);
      expect(within(bar).getByRole('button').textContent).toBe(label);
    }
    await changeLanguage('en-US');
  });

  it('the read-only route and non-managing roles show no edit or add', async () => {
    for (const [path, access] of [
      [`${PAGE}/readonly`, 'technicalMaintenance'],
      [`${PAGE}/readonly`, 'admin'],
      [PAGE, 'customerService'],
    ] as const) {
      const view = renderAt(path, access);
      expect(await screen.findByText('merchant1 (Merchant One)')).toBeTruthy();
      expect(screen.queryByTestId('user-product-add')).toBeNull();
      expect(screen.queryByTestId('user-product-edit-merchant1-1001')).toBeNull();
      expect(screen.queryByTestId('user-product-actions-merchant1-1001')).toBeNull();
      view.unmount();
    }
  });

  it('adds a setting for a chosen supplier account and product', async () => {
    server.answers.set(
      '/v1.0/user/getUserOptions',
      ok([{ id: 5, account: 'supplier1', nickname: 'Supplier One', role: 'supplier', parentId: null, deleted: false }]),
    );
    server.answers.set(SAVE, ok(AGENT_ROW));
    const user = userEvent.setup({ delay: null });
    renderAt(PAGE);
    await user.click(await screen.findByTestId('user-product-add'));
    const form = await screen.findByTestId('user-product-form');
    const [account, product] = within(form).getAllByRole('combobox');
    await user.click(account!);
    await user.click(await screen.findByTitle('supplier1 (Supplier)'));
    await chosen('supplier1 (Supplier)');
    await user.click(product!);
    await user.click(await screen.findByTitle('3015 USDT collection'));
    await chosen('3015 USDT collection');
    await retype(user, 'user-product-form-commission-rate', '1.25');
    await user.click(screen.getByTestId('user-product-form-submit'));
    await waitFor(() => expect(server.sent(SAVE)).toHaveLength(1), { timeout: 5000 });
    expect(server.sent(SAVE)[0]?.body).toEqual({
      userId: 5,
      productId: 3015,
      enabled: true,
      feeRate: 0,
      perTransactionFee: 0,
      commissionRate: 125,
      dailyLimit: null,
      minAmount: null,
      maxAmount: null,
      kycLowerLimit: null,
    });
  });

  it('the catalogue tab switches a product off and edits its limits in minor units', async () => {
    server.answers.set('/v1.0/product/update', ok(CATALOGUE[0]));
    const user = userEvent.setup({ delay: null });
    renderAt(PAGE);
    await user.click(await screen.findByTestId('user-product-tab-catalogue'));
    await user.click(await screen.findByTestId('product-enabled-5002'));
    await waitFor(() => expect(server.sent('/v1.0/product/update')).toHaveLength(1));
    expect(server.sent('/v1.0/product/update')[0]?.body).toEqual({
      id: 5002,
      enabled: false,
      minAmount: 10_000,
      maxAmount: 5_000_000,
    });
    await user.click(screen.getByTestId('product-edit-1001'));
    await retype(user, 'product-form-max-amount', '80000.5');
    await user.click(screen.getByTestId('product-form-submit'));
    await waitFor(() => expect(server.sent('/v1.0/product/update')).toHaveLength(2));
    expect(server.sent('/v1.0/product/update')[1]?.body).toEqual({
      id: 1001,
      enabled: true,
      minAmount: 10_000,
      maxAmount: 8_000_050,
    });
  });

  it('the catalogue is read-only for the read-only route', async () => {
    const user = userEvent.setup({ delay: null });
    renderAt(`${PAGE}/readonly`, 'technicalMaintenance');
    await user.click(await screen.findByTestId('user-product-tab-catalogue'));
    expect((await screen.findByTestId('product-enabled-1001')).hasAttribute('disabled')).toBe(true);
    expect(screen.queryByTestId('product-edit-1001')).toBeNull();
  });
});

describe('PartyProductsPanel', { timeout: 30_000 }, () => {
  const MERCHANT = 'merchant' as const;
  const SUPPLIER = 'supplier' as const;
  const slots = (role: 'merchant' | 'supplier'): UserProductSlot[] =>
    PRODUCTS.map((p, i) =>
      i === 0
        ? {
            ...row({
              role,
              account: 'party1',
              userId: 11,
              feeRate: role === 'merchant' ? 150 : 0,
              commissionRate: role === 'supplier' ? 320 : 0,
            }),
          }
        : {
            ...row({
              role,
              account: 'party1',
              userId: 11,
              productId: p.id,
              feeRate: 0,
              perTransactionFee: 0,
              enabled: false,
            }),
            id: null,
            updatedAt: null,
          },
    );

  it('shows every product of a merchant with its fees, and edits a product not yet set', async () => {
    server.answers.set('/v1.0/userProduct/getForUser', ok(slots('merchant')));
    server.answers.set(SAVE, ok(MERCHANT_ROW));
    const user = userEvent.setup({ delay: null });
    renderPage(<PartyProductsPanel userId={11} role={MERCHANT} />, '/merchants/list', testUser());
    const table = await screen.findByTestId('party-products');
    expect(await within(table).findByText('1.50%')).toBeTruthy();
    expect(within(table).getAllByText('Not set')).toHaveLength(PRODUCTS.length - 1);
    expect(within(table).queryByText('Commission rate')).toBeNull();
    expect(server.requests.find((r) => r.path === '/v1.0/userProduct/getForUser')?.url).toContain('userId=11');
    await user.click(screen.getByTestId('party-product-edit-2001'));
    await retype(user, 'user-product-form-fee-rate', '0.5');
    await user.click(screen.getByTestId('user-product-form-submit'));
    await waitFor(() => expect(server.sent(SAVE)).toHaveLength(1));
    expect(server.sent(SAVE)[0]?.body).toMatchObject({ userId: 11, productId: 2001, enabled: true, feeRate: 50 });
  });

  it('shows a supplier’s commission, and no edit when read-only', async () => {
    server.answers.set('/v1.0/userProduct/getForUser', ok(slots('supplier')));
    renderPage(<PartyProductsPanel userId={11} role={SUPPLIER} readOnly />, '/supplier/list', testUser());
    const table = await screen.findByTestId('party-products');
    expect(await within(table).findByText('3.20%')).toBeTruthy();
    expect(within(table).queryByText('Fee rate')).toBeNull();
    expect(screen.queryByTestId('party-product-edit-1001')).toBeNull();
  });
});

describe('product names', () => {
  it('every product has a name in zh-CN, zh-TW and en-US, and productName follows the language', async () => {
    for (const lang of LANGUAGES) {
      const names = productsLocales[lang].name as Record<string, string>;
      for (const p of PRODUCTS) expect(names[String(p.id)]?.trim(), `${lang} ${p.id}`).toBeTruthy();
    }
    await changeLanguage('zh-TW');
    expect(productName(i18next, 5002)).toBe('支付寶');
    await changeLanguage('zh-CN');
    expect(productName(i18next, 1001)).toBe('UPI 代收');
    await changeLanguage('en-US');
    expect(productName(i18next, 4001)).toBe('Kenya mobile-money collection');
  });
});
