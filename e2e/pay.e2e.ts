import { describe, expect, it } from 'vitest';
import { chooseLanguage, signIn } from './support/console.js';
import { createDemoOrder, DEMO_MERCHANT } from './support/merchant.js';
import { consoleSuite } from './support/suite.js';

/**
 * Issue 6 items 3 and 8 as their users meet them: a merchant's server creates an order through the
 * signed API with the demo credentials and the payer opens its page on a phone, sees the amount and
 * the UPI details, and submits the UTR; merchant1 signs an order on the API test page and sees the
 * answer.
 */
const suite = consoleSuite();

describe('the payer page and the API test page', () => {
  it('a payer opens the page of an order on a phone, sees the amount and the UPI details, and submits the UTR', async () => {
    const order = await createDemoOrder(suite.server.url, {
      amount: '23456',
      returnUrl: 'https://merchant.example/return',
      subject: 'Top-up',
    });
    expect(order.payUrl).toBe(`${suite.server.url}/pay/${order.orderCode}`);
    const payee = order.payee!;
    expect(payee.kind).toBe('upi');

    const phone = await suite.browser.newContext({
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
      locale: 'en-US',
    });
    const page = await phone.newPage();
    await page.goto(order.payUrl);
    await expect.poll(() => page.getByTestId('pay-amount').textContent()).toBe('234.56');
    expect(await page.getByTestId('pay-order-code').textContent()).toBe(order.orderCode);
    expect(await page.getByTestId('pay-field-vpa').textContent()).toBe(payee.vpa);
    expect(await page.getByTestId('pay-upi-link').getAttribute('href')).toBe(payee.upiLink);
    await page.getByTestId('pay-qr').waitFor();
    expect(await page.getByTestId('pay-countdown').textContent()).toMatch(/^\d{2}:\d{2}$/);
    expect(await page.getByTestId('pay-return-link').getAttribute('href')).toBe('https://merchant.example/return');
    // Nothing wider than the phone: no sideways scrolling.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);

    // The UTR is checked before it is sent, then the page confirms what the server recorded.
    await page.getByTestId('pay-utr-input').fill('12-34');
    await page.getByTestId('pay-utr-submit').click();
    await page.getByText('A UTR is 6 to 128 letters and digits').waitFor();
    await page.getByTestId('pay-utr-input').fill('512345678901');
    await page.getByTestId('pay-utr-submit').click();
    const confirmation = page.getByTestId('pay-confirmation');
    await confirmation.waitFor();
    expect(await confirmation.textContent()).toContain('512345678901');

    // The payer may switch the language.
    await chooseLanguage(page, '简体中文');
    await page.getByText('支付金额').waitFor();
    expect(await page.getByTestId('pay-confirmation').textContent()).toContain('已收到您的凭证 512345678901');

    // Reopened later: the server remembers the UTR.
    await page.reload();
    await page.getByTestId('pay-amount').waitFor();
    expect(await page.getByTestId('pay-confirmation').textContent()).toContain('512345678901');
    await phone.close();
  });

  it('an unknown order code shows "no such order"', async () => {
    const page = await suite.newPage('en-US');
    await page.goto(`${suite.server.url}/pay/C000000000000000000000`);
    await page.getByTestId('pay-state-notFound').waitFor();
    expect(await page.getByText('No such order').count()).toBe(1);
    await page.context().close();
  });

  it('merchant1 pastes its secret on the API test page, sends an order and sees code 200 with the payer page', async () => {
    const page = await suite.newPage('en-US');
    await signIn(page, suite.server.url, 'merchant1', suite.secretOf('merchant1'));
    await page.goto(`${suite.server.url}/order/test/merchant`);
    // Filled once the page's chunk and the merchant's own record have loaded (seconds under CI load).
    await expect
      .poll(() => page.getByTestId('apitest-mchId').inputValue(), { timeout: 15_000 })
      .toBe(DEMO_MERCHANT.mchId);
    expect(await page.getByTestId('apitest-baseUrl').inputValue()).toBe(suite.server.url);
    await page.getByTestId('apitest-amount').fill('345.67');
    await page.getByTestId('apitest-secret').fill(DEMO_MERCHANT.secret);
    await page.getByTestId('apitest-send').click();

    const code = page.getByTestId('apitest-answer-code');
    await code.waitFor();
    expect(await code.textContent()).toBe('code 200');
    expect(await page.getByTestId('apitest-signing-string').textContent()).toMatch(
      /^amount=34567&mchId=10001&mchOrderNo=T\d+&productId=1001&subject=API test&key=\*{8}$/,
    );
    const answer = JSON.parse((await page.getByTestId('apitest-answer').textContent()) ?? '') as {
      code: number;
      data: { orderCode: string; amount: number; payUrl: string };
    };
    expect(answer.data.amount).toBe(34_567);
    expect(await page.getByTestId('apitest-pay-url').getAttribute('href')).toBe(answer.data.payUrl);
    expect(answer.data.payUrl).toBe(`${suite.server.url}/pay/${answer.data.orderCode}`);
    // The secret is only in the password box.
    expect(await page.getByTestId('apitest-result').textContent()).not.toContain(DEMO_MERCHANT.secret);
    expect(await page.evaluate<string>('JSON.stringify({ ...localStorage, ...sessionStorage })')).not.toContain(
      DEMO_MERCHANT.secret,
    );
    await page.context().close();
  });
});
