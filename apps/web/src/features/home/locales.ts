import type { Locales } from '../../i18n/types';

export const homeLocales = {
  'zh-CN': {
    welcome: '欢迎，{{name}}',
    account: '账号',
    role: '角色',
    unread: '未读消息',
    noUnread: '没有未读消息',
    openInbox: '打开消息中心',
  },
  'zh-TW': {
    welcome: '歡迎，{{name}}',
    account: '帳號',
    role: '角色',
    unread: '未讀訊息',
    noUnread: '沒有未讀訊息',
    openInbox: '開啟訊息中心',
  },
  'en-US': {
    welcome: 'Welcome, {{name}}',
    account: 'Account',
    role: 'Role',
    unread: 'Unread messages',
    noUnread: 'No unread messages',
    openInbox: 'Open the inbox',
  },
} satisfies Locales;
