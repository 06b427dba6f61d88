import { Code } from '@paydesk/contract';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api/http';
import { authLocales } from './locales';
import { signInErrorText } from './signInError';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    resources: Object.fromEntries(Object.entries(authLocales).map(([lang, auth]) => [lang, { auth }])),
    lng: 'zh-CN',
    fallbackLng: false,
  });
});

describe('signInErrorText', () => {
  it('words sign-in refusals in the reader’s language, not the server’s English', async () => {
    await i18n.changeLanguage('zh-CN');
    const t = i18n.getFixedT('zh-CN', 'auth');
    expect(signInErrorText(t, new ApiError(Code.wrongCredentials, 'account or password is incorrect'))).toBe(
      '账号或密码错误',
    );
    const locked = new ApiError(Code.accountLocked, 'too many failed attempts', {
      reason: 'accountLocked',
      retryAfterSeconds: 600,
    });
    expect(signInErrorText(t, locked)).toBe('此地址失败次数过多，请 10 分钟后再试');
    const tw = i18n.getFixedT('zh-TW', 'auth');
    const delayed = new ApiError(Code.accountLocked, 'wait', { reason: 'signInDelayed', retryAfterSeconds: 8 });
    expect(signInErrorText(tw, delayed)).toBe('該帳號近期失敗次數過多，請 8 秒後再試');
    const en = i18n.getFixedT('en-US', 'auth');
    expect(signInErrorText(en, new ApiError(Code.wrongAuthCode, 'authenticator code is incorrect'))).toBe(
      'the code is wrong or already used: wait for the next one',
    );
    const wrong2 = new ApiError(Code.wrongCredentials, 'second-level password is incorrect');
    expect(signInErrorText(t, wrong2, { secondLevel: true })).toBe('二级密码错误');
  });

  it('keeps the server’s text for a refusal it has no words for', () => {
    const t = i18n.getFixedT('zh-CN', 'auth');
    expect(signInErrorText(t, new ApiError(Code.invalidInput, 'userName: required'))).toBe('userName: required');
    expect(signInErrorText(t, new Error('network down'))).toBe('network down');
  });
});
