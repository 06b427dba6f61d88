import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signIn } from './support/console.js';
import { createDemoOrder, DEMO_MERCHANT } from './support/merchant.js';
import { consoleSuite } from './support/suite.js';

/**
 * Issue 6 items 3 and 8 as their users meet them: a merchant's server creates an order through the
 * signed API with the demo credentials and the payer opens its page on a phone, sees the amount and
 * the UPI details, and submits the UTR; merchant1 signs an order on the API test page and sees the
 * answer.
 */
const suite = consoleSuite();

/** axe-core's critical and serious findings on the page as it is now (issue 18: there must be none). */
async function seriousViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'critical' || v.impact === 'serious')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

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
    expect(await page.getByTestId('pay-currency').textContent()).toBe('INR');
    expect(await page.getByTestId('pay-merchant').textContent()).toMatch(/^Paying to: \S/);
    expect(await page.getByTestId('pay-order-code').textContent()).toBe(order.orderCode);
    expect(await page.getByTestId('pay-field-vpa').textContent()).toBe(payee.vpa);
    expect(await page.getByTestId('pay-upi-link').getAttribute('href')).toBe(payee.upiLink);
    await page.getByTestId('pay-qr').waitFor();
    expect(await page.getByTestId('pay-countdown').textContent()).toMatch(/^\d{2}:\d{2}$/);
    expect(await page.getByTestId('pay-return-link').getAttribute('href')).toBe('https://merchant.example/return');
    // Nothing wider than the phone: no sideways scrolling.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    // The QR code has a text alternative; axe finds nothing critical or serious (labels, contrast, landmarks).
    expect(await page.getByRole('img', { name: `QR code: ${payee.qrCode}` }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

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
    await page.getByTestId('language-switch').selectOption({ label: '简体中文' });
    await page.getByText('支付金额').waitFor();
    expect(await page.getByTestId('pay-confirmation').textContent()).toContain('已收到您的凭证 512345678901');

    // Reopened later: the server remembers the UTR.
    await page.reload();
    await page.getByTestId('pay-amount').waitFor();
    expect(await page.getByTestId('pay-confirmation').textContent()).toContain('512345678901');
    expect(await seriousViolations(page)).toEqual([]);
    await phone.close();
  });

  it('on a 360 px phone the UTR box shows its whole placeholder in every language, and nothing scrolls sideways', async () => {
    const order = await createDemoOrder(suite.server.url, { amount: '34567' });
    const phone = await suite.browser.newContext({
      viewport: { width: 360, height: 740 },
      isMobile: true,
      hasTouch: true,
      locale: 'zh-CN',
    });
    const page = await phone.newPage();
    await page.goto(order.payUrl);
    await page.getByTestId('pay-utr-input').waitFor();
    for (const [language, countdown] of [
      ['简体中文', '剩余支付时间'],
      ['繁體中文', '剩餘支付時間'],
      ['English', 'Time left to pay'],
    ] as const) {
      await page.getByTestId('language-switch').selectOption({ label: language });
      await page.getByText(countdown).waitFor();
      // The placeholder fits: the box is wider than the text it shows before the payer types.
      const room = await page.evaluate<number>(`(() => {
        const input = document.querySelector('[data-testid="pay-utr-input"]');
        const style = getComputedStyle(input);
        const probe = document.createElement('span');
        probe.style.font = style.font;
        probe.style.whiteSpace = 'pre';
        probe.textContent = input.placeholder;
        document.body.append(probe);
        const text = probe.getBoundingClientRect().width;
        probe.remove();
        return input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - text;
      })()`);
      expect(room, language).toBeGreaterThanOrEqual(0);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(360);
      expect(await seriousViolations(page)).toEqual([]);
    }
    await phone.close();
  });

  it('the legacy payer address /pay?orderCode=<orderCode> (the payUrl IsNewPayUrl off answers) opens the same payer page', async () => {
    const order = await createDemoOrder(suite.server.url, { amount: '23457' });
    const page = await suite.newPage('en-US');
    await page.goto(`${suite.server.url}/pay?orderCode=${order.orderCode}`);
    await expect.poll(() => page.getByTestId('pay-amount').textContent(), { timeout: 15_000 }).toBe('234.57');
    expect(await page.getByTestId('pay-order-code').textContent()).toBe(order.orderCode);
    await page.context().close();
  });

  it('an unknown order code shows "no such order"', async () => {
    const page = await suite.newPage('en-US');
    await page.goto(`${suite.server.url}/pay/C000000000000000000000`);
    await page.getByTestId('pay-state-notFound').waitFor();
    expect(await page.getByText('No such order').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
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
