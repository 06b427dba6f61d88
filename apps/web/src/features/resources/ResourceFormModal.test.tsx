import { RESOURCE_TEXTS, type ResourceRow } from '@paydesk/contract';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { changeLanguage, setupI18n } from '../../i18n';
import { CHANNELS, type Channel } from './channels';
import { resourcesLocales } from './locales';
import { ResourceFormModal } from './ResourceFormModal';

/**
 * Every field rule of the resource forms, with its text in the three languages: the contract's
 * rules (resources/details.ts, the server checks the same) translated by the console, and the
 * console's own amount and count rules. The texts are written out here, not read from locales.ts,
 * so a wrong or missing translation fails.
 */
type Lang = 'zh-CN' | 'zh-TW' | 'en-US';
const LANGS: readonly Lang[] = ['zh-CN', 'zh-TW', 'en-US'];

const TEXTS: Record<string, Record<Lang, string>> = {
  supplierRequired: {
    'zh-CN': '请选择资源所属码商',
    'zh-TW': '請選擇資源所屬碼商',
    'en-US': 'choose the supplier of the resource',
  },
  nameRequired: { 'zh-CN': '资源名称不能为空', 'zh-TW': '資源名稱不能為空', 'en-US': 'resource name cannot be empty' },
  nameTooLong: {
    'zh-CN': '资源名称最多 128 个字符',
    'zh-TW': '資源名稱最多 128 個字元',
    'en-US': 'resource name is at most 128 characters',
  },
  accountNameRequired: {
    'zh-CN': '账户名不能为空',
    'zh-TW': '帳戶名不能為空',
    'en-US': 'account name cannot be empty',
  },
  accountNameTooLong: {
    'zh-CN': '账户名最多 128 个字符',
    'zh-TW': '帳戶名最多 128 個字元',
    'en-US': 'account name is at most 128 characters',
  },
  bankNameRequired: { 'zh-CN': '银行名称不能为空', 'zh-TW': '銀行名稱不能為空', 'en-US': 'bank name cannot be empty' },
  bankNameTooLong: {
    'zh-CN': '银行名称最多 128 个字符',
    'zh-TW': '銀行名稱最多 128 個字元',
    'en-US': 'bank name is at most 128 characters',
  },
  cardNumberInvalid: {
    'zh-CN': '卡号只能是数字，最多 20 位',
    'zh-TW': '卡號只能是數字，最多 20 位',
    'en-US': 'card number must be digits only, at most 20',
  },
  accountNumberInvalid: {
    'zh-CN': '账号只能是数字，最多 20 位',
    'zh-TW': '帳號只能是數字，最多 20 位',
    'en-US': 'account number must be digits only, at most 20',
  },
  ifscInvalid: { 'zh-CN': 'IFSC 格式不正确', 'zh-TW': 'IFSC 格式不正確', 'en-US': 'invalid IFSC format' },
  vpaInvalid: {
    'zh-CN': 'UPI ID 格式不正确，例如 name@bank',
    'zh-TW': 'UPI ID 格式不正確，例如 name@bank',
    'en-US': 'invalid UPI ID, e.g. name@bank',
  },
  keyIdRequired: { 'zh-CN': 'Key ID 不能为空', 'zh-TW': 'Key ID 不能為空', 'en-US': 'key id cannot be empty' },
  keyIdTooLong: {
    'zh-CN': 'Key ID 最多 128 个字符',
    'zh-TW': 'Key ID 最多 128 個字元',
    'en-US': 'key id is at most 128 characters',
  },
  keySecretRequired: {
    'zh-CN': 'Key Secret 不能为空',
    'zh-TW': 'Key Secret 不能為空',
    'en-US': 'key secret cannot be empty',
  },
  keySecretTooLong: {
    'zh-CN': 'Key Secret 最多 256 个字符',
    'zh-TW': 'Key Secret 最多 256 個字元',
    'en-US': 'key secret is at most 256 characters',
  },
  webhookSecretRequired: {
    'zh-CN': 'Webhook Secret 不能为空',
    'zh-TW': 'Webhook Secret 不能為空',
    'en-US': 'webhook secret cannot be empty',
  },
  baseUrlInvalid: {
    'zh-CN': '网关地址必须是 http 或 https 地址，且不含用户名、密码、查询参数或片段',
    'zh-TW': '閘道位址必須是 http 或 https 位址，且不含使用者名稱、密碼、查詢參數或片段',
    'en-US': 'the gateway URL must be an http or https address without user, password, query or fragment',
  },
  addressInvalid: {
    'zh-CN': 'TRC20 钱包地址不正确',
    'zh-TW': 'TRC20 錢包地址不正確',
    'en-US': 'invalid TRC20 wallet address',
  },
  phoneInvalid: {
    'zh-CN': '肯尼亚手机号不正确：2547XXXXXXXX 或 2541XXXXXXXX',
    'zh-TW': '肯亞手機號碼不正確：2547XXXXXXXX 或 2541XXXXXXXX',
    'en-US': 'invalid Kenyan mobile number: 2547XXXXXXXX or 2541XXXXXXXX',
  },
  linkInvalid: {
    'zh-CN': '链接必须是 http 或 https 地址，最多 512 个字符',
    'zh-TW': '連結必須是 http 或 https 位址，最多 512 個字元',
    'en-US': 'a link must be an http or https address of at most 512 characters',
  },
  minAboveMax: {
    'zh-CN': '最小金额不能大于最大金额',
    'zh-TW': '最小金額不能大於最大金額',
    'en-US': 'minimum amount must not exceed maximum amount',
  },
  // The console's own rules (amounts typed in major units, a whole daily count).
  amountInvalid: {
    'zh-CN': '请输入最多两位小数的金额，例如 1234.56',
    'zh-TW': '請輸入最多兩位小數的金額，例如 1234.56',
    'en-US': 'Enter an amount with at most two decimals, e.g. 1234.56',
  },
  countInvalid: { 'zh-CN': '请输入正整数', 'zh-TW': '請輸入正整數', 'en-US': 'Enter a positive whole number' },
};

