import {
  canWriteSetting,
  type Role,
  SETTING_GROUPS,
  SETTING_KEYS,
  SETTINGS,
  type SettingDef,
  type SettingEntry,
  type SettingKey,
  settingReadAnswer,
} from '@paydesk/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { ok, renderPage, stubServer, testUser } from '../../test/renderPage';
import { chosen } from '../../test/select';
import SystemConfigPage from './SystemConfigPage';
import { PATTERNED_KEYS } from './values';

const LIST = '/v1.0/system-config/list';
const setPath = (key: SettingKey) => `/v1.0/system-config/set${key}`;
const BOT_TOKEN = '123456789:AAHk-abcdefghijklmnopqrstuvwxyz012345';

/** The list as the server answers it to a role: every key at its default, unless `changed` says otherwise. */
function listFor(role: Role, changed: Partial<Record<SettingKey, Partial<SettingEntry>>> = {}): SettingEntry[] {
  return SETTING_KEYS.filter((key) => settingReadAnswer(key, role) !== 'none').map((key) => {
    const def: SettingDef = SETTINGS[key];
    const answer =
      def.type.kind === 'switch'
        ? { enable: def.default as boolean }
        : def.type.kind === 'secret'
          ? { set: false }
          : { value: def.default };
    return {
      key,
      ...answer,
      changed: false,
      updatedAt: null,
      updatedBy: null,
      writable: canWriteSetting(key, role),
      ...changed[key],
    };
  });
}

let server: ReturnType<typeof stubServer>;
function open(role: Role = 'superAdmin', path = '/systemConfig', changed = {}) {
  server = stubServer({ [LIST]: ok({ list: listFor(role, changed) }) });
  return renderPage(<SystemConfigPage />, path, testUser({ access: role }));
}
const row = (key: SettingKey) => screen.getByTestId(`config-row-${key}`);
const shownValue = (key: SettingKey) => screen.getByTestId(`config-value-${key}`).textContent;
/** The next list answer: what the server holds after the change. */
const afterChange = (role: Role, changed: Partial<Record<SettingKey, Partial<SettingEntry>>>) =>
  server.answers.set(LIST, ok({ list: listFor(role, changed) }));
const by = { changed: true, updatedAt: '2026-03-01T08:30:00.000Z', updatedBy: 'superadmin' };

beforeAll(() => {
  setupI18n('en-US');
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await changeLanguage('en-US');
});

