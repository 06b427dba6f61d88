import { NOTE_TEMPLATES, type NoteKey } from '../common/notes.js';
import type { LocalTexts, TextLocale } from '../common/server-texts.js';
import type { TRANSFER_TYPES } from '../funds/endpoints.js';

/**
 * What the Telegram bots say (issue 21 item 5), in each group's language. Texts use `{{name}}`
 * variables the server fills: money is already formatted in major units (two decimals), times in
 * the platform's time zone as 'YYYY-MM-DD HH:mm:ss'.
 */
export const BOT_MESSAGE_KEYS = [
  'fundRecord',
  'reminder',
  'balance',
  'order',
  'payout',
  'orderNotFound',
  'noParty',
  'help',
] as const;
export type BotMessageKey = (typeof BOT_MESSAGE_KEYS)[number];

/** The variables each message fills. */
export const BOT_MESSAGE_VARIABLES: Readonly<Record<BotMessageKey, readonly string[]>> = {
  fundRecord: ['party', 'type', 'amount', 'balance', 'orderCode', 'time'],
  reminder: ['lockedOrders', 'payoutsToClaim', 'payoutsForStaff', 'failedCallbacks', 'time'],
  balance: ['party', 'available', 'frozen', 'time'],
  order: ['orderCode', 'merchantOrderNo', 'amount', 'state', 'createdAt', 'paidAt'],
  payout: ['orderCode', 'merchantOrderNo', 'amount', 'state', 'createdAt'],
  orderNotFound: ['orderCode'],
  noParty: [],
  help: [],
};

export const BOT_MESSAGE_TEXTS: Readonly<Record<BotMessageKey, LocalTexts>> = {
  fundRecord: {
    'zh-CN':
      '【资金变动】{{party}}\n类型：{{type}}\n金额：{{amount}}\n余额：{{balance}}\n订单：{{orderCode}}\n时间：{{time}}',
    'zh-TW':
      '【資金變動】{{party}}\n類型：{{type}}\n金額：{{amount}}\n餘額：{{balance}}\n訂單：{{orderCode}}\n時間：{{time}}',
    'en-US':
      '[Balance change] {{party}}\nType: {{type}}\nAmount: {{amount}}\nBalance: {{balance}}\nOrder: {{orderCode}}\nTime: {{time}}',
  },
  reminder: {
    'zh-CN':
      '【待办提醒】{{time}}\n待审核订单（已锁定）：{{lockedOrders}}\n待认领代付：{{payoutsToClaim}}\n待员工处理代付：{{payoutsForStaff}}\n回调失败：{{failedCallbacks}}',
    'zh-TW':
      '【待辦提醒】{{time}}\n待審核訂單（已鎖定）：{{lockedOrders}}\n待認領代付：{{payoutsToClaim}}\n待員工處理代付：{{payoutsForStaff}}\n回調失敗：{{failedCallbacks}}',
    'en-US':
      '[Waiting work] {{time}}\nOrders to review (locked): {{lockedOrders}}\nPayouts waiting for a claim: {{payoutsToClaim}}\nPayouts waiting for staff: {{payoutsForStaff}}\nFailed callbacks: {{failedCallbacks}}',
  },
  balance: {
    'zh-CN': '【余额】{{party}}\n可用余额：{{available}}\n冻结余额：{{frozen}}\n时间：{{time}}',
    'zh-TW': '【餘額】{{party}}\n可用餘額：{{available}}\n凍結餘額：{{frozen}}\n時間：{{time}}',
    'en-US': '[Balance] {{party}}\nAvailable: {{available}}\nFrozen: {{frozen}}\nTime: {{time}}',
  },
  order: {
    'zh-CN':
      '【代收订单】{{orderCode}}\n商户订单号：{{merchantOrderNo}}\n金额：{{amount}}\n状态：{{state}}\n创建时间：{{createdAt}}\n支付时间：{{paidAt}}',
    'zh-TW':
      '【代收訂單】{{orderCode}}\n商戶訂單號：{{merchantOrderNo}}\n金額：{{amount}}\n狀態：{{state}}\n建立時間：{{createdAt}}\n付款時間：{{paidAt}}',
    'en-US':
      '[Collection order] {{orderCode}}\nMerchant order no: {{merchantOrderNo}}\nAmount: {{amount}}\nState: {{state}}\nCreated: {{createdAt}}\nPaid: {{paidAt}}',
  },
  payout: {
    'zh-CN':
      '【代付订单】{{orderCode}}\n商户订单号：{{merchantOrderNo}}\n金额：{{amount}}\n状态：{{state}}\n创建时间：{{createdAt}}',
    'zh-TW':
      '【代付訂單】{{orderCode}}\n商戶訂單號：{{merchantOrderNo}}\n金額：{{amount}}\n狀態：{{state}}\n建立時間：{{createdAt}}',
    'en-US':
      '[Payout] {{orderCode}}\nMerchant order no: {{merchantOrderNo}}\nAmount: {{amount}}\nState: {{state}}\nCreated: {{createdAt}}',
  },
  orderNotFound: {
    'zh-CN': '找不到订单 {{orderCode}}',
    'zh-TW': '找不到訂單 {{orderCode}}',
    'en-US': 'No order {{orderCode}} found',
  },
  noParty: {
    'zh-CN': '本群组没有关联商户或码商，无法查询余额',
    'zh-TW': '本群組沒有關聯商戶或碼商，無法查詢餘額',
    'en-US': 'This group is not linked to a merchant or supplier: there is no balance to show',
  },
  help: {
    'zh-CN': '可用命令：/balance 查询余额；/order <订单号> 查询订单状态',
    'zh-TW': '可用指令：/balance 查詢餘額；/order <訂單號> 查詢訂單狀態',
    'en-US': "Commands: /balance for the balance; /order <order code> for an order's state",
  },
};

