import type { MerchantRow, Role } from '@paydesk/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { clearToken2, setToken2 } from '../../shared/api/session-storage';
import { MerchantCredentialsCard } from '../../shared/merchants/MerchantCredentialsCard';
import { type Answer, ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import MerchantListPage from './MerchantListPage';

const ROW: MerchantRow = {
  id: 1,
  userId: 8,
  account: 'merchant1',
  merchantNo: 'M12345678',
  name: 'Merchant One',
  enabled: true,
  signType: 'HMAC-SHA256',
  ipWhitelist: ['203.0.113.7'],
  notifyUrl: null,
  callbackEnabled: true,
  remark: '',
  balance: 123_456_789,
  frozenBalance: 50_000,
  secretRotatedAt: '2024-01-01T00:00:00.000Z',
  createdAt: '2024-01-01T00:00:00.000Z',
  proposalKinds: [],
};

const LIST = '/v1.0/merchant/getList';
const CREATE = '/v1.0/merchant/create';
const SECRET = 'a'.repeat(64);
const listAnswer = (rows: MerchantRow[]): Answer =>
  ok({
    list: rows,
    total: rows.length,
    pageIndex: 1,
    pageSize: 20,
    summary: {
      balance: rows.reduce((s, r) => s + r.balance, 0),
      frozenBalance: rows.reduce((s, r) => s + r.frozenBalance, 0),
    },
  });

let server: ReturnType<typeof stubServer>;

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(async () => {
  await i18next.changeLanguage('en-US');
  server = stubServer({
    [LIST]: listAnswer([ROW]),
    '/v1.0/view/getList': ok([]),
    '/v1.0/user/getUnusedUserOptions': ok([
      { id: 12, account: 'spare1', nickname: 'Spare', role: 'merchant', parentId: null, deleted: false },
    ]),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const renderAt = (path: string, access: Role = 'admin') => renderPage(<MerchantListPage />, path, testUser({ access }));

type User = ReturnType<typeof userEvent.setup>;
/** Types into a field at once (typing key by key is slow under antd and a busy machine). */
async function fill(user: User, testId: string, text: string) {
  await user.click(screen.getByTestId(testId));
  await user.paste(text);
}

async function openCreateForm() {
  const user = userEvent.setup();
  await user.click(await screen.findByTestId('merchant-create'));
  await screen.findByTestId('merchant-form');
  return user;
}

describe('MerchantListPage (admin)', { timeout: 30_000 }, () => {
  it('lists merchants with balances in major units and the totals row', async () => {
    renderAt('/merchants/list');
    expect(await screen.findByText('Merchant One')).toBeTruthy();
    expect(screen.getAllByText('1,234,567.89').length).toBeGreaterThan(0);
    expect(screen.getByTestId('list-total-balance').textContent).toBe('1,234,567.89');
    expect(screen.getByTestId('list-total-frozenBalance').textContent).toBe('500.00');
    expect(screen.getByTestId('export-csv').getAttribute('href')).toContain('/v1.0/merchant/export');
    expect(screen.getByTestId('merchant-edit-M12345678')).toBeTruthy();
  });

  it('creates a merchant with a new account and shows the merchant number and secret once', async () => {
    server.answers.set(CREATE, ok({ id: 2, merchantNo: 'M87654321', secret: SECRET }));
    renderAt('/merchants/list');
    const user = await openCreateForm();
    await fill(user, 'merchant-form-name', 'Shop Two');
    await fill(user, 'merchant-form-account', 'shop2');
    await fill(user, 'merchant-form-password', 'shop2024');
    await fill(user, 'merchant-form-ipWhitelist', '203.0.113.7\n198.51.100.0/24');
    await fill(user, 'merchant-form-notifyUrl', 'https://shop2.example/notify');
    await user.click(screen.getByTestId('merchant-form-submit'));

    const modal = await screen.findByTestId('merchant-secret-modal');
    expect(within(modal).getByTestId('merchant-secret-merchantno').textContent).toBe('M87654321');
    expect(within(modal).getByTestId('merchant-secret-value').textContent).toBe(SECRET);
    expect(within(modal).getByText(/shown only now/)).toBeTruthy();
    expect(server.sent(CREATE)[0]?.body).toEqual({
      name: 'Shop Two',
      mode: 'newAccount',
      account: 'shop2',
      password: 'shop2024',
      signType: 'HMAC-SHA256',
      ipWhitelist: ['203.0.113.7', '198.51.100.0/24'],
      notifyUrl: 'https://shop2.example/notify',
      callbackEnabled: true,
      remark: null, // empty texts travel as null (spec section 5)
    });

    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(within(modal).getByTestId('merchant-secret-copy'));
    expect(writeText).toHaveBeenCalledWith(SECRET);

    await user.click(screen.getByTestId('merchant-secret-close'));
    await waitFor(() => expect(screen.queryByText(SECRET)).toBeNull());
  });

  it('refuses an account with other characters and a password without digits, and sends nothing', async () => {
    renderAt('/merchants/list');
    const user = await openCreateForm();
    await fill(user, 'merchant-form-name', 'Shop');
    await fill(user, 'merchant-form-account', 'bad name!');
    await fill(user, 'merchant-form-password', 'onlyletters');
    await fill(user, 'merchant-form-ipWhitelist', 'not-an-ip');
    await user.click(screen.getByTestId('merchant-form-submit'));
    expect(await screen.findByText('account accepts only digits and English letters')).toBeTruthy();
    expect(await screen.findByText('password must contain digits and letters')).toBeTruthy();
    expect(await screen.findByText('not a valid address or range: not-an-ip')).toBeTruthy();
    expect(server.sent(CREATE)).toHaveLength(0);
  });

  it('refuses a catch-all whitelist range in the form, and sends nothing', async () => {
    renderAt('/merchants/list');
    const user = await openCreateForm();
    await fill(user, 'merchant-form-name', 'Shop');
    await fill(user, 'merchant-form-account', 'shop4');
    await fill(user, 'merchant-form-password', 'shop2024');
    await fill(user, 'merchant-form-ipWhitelist', '203.0.113.7\n0.0.0.0/0');
    await user.click(screen.getByTestId('merchant-form-submit'));
    expect(await screen.findByText(/^range too wide: 0\.0\.0\.0\/0 \(at most a \/16 of IPv4/)).toBeTruthy();
    expect(server.sent(CREATE)).toHaveLength(0);
  });

  it.each([
    ['en-US', 'Whitelist range too wide: at most a /16 of IPv4 or a /32 of IPv6'],
    ['zh-CN', '白名单网段过大：IPv4 最大 /16，IPv6 最大 /32'],
    ['zh-TW', '白名單網段過大：IPv4 最大 /16，IPv6 最大 /32'],
  ])('shows the server’s refusal of a too-wide whitelist range in %s', async (language, text) => {
    await i18next.changeLanguage(language);
    // ::/32 passes the form's first check; the server knows it holds every IPv4-mapped address.
    server.answers.set(CREATE, {
      code: 400,
      msg: '::/32: a whitelist range may be at most a /16 of IPv4 or a /32 of IPv6: ...',
      data: { reason: 'ipTooWide', issues: [{ path: 'ipWhitelist.0', message: '::/32: ...' }] },
    });
    renderAt('/merchants/list');
    const user = await openCreateForm();
    await fill(user, 'merchant-form-name', 'Shop');
    await fill(user, 'merchant-form-account', 'shop5');
    await fill(user, 'merchant-form-password', 'shop2024');
    await fill(user, 'merchant-form-ipWhitelist', '::/32');
    await user.click(screen.getByTestId('merchant-form-submit'));
    expect(await screen.findByText(new RegExp(`^${text}`))).toBeTruthy();
    expect(server.sent(CREATE)[0]?.body).toMatchObject({ ipWhitelist: ['::/32'] });
  });

  it('when AutoCreateRelateMerchant is off, says so and switches the form to linking an account', async () => {
    server.answers.set(CREATE, { code: 422, msg: 'off', data: { reason: 'autoCreateOff' } });
    renderAt('/merchants/list');
    const user = await openCreateForm();
    await fill(user, 'merchant-form-name', 'Shop');
    await fill(user, 'merchant-form-account', 'shop3');
    await fill(user, 'merchant-form-password', 'shop2024');
    await user.click(screen.getByTestId('merchant-form-submit'));
    expect(
      await screen.findByText(
        'Creating a new account here is switched off in the system settings: link an existing account',
      ),
    ).toBeTruthy();
    expect(await screen.findByTestId('merchant-form-userId')).toBeTruthy();
    expect(screen.queryByTestId('merchant-form-account')).toBeNull();
  });

  it('the enable switch answers with the spec’s texts', async () => {
    server.answers.set('/v1.0/merchant/setEnabled', ok(null));
    renderAt('/merchants/list');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('merchant-enabled-M12345678'));
    expect(await screen.findByText('closed successfully')).toBeTruthy();
    expect(server.sent('/v1.0/merchant/setEnabled')[0]?.body).toEqual({ id: 1, enabled: false });
  });

  it('API credentials: reveal shows the secret; rotate asks first and shows the new one', async () => {
    server.answers.set('/v1.0/merchant/revealSecret', ok({ secret: SECRET }));
    server.answers.set('/v1.0/merchant/rotateSecret', ok({ secret: 'b'.repeat(64) }));
    renderAt('/merchants/list');
    const user = userEvent.setup();
    // Edit and products are the row's buttons; credentials and the balance proposals in its 'more' menu.
    await user.click(await screen.findByTestId('merchant-more-M12345678'));
    await user.click(await screen.findByTestId('merchant-credentials-M12345678'));
    await user.click(await screen.findByTestId('merchant-reveal-secret'));
    expect((await screen.findByTestId('merchant-secret-value')).textContent).toBe(SECRET);
    await user.click(screen.getByTestId('merchant-secret-close'));
    await waitFor(() => expect(screen.queryByTestId('merchant-secret-value')).toBeNull());

    await user.click(screen.getByTestId('merchant-rotate-secret'));
    expect(server.sent('/v1.0/merchant/rotateSecret')).toHaveLength(0);
    await user.click(await screen.findByRole('button', { name: 'OK' }));
    expect((await screen.findByTestId('merchant-secret-value')).textContent).toBe('b'.repeat(64));
    expect(server.sent('/v1.0/merchant/rotateSecret')[0]?.body).toEqual({ id: 1 });
  });
});

const buttonsOf = (merchantNo: string) =>
  [...screen.getByTestId(`merchant-actions-${merchantNo}`).querySelectorAll('[data-testid]')].map((e) =>
    e.getAttribute('data-testid'),
  );

describe('MerchantListPage row actions', { timeout: 30_000 }, () => {
  it('admin: edit and products on the row; credentials and the proposals the row allows in its menu', async () => {
    const funded = { ...ROW, proposalKinds: ['adjust', 'clear'] as MerchantRow['proposalKinds'] };
    const empty = {
      ...ROW,
      id: 2,
      merchantNo: 'M00000002',
      name: 'Empty',
      proposalKinds: ['adjust'] as MerchantRow['proposalKinds'],
    };
    server.answers.set(LIST, listAnswer([funded, empty]));
    renderAt('/merchants/list');
    await screen.findByText('Empty');
    expect(buttonsOf('M12345678')).toEqual([
      'merchant-edit-M12345678',
      'merchant-products-M12345678',
      'merchant-more-M12345678',
    ]);
    const user = userEvent.setup();
    await user.click(screen.getByTestId('merchant-more-M12345678'));
    expect(await screen.findByTestId('merchant-credentials-M12345678')).toBeTruthy();
    expect(screen.getByTestId('merchant-propose-adjust-M12345678')).toBeTruthy();
    expect(screen.getByTestId('merchant-propose-clear-M12345678')).toBeTruthy();
    // Clearing is offered where the server's rule allows it (the row's proposalKinds): not on this one.
    await user.click(screen.getByTestId('merchant-more-M00000002'));
    expect(await screen.findByTestId('merchant-propose-adjust-M00000002')).toBeTruthy();
    expect(screen.queryByTestId('merchant-propose-clear-M00000002')).toBeNull();
  });

  it('edit sends the row’s changed settings and says so', async () => {
    server.answers.set('/v1.0/merchant/update', ok(null));
    renderAt('/merchants/list');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('merchant-edit-M12345678'));
    const name = await screen.findByTestId('merchant-form-name');
    await user.clear(name);
    await user.paste('Merchant One Ltd');
    await user.click(screen.getByTestId('merchant-form-submit'));
    await waitFor(() =>
      expect(server.sent('/v1.0/merchant/update')[0]?.body).toMatchObject({ id: 1, name: 'Merchant One Ltd' }),
    );
    expect(await screen.findByText('Updated')).toBeTruthy();
  });

  it('a balance proposal sends the row, the kind and the signed amount, and reloads the list', async () => {
    server.answers.set(LIST, listAnswer([{ ...ROW, proposalKinds: ['adjust', 'clear'] }]));
    server.answers.set('/v1.0/balance/propose', ok({ id: 5 }));
    server.answers.set('/v1.0/balance/getProposalList', ok({ list: [], total: 0, pageIndex: 1, pageSize: 20 }));
    setToken2('t2'); // the second-level password is asked before the form opens; here it is valid
    try {
      renderAt('/merchants/list');
      const user = userEvent.setup();
      await user.click(await screen.findByTestId('merchant-more-M12345678'));
      await user.click(await screen.findByTestId('merchant-propose-adjust-M12345678'));
      await user.click(await screen.findByTestId('balance-propose-decrease'));
      await fill(user, 'balance-propose-amount', '12.34');
      await fill(user, 'balance-propose-note', 'fee refund');
      const lists = server.sent(LIST).length;
      await user.click(screen.getByTestId('balance-propose-submit'));
      await waitFor(() =>
        expect(server.sent('/v1.0/balance/propose')[0]?.body).toEqual({
          partyKind: 'merchant',
          partyId: 1,
          kind: 'adjust',
          amount: -1234,
          note: 'fee refund',
        }),
      );
      await waitFor(() => expect(server.sent(LIST).length).toBeGreaterThan(lists));
    } finally {
      clearToken2();
    }
  });
});

describe('MerchantListPage (customer service)', { timeout: 30_000 }, () => {
  it('reads the list without create, edit, switch, credentials or balance actions', async () => {
    renderAt('/merchants/list/customerService', 'customerService');
    expect(await screen.findByText('Merchant One')).toBeTruthy();
    expect(screen.queryByTestId('merchant-create')).toBeNull();
    expect(screen.queryByTestId('merchant-edit-M12345678')).toBeNull();
    expect(screen.queryByTestId('merchant-credentials-M12345678')).toBeNull();
    // Products only, read-only: no 'more' menu.
    expect(buttonsOf('M12345678')).toEqual(['merchant-products-M12345678']);
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.getByTestId('merchant-enabled-M12345678').textContent).toBe('Enabled');
    expect(screen.getByTestId('export-csv')).toBeTruthy();
  });

  it('an admin on the customer service route also only reads', async () => {
    server.answers.set(LIST, listAnswer([{ ...ROW, proposalKinds: ['adjust'] }]));
    renderAt('/merchants/list/customerService', 'admin');
    expect(await screen.findByText('Merchant One')).toBeTruthy();
    expect(screen.queryByTestId('merchant-create')).toBeNull();
    expect(buttonsOf('M12345678')).toEqual(['merchant-products-M12345678']);
  });
});

describe('languages', { timeout: 30_000 }, () => {
  it.each([
    ['zh-CN', '商户号', '账号只能包含数字和英文字母', '1,234,567.89'],
    ['zh-TW', '商戶號', '帳號只能包含數字和英文字母', '1,234,567.89'],
    ['en-US', 'Merchant no.', 'account accepts only digits and English letters', '1,234,567.89'],
  ])('%s: column titles, validation texts and amounts', async (language, column, rule, amount) => {
    await act(() => i18next.changeLanguage(language));
    renderAt('/merchants/list');
    expect(await screen.findByText('Merchant One')).toBeTruthy();
    expect(screen.getAllByText(column).length).toBeGreaterThan(0);
    expect(screen.getByTestId('list-total-balance').textContent).toBe(amount);
    const user = await openCreateForm();
    await fill(user, 'merchant-form-account', 'bad!');
    await user.click(screen.getByTestId('merchant-form-submit'));
    expect(await screen.findByText(rule)).toBeTruthy();
  });
});

describe('MerchantCredentialsCard', { timeout: 30_000 }, () => {
  it('shows the merchant’s own number, sign type and whitelist, and reveals its secret', async () => {
    server.answers.set('/v1.0/merchant/getMine', ok(ROW));
    server.answers.set('/v1.0/merchant/revealSecret', ok({ secret: SECRET }));
    renderPage(<MerchantCredentialsCard />, '/home', testUser({ access: 'merchant' }));
    expect((await screen.findByTestId('merchant-credentials-merchantno')).textContent).toContain('M12345678');
    expect(screen.getByText('HMAC-SHA256')).toBeTruthy();
    expect(screen.getByText('203.0.113.7')).toBeTruthy();
    await userEvent.setup().click(screen.getByTestId('merchant-reveal-secret'));
    expect((await screen.findByTestId('merchant-secret-value')).textContent).toBe(SECRET);
  });

  it('shows the API address to call: ApiUrl when set, else the console’s own, with the guide', async () => {
    server.answers.set('/v1.0/merchant/getMine', ok(ROW));
    const { unmount } = renderPage(
      <MerchantCredentialsCard />,
      '/home',
      testUser({ access: 'merchant', apiUrl: 'https://api.paydesk.example/' }),
    );
    expect((await screen.findByTestId('merchant-api-address')).textContent).toBe('https://api.paydesk.example');
    expect(screen.getByText('Integration guide').closest('a')?.getAttribute('href')).toBe('/docs/merchant-api');
    unmount();
    renderPage(<MerchantCredentialsCard />, '/home', testUser({ access: 'merchant', apiUrl: '' }));
    expect((await screen.findByTestId('merchant-api-address')).textContent).toBe(location.origin);
  });

  it('says so when the account is not linked to a merchant', async () => {
    server.answers.set('/v1.0/merchant/getMine', { code: 404, msg: 'not linked', data: null });
    renderPage(<MerchantCredentialsCard />, '/home', testUser({ access: 'merchant' }));
    expect(await screen.findByText('Your account is not linked to a merchant.')).toBeTruthy();
  });
});