describe('SystemConfigPage: what it shows', () => {
  it('groups the keys as the registry does, each with its label, key, description, area and current value', async () => {
    open('superAdmin', '/systemConfig', { OrderTimeoutMinutes: { value: 20, ...by } });
    await screen.findByTestId('system-config');
    const groups = [...document.querySelectorAll('[data-testid^="config-group-"]')].map((g) =>
      g.getAttribute('data-testid')?.replace('config-group-', ''),
    );
    expect(groups).toEqual([...SETTING_GROUPS]);
    expect(within(screen.getByTestId('config-group-service')).getByRole('heading').textContent).toBe('Service');
    // Every key is in its group's card.
    for (const key of SETTING_KEYS) {
      expect(
        within(screen.getByTestId(`config-group-${SETTINGS[key].group}`)).getByTestId(`config-row-${key}`),
      ).toBeTruthy();
    }
    const timeout = row('OrderTimeoutMinutes');
    expect(timeout.textContent).toContain('Order timeout');
    expect(screen.getByTestId('config-key-OrderTimeoutMinutes').textContent).toBe('OrderTimeoutMinutes');
    expect(timeout.textContent).toContain('An allocated collection order not paid within this time times out');
    expect(screen.getByTestId('config-area-OrderTimeoutMinutes').textContent).toBe('Used by: Collection orders');
    expect(shownValue('OrderTimeoutMinutes')).toBe('Current value: 20 minutes');
    // 08:30 UTC in the platform's time zone (India, renderPage's user).
    expect(screen.getByTestId('config-changed-OrderTimeoutMinutes').textContent).toBe(
      'Changed by superadmin at 2026-03-01 14:00:00',
    );
    expect(screen.getByTestId('config-changed-CardCountry').textContent).toBe('Default');
    // An area not built yet says so.
    expect(screen.getByTestId('config-area-MonitorLiveTime').textContent).toBe(
      'Used by: Payment records and monitors (not built yet)',
    );
    // Each type's value as read.
    expect(shownValue('enableService')).toBe('Current value: On');
    expect(shownValue('CanClearMerchantBalance')).toBe('Current value: Off');
    expect(shownValue('LimitMode')).toBe('Current value: Relaxed');
    expect(shownValue('CardCountry')).toBe('Current value: IN');
    expect(shownValue('ContactInfo')).toBe('Current value: (empty)');
    expect(shownValue('BotToken')).toBe('Current value: Not set');
    expect(shownValue('redWalletCount')).toBe('Current value: 10');
    // The check amount is held in minor units and read in rupees.
    expect(shownValue('SecurityFreqParameters')).toContain('Minimum checked amount: 1,000.00');
    expect(shownValue('SecurityFreqParameters')).toContain('Unmatched message check interval: 60 seconds');
  });

  it('finds keys by key, name or description, and says when nothing matches', async () => {
    open();
    const search = await screen.findByTestId('config-search');
    fireEvent.change(search, { target: { value: 'ordertimeout' } });
    expect(screen.getByTestId('config-row-OrderTimeoutMinutes')).toBeTruthy();
    expect(screen.queryByTestId('config-row-enableService')).toBeNull();
    // Only the groups with a match stay.
    expect(document.querySelectorAll('[data-testid^="config-group-"]')).toHaveLength(1);
    fireEvent.change(search, { target: { value: 'BotFather' } });
    expect(screen.queryByTestId('config-row-BotToken')).toBeNull(); // not in its description
    fireEvent.change(search, { target: { value: 'telegram bot api' } });
    expect(screen.getByTestId('config-row-BotToken')).toBeTruthy();
    fireEvent.change(search, { target: { value: 'no such setting' } });
    expect(screen.getByTestId('config-empty').textContent).toContain('No setting matches “no such setting”');
    expect(document.querySelectorAll('[data-testid^="config-group-"]')).toHaveLength(0);
  });

  it('searches and speaks in the reader’s language', async () => {
    await changeLanguage('zh-CN');
    open();
    const search = await screen.findByTestId('config-search');
    expect(within(screen.getByTestId('config-group-orders')).getByRole('heading').textContent).toBe('代收订单');
    expect(shownValue('OrderTimeoutMinutes')).toBe('当前值：15 分钟');
    fireEvent.change(search, { target: { value: '超时' } });
    expect(screen.getByTestId('config-row-OrderTimeoutMinutes')).toBeTruthy();
    expect(screen.queryByTestId('config-row-SysFlag')).toBeNull();
    await changeLanguage('zh-TW');
    // The search reads the names in the new language: 超时 is 逾時 there.
    await waitFor(() => expect(screen.queryByTestId('config-row-OrderTimeoutMinutes')).toBeNull());
    fireEvent.change(search, { target: { value: '逾時' } });
    expect(shownValue('OrderTimeoutMinutes')).toBe('目前值：15 分鐘');
    expect(screen.getByTestId('config-area-OrderTimeoutMinutes').textContent).toBe('使用方：代收訂單');
    fireEvent.change(search, { target: { value: '沒有這個' } });
    expect(screen.getByTestId('config-empty').textContent).toContain('沒有與「沒有這個」相符的設定');
  });

  it('shows loading, then a failed load with the server’s text and a retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server = stubServer({ [LIST]: { code: 403, msg: 'forbidden', data: null } });
    renderPage(<SystemConfigPage />, '/systemConfig', testUser({ access: 'superAdmin' }));
    expect(document.querySelector('.ant-skeleton')).not.toBeNull();
    expect(await screen.findByText('Loading failed: your role may not do this')).toBeTruthy();
    server.answers.set(LIST, ok({ list: listFor('superAdmin') }));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('system-config')).toBeTruthy();
  });
});