/** The transfer bot page's test message (in the group's language). */
export const TRANSFER_BOT_TEST_TEXTS: LocalTexts = {
  'zh-CN': '【测试】PayDesk：本群组的资金变动通知将由此机器人发送。',
  'zh-TW': '【測試】PayDesk：本群組的資金變動通知將由此機器人發送。',
  'en-US': "[Test] PayDesk: this group's balance change notices will be posted by this bot.",
};

/** Collection order states (ORDER_STATE codes), as the console names them. */
export const BOT_ORDER_STATE_TEXTS: Readonly<Record<number, LocalTexts>> = {
  0: { 'zh-CN': '已创建', 'zh-TW': '已建立', 'en-US': 'Created' },
  1: { 'zh-CN': '已分配', 'zh-TW': '已分配', 'en-US': 'Allocated' },
  2: { 'zh-CN': '已超时', 'zh-TW': '已逾時', 'en-US': 'Timed out' },
  3: { 'zh-CN': '回调成功', 'zh-TW': '回呼成功', 'en-US': 'Callback succeeded' },
  4: { 'zh-CN': '回调失败', 'zh-TW': '回呼失敗', 'en-US': 'Callback failed' },
  5: { 'zh-CN': '分配失败', 'zh-TW': '分配失敗', 'en-US': 'Allocation failed' },
  6: { 'zh-CN': '已支付，通知中', 'zh-TW': '已付款，通知中', 'en-US': 'Paid, notifying' },
  7: { 'zh-CN': '已驳回', 'zh-TW': '已駁回', 'en-US': 'Rejected' },
  8: { 'zh-CN': '已冲正', 'zh-TW': '已沖正', 'en-US': 'Reversed' },
  9: { 'zh-CN': '已支付，无回调', 'zh-TW': '已付款，無回呼', 'en-US': 'Paid, no callback' },
};

