import type { LocalTexts, ReasonTexts } from '../common/server-texts.js';
import {
  BANK_FILE_REASON_TEXTS,
  BANK_RESULT_MAX_ROWS,
  BANK_RESULT_ROW_ERROR_TEXTS,
  BANK_RESULT_ROW_ERRORS,
} from './bank-file-texts.js';

/**
 * The texts of batch payouts (spec sections 5 and 8) in three languages, apart from their endpoints so
 * the server's catalogue (REASON_TEXTS) can take the refusals without importing the endpoints.
 */

/** The most payouts a batch holds (spec section 9). */
export const PAYOUT_BATCH_MAX_ORDERS = BANK_RESULT_MAX_ROWS;

/**
 * The create form's rules (spec section 5), in three languages. The schema's messages are the English
 * ones; the console shows the reader's by the message (`payoutBatchRuleText`).
 */
export const PAYOUT_BATCH_RULE_TEXTS = {
  resourceRequired: { 'zh-CN': '请选择资源', 'zh-TW': '請選擇資源', 'en-US': 'A resource is required' },
  maxCount: {
    'zh-CN': `最大订单数不能超过 ${PAYOUT_BATCH_MAX_ORDERS}`,
    'zh-TW': `最大訂單數不能超過 ${PAYOUT_BATCH_MAX_ORDERS}`,
    'en-US': `Maximum order count is at most ${PAYOUT_BATCH_MAX_ORDERS}`,
  },
  maxCountMin: {
    'zh-CN': '最大订单数至少为 1',
    'zh-TW': '最大訂單數至少為 1',
    'en-US': 'Maximum order count is at least 1',
  },
  payoutTimeRequired: { 'zh-CN': '请选择代付时间', 'zh-TW': '請選擇代付時間', 'en-US': 'A payout time is required' },
  payoutTimeFormat: {
    'zh-CN': '代付时间格式须为 YYYY-MM-DD HH:mm:ss',
    'zh-TW': '代付時間格式須為 YYYY-MM-DD HH:mm:ss',
    'en-US': "Payout time must be formatted 'YYYY-MM-DD HH:mm:ss'",
  },
  templateRequired: { 'zh-CN': '请选择模板', 'zh-TW': '請選擇範本', 'en-US': 'A template must be chosen' },
  templateUnsupported: BANK_FILE_REASON_TEXTS.unsupportedTemplate,
  minAboveMax: {
    'zh-CN': '最小金额不能大于最大金额',
    'zh-TW': '最小金額不能大於最大金額',
    'en-US': 'Minimum amount must not exceed maximum amount',
  },
  amount: {
    'zh-CN': '金额须为正整数（最小单位）',
    'zh-TW': '金額須為正整數（最小單位）',
    'en-US': 'An amount is a positive whole number of minor units',
  },
} as const satisfies Record<string, LocalTexts>;
export type PayoutBatchRuleKey = keyof typeof PAYOUT_BATCH_RULE_TEXTS;

/** A rule's message (English, as the server answers it) in the reader's language, or undefined. */
export function payoutBatchRuleText(message: string, locale: keyof LocalTexts): string | undefined {
  const entry = Object.values(PAYOUT_BATCH_RULE_TEXTS).find((texts) => texts['en-US'] === message);
  return entry?.[locale];
}

/**
 * The console's texts of reads that failed (spec section 8: failed to get the payout order count, the
 * batch list, the order list, the resource list, the template list). The server answers these reads
 * or a catalogued error; the console shows these when one fails.
 */
export const PAYOUT_BATCH_LOAD_TEXTS = {
  payoutCount: {
    'zh-CN': '获取代付订单数量失败',
    'zh-TW': '取得代付訂單數量失敗',
    'en-US': 'Failed to get the payout order count',
  },
  batchList: { 'zh-CN': '获取批次列表失败', 'zh-TW': '取得批次列表失敗', 'en-US': 'Failed to get the batch list' },
  orderList: { 'zh-CN': '获取订单列表失败', 'zh-TW': '取得訂單列表失敗', 'en-US': 'Failed to get the order list' },
  resourceList: {
    'zh-CN': '获取资源列表失败',
    'zh-TW': '取得資源列表失敗',
    'en-US': 'Failed to get the resource list',
  },
  templateList: {
    'zh-CN': '获取模板列表失败',
    'zh-TW': '取得範本列表失敗',
    'en-US': 'Failed to get the template list',
  },
} as const satisfies Record<string, LocalTexts>;

/**
 * Refusals of batch actions (`data.reason`), registered in REASON_TEXTS: spec section 8's batch export,
 * download, confirm and exception-handling failures, and the create's refusals that need the database.
 * A state refusal of the result upload answers 'uploadFailed'; an approval of one's own proposal
 * 'selfApproval' (both in the catalogue already).
 */
export const PAYOUT_BATCH_REASON_TEXTS = {
  batchExportFailed: { 'zh-CN': '批次导出失败', 'zh-TW': '批次匯出失敗', 'en-US': 'Batch export failed' },
  batchDownloadFailed: { 'zh-CN': '批次文件下载失败', 'zh-TW': '批次檔案下載失敗', 'en-US': 'Batch download failed' },
  batchConfirmFailed: { 'zh-CN': '批次确认失败', 'zh-TW': '批次確認失敗', 'en-US': 'Batch confirmation failed' },
  batchAbnormalFailed: { 'zh-CN': '异常处理失败', 'zh-TW': '異常處理失敗', 'en-US': 'Exception handling failed' },
  batchResourceUnusable: {
    'zh-CN': '该资源不能用于批量代付：须为已启用的银行代付账户，且其码商已启用',
    'zh-TW': '該資源不能用於批次代付：須為已啟用的銀行代付帳戶，且其碼商已啟用',
    'en-US': 'This resource cannot pay a batch: it must be an enabled bank payout account of an enabled supplier',
  },
  batchNoPayouts: {
    'zh-CN': '没有符合条件的待处理代付订单',
    'zh-TW': '沒有符合條件的待處理代付訂單',
    'en-US': 'No awaiting payout matches the batch’s conditions',
  },
} as const satisfies Record<string, ReasonTexts>;

/** Why one row of a result file settled nothing: the parser's reasons and the settlement's own. */
export const PAYOUT_BATCH_ROW_ERRORS = [...BANK_RESULT_ROW_ERRORS, 'alreadySettled', 'utrUsed'] as const;
export type PayoutBatchRowError = (typeof PAYOUT_BATCH_ROW_ERRORS)[number];
export const PAYOUT_BATCH_ROW_ERROR_TEXTS: Readonly<Record<PayoutBatchRowError, LocalTexts>> = {
  ...BANK_RESULT_ROW_ERROR_TEXTS,
  alreadySettled: {
    'zh-CN': '该代付订单已处理，未再次变更',
    'zh-TW': '該代付訂單已處理，未再次變更',
    'en-US': 'The payout was settled before: nothing changed',
  },
  utrUsed: {
    'zh-CN': '该 UTR 已用于另一笔代付订单',
    'zh-TW': '該 UTR 已用於另一筆代付訂單',
    'en-US': 'This UTR already proves another payout',
  },
};
