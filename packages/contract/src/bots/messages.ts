import type { LocalTexts, TextLocale } from '../common/server-texts.js';
import type { TRANSFER_TYPES } from '../funds/endpoints.js';

/**
 * What the Telegram bots say (issue 21 item 5), in each group's language. Texts use `{{name}}`
 * variables the server fills: money is already formatted in major units (two decimals), times in
 * the platform's time zone as 'YYYY-MM-DD HH:mm:ss'.
 */
export const BOT_MESSAGE_KEYS = ['fundRecord', 'reminder'] as const;
export type BotMessageKey = (typeof BOT_MESSAGE_KEYS)[number];

/** The variables each message fills. */
export const BOT_MESSAGE_VARIABLES: Readonly<Record<BotMessageKey, readonly string[]>> = {
  fundRecord: ['party', 'type', 'amount', 'balance', 'orderCode', 'time'],
  reminder: ['lockedOrders', 'payoutsToClaim', 'payoutsForStaff', 'failedCallbacks', 'time'],
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

/** A bot message in a language, filled. */
export function botMessage(
  key: BotMessageKey,
  language: TextLocale,
  values: Readonly<Record<string, string | number | null | undefined>>,
): string {
  return fillBotText(BOT_MESSAGE_TEXTS[key][language], values);
}