/** A form filled with bad values: which field (its test id suffix) must then say which text. */
interface Case {
  label: string;
  channel: Channel;
  /** Admin mode: the supplier select is shown (and required). */
  admin?: boolean;
  values: Record<string, string>;
  expected: Record<string, keyof typeof TEXTS>;
}

const long = (n: number, c = 'a') => c.repeat(n);
const goodCard = {
  accountName: 'Asha Rao',
  bankName: 'ICICI Bank',
  cardNumber: '5500000000000004',
  ifsc: 'ICIC0123456',
};

const CASES: Case[] = [
  {
    label: 'card-to-card: too long names, a letter in the card number, a bad IFSC, amounts, count, links',
    channel: CHANNELS.cardToCard,
    admin: true,
    values: {
      accountName: long(129),
      bankName: long(129, 'b'),
      cardNumber: '4111 1111 x111 1111',
      ifsc: 'hdfc0001234',
      minAmount: '500',
      maxAmount: '100',
      dailyAmountLimit: '1.234',
      dailyCountLimit: '0',
      link: 'ftp://pay.example.com',
      jumpLink: `https://${long(510)}`,
    },
    expected: {
      supplier: 'supplierRequired',
      name: 'nameRequired',
      accountName: 'accountNameTooLong',
      bankName: 'bankNameTooLong',
      cardNumber: 'cardNumberInvalid',
      ifsc: 'ifscInvalid',
      minAmount: 'minAboveMax',
      dailyAmountLimit: 'amountInvalid',
      dailyCountLimit: 'countInvalid',
      link: 'linkInvalid',
      jumpLink: 'linkInvalid',
    },
  },
  {
    label: 'card-to-card: empty names, a card number of 21 digits, an IFSC whose fifth character is not 0',
    channel: CHANNELS.cardToCard,
    values: { name: long(129, 'n'), accountName: '   ', cardNumber: long(21, '1'), ifsc: 'HDFC1001234' },
    expected: {
      name: 'nameTooLong',
      accountName: 'accountNameRequired',
      bankName: 'bankNameRequired',
      cardNumber: 'cardNumberInvalid',
      ifsc: 'ifscInvalid',
    },
  },
  {
    label: 'payout: letters in the account number, an IFSC of 10 characters',
    channel: CHANNELS.payout,
    values: { name: 'Payout', accountName: 'A', bankName: 'B', accountNumber: '12ab', ifsc: 'HDFC000123' },
    expected: { accountNumber: 'accountNumberInvalid', ifsc: 'ifscInvalid' },
  },
  {
    label: 'gateway: key id and both secrets missing, an account number of 21 digits, a URL with a password',
    channel: CHANNELS.gatewayPayout,
    values: { name: 'Razorpay', baseUrl: 'https://u:p@api.razorpay.com', accountNumber: long(21, '9') },
    expected: {
      baseUrl: 'baseUrlInvalid',
      keyId: 'keyIdRequired',
      keySecret: 'keySecretRequired',
      webhookSecret: 'webhookSecretRequired',
      accountNumber: 'accountNumberInvalid',
    },
  },
  {
    label: 'gateway: key id over 128, key secret over 256',
    channel: CHANNELS.gatewayPayout,
    values: {
      name: 'Razorpay',
      baseUrl: 'https://api.razorpay.com',
      keyId: long(129, 'k'),
      keySecret: long(257, 's'),
      webhookSecret: 'hook-secret-1',
      accountNumber: '123',
    },
    expected: { keyId: 'keyIdTooLong', keySecret: 'keySecretTooLong' },
  },
  {
    label: 'UPI: a UPI ID without its bank',
    channel: CHANNELS.otherCardToCard,
    values: { name: 'UPI', ...goodCard, vpa: 'ravi' },
    expected: { vpa: 'vpaInvalid' },
  },
  {
    label: 'USDT: an address with a 0 (not base58)',
    channel: CHANNELS.usdtFloating,
    values: { name: 'Wallet', address: `T${long(33, '0')}` },
    expected: { address: 'addressInvalid' },
  },
  {
    label: 'USDT payout: an address not starting with T',
    channel: CHANNELS.usdtPayProxy,
    values: { name: 'Wallet', address: `A${long(33, 'b')}` },
    expected: { address: 'addressInvalid' },
  },
  {
    label: 'Kenya: a number that is not 2547/2541',
    channel: CHANNELS.kenya,
    values: { name: 'M-Pesa', phone: '254212345678', accountName: 'Wanjiru' },
    expected: { phone: 'phoneInvalid' },
  },
  {
    label: 'WeChat: a payment link that is not http(s)',
    channel: CHANNELS.wechat,
    values: { name: 'WeChat', accountName: 'Li Wei', paymentLink: 'weixin://pay/x' },
    expected: { paymentLink: 'linkInvalid' },
  },
];

