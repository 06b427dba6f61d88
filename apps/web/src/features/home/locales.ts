import type { Locales } from '../../i18n/types';

export const homeLocales = {
  'zh-CN': {
    balance: {
      balance: '可用余额',
      frozenBalance: '冻结余额',
      platformBalance: '商户与码商可用余额合计',
      platformFrozen: '商户与码商冻结余额合计',
      revenue: '平台收益',
    },
    welcome: '欢迎，{{name}}',
    account: '账号',
    role: '角色',
    unread: '未读消息',
    noUnread: '没有未读消息',
    openInbox: '打开消息中心',
  },
  'zh-TW': {
    balance: {
      balance: '可用餘額',
      frozenBalance: '凍結餘額',
      platformBalance: '商戶與碼商可用餘額合計',
      platformFrozen: '商戶與碼商凍結餘額合計',
      revenue: '平台收益',
    },
    welcome: '歡迎，{{name}}',
    account: '帳號',
    role: '角色',
    unread: '未讀訊息',
    noUnread: '沒有未讀訊息',
    openInbox: '開啟訊息中心',
  },
  'en-US': {
    balance: {
      balance: 'Balance',
      frozenBalance: 'Frozen balance',
      platformBalance: 'Merchants’ and suppliers’ balances',
      platformFrozen: 'Merchants’ and suppliers’ frozen balances',
      revenue: 'Platform revenue',
    },
    welcome: 'Welcome, {{name}}',
    account: 'Account',
    role: 'Role',
    unread: 'Unread messages',
    noUnread: 'No unread messages',
    openInbox: 'Open the inbox',
  },
} satisfies Locales;
