import type { Locales } from '../../i18n/types';

export const authLocales = {
  'zh-CN': {
    login: {
      title: '登录',
      account: '账号',
      password: '密码',
      googleCode: '谷歌验证码',
      googleCodeHint: '身份验证器中的 6 位数字',
      submit: '登录',
      accountRequired: '请输入账号',
      passwordRequired: '请输入密码',
      codeFormat: '验证码为 6 位数字',
      failed: '登录失败：{{message}}',
    },
    bind: {
      title: '绑定身份验证器',
      intro: '请用谷歌身份验证器（或任一 TOTP 应用）扫描二维码，或手动输入密钥，然后输入它显示的 6 位验证码完成绑定。',
      secret: '密钥',
      qr: '绑定用的二维码，内容与下方的密钥相同',
      code: '验证码',
      submit: '确认绑定',
      done: '绑定成功',
      logout: '退出登录',
    },
  },
  'zh-TW': {
    login: {
      title: '登入',
      account: '帳號',
      password: '密碼',
      googleCode: 'Google 驗證碼',
      googleCodeHint: '驗證器中的 6 位數字',
      submit: '登入',
      accountRequired: '請輸入帳號',
      passwordRequired: '請輸入密碼',
      codeFormat: '驗證碼為 6 位數字',
      failed: '登入失敗：{{message}}',
    },
    bind: {
      title: '綁定身分驗證器',
      intro:
        '請用 Google 身分驗證器（或任一 TOTP 應用程式）掃描 QR 碼，或手動輸入金鑰，然後輸入其顯示的 6 位驗證碼完成綁定。',
      secret: '金鑰',
      qr: '綁定用的 QR 碼，內容與下方的金鑰相同',
      code: '驗證碼',
      submit: '確認綁定',
      done: '綁定成功',
      logout: '登出',
    },
  },
  'en-US': {
    login: {
      title: 'Sign in',
      account: 'Account',
      password: 'Password',
      googleCode: 'Authenticator code',
      googleCodeHint: 'The 6 digits your authenticator shows',
      submit: 'Sign in',
      accountRequired: 'Enter your account',
      passwordRequired: 'Enter your password',
      codeFormat: 'The code is 6 digits',
      failed: 'Sign-in failed: {{message}}',
    },
    bind: {
      title: 'Bind your authenticator',
      intro:
        'Scan the QR code with Google Authenticator (or any TOTP app), or type the secret in, then enter the 6-digit code it shows to finish.',
      secret: 'Secret',
      qr: 'QR code for binding; it holds the secret shown below',
      code: 'Code',
      submit: 'Confirm',
      done: 'Authenticator bound',
      logout: 'Log out',
    },
  },
} satisfies Locales;
