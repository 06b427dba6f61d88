import { Code, REASONS, TEXT_LOCALES } from '@paydesk/contract';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorText, serverLocales } from './errorText';
import { ApiError } from './http';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    resources: Object.fromEntries(Object.entries(serverLocales).map(([lang, server]) => [lang, { server }])),
    lng: 'zh-CN',
    fallbackLng: false,
    interpolation: { escapeValue: false },
  });
});

describe('errorText', () => {
  it('says a refusal in the reader’s language, never the server’s English message', async () => {
    await i18n.changeLanguage('zh-CN');
    const locked = new ApiError(422, 'the order is locked for investigation: unlock it first', {
      reason: 'orderLocked',
    });
    expect(errorText(i18n, locked)).toBe('订单因调查被锁定，请先解锁');
    await i18n.changeLanguage('zh-TW');
    expect(errorText(i18n, locked)).toBe('訂單因調查被鎖定，請先解鎖');
    // No reason: the code's text.
    expect(errorText(i18n, new ApiError(Code.notFound, 'no such order'))).toBe('記錄不存在或已刪除');
    await i18n.changeLanguage('zh-CN');
    expect(errorText(i18n, new ApiError(Code.wrongCredentials, 'account or password is incorrect'))).toBe(
      '账号或密码错误',
    );
  });

  it('shows the values a reason names as the reader reads them: money, rates, waits, counts', async () => {
    await i18n.changeLanguage('zh-CN');
    const limits = new ApiError(422, 'outside', { reason: 'outsideProductLimits', min: 10_000, max: 5_000_000 });
    expect(errorText(i18n, limits)).toBe('金额限制必须在产品限额之内（100.00 至 50,000.00）');
    const rate = new ApiError(422, 'above', { reason: 'commissionBelowAgent', min: 250 });
    expect(errorText(i18n, rate)).toBe('码商的佣金率不能低于其代理（2.50%）');
    const lock = new ApiError(Code.accountLocked, 'locked', { reason: 'accountLocked', retryAfterSeconds: 61 });
    expect(errorText(i18n, lock)).toBe('此地址失败次数过多，请 2 分钟后再试');
    const wallets = new ApiError(422, 'full', { reason: 'redWalletLimit', limit: 10 });
    expect(errorText(i18n, wallets)).toBe('该码商已启用 10 个红包收款账户（微信、支付宝），已达上限，请先停用一个');
    // A reason whose value is missing falls back to the code's text rather than show a hole.
    expect(errorText(i18n, new ApiError(Code.accountLocked, 'locked', { reason: 'accountLocked' }))).toBe(
      '失败次数过多，已暂时锁定，请稍后再试',
    );
  });

  it('adds the server’s detail only where it says more: the fields of a 400, the request of a 500', async () => {
    await i18n.changeLanguage('zh-CN');
    const invalid = new ApiError(Code.invalidInput, 'details.ifsc: invalid IFSC format', {
      issues: [{ path: 'details.ifsc', message: 'invalid IFSC format' }],
    });
    expect(errorText(i18n, invalid)).toBe('输入有误：details.ifsc: invalid IFSC format');
    expect(
      errorText(i18n, invalid, {
        fieldLabel: (path) => (path === 'details.ifsc' ? 'IFSC 代码' : undefined),
        issueText: (message) => (message === 'invalid IFSC format' ? 'IFSC 格式不正确' : undefined),
      }),
    ).toBe('输入有误：IFSC 代码: IFSC 格式不正确');
    expect(errorText(i18n, invalid, { withoutDetail: true })).toBe('输入有误');
    const crash = new ApiError(Code.internal, 'internal error (request r-7)', { requestId: 'r-7' });
    expect(errorText(i18n, crash)).toBe('服务器内部错误，请稍后再试（请求编号 r-7）');
  });

  it('keeps the words of what is not a server answer', () => {
    expect(errorText(i18n, new Error('Failed to fetch'))).toBe('Failed to fetch');
    expect(errorText(i18n, new ApiError(413, 'HTTP 413'))).toBe('HTTP 413');
  });

  it('has a whole text for every reason in every language (no value left as a placeholder)', async () => {
    const values = { min: 100, max: 200, retryAfterSeconds: 30 };
    for (const locale of TEXT_LOCALES) {
      await i18n.changeLanguage(locale);
      for (const reason of REASONS) {
        const text = errorText(i18n, new ApiError(422, 'english', { reason, ...values }));
        expect(text, `${locale} ${reason}`).not.toMatch(/\{\{|server:|^english$/);
      }
    }
  });
});
