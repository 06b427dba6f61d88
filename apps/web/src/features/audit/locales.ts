import type { Locales } from '../../i18n/types';

export const auditLocales = {
  'zh-CN': {
    column: { at: '时间', account: '账号', role: '角色', action: '操作', target: '对象', change: '变更', ip: 'IP' },
    filter: { account: '账号', action: '操作', time: '时间' },
    before: '变更前',
    after: '变更后',
  },
  'zh-TW': {
    column: { at: '時間', account: '帳號', role: '角色', action: '操作', target: '對象', change: '變更', ip: 'IP' },
    filter: { account: '帳號', action: '操作', time: '時間' },
    before: '變更前',
    after: '變更後',
  },
  'en-US': {
    column: {
      at: 'Time',
      account: 'Account',
      role: 'Role',
      action: 'Action',
      target: 'Target',
      change: 'Change',
      ip: 'IP',
    },
    filter: { account: 'Account', action: 'Action', time: 'Time' },
    before: 'Before',
    after: 'After',
  },
} satisfies Locales;
