import { ORDER_STATE, type Payee } from '@paydesk/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { setupI18n } from '../../i18n';
import { type Answer, ok, renderPage, stubServer } from '../../test/renderPage';
import type { PayerOrder } from './api';
import { formatCountdown, remainingMs } from './countdown';
import PayPage from './PayPage';

const CODE = 'C2411231200001234';
const ORDER_PATH = '/v1.0/pay/order';
const SUBMIT_PATH = '/v1.0/pay/submitUtr';
const QR_PATH = '/v1.0/pay/qrImage';

/**
 * The server's clock in these tests is in 2001, far from the machine's: a countdown computed on the
 * phone's clock would show the order long expired.
 */
const SERVER_NOW = Date.parse('2001-02-03T04:05:06.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const UPI: Payee = {
  kind: 'upi',
  accountName: 'Asha Traders',
  bankName: 'State Bank of India',
  cardNumber: '12345678901234',
  ifsc: 'SBIN0001234',
  vpa: 'asha@sbi',
  upiLink: `upi://pay?pa=asha@sbi&pn=Asha%20Traders&am=1234.56&cu=INR&tn=${CODE}`,
  qrCode: `upi://pay?pa=asha@sbi&pn=Asha%20Traders&am=1234.56&cu=INR&tn=${CODE}`,
};

function payerOrder(over: Partial<PayerOrder> = {}): PayerOrder {
  return {
    orderCode: CODE,
    productId: 1001,
    amount: 123_456,
    currency: 'INR',
    merchantName: 'Asha Mart',
    state: ORDER_STATE.allocated,
    subject: 'Top-up',
    expiresAt: iso(SERVER_NOW + 15 * 60_000),
    now: iso(SERVER_NOW),
    returnUrl: null,
    payee: UPI,
    payerUtr: null,
    payerNameRequired: false,
    payerName: null,
    ...over,
  };
}

let server: ReturnType<typeof stubServer>;
const answerOrder = (answer: Answer) => server.answers.set(ORDER_PATH, answer);

function renderPay(code = CODE) {
  return renderPage(<PayPage orderCode={code} />, `/pay/${code}`, null);
}