describe('SystemConfigPage: changing a setting', () => {
  it('turns a switch after a confirmation, posts {enable}, and the row shows the new value', async () => {
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByTestId('config-switch-enableService'));
    expect(await screen.findByText('Turn off “Service enabled”?')).toBeTruthy();
    server.answers.set(setPath('enableService'), ok({ enable: false }));
    afterChange('superAdmin', { enableService: { enable: false, ...by } });
    await user.click(screen.getByTestId('config-confirm'));
    expect(await screen.findByText('“Service enabled” saved')).toBeTruthy();
    expect(server.sent(setPath('enableService'))[0]?.body).toEqual({ enable: false });
    await waitFor(() => expect(shownValue('enableService')).toBe('Current value: Off'));
    expect(screen.getByTestId('config-switch-enableService').getAttribute('aria-checked')).toBe('false');
    expect(screen.getByTestId('config-changed-enableService').textContent).toContain('Changed by superadmin');
  });

  it('changes a number with its unit and range, refusing what the contract refuses', async () => {
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByTestId('config-edit-OrderTimeoutMinutes'));
    const form = await screen.findByTestId('config-form');
    const input = within(form).getByLabelText('Order timeout') as HTMLInputElement;
    expect(input.value).toBe('15');
    expect(form.textContent).toContain('1 – 1,440 minutes');
    await user.clear(input);
    await user.type(input, '2000');
    await user.click(screen.getByTestId('config-save'));
    expect(await within(form).findByText('Enter a whole number: 1 – 1,440 minutes')).toBeTruthy();
    expect(server.sent(setPath('OrderTimeoutMinutes'))).toHaveLength(0);

    server.answers.set(setPath('OrderTimeoutMinutes'), ok({ value: 20 }));
    afterChange('superAdmin', { OrderTimeoutMinutes: { value: 20, ...by } });
    await user.clear(input);
    await user.type(input, '20');
    await user.click(screen.getByTestId('config-save'));
    await waitFor(() => expect(screen.queryByTestId('config-form')).toBeNull());
    expect(server.sent(setPath('OrderTimeoutMinutes'))[0]?.body).toEqual({ value: 20 });
    await waitFor(() => expect(shownValue('OrderTimeoutMinutes')).toBe('Current value: 20 minutes'));
  });

  it('picks a choice among its options', async () => {
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByTestId('config-edit-LimitMode'));
    const form = await screen.findByTestId('config-form');
    await chosen('Relaxed');
    await user.click(within(form).getByRole('combobox'));
    await user.click(await screen.findByTitle('Strict'));
    await chosen('Strict');
    server.answers.set(setPath('LimitMode'), ok({ value: 'strict' }));
    await user.click(screen.getByTestId('config-save'));
    await waitFor(() => expect(server.sent(setPath('LimitMode'))[0]?.body).toEqual({ value: 'strict' }));
  });

  it('takes a text within its length and form, and empties one (sent as null)', async () => {
    const user = userEvent.setup();
    open('superAdmin', '/systemConfig', { ContactInfo: { value: 'Telegram @help', ...by } });
    await user.click(await screen.findByTestId('config-edit-CardCountry'));
    let form = await screen.findByTestId('config-form');
    const country = within(form).getByLabelText('Card country') as HTMLInputElement;
    expect(country.maxLength).toBe(2);
    await user.clear(country);
    await user.type(country, 'in');
    await user.click(screen.getByTestId('config-save'));
    expect(await within(form).findByText('Two capital letters of the country code, e.g. IN')).toBeTruthy();
    server.answers.set(setPath('CardCountry'), ok({ value: 'GB' }));
    await user.clear(country);
    await user.type(country, 'GB');
    await user.click(screen.getByTestId('config-save'));
    await waitFor(() => expect(server.sent(setPath('CardCountry'))[0]?.body).toEqual({ value: 'GB' }));
    await waitFor(() => expect(screen.queryByTestId('config-form')).toBeNull());

    await user.click(screen.getByTestId('config-edit-ContactInfo'));
    form = await screen.findByTestId('config-form');
    const contact = within(form).getByLabelText('Contact info') as HTMLTextAreaElement;
    expect(contact.value).toBe('Telegram @help');
    expect(contact.maxLength).toBe(500);
    server.answers.set(setPath('ContactInfo'), ok({ value: '' }));
    await user.clear(contact);
    await user.click(screen.getByTestId('config-save'));
    // Spec section 5: an emptied field is sent as null (the server takes it as the empty text).
    await waitFor(() => expect(server.sent(setPath('ContactInfo'))[0]?.body).toEqual({ value: null }));
  });

  it('never shows a secret: sets a new one in a password field, or clears it', async () => {
    const user = userEvent.setup();
    open('superAdmin', '/systemConfig', { BotToken: { set: true, ...by } });
    await screen.findByTestId('system-config');
    expect(shownValue('BotToken')).toBe('Current value: Set');
    await user.click(screen.getByTestId('config-edit-BotToken'));
    const form = await screen.findByTestId('config-form');
    const input = within(form).getByLabelText('New value') as HTMLInputElement;
    expect(input.type).toBe('password');
    expect(input.value).toBe('');
    await user.type(input, 'not-a-token');
    await user.click(screen.getByTestId('config-save'));
    expect(await within(form).findByText(/The token BotFather gives/)).toBeTruthy();
    server.answers.set(setPath('BotToken'), ok({ set: true }));
    await user.clear(input);
    await user.click(input);
    await user.paste(BOT_TOKEN);
    await user.click(screen.getByTestId('config-save'));
    await waitFor(() => expect(server.sent(setPath('BotToken'))[0]?.body).toEqual({ value: BOT_TOKEN }));
    await waitFor(() => expect(screen.queryByTestId('config-form')).toBeNull());

    afterChange('superAdmin', { BotToken: { set: false, ...by } });
    server.answers.set(setPath('BotToken'), ok({ set: false }));
    await user.click(screen.getByTestId('config-clear-BotToken'));
    expect(await screen.findByText(/Clear “Bot token”\?/)).toBeTruthy();
    await user.click(screen.getByTestId('config-confirm'));
    await waitFor(() => expect(server.sent(setPath('BotToken'))[1]?.body).toEqual({ value: null }));
    await waitFor(() => expect(shownValue('BotToken')).toBe('Current value: Not set'));
    expect(screen.queryByTestId('config-clear-BotToken')).toBeNull();
  });

  it('changes a structured value field by field, the check amount typed in rupees and sent x100', async () => {
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByTestId('config-edit-SecurityFreqParameters'));
    const form = await screen.findByTestId('config-form');
    const amount = within(form).getByLabelText('Minimum checked amount') as HTMLInputElement;
    expect(amount.value).toBe('1000.00');
    expect(form.textContent).toContain('0.00 – 1,000,000,000.00 rupees');
    const nodes = within(form).getByLabelText('Minimum reliable nodes') as HTMLInputElement;
    await user.clear(nodes);
    await user.click(screen.getByTestId('config-save'));
    expect(await within(form).findByText('Enter a whole number: 1 – 1,000')).toBeTruthy();
    await user.type(nodes, '4');
    await user.clear(amount);
    await user.type(amount, '2500.75');
    server.answers.set(setPath('SecurityFreqParameters'), ok({ value: {} }));
    await user.click(screen.getByTestId('config-save'));
    await waitFor(() =>
      expect(server.sent(setPath('SecurityFreqParameters'))[0]?.body).toEqual({
        value: { ...SETTINGS.SecurityFreqParameters.default, minReliableChainSize: 4, minReliableCheckAmount: 250_075 },
      }),
    );
  });

  it('shows the server’s refusal in the form and keeps it open', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const user = userEvent.setup();
    open();
    await user.click(await screen.findByTestId('config-edit-SysFlag'));
    const form = await screen.findByTestId('config-form');
    server.answers.set(setPath('SysFlag'), { code: 403, msg: 'forbidden', data: null });
    await user.type(within(form).getByLabelText('System flag'), ' Two');
    await user.click(screen.getByTestId('config-save'));
    expect((await within(form).findByTestId('config-refusal')).textContent).toContain('your role may not do this');
    expect(server.sent(setPath('SysFlag'))[0]?.body).toEqual({ value: 'PayDesk Two' });
  });
});

