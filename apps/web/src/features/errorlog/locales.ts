import type { Locales } from '../../i18n/types';

/** The script-error log (error_logger_page). */
export const errorLogLocales = {
  'zh-CN': {
    column: { at: '时间', account: '账号', page: '页面', message: '错误信息', userAgent: '浏览器标识', ip: 'IP' },
    filter: { account: '账号', page: '页面', time: '时间' },
    showStack: '查看堆栈',
    hideStack: '收起堆栈',
    noStack: '无堆栈信息',
  },
  'zh-TW': {
    column: { at: '時間', account: '帳號', page: '頁面', message: '錯誤訊息', userAgent: '瀏覽器標識', ip: 'IP' },
    filter: { account: '帳號', page: '頁面', time: '時間' },
    showStack: '檢視堆疊',
    hideStack: '收合堆疊',
    noStack: '無堆疊資訊',
  },
  'en-US': {
    column: {
      at: 'Time',
      account: 'Account',
      page: 'Page',
      message: 'Message',
      userAgent: 'User agent',
      ip: 'IP',
    },
    filter: { account: 'Account', page: 'Page', time: 'Time' },
    showStack: 'Show stack',
    hideStack: 'Hide stack',
    noStack: 'No stack trace',
  },
} satisfies Locales;
