import { NOTE_TEMPLATES } from '@paydesk/contract';
import type { Locales } from '../../i18n/types';

/**
 * The server's texts (an order's timeline, ledger transfers, system messages) by template key (NOTE_TEMPLATES):
 * English is the contract's own text, so the two cannot drift apart.
 */
export const notesLocales = {
  'zh-CN': {
    viaApi: '商户 API，来自 {{ip}}',
    viaUpload: '批量上传 {{key}}，操作人 {{account}}',
    confirmedBy: '由 {{account}} 确认收款',
    supplementOffset: '冲抵补单',
    supplementUtr: '以 UTR {{utr}} 补单',
    callbacksOff: '商户已关闭回调，或没有通知地址',
    resourcesFreed: '已释放资源',
    marked: '标记 {{fromMark}} → {{toMark}}',
    markedLocked: '标记 {{fromMark}} → {{toMark}}，已锁定',
    payerUtr: '付款人提交了 UTR {{utr}}',
    callbackSucceeded: '商户已回复 SUCCESS（回调 #{{callbackId}}，第 {{attempt}} 次）',
    callbackFailed: '尝试 {{attempts}} 次后商户仍未回复 SUCCESS（回调 #{{callbackId}}）',
    callbackReplayed: '重发回调 #{{callbackId}}，新回调 #{{newCallbackId}}，发往 {{url}}',
    orderHold: '订单 {{orderCode}} 冻结',
    releaseReselected: '订单 {{orderCode}} 解冻：重新分配',
    releaseRejected: '订单 {{orderCode}} 解冻：已驳回',
    releaseFreed: '订单 {{orderCode}} 解冻：已释放资源',
    releaseReversed: '订单 {{orderCode}} 解冻：已冲正',
    releaseTimedOut: '订单 {{orderCode}} 解冻：已超时',
    orderPaid: '订单 {{orderCode}} 已支付',
    orderPaidOffset: '订单 {{orderCode}} 已支付：冲抵补单',
    orderPaidUtr: '订单 {{orderCode}} 已支付：以 UTR {{utr}} 补单',
    orderReversal: '订单 {{orderCode}} 冲正',
    proposalApprovedTitle: '余额操作 #{{id}} 已通过',
    proposalApproved:
      '您提交的余额操作 #{{id}}（{{proposalKind}}，{{partyKind}} {{party}}，{{amount}}）已由 {{account}} 审核通过，记入流水 #{{transferId}}。备注：{{note}}',
    proposalRejectedTitle: '余额操作 #{{id}} 已拒绝',
    proposalRejected:
      '您提交的余额操作 #{{id}}（{{proposalKind}}，{{partyKind}} {{party}}）已被 {{account}} 拒绝，余额未变动。原因：{{reason}}',
  },
  'zh-TW': {
    viaApi: '商戶 API，來自 {{ip}}',
    viaUpload: '批次上傳 {{key}}，操作人 {{account}}',
    confirmedBy: '由 {{account}} 確認收款',
    supplementOffset: '沖抵補單',
    supplementUtr: '以 UTR {{utr}} 補單',
    callbacksOff: '商戶已關閉回呼，或沒有通知網址',
    resourcesFreed: '已釋放資源',
    marked: '標記 {{fromMark}} → {{toMark}}',
    markedLocked: '標記 {{fromMark}} → {{toMark}}，已鎖定',
    payerUtr: '付款人提交了 UTR {{utr}}',
    callbackSucceeded: '商戶已回覆 SUCCESS（回呼 #{{callbackId}}，第 {{attempt}} 次）',
    callbackFailed: '嘗試 {{attempts}} 次後商戶仍未回覆 SUCCESS（回呼 #{{callbackId}}）',
    callbackReplayed: '重發回呼 #{{callbackId}}，新回呼 #{{newCallbackId}}，發往 {{url}}',
    orderHold: '訂單 {{orderCode}} 凍結',
    releaseReselected: '訂單 {{orderCode}} 解凍：重新分配',
    releaseRejected: '訂單 {{orderCode}} 解凍：已駁回',
    releaseFreed: '訂單 {{orderCode}} 解凍：已釋放資源',
    releaseReversed: '訂單 {{orderCode}} 解凍：已沖正',
    releaseTimedOut: '訂單 {{orderCode}} 解凍：已逾時',
    orderPaid: '訂單 {{orderCode}} 已付款',
    orderPaidOffset: '訂單 {{orderCode}} 已付款：沖抵補單',
    orderPaidUtr: '訂單 {{orderCode}} 已付款：以 UTR {{utr}} 補單',
    orderReversal: '訂單 {{orderCode}} 沖正',
    proposalApprovedTitle: '餘額操作 #{{id}} 已通過',
    proposalApproved:
      '您提交的餘額操作 #{{id}}（{{proposalKind}}，{{partyKind}} {{party}}，{{amount}}）已由 {{account}} 審核通過，記入流水 #{{transferId}}。備註：{{note}}',
    proposalRejectedTitle: '餘額操作 #{{id}} 已拒絕',
    proposalRejected:
      '您提交的餘額操作 #{{id}}（{{proposalKind}}，{{partyKind}} {{party}}）已被 {{account}} 拒絕，餘額未異動。原因：{{reason}}',
  },
  'en-US': { ...NOTE_TEMPLATES },
} satisfies Locales;