/** Payout states (PAYOUT_STATE codes), as the console names them. */
export const BOT_PAYOUT_STATE_TEXTS: Readonly<Record<number, LocalTexts>> = {
  0: { 'zh-CN': '待领取', 'zh-TW': '待領取', 'en-US': 'Awaiting' },
  1: { 'zh-CN': '准备中', 'zh-TW': '準備中', 'en-US': 'Preparing' },
  2: { 'zh-CN': '处理中', 'zh-TW': '處理中', 'en-US': 'In progress' },
  3: { 'zh-CN': '已完成', 'zh-TW': '已完成', 'en-US': 'Completed' },
  4: { 'zh-CN': '已取消', 'zh-TW': '已取消', 'en-US': 'Cancelled' },
  5: { 'zh-CN': '驳回中', 'zh-TW': '駁回中', 'en-US': 'Rejecting' },
  6: { 'zh-CN': '已驳回', 'zh-TW': '已駁回', 'en-US': 'Rejected' },
  7: { 'zh-CN': '待确认', 'zh-TW': '待確認', 'en-US': 'Pending confirmation' },
  8: { 'zh-CN': '已提交', 'zh-TW': '已提交', 'en-US': 'Submitted' },
  9: { 'zh-CN': '处理异常', 'zh-TW': '處理異常', 'en-US': 'Processing exception' },
};

/** The transfer types' names in the bots' messages (as the console's fund records name them). */
export const BOT_TRANSFER_TYPE_TEXTS: Readonly<Record<(typeof TRANSFER_TYPES)[number], LocalTexts>> = {
  orderHold: { 'zh-CN': '订单冻结', 'zh-TW': '訂單凍結', 'en-US': 'Order hold' },
  orderRelease: { 'zh-CN': '订单解冻', 'zh-TW': '訂單解凍', 'en-US': 'Order hold released' },
  orderPaid: { 'zh-CN': '订单支付', 'zh-TW': '訂單付款', 'en-US': 'Order paid' },
  payoutHold: { 'zh-CN': '代付冻结', 'zh-TW': '代付凍結', 'en-US': 'Payout hold' },
  payoutRelease: { 'zh-CN': '代付解冻', 'zh-TW': '代付解凍', 'en-US': 'Payout hold released' },
  payoutPaid: { 'zh-CN': '代付完成', 'zh-TW': '代付完成', 'en-US': 'Payout completed' },
  manualAdjustment: { 'zh-CN': '人工调账', 'zh-TW': '人工調帳', 'en-US': 'Manual adjustment' },
  clearBalance: { 'zh-CN': '余额清零', 'zh-TW': '餘額清零', 'en-US': 'Balance cleared' },
  deposit: { 'zh-CN': '押金充值', 'zh-TW': '押金儲值', 'en-US': 'Deposit' },
  withdrawal: { 'zh-CN': '押金提现', 'zh-TW': '押金提領', 'en-US': 'Withdrawal' },
  reversal: { 'zh-CN': '冲正', 'zh-TW': '沖正', 'en-US': 'Reversal' },
};

/** The bucket of a party's account a balance change touched. */
export const BOT_BUCKET_TEXTS: Readonly<Record<'available' | 'frozen', LocalTexts>> = {
  available: { 'zh-CN': '可用余额', 'zh-TW': '可用餘額', 'en-US': 'available' },
  frozen: { 'zh-CN': '冻结余额', 'zh-TW': '凍結餘額', 'en-US': 'frozen' },
};

/** Example values of every variable: the template page's preview. */
export const BOT_MESSAGE_SAMPLES: Readonly<Record<string, string>> = {
  party: 'Merchant One',
  type: 'Order paid (available)',
  amount: '+1000.00',
  balance: '25400.50',
  available: '25400.50',
  frozen: '1200.00',
  orderCode: 'C2611271030000001',
  merchantOrderNo: 'M20261127001',
  state: 'Paid, no callback',
  createdAt: '2026-11-27 10:30:00',
  paidAt: '2026-11-27 10:31:12',
  time: '2026-11-27 10:31:15',
  lockedOrders: '2',
  payoutsToClaim: '5',
  payoutsForStaff: '1',
  failedCallbacks: '3',
};

/** The `{{name}}` variables a text uses, in order, each once. */
export function botTextVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? ''))];
}

