import type { Locales } from '../../i18n/types';

/** System management › name blacklist: payer and payee names refused at create. */
export const nameBlacklistLocales = {
  'zh-CN': {
    intro:
      '名单中的付款人姓名在代收下单时被拒绝（2016），收款人姓名在代付下单时被拒绝（2017）；不区分大小写和多余空格。',
    kind: { payer: '付款人（代收）', payee: '收款人（代付）', both: '付款人和收款人' },
    add: '添加姓名',
    addTitle: '添加黑名单姓名',
    name: '姓名',
    nameRequired: '请输入姓名',
    kindLabel: '适用于',
    remark: '备注',
    added: '已添加',
    column: { name: '姓名', kind: '适用于', remark: '备注', createdAt: '添加时间', createdBy: '添加人' },
    filter: { name: '姓名', kind: '适用于' },
    delete: '删除',
    deleted: '已删除 {{name}}',
    confirmDelete: '确定把 {{name}} 移出黑名单吗？',
  },
  'zh-TW': {
    intro:
      '名單中的付款人姓名在代收下單時被拒絕（2016），收款人姓名在代付下單時被拒絕（2017）；不區分大小寫和多餘空格。',
    kind: { payer: '付款人（代收）', payee: '收款人（代付）', both: '付款人和收款人' },
    add: '新增姓名',
    addTitle: '新增黑名單姓名',
    name: '姓名',
    nameRequired: '請輸入姓名',
    kindLabel: '適用於',
    remark: '備註',
    added: '已新增',
    column: { name: '姓名', kind: '適用於', remark: '備註', createdAt: '新增時間', createdBy: '新增人' },
    filter: { name: '姓名', kind: '適用於' },
    delete: '刪除',
    deleted: '已刪除 {{name}}',
    confirmDelete: '確定把 {{name}} 移出黑名單嗎？',
  },
  'en-US': {
    intro:
      'Payer names on the list are refused at collection order create (2016), payee names at payout create (2017); case and extra spaces do not matter.',
    kind: { payer: 'Payer (collections)', payee: 'Payee (payouts)', both: 'Payer and payee' },
    add: 'Add name',
    addTitle: 'Add a name to the blacklist',
    name: 'Name',
    nameRequired: 'Enter a name',
    kindLabel: 'Applies to',
    remark: 'Remark',
    added: 'Added',
    column: { name: 'Name', kind: 'Applies to', remark: 'Remark', createdAt: 'Added at', createdBy: 'Added by' },
    filter: { name: 'Name', kind: 'Applies to' },
    delete: 'Delete',
    deleted: '{{name}} deleted',
    confirmDelete: 'Take {{name}} off the blacklist?',
  },
} satisfies Locales;