vi.setConfig({ testTimeout: 30_000 });

beforeAll(() => {
  setupI18n('en-US');
});
afterEach(async () => {
  await changeLanguage('en-US');
});

/** The error a form item shows, found from its input's test id. */
function errorOf(field: string): string {
  const input = screen.getByTestId(`resource-form-${field}`);
  const item = input.closest('.ant-form-item');
  return [...(item?.querySelectorAll('.ant-form-item-explain-error') ?? [])].map((e) => e.textContent).join(' | ');
}

function renderForm(c: Case, onSubmit: () => void) {
  return render(
    <AntApp>
      <ResourceFormModal
        channel={c.channel}
        {...(c.admin ? { suppliers: [{ value: 1, label: 'Supplier One (supplier1)' }] } : {})}
        pending={false}
        onSubmit={onSubmit}
        onClose={() => undefined}
      />
    </AntApp>,
  );
}

describe('resource form rules', () => {
  describe.each(LANGS)('%s', (lang) => {
    it.each(CASES.map((c) => [c.label, c] as const))('%s', async (_label, c) => {
      await changeLanguage(lang);
      const onSubmit = vi.fn();
      renderForm(c, onSubmit);
      await screen.findByTestId('resource-form');
      for (const [field, value] of Object.entries(c.values)) {
        fireEvent.change(screen.getByTestId(`resource-form-${field}`), { target: { value } });
      }
      fireEvent.click(screen.getByTestId('resource-form-save'));
      const fields = Object.keys(c.expected);
      await waitFor(() => {
        for (const field of fields) expect(errorOf(field), field).toBe(TEXTS[c.expected[field]!]![lang]);
      });
      // Fields given good values say nothing, and nothing is sent.
      for (const field of Object.keys(c.values).filter((f) => !fields.includes(f) && f !== 'maxAmount')) {
        expect(errorOf(field), field).toBe('');
      }
      expect(onSubmit).not.toHaveBeenCalled();
    });
  });

  it('every rule text of the contract has its words in each language; English is the contract’s own', () => {
    for (const [key, english] of Object.entries(RESOURCE_TEXTS)) {
      const en = resourcesLocales['en-US'].text[key as keyof (typeof resourcesLocales)['en-US']['text']];
      expect(en, key).toBe(english);
      for (const lang of ['zh-CN', 'zh-TW'] as const) {
        const text = resourcesLocales[lang].text[key as keyof (typeof resourcesLocales)[typeof lang]['text']];
        expect(text, `${lang} ${key}`).toBeTruthy();
        expect(text, `${lang} ${key}`).not.toBe(english);
      }
    }
    // Every field rule tested above is one of them (or one of the console's own).
    for (const key of Object.keys(TEXTS)) {
      expect(key in RESOURCE_TEXTS || key === 'amountInvalid' || key === 'countInvalid', key).toBe(true);
    }
  });

  it('valid values in every field send the form with the chosen product', async () => {
    const onSubmit = vi.fn();
    renderForm({ label: '', channel: CHANNELS.cardToCard, values: {}, expected: {} }, onSubmit);
    await screen.findByTestId('resource-form');
    const values: Record<string, string> = {
      name: 'ICICI card',
      ...goodCard,
      minAmount: '100',
      maxAmount: '500.5',
      dailyAmountLimit: '10000',
      dailyCountLimit: '20',
      link: 'https://pay.example.com/r',
    };
    for (const [field, value] of Object.entries(values)) {
      fireEvent.change(screen.getByTestId(`resource-form-${field}`), { target: { value } });
    }
    fireEvent.click(screen.getByTestId('resource-form-save'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0]).toEqual({
      productId: 1002,
      name: 'ICICI card',
      details: goodCard,
      minAmount: 10_000,
      maxAmount: 50_050,
      dailyAmountLimit: 1_000_000,
      dailyCountLimit: 20,
      link: 'https://pay.example.com/r',
      jumpLink: null,
    });
  });
  it('a gateway account using a pay gateway keeps only its business account; without one, its own credentials', async () => {
    const onSubmit = vi.fn();
    const row: ResourceRow = {
      id: 21,
      supplierId: 1,
      supplierName: 'Supplier One',
      productId: 2003,
      productName: 'Gateway payout',
      kind: 'gatewayPayout',
      name: 'RazorpayX',
      state: 0,
      details: { gatewayId: '3', accountNumber: '2323230041626905' },
      hasSecret: false,
      minAmount: null,
      maxAmount: null,
      dailyAmountLimit: null,
      dailyCountLimit: null,
      link: null,
      jumpLink: null,
      qrCode: null,
      qrImageId: null,
      todayCount: 0,
      todayAmount: 0,
      createdAt: '2026-11-01T10:00:00.000Z',
      updatedAt: '2026-11-01T10:00:00.000Z',
      allowedActions: [],
    };
    const view = render(
      <AntApp>
        <ResourceFormModal
          channel={CHANNELS.gatewayPayout}
          row={row}
          payGateways={[{ value: 3, label: 'RazorpayX main' }]}
          pending={false}
          onSubmit={onSubmit}
          onClose={() => undefined}
        />
      </AntApp>,
    );
    await screen.findByTestId('resource-form');
    expect(screen.getByText('RazorpayX main')).toBeTruthy();
    expect(screen.queryByTestId('resource-form-baseUrl')).toBeNull();
    expect(screen.queryByTestId('resource-form-keySecret')).toBeNull();
    fireEvent.click(screen.getByTestId('resource-form-save'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]![0].details).toEqual({ gatewayId: '3', accountNumber: '2323230041626905' });
    view.unmount();
    // Whoever may not read the gateways gets no choice: the account's own credentials.
    render(
      <AntApp>
        <ResourceFormModal
          channel={CHANNELS.gatewayPayout}
          pending={false}
          onSubmit={onSubmit}
          onClose={() => undefined}
        />
      </AntApp>,
    );
    await screen.findByTestId('resource-form');
    expect(screen.queryByTestId('resource-form-gatewayId')).toBeNull();
    expect(screen.getByTestId('resource-form-baseUrl')).toBeTruthy();
  });
});