/** The variables a text uses that its message does not fill (a template with one is refused). */
export function unknownBotVariables(key: BotMessageKey, text: string): string[] {
  return botTextVariables(text).filter((v) => !BOT_MESSAGE_VARIABLES[key].includes(v));
}

/** Fills a text's `{{name}}` variables; a variable without a value reads '-'. */
export function fillBotText(
  text: string,
  values: Readonly<Record<string, string | number | null | undefined>>,
): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
    const v = values[name];
    return v === null || v === undefined || v === '' ? '-' : String(v);
  });
}

/** A bot message in a language, filled: `text` is the template in use (the default when absent). */
export function botMessage(
  key: BotMessageKey,
  language: TextLocale,
  values: Readonly<Record<string, string | number | null | undefined>>,
  text: string = BOT_MESSAGE_TEXTS[key][language],
): string {
  return fillBotText(text, values);
}

// ---- In-app messages (the inbox's system messages), on the same templates page ----

/** Which messages a template is of: the Telegram bots', or the in-app inbox's system messages. */
export const MESSAGE_TEMPLATE_CHANNELS = ['bot', 'inApp'] as const;
export type MessageTemplateChannel = (typeof MESSAGE_TEMPLATE_CHANNELS)[number];

/** The system messages' titles and contents (NOTE_TEMPLATES keys) whose texts staff may edit. */
export const IN_APP_MESSAGE_KEYS = [
  'proposalApprovedTitle',
  'proposalApproved',
  'proposalRejectedTitle',
  'proposalRejected',
  'systemCheckTitle',
  'systemCheck',
] as const satisfies readonly NoteKey[];
export type InAppMessageKey = (typeof IN_APP_MESSAGE_KEYS)[number];

/** The default texts in three languages (English is NOTE_TEMPLATES', so the two cannot drift apart). */
export const IN_APP_MESSAGE_TEXTS: Readonly<Record<InAppMessageKey, LocalTexts>> = {
  proposalApprovedTitle: {
    'zh-CN': '余额操作 #{{id}} 已通过',
    'zh-TW': '餘額操作 #{{id}} 已通過',
    'en-US': NOTE_TEMPLATES.proposalApprovedTitle,
  },
  proposalApproved: {
    'zh-CN':
      '您提交的余额操作 #{{id}}（{{proposalKind}}，{{partyKind}} {{party}}，{{amount}}）已由 {{account}} 审核通过，记入流水 #{{transferId}}。备注：{{note}}',
    'zh-TW':
      '您提交的餘額操作 #{{id}}（{{proposalKind}}，{{partyKind}} {{party}}，{{amount}}）已由 {{account}} 審核通過，記入流水 #{{transferId}}。備註：{{note}}',
    'en-US': NOTE_TEMPLATES.proposalApproved,
  },
  proposalRejectedTitle: {
    'zh-CN': '余额操作 #{{id}} 已拒绝',
    'zh-TW': '餘額操作 #{{id}} 已拒絕',
    'en-US': NOTE_TEMPLATES.proposalRejectedTitle,
  },
  proposalRejected: {
    'zh-CN':
      '您提交的余额操作 #{{id}}（{{proposalKind}}，{{partyKind}} {{party}}）已被 {{account}} 拒绝，余额未变动。原因：{{reason}}',
    'zh-TW':
      '您提交的餘額操作 #{{id}}（{{proposalKind}}，{{partyKind}} {{party}}）已被 {{account}} 拒絕，餘額未異動。原因：{{reason}}',
    'en-US': NOTE_TEMPLATES.proposalRejected,
  },
  systemCheckTitle: {
    'zh-CN': '系统自检：发现 {{count}} 处差异',
    'zh-TW': '系統自檢：發現 {{count}} 處差異',
    'en-US': NOTE_TEMPLATES.systemCheckTitle,
  },
  systemCheck: {
    'zh-CN':
      '定期系统自检发现 {{ledgerCount}} 处账本问题、{{counterCount}} 个资源池计数与订单不符。账本：{{ledger}}。计数（记录的笔数 / 金额 -> 按订单应为）：{{counters}}。计数可在 /system/maintenance 修复资源计数；账本问题由账本检查（GET /v1.0/admin/ledgerCheck）列出。',
    'zh-TW':
      '定期系統自檢發現 {{ledgerCount}} 處帳本問題、{{counterCount}} 個資源池計數與訂單不符。帳本：{{ledger}}。計數（記錄的筆數 / 金額 -> 依訂單應為）：{{counters}}。計數可在 /system/maintenance 修復資源計數；帳本問題由帳本檢查（GET /v1.0/admin/ledgerCheck）列出。',
    'en-US': NOTE_TEMPLATES.systemCheck,
  },
};