describe('SystemConfigPage: who may change what', () => {
  it('customer service changes only its keys; the others are read-only and say who may change them', async () => {
    open('customerService');
    await screen.findByTestId('system-config');
    expect(screen.getByTestId('config-switch-ShowLogo')).toBeTruthy();
    expect(screen.getByTestId('config-edit-ContactInfo')).toBeTruthy();
    const controls = document.querySelectorAll(
      '[data-testid^="config-switch-"], [data-testid^="config-edit-"], [data-testid^="config-clear-"]',
    );
    expect(controls).toHaveLength(2);
    expect(row('OrderTimeoutMinutes').textContent).toContain('Only Super admin, Admin may change it');
    expect(row('enableService').textContent).toContain('Only Super admin may change it');
    expect(shownValue('enableService')).toBe('Current value: On');
  });

  it('the read-only route shows every row with its value and no change control', async () => {
    open('technicalMaintenance', '/systemConfig/readonly');
    expect(await screen.findByTestId('config-readonly')).toBeTruthy();
    expect(document.querySelectorAll('[data-testid^="config-row-"]')).toHaveLength(SETTING_KEYS.length);
    expect(
      document.querySelectorAll(
        '[data-testid^="config-switch-"], [data-testid^="config-edit-"], [data-testid^="config-clear-"], button:not(.ant-input-clear-icon)',
      ),
    ).toHaveLength(0);
    expect(shownValue('OrderTimeoutMinutes')).toBe('Current value: 15 minutes');
    expect(screen.queryByText(/may change it/)).toBeNull();
  });

  it('a superAdmin on the read-only address changes nothing there either', async () => {
    open('superAdmin', '/systemConfig/readonly');
    await screen.findByTestId('config-readonly');
    expect(document.querySelectorAll('[data-testid^="config-switch-"], [data-testid^="config-edit-"]')).toHaveLength(0);
  });
});

describe('SystemConfigPage texts', () => {
  it('has a hint of the accepted form for every text with one, in three languages', () => {
    expect(PATTERNED_KEYS.sort()).toEqual([
      'ApiUrl',
      'BotToken',
      'CardCountry',
      'SendSmsMessageUrl',
      'SysFlag',
      'TransferBotToken',
    ]);
    for (const lng of ['zh-CN', 'zh-TW', 'en-US']) {
      for (const key of PATTERNED_KEYS) {
        expect(i18next.exists(`systemConfig:invalid.format.${key}`, { lng }), `${key} ${lng}`).toBe(true);
      }
    }
  });
});