beforeAll(() => {
  setupI18n('en-US');
});
beforeEach(async () => {
  await i18next.changeLanguage('en-US');
  server = stubServer();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('countdown on the server clock', () => {
  it('counts from the server’s now, not the phone’s, and keeps ticking', async () => {
    answerOrder(ok(payerOrder()));
    renderPay();
    const countdown = await screen.findByTestId('pay-countdown');
    // 15 minutes on the server's clock, whatever the phone's date is.
    expect(countdown.textContent).toMatch(/^1[45]:\d\d$/);
    const first = countdown.textContent;
    await waitFor(() => expect(screen.getByTestId('pay-countdown').textContent).not.toBe(first), { timeout: 3000 });
    expect(screen.getByTestId('pay-countdown').textContent).toMatch(/^14:5\d$/);
    expect(screen.queryByTestId('pay-state-timedOut')).toBeNull();
  });

  it('remainingMs subtracts what the phone measured since the answer arrived', () => {
    const order = { expiresAt: iso(SERVER_NOW + 60_000), now: iso(SERVER_NOW), receivedAt: 5_000_000 };
    expect(remainingMs(order, 5_000_000)).toBe(60_000);
    expect(remainingMs(order, 5_010_000)).toBe(50_000);
    expect(remainingMs(order, 5_090_000)).toBe(0);
    expect(remainingMs({ ...order, expiresAt: null }, 5_000_000)).toBeNull();
    expect(formatCountdown(905_000)).toBe('15:05');
    expect(formatCountdown(3_725_000)).toBe('1:02:05');
    expect(formatCountdown(400)).toBe('00:01');
  });

  it('when the time runs out the page shows the timed-out state and hides the account', async () => {
    answerOrder(ok(payerOrder({ expiresAt: iso(SERVER_NOW + 1_500) })));
    renderPay();
    expect(await screen.findByTestId('pay-field-vpa')).toBeTruthy();
    // Asked again, the server (whose timeout job has not run yet) still says allocated, past its time.
    answerOrder(ok(payerOrder({ expiresAt: iso(SERVER_NOW + 1_500), now: iso(SERVER_NOW + 2_000) })));
    expect(await screen.findByTestId('pay-state-timedOut', {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByText('This order has timed out')).toBeTruthy();
    expect(screen.queryByTestId('pay-field-vpa')).toBeNull();
    expect(screen.queryByTestId('pay-countdown')).toBeNull();
    // It asked the server again once the countdown ran out.
    await waitFor(() => expect(server.sent(ORDER_PATH).length).toBeGreaterThan(1));
  });
});

describe('what to pay to, by channel', () => {
  it('UPI: the amount with separators, the UPI ID, the deep link, its QR code and the bank details', async () => {
    answerOrder(ok(payerOrder()));
    renderPay();
    expect((await screen.findByTestId('pay-amount')).textContent).toBe('1,234.56');
    expect(screen.queryByTestId('pay-order-amount')).toBeNull();
    expect(server.sent(ORDER_PATH)[0]!.url).toContain(`orderCode=${CODE}`);
    expect(screen.getByTestId('pay-field-vpa').textContent).toBe('asha@sbi');
    expect(screen.getByTestId('pay-upi-link').getAttribute('href')).toBe(UPI.upiLink);
    expect(screen.getByTestId('pay-qr').querySelector('svg')).toBeTruthy();
    expect(screen.getByTestId('pay-field-accountName').textContent).toBe('Asha Traders');
    expect(screen.getByTestId('pay-field-bankName').textContent).toBe('State Bank of India');
    expect(screen.getByTestId('pay-field-cardNumber').textContent).toBe('12345678901234');
    expect(screen.getByTestId('pay-field-ifsc').textContent).toBe('SBIN0001234');
    expect(screen.getByText('UTR (bank reference number)')).toBeTruthy();
  });

  it('names the currency and the merchant; one heading, a main region, a QR code a screen reader can tell', async () => {
    answerOrder(ok(payerOrder()));
    renderPay();
    expect((await screen.findByTestId('pay-amount')).textContent).toBe('1,234.56');
    expect(screen.getByTestId('pay-currency').textContent).toBe('INR');
    expect(screen.getByTestId('pay-merchant').textContent).toBe('Paying to: Asha Mart');
    expect(screen.getAllByRole('heading', { level: 1 }).map((h) => h.textContent)).toEqual(['Payment']);
    expect(within(screen.getByRole('main')).getByTestId('pay-amount')).toBeTruthy();
    expect(screen.getByRole('img', { name: `QR code: ${UPI.qrCode}` })).toBe(screen.getByTestId('pay-qr'));
    // Every control has a name: the UTR box its label (with the hint), the copy buttons what they copy.
    const input = screen.getByLabelText('UTR (bank reference number)');
    expect(input).toBe(screen.getByTestId('pay-utr-input'));
    expect(input.getAttribute('placeholder')).toBe('e.g. 412345678901');
    expect(screen.getByText('Find it in the transaction details of your bank or UPI app').id).toBe(
      input.getAttribute('aria-describedby'),
    );
    expect(screen.getByRole('button', { name: 'Copy: UPI ID' })).toBe(screen.getByTestId('pay-copy-vpa'));
  });

  it('the payer switches the language on the page, and the choice is kept', async () => {
    answerOrder(ok(payerOrder()));
    const user = userEvent.setup();
    renderPay();
    await screen.findByTestId('pay-amount');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), '简体中文');
    expect(await screen.findByText('支付金额')).toBeTruthy();
    expect(screen.getByTestId('pay-merchant').textContent).toBe('收款商户: Asha Mart');
    expect(localStorage.getItem('language')).toBe('zh-CN');
  });

  it('shows the amount with the language’s separators in Chinese', async () => {
    await i18next.changeLanguage('zh-CN');
    answerOrder(ok(payerOrder({ amount: 1_234_567_89 })));
    renderPay();
    expect((await screen.findByTestId('pay-amount')).textContent).toBe('1,234,567.89');
    expect(screen.getByText('支付金额')).toBeTruthy();
    expect(screen.getByText('剩余支付时间')).toBeTruthy();
  });

  it('card to card: name, bank, account number and IFSC, without a QR code', async () => {
    answerOrder(
      ok(
        payerOrder({
          productId: 1002,
          payee: {
            kind: 'cardToCard',
            accountName: 'Ravi Kumar',
            bankName: 'HDFC Bank',
            cardNumber: '5012345678',
            ifsc: 'HDFC0000123',
            qrCode: null,
          },
        }),
      ),
    );
    renderPay();
    expect((await screen.findByTestId('pay-field-accountName')).textContent).toBe('Ravi Kumar');
    expect(screen.getByTestId('pay-field-bankName').textContent).toBe('HDFC Bank');
    expect(screen.getByTestId('pay-field-cardNumber').textContent).toBe('5012345678');
    expect(screen.getByTestId('pay-field-ifsc').textContent).toBe('HDFC0000123');
    expect(screen.queryByTestId('pay-qr')).toBeNull();
    expect(screen.queryByTestId('pay-upi-link')).toBeNull();
  });

  it('USDT: the address with its QR code and the exact count in USDT; the form asks for the hash', async () => {
    answerOrder(
      ok(
        payerOrder({
          productId: 3015,
          currency: 'USDT',
          payee: {
            kind: 'usdtWallet',
            address: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
            usdtCount: 12_345_678,
            qrCode: 'TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE',
          },
        }),
      ),
    );
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    renderPay();
    expect((await screen.findByTestId('pay-field-address')).textContent).toBe('TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE');
    expect(screen.getByTestId('pay-field-usdtCount').textContent).toBe('12.345678 USDT');
    // The headline is what the wallet sends; the order's amount is under it.
    expect(screen.getByTestId('pay-amount').textContent).toBe('12.345678 USDT');
    expect(screen.getByTestId('pay-order-amount').textContent).toBe('Order amount: 1,234.56 USDT');
    expect(screen.getByTestId('pay-qr')).toBeTruthy();
    expect(screen.getByText('Transaction hash')).toBeTruthy();
    // The copy button copies the plain count a wallet takes.
    await user.click(screen.getByTestId('pay-copy-usdtCount'));
    expect(writeText).toHaveBeenCalledWith('12.345678');
  });

  it('Kenyan mobile money: the number to send to', async () => {
    answerOrder(
      ok(payerOrder({ productId: 4001, payee: { kind: 'kenyaMobileMoney', phone: '254712345678', qrCode: null } })),
    );
    renderPay();
    expect((await screen.findByTestId('pay-field-phone')).textContent).toBe('254712345678');
    expect(screen.queryByTestId('pay-field-vpa')).toBeNull();
  });

  it('a payment link: a button to open it and its QR code', async () => {
    answerOrder(
      ok(
        payerOrder({
          productId: 5002,
          payee: { kind: 'alipay', accountName: 'Li Wei', paymentLink: 'https://qr.alipay.example/abc', qrCode: null },
        }),
      ),
    );
    renderPay();
    const open = await screen.findByText('Open the payment link');
    expect(open.closest('a')?.getAttribute('href')).toBe('https://qr.alipay.example/abc');
    expect(screen.getByTestId('pay-qr')).toBeTruthy();
    expect(screen.getByTestId('pay-field-accountName').textContent).toBe('Li Wei');
  });

  it('an uploaded QR image (WeChat, Alipay, UPI): shown from /v1.0/pay/qrImage instead of a generated code', async () => {
    const dataUrl =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    server.answers.set(QR_PATH, ok({ mime: 'image/png', dataUrl }));
    answerOrder(
      ok(
        payerOrder({
          productId: 5001,
          payee: { kind: 'wechat', accountName: 'Li Wei', qrCode: null, hasQrImage: true },
        }),
      ),
    );
    renderPay();
    const image = await screen.findByTestId('pay-qr-image');
    expect(image.getAttribute('src')).toBe(dataUrl);
    expect(image.getAttribute('alt')).toBe('Payment QR code');
    expect(new URL(server.sent(QR_PATH)[0]!.url, 'http://x').searchParams.get('orderCode')).toBe(CODE);
    expect(screen.queryByTestId('pay-qr')).toBeNull();
  });

  it('a UPI account with an image shows the image, keeps the UPI link; one without asks for none', async () => {
    server.answers.set(QR_PATH, ok({ mime: 'image/jpeg', dataUrl: 'data:image/jpeg;base64,/9j/2wBD' }));
    answerOrder(ok(payerOrder({ payee: { ...UPI, hasQrImage: true } })));
    const first = renderPay();
    expect((await screen.findByTestId('pay-qr-image')).getAttribute('src')).toBe('data:image/jpeg;base64,/9j/2wBD');
    expect(screen.getByTestId('pay-upi-link').getAttribute('href')).toBe(UPI.upiLink);
    first.unmount();
    answerOrder(ok(payerOrder({ payee: { ...UPI, hasQrImage: false } })));
    renderPay();
    expect(await screen.findByTestId('pay-qr')).toBeTruthy();
    expect(server.sent(QR_PATH)).toHaveLength(1);
  });

  it('an image the server no longer gives (the order moved on): pay with the details', async () => {
    server.answers.set(QR_PATH, { code: 404, msg: 'no QR image for this order', data: null });
    answerOrder(
      ok(payerOrder({ productId: 5002, payee: { kind: 'alipay', accountName: 'Li Wei', hasQrImage: true } })),
    );
    renderPay();
    expect((await screen.findByTestId('pay-qr-image-failed')).textContent).toBe(
      'The QR image could not be loaded: pay with the details above.',
    );
  });

  it('copy: copies the value, and says "copy failed" when the phone refuses', async () => {
    answerOrder(ok(payerOrder()));
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValue(undefined);
    renderPay();
    await user.click(await screen.findByTestId('pay-copy-vpa'));
    expect(writeText).toHaveBeenCalledWith('asha@sbi');
    expect(await screen.findByText('Copied')).toBeTruthy();
    writeText.mockRejectedValue(new Error('denied'));
    await user.click(screen.getByTestId('pay-copy-ifsc'));
    expect(await screen.findByText('copy failed')).toBeTruthy();
  });
});

describe('submitting the UTR', () => {
  it('checks the UTR, sends it, and shows the confirmation', async () => {
    answerOrder(ok(payerOrder()));
    const user = userEvent.setup();
    renderPay();
    const input = await screen.findByTestId('pay-utr-input');
    await user.click(screen.getByTestId('pay-utr-submit'));
    expect(await screen.findByText('Enter the UTR')).toBeTruthy();
    await user.type(input, 'ab-12');
    await user.click(screen.getByTestId('pay-utr-submit'));
    expect(await screen.findByText('A UTR is 6 to 128 letters and digits')).toBeTruthy();
    expect(server.sent(SUBMIT_PATH)).toHaveLength(0);

    server.answers.set(SUBMIT_PATH, ok({ orderCode: CODE, payerUtr: '412345678901' }));
    answerOrder(ok(payerOrder({ payerUtr: '412345678901' })));
    await user.clear(input);
    await user.type(input, '  412345678901 ');
    await user.click(screen.getByTestId('pay-utr-submit'));
    const confirmation = await screen.findByTestId('pay-confirmation');
    expect(server.sent(SUBMIT_PATH).map((r) => r.body)).toEqual([{ orderCode: CODE, utr: '412345678901' }]);
    expect(within(confirmation).getByText('Submitted: your payment is being checked')).toBeTruthy();
    expect(confirmation.textContent).toContain('412345678901');
    expect(screen.queryByTestId('pay-utr-input')).toBeNull();
    // The account stays visible while the order awaits payment.
    expect(screen.getByTestId('pay-field-vpa')).toBeTruthy();
  });

  it('Alipay by hand: asks the payer’s name with the UTR, checks it as the server does, and shows it sent', async () => {
    answerOrder(ok(payerOrder({ productId: 5002, currency: 'CNY', payee: null, payerNameRequired: true })));
    const user = userEvent.setup();
    renderPay();
    const name = await screen.findByLabelText("Payer's name");
    await user.type(screen.getByTestId('pay-utr-input'), '2026112700001');
    await user.click(screen.getByTestId('pay-utr-submit'));
    expect(await screen.findByText('Enter your name')).toBeTruthy();
    await user.type(name, '1234');
    await user.click(screen.getByTestId('pay-utr-submit'));
    expect(await screen.findByText('A name holds letters, spaces and dots only, at most 128 characters')).toBeTruthy();
    expect(server.sent(SUBMIT_PATH)).toHaveLength(0);

    server.answers.set(SUBMIT_PATH, ok({ orderCode: CODE, payerUtr: '2026112700001', payerName: '李伟' }));
    answerOrder(
      ok(
        payerOrder({
          productId: 5002,
          currency: 'CNY',
          payee: null,
          payerNameRequired: true,
          payerUtr: '2026112700001',
          payerName: '李伟',
        }),
      ),
    );
    await user.clear(name);
    await user.type(name, ' 李伟 ');
    await user.click(screen.getByTestId('pay-utr-submit'));
    const confirmation = await screen.findByTestId('pay-confirmation');
    expect(server.sent(SUBMIT_PATH).map((r) => r.body)).toEqual([
      { orderCode: CODE, utr: '2026112700001', payerName: '李伟' },
    ]);
    expect(confirmation.textContent).toContain('Payer: 李伟');
  });

  it('other orders ask no name', async () => {
    answerOrder(ok(payerOrder()));
    renderPay();
    await screen.findByTestId('pay-utr-input');
    expect(screen.queryByTestId('pay-name-input')).toBeNull();
  });

  it('an order that moved on meanwhile: says so and shows what it is now', async () => {
    answerOrder(ok(payerOrder()));
    const user = userEvent.setup();
    renderPay();
    server.answers.set(SUBMIT_PATH, { code: 422, msg: 'this order is not awaiting payment', data: null });
    answerOrder(ok(payerOrder({ state: ORDER_STATE.rejected, payee: null })));
    await user.type(await screen.findByTestId('pay-utr-input'), '412345678901');
    await user.click(screen.getByTestId('pay-utr-submit'));
    expect(await screen.findByTestId('pay-state-rejected')).toBeTruthy();
  });

  it('a refusal in the payer’s language, never the server’s English', async () => {
    await i18next.changeLanguage('zh-CN');
    answerOrder(ok(payerOrder()));
    const user = userEvent.setup();
    renderPay();
    server.answers.set(SUBMIT_PATH, { code: 429, msg: 'too many requests, try again later', data: null });
    await user.type(await screen.findByTestId('pay-utr-input'), '412345678901');
    await user.click(screen.getByTestId('pay-utr-submit'));
    expect(await screen.findByText('提交失败：操作太频繁，请稍后再试')).toBeTruthy();
    expect(screen.queryByText(/too many requests/)).toBeNull();
  });
});

describe('the order’s outcome', () => {
  it('timed out on the server: no account, a late payer may still send the UTR', async () => {
    answerOrder(ok(payerOrder({ state: ORDER_STATE.timedOut, payee: null, expiresAt: iso(SERVER_NOW - 60_000) })));
    renderPay();
    expect(await screen.findByTestId('pay-state-timedOut')).toBeTruthy();
    expect(screen.getByText('If you paid before the time ran out, submit the UTR so the payment can be checked.'));
    expect(screen.getByTestId('pay-utr-input')).toBeTruthy();
    expect(screen.queryByTestId('pay-payee')).toBeNull();
    expect(screen.queryByTestId('pay-countdown')).toBeNull();
  });

  it('paid: says so, with the way back to the merchant', async () => {
    answerOrder(
      ok(
        payerOrder({
          state: ORDER_STATE.callbackSucceeded,
          payee: null,
          payerUtr: '412345678901',
          returnUrl: 'https://shop.example/return?id=7',
        }),
      ),
    );
    renderPay();
    expect(await screen.findByTestId('pay-state-paid')).toBeTruthy();
    expect(screen.getByText('Payment received')).toBeTruthy();
    expect(screen.getByTestId('pay-return-link').getAttribute('href')).toBe('https://shop.example/return?id=7');
    expect(screen.queryByTestId('pay-utr-input')).toBeNull();
  });

  it('rejected: tells the payer not to pay', async () => {
    answerOrder(ok(payerOrder({ state: ORDER_STATE.rejected, payee: null })));
    renderPay();
    expect(await screen.findByTestId('pay-state-rejected')).toBeTruthy();
    expect(screen.getByText('This order is closed')).toBeTruthy();
    expect(screen.queryByTestId('pay-utr-input')).toBeNull();
    expect(screen.queryByTestId('pay-return-link')).toBeNull();
  });

  it('an unknown order code: not found', async () => {
    answerOrder({ code: 404, msg: 'no such order', data: null });
    renderPay('C0000000000000000');
    expect(await screen.findByTestId('pay-state-notFound')).toBeTruthy();
    expect(screen.getByText('No such order')).toBeTruthy();
    expect(screen.queryByTestId('pay-amount')).toBeNull();
  });
});

describe('a product with a pay script', () => {
  const SCRIPT_PATH = '/v1.0/pay/scriptView';

  it.each([
    'zh-CN',
    'zh-TW',
    'en-US',
  ] as const)('(%s) shows the script’s link, QR code and instructions above the receiving account', async (lang) => {
    await i18next.changeLanguage(lang);
    answerOrder(ok(payerOrder()));
    server.answers.set(
      SCRIPT_PATH,
      ok({
        view: {
          payUrl: 'https://gateway.example/pay/abc',
          qrPayload: 'upi://pay?pa=gw@bank&tr=abc',
          instructions: 'Pay within 10 minutes.\nKeep the receipt.',
        },
      }),
    );
    renderPay();
    const script = await screen.findByTestId('pay-script');
    const heading = { 'zh-CN': '付款方式', 'zh-TW': '付款方式', 'en-US': 'How to pay' }[lang];
    expect(within(script).getByRole('heading', { name: heading })).toBeTruthy();
    expect(within(script).getByTestId('pay-script-link').getAttribute('href')).toBe('https://gateway.example/pay/abc');
    expect(within(script).getByTestId('pay-script-instructions').textContent).toBe(
      'Pay within 10 minutes.\nKeep the receipt.',
    );
    expect(within(script).getByTestId('pay-qr').getAttribute('aria-label')).toContain('upi://pay?pa=gw@bank&tr=abc');
    // The receiving account is still there, after the script's part.
    expect(screen.getByTestId('pay-payee')).toBeTruthy();
    expect(server.sent(SCRIPT_PATH)[0]?.url).toContain(`orderCode=${CODE}`);
  });

  it('shows nothing of it when the product has no script, or the order is no longer payable', async () => {
    answerOrder(ok(payerOrder()));
    server.answers.set(SCRIPT_PATH, ok({ view: null }));
    const view = renderPay();
    expect(await screen.findByTestId('pay-payee')).toBeTruthy();
    await waitFor(() => expect(server.sent(SCRIPT_PATH)).toHaveLength(1));
    expect(screen.queryByTestId('pay-script')).toBeNull();
    view.unmount();
    answerOrder(ok(payerOrder({ state: ORDER_STATE.rejected, payee: null })));
    renderPay();
    expect(await screen.findByTestId('pay-state-rejected')).toBeTruthy();
    expect(server.sent(SCRIPT_PATH)).toHaveLength(1);
  });
});