/** The variables each in-app message fills: those of its English default. */
export const IN_APP_MESSAGE_VARIABLES: Readonly<Record<InAppMessageKey, readonly string[]>> = Object.fromEntries(
  IN_APP_MESSAGE_KEYS.map((key) => [key, botTextVariables(NOTE_TEMPLATES[key])]),
) as unknown as Record<InAppMessageKey, readonly string[]>;

/** Codes among an in-app message's values, by their names in each language (as the console names them). */
export const IN_APP_VALUE_TEXTS: Readonly<Record<string, Readonly<Record<string, LocalTexts>>>> = {
  proposalKind: {
    adjust: { 'zh-CN': '调整余额', 'zh-TW': '調整餘額', 'en-US': 'balance adjustment' },
    clear: { 'zh-CN': '清零余额', 'zh-TW': '清零餘額', 'en-US': 'balance clearing' },
    deposit: { 'zh-CN': '押金充值', 'zh-TW': '押金儲值', 'en-US': 'deposit' },
    withdraw: { 'zh-CN': '押金提现', 'zh-TW': '押金提領', 'en-US': 'withdrawal' },
  },
  partyKind: {
    merchant: { 'zh-CN': '商户', 'zh-TW': '商戶', 'en-US': 'merchant' },
    supplier: { 'zh-CN': '码商', 'zh-TW': '碼商', 'en-US': 'supplier' },
  },
};

/** Example values of the in-app messages' variables: the template page's preview. */
export const IN_APP_MESSAGE_SAMPLES: Readonly<Record<string, string>> = {
  id: '42',
  proposalKind: 'balance adjustment',
  partyKind: 'merchant',
  party: 'Merchant One',
  amount: '1000.00',
  account: 'admin',
  transferId: '1234',
  note: 'monthly fee',
  reason: 'wrong amount',
  count: '2',
  ledgerCount: '1',
  counterCount: '1',
  ledger: 'merchant:3:available: balance 150000, entries sum to 100000, last entry leaves 100000',
  counters: 'resource_daily #12 UPI one 2026-11-27: 3 / 300.00 -> 2 / 200.00',
};

/** Whether a key is a message of this channel. */
export const isChannelKey = (channel: MessageTemplateChannel, key: string): boolean =>
  channel === 'bot'
    ? (BOT_MESSAGE_KEYS as readonly string[]).includes(key)
    : (IN_APP_MESSAGE_KEYS as readonly string[]).includes(key);

/** A template's default text and variables, by channel and key. */
export function templateDefault(
  channel: MessageTemplateChannel,
  key: string,
): { texts: LocalTexts; variables: readonly string[] } {
  return channel === 'bot'
    ? { texts: BOT_MESSAGE_TEXTS[key as BotMessageKey], variables: BOT_MESSAGE_VARIABLES[key as BotMessageKey] }
    : {
        texts: IN_APP_MESSAGE_TEXTS[key as InAppMessageKey],
        variables: IN_APP_MESSAGE_VARIABLES[key as InAppMessageKey],
      };
}

/** An in-app message's text in a language, filled: codes among the values by their names in it. */
export function fillInAppText(text: string, language: TextLocale, values: Readonly<Record<string, string | number>>) {
  const named: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(values))
    named[name] = IN_APP_VALUE_TEXTS[name]?.[String(value)]?.[language] ?? value;
  return fillBotText(text, named);
}
