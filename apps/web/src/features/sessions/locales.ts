import type { Locales } from '../../i18n/types';

/** Online user management (system management › online users). */
export const sessionsLocales = {
  'zh-CN': {
    column: {
      account: '账号',
      role: '角色',
      ip: 'IP',
      userAgent: '浏览器标识',
      createdAt: '登录时间',
      lastSeenAt: '最后活动',
      expiresAt: '过期时间',
    },
    filter: { account: '账号' },
    current: '当前会话',
    forceLogout: '强制下线',
    confirmForceLogout: '确定将 {{account}} 的这个会话强制下线吗？',
    forceLogoutDone: '已强制下线',
  },
  'zh-TW': {
    column: {
      account: '帳號',
      role: '角色',
      ip: 'IP',
      userAgent: '瀏覽器標識',
      createdAt: '登入時間',
      lastSeenAt: '最後活動',
      expiresAt: '過期時間',
    },
    filter: { account: '帳號' },
    current: '目前工作階段',
    forceLogout: '強制登出',
    confirmForceLogout: '確定將 {{account}} 的這個工作階段強制登出嗎？',
    forceLogoutDone: '已強制登出',
  },
  'en-US': {
    column: {
      account: 'Account',
      role: 'Role',
      ip: 'IP',
      userAgent: 'User agent',
      createdAt: 'Signed in',
      lastSeenAt: 'Last seen',
      expiresAt: 'Expires',
    },
    filter: { account: 'Account' },
    current: 'this session',
    forceLogout: 'Force logout',
    confirmForceLogout: 'End this session of {{account}}?',
    forceLogoutDone: 'Session ended',
  },
} satisfies Locales;
