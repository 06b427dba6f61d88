import { Code } from '@paydesk/contract';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverLocales } from '../../shared/api/errorText';
import { ApiError } from '../../shared/api/http';
import { signInErrorText } from './signInError';

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({
    resources: Object.fromEntries(Object.entries(serverLocales).map(([lang, server]) => [lang, { server }])),
    lng: 'zh-CN',
    fallbackLng: false,
  });
});

describe('signInErrorText', () => {
  it('words sign-in refusals in the reader’s language, not the server’s English', async () => {
    await i18n.changeLanguage('zh-CN');
    expect(signInErrorText(i18n, new ApiError(Code.wrongCredentials, 'account or password is incorrect'))).toBe(
      '账号或密码错误',
    );
    const locked = new ApiError(Code.accountLocked, 'too many failed attempts', {
      reason: 'accountLocked',
      retryAfterSeconds: 600,
    });
    expect(signInErrorText(i18n, locked)).toBe('此地址失败次数过多，请 10 分钟后再试');
    const wrong2 = new ApiError(Code.wrongCredentials, 'second-level password is incorrect', {
      reason: 'secondLevelIncorrect',
    });
    expect(signInErrorText(i18n, wrong2, { secondLevel: true })).toBe('二级密码错误');
    // An older server's answer without the reason: the dialog still names the second-level password.
    const bare = new ApiError(Code.wrongCredentials, 'second-level password is incorrect');
    expect(signInErrorText(i18n, bare, { secondLevel: true })).toBe('二级密码错误');

    await i18n.changeLanguage('zh-TW');
    const delayed = new ApiError(Code.accountLocked, 'wait', { reason: 'signInDelayed', retryAfterSeconds: 8 });
    expect(signInErrorText(i18n, delayed)).toBe('該帳號近期失敗次數過多，請 8 秒後再試');
    await i18n.changeLanguage('en-US');
    expect(signInErrorText(i18n, new ApiError(Code.wrongAuthCode, 'authenticator code is incorrect'))).toBe(
      'the code is wrong or already used: wait for the next one',
    );
  });

  it('shows a lock without its seconds by the code’s text, and the network’s failure as it is', async () => {
    await i18n.changeLanguage('zh-CN');
    expect(signInErrorText(i18n, new ApiError(Code.accountLocked, 'locked', { reason: 'accountLocked' }))).toBe(
      '失败次数过多，已暂时锁定，请稍后再试',
    );
    expect(signInErrorText(i18n, new ApiError(Code.tooManyRequests, 'too many requests'))).toBe(
      '尝试过于频繁，请稍后再试',
    );
    expect(signInErrorText(i18n, new Error('network down'))).toBe('network down');
  });
});
