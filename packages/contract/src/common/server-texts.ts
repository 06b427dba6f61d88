import { PICTURE_MAX_PIXELS, PICTURE_MAX_SIDE } from '../orders/picture-query.js';
import { ORDER_PROFILE_MAX_DAYS } from '../orders/profile.js';
import { ORDER_UPLOAD_MAX_BYTES, ORDER_UPLOAD_MAX_ROWS, type OrderUploadReason } from '../orders/upload.js';
import { BANK_FILE_REASON_TEXTS } from '../payouts/bank-file-texts.js';
import { PAYOUT_BATCH_REASON_TEXTS } from '../payouts/batch-texts.js';
import type { ProductRefusalReason } from '../products/endpoints.js';
import type { ResourceActionRefusal } from '../resources/actions.js';
import { ORDER_CLEAR_REASON_TEXTS } from '../system/order-clear-texts.js';
import type { CodeValue } from './codes.js';

/**
 * What the server answers, in the reader's language (issue 18): a text for every error code and for
 * every refusal reason (`data.reason`). The body's `msg` stays the server's English (merchants read
 * it); the console shows these texts instead: the reason's when the answer has one, else the code's.
 *
 * Texts use i18next's `{{name}}` for values the server sends in `data`; `values` says how the console
 * shows each one (money in minor units, a rate in basis points, seconds as seconds or as minutes, a
 * count as the number).
 */
export const TEXT_LOCALES = ['zh-CN', 'zh-TW', 'en-US'] as const;
export type TextLocale = (typeof TEXT_LOCALES)[number];
export type LocalTexts = Readonly<Record<TextLocale, string>>;
export type ValueKind = 'money' | 'rate' | 'seconds' | 'minutes' | 'count';
export interface ReasonTexts extends LocalTexts {
  readonly values?: Readonly<Record<string, ValueKind>>;
}

export const CODE_TEXTS: Readonly<Record<CodeValue, LocalTexts>> = {
  200: { 'zh-CN': '成功', 'zh-TW': '成功', 'en-US': 'success' },
  400: { 'zh-CN': '输入有误', 'zh-TW': '輸入有誤', 'en-US': 'invalid input' },
  403: { 'zh-CN': '您的角色无权执行此操作', 'zh-TW': '您的角色無權執行此操作', 'en-US': 'your role may not do this' },
  404: { 'zh-CN': '记录不存在或已删除', 'zh-TW': '記錄不存在或已刪除', 'en-US': 'not found' },
  409: {
    'zh-CN': '冲突：记录已存在，或已被他人修改',
    'zh-TW': '衝突：記錄已存在，或已被他人修改',
    'en-US': 'conflict: it already exists or it changed meanwhile',
  },
  422: { 'zh-CN': '业务规则不允许此操作', 'zh-TW': '業務規則不允許此操作', 'en-US': 'refused by a business rule' },
  429: {
    'zh-CN': '尝试过于频繁，请稍后再试',
    'zh-TW': '嘗試過於頻繁，請稍後再試',
    'en-US': 'too many attempts: try again later',
  },
  500: { 'zh-CN': '服务器内部错误，请稍后再试', 'zh-TW': '伺服器內部錯誤，請稍後再試', 'en-US': 'internal error' },
  1001: { 'zh-CN': '账号或密码错误', 'zh-TW': '帳號或密碼錯誤', 'en-US': 'account or password is incorrect' },
  1002: {
    'zh-CN': '验证码错误或已使用过，请等待下一个验证码',
    'zh-TW': '驗證碼錯誤或已使用過，請等待下一個驗證碼',
    'en-US': 'the code is wrong or already used: wait for the next one',
  },
  1003: {
    'zh-CN': '登录已过期，请重新登录',
    'zh-TW': '登入已過期，請重新登入',
    'en-US': 'session expired, please sign in again',
  },
  1004: {
    'zh-CN': '失败次数过多，已暂时锁定，请稍后再试',
    'zh-TW': '失敗次數過多，已暫時鎖定，請稍後再試',
    'en-US': 'account locked after repeated failures, try again later',
  },
  1024: { 'zh-CN': '请输入二级密码', 'zh-TW': '請輸入二級密碼', 'en-US': 'second-level password required' },
  1025: {
    'zh-CN': '二级密码已过期，请重新输入',
    'zh-TW': '二級密碼已過期，請重新輸入',
    'en-US': 'second-level password expired, enter it again',
  },
  2001: { 'zh-CN': '签名不匹配', 'zh-TW': '簽名不符', 'en-US': 'signature does not match' },
  2002: { 'zh-CN': '商户不可用或已停用', 'zh-TW': '商戶不可用或已停用', 'en-US': 'merchant unknown or disabled' },
  2003: {
    'zh-CN': '调用方 IP 不在白名单中',
    'zh-TW': '呼叫方 IP 不在白名單中',
    'en-US': 'caller IP address is not whitelisted',
  },
  2004: {
    'zh-CN': '该商户不能使用此产品',
    'zh-TW': '此商戶不能使用此產品',
    'en-US': 'product unavailable for this merchant',
  },
  2005: {
    'zh-CN': '商户订单号（mchOrderNo）已用于内容不同的订单',
    'zh-TW': '商戶訂單號（mchOrderNo）已用於內容不同的訂單',
    'en-US': 'mchOrderNo already used with different content',
  },
  2006: { 'zh-CN': '金额超出允许范围', 'zh-TW': '金額超出允許範圍', 'en-US': 'amount outside the allowed range' },
  2007: { 'zh-CN': '已达到每日限额', 'zh-TW': '已達到每日限額', 'en-US': 'daily limit reached' },
  2008: { 'zh-CN': '分配失败', 'zh-TW': '分配失敗', 'en-US': 'allocation failed' },
  2009: {
    'zh-CN': '金额换算为该产品的单位时会丢失精度',
    'zh-TW': '金額換算為此產品的單位時會遺失精度',
    'en-US': 'amount would lose precision in this product’s units',
  },
  2010: {
    'zh-CN': '此金额起须提供付款人姓名（userName，KYC）',
    'zh-TW': '此金額起須提供付款人姓名（userName，KYC）',
    'en-US': 'payer name (userName) required from this amount (KYC)',
  },
  2011: { 'zh-CN': '平台暂停接单', 'zh-TW': '平台暫停接單', 'en-US': 'the platform is not taking orders now' },
  2012: { 'zh-CN': '订单不存在', 'zh-TW': '訂單不存在', 'en-US': 'no such order' },
  2013: {
    'zh-CN': '余额不足以支付代付金额及手续费',
    'zh-TW': '餘額不足以支付代付金額及手續費',
    'en-US': 'balance not enough for the payout amount plus its fee',
  },
  2014: {
    'zh-CN': '须提供付款人姓名（userName）：只能包含字母、空格和点，最长 128 个字符',
    'zh-TW': '須提供付款人姓名（userName）：只能包含字母、空格和點，最長 128 個字元',
    'en-US': 'payer name (userName) required: letters, spaces and dots, at most 128 characters',
  },
  2015: {
    'zh-CN': '付款人的银行卡所属国家不被此通道接受',
    'zh-TW': '付款人的銀行卡所屬國家不被此通道接受',
    'en-US': 'the payer’s card is of a country this channel does not accept',
  },
  2016: {
    'zh-CN': '付款人姓名在平台黑名单中',
    'zh-TW': '付款人姓名在平台黑名單中',
    'en-US': 'the payer name is on the platform’s blacklist',
  },
  2017: {
    'zh-CN': '收款人姓名在平台黑名单中',
    'zh-TW': '收款人姓名在平台黑名單中',
    'en-US': 'the payee name is on the platform’s blacklist',
  },
};

const UPLOAD_MAX_MIB = ORDER_UPLOAD_MAX_BYTES / 1_048_576;

/**
 * Every `data.reason` the server can answer (and the upload flag's reason). A refusal thrown with a
 * reason that is not a key here does not compile (AppError takes `Reason`).
 */
export const REASON_TEXTS = {
  // ---- platform: sessions, roles, websocket, concurrent writes ----
  roleDenied: {
    'zh-CN': '您的角色无权执行此操作',
    'zh-TW': '您的角色無權執行此操作',
    'en-US': 'your role may not do this',
  },
  bindRequired: {
    'zh-CN': '请先完成身份验证器绑定',
    'zh-TW': '請先完成身分驗證器綁定',
    'en-US': 'confirm your authenticator first',
  },
  tooManyTopics: {
    'zh-CN': '一个连接订阅的主题过多',
    'zh-TW': '一個連線訂閱的主題過多',
    'en-US': 'too many topics on one connection',
  },
  concurrentChange: {
    'zh-CN': '其他人同时修改了同一数据，请重试',
    'zh-TW': '其他人同時修改了同一資料，請重試',
    'en-US': 'someone else changed it at the same moment: try again',
  },
  // ---- sign-in, second-level password, authenticator ----
  accountLocked: {
    'zh-CN': '此地址失败次数过多，请 {{retryAfterSeconds}} 分钟后再试',
    'zh-TW': '此位址失敗次數過多，請 {{retryAfterSeconds}} 分鐘後再試',
    'en-US': 'too many failed attempts from this address: try again in {{retryAfterSeconds}} min',
    values: { retryAfterSeconds: 'minutes' },
  },
  signInDelayed: {
    'zh-CN': '该账号近期失败次数过多，请 {{retryAfterSeconds}} 秒后再试',
    'zh-TW': '該帳號近期失敗次數過多，請 {{retryAfterSeconds}} 秒後再試',
    'en-US': 'too many recent failures on this account: try again in {{retryAfterSeconds}} s',
    values: { retryAfterSeconds: 'seconds' },
  },
  addressChanged: {
    'zh-CN': '您的网络地址与登录时不同，会话已结束，请重新登录',
    'zh-TW': '您的網路位址與登入時不同，工作階段已結束，請重新登入',
    'en-US': 'your network address differs from the one you signed in from: the session ended, sign in again',
  },
  payPasswordNotSet: {
    'zh-CN': '系统要求单独的二级密码：请先在个人中心设置二级密码',
    'zh-TW': '系統要求單獨的二級密碼：請先在個人中心設定二級密碼',
    'en-US': 'a separate second-level password is required: set one in your profile first',
  },
  secondLevelIncorrect: {
    'zh-CN': '二级密码错误',
    'zh-TW': '二級密碼錯誤',
    'en-US': 'second-level password is incorrect',
  },
  codeReused: {
    'zh-CN': '该验证码已使用过，请等待下一个验证码',
    'zh-TW': '此驗證碼已使用過，請等待下一個驗證碼',
    'en-US': 'authenticator code was already used, wait for the next one',
  },
  alreadyConfirmed: {
    'zh-CN': '身份验证器已确认绑定',
    'zh-TW': '身分驗證器已確認綁定',
    'en-US': 'the authenticator is already confirmed',
  },
  noPendingBinding: {
    'zh-CN': '请先开始新的绑定',
    'zh-TW': '請先開始新的綁定',
    'en-US': 'start a new binding first',
  },
  currentSession: {
    'zh-CN': '当前会话请通过退出登录结束',
    'zh-TW': '目前工作階段請透過登出結束',
    'en-US': 'end the session you are using by signing out',
  },
  // ---- profile ----
  modifyNotAllowed: {
    'zh-CN': '您的账号不允许自行修改昵称，请联系管理员',
    'zh-TW': '您的帳號不允許自行修改暱稱，請聯絡管理員',
    'en-US': 'Your account may not change its own nickname; ask an administrator',
  },
  oldPasswordIncorrect: {
    'zh-CN': '当前密码不正确',
    'zh-TW': '目前密碼不正確',
    'en-US': 'The current password is incorrect',
  },
  passwordIncorrect: {
    'zh-CN': '登录密码不正确',
    'zh-TW': '登入密碼不正確',
    'en-US': 'The sign-in password is incorrect',
  },
  samePassword: {
    'zh-CN': '新密码不能与当前密码相同',
    'zh-TW': '新密碼不能與目前密碼相同',
    'en-US': 'The new password must differ from the current one',
  },
  payPasswordSameAsSignIn: {
    'zh-CN': '二级密码不能与登录密码相同',
    'zh-TW': '二級密碼不能與登入密碼相同',
    'en-US': 'The second-level password must differ from the sign-in password',
  },
  passwordChanged: {
    'zh-CN': '密码已在别处被修改，请刷新后重试',
    'zh-TW': '密碼已在別處被修改，請重新整理後重試',
    'en-US': 'The password was changed elsewhere meanwhile; reload and try again',
  },
  // ---- accounts, merchants, suppliers ----
  accountExists: { 'zh-CN': '账号已存在', 'zh-TW': '帳號已存在', 'en-US': 'the account already exists' },
  ownRole: { 'zh-CN': '不能修改自己的角色', 'zh-TW': '不能修改自己的角色', 'en-US': 'you cannot change your own role' },
  ownAccount: {
    'zh-CN': '不能删除自己的账号',
    'zh-TW': '不能刪除自己的帳號',
    'en-US': 'you cannot delete your own account',
  },
  noSignInLock: {
    'zh-CN': '该账号没有登录锁定或失败记录可清除',
    'zh-TW': '該帳號沒有登入鎖定或失敗記錄可清除',
    'en-US': 'the account has no sign-in lock or failures to clear',
  },
  autoCreateOff: {
    'zh-CN': '系统设置已关闭自动创建账号，请关联已有账号',
    'zh-TW': '系統設定已關閉自動建立帳號，請關聯既有帳號',
    'en-US': 'Creating a new account here is switched off in the system settings: link an existing account',
  },
  accountUnavailable: {
    'zh-CN': '该账号不是未关联的商户账号',
    'zh-TW': '該帳號不是未關聯的商戶帳號',
    'en-US': 'That account is not an unlinked merchant account',
  },
  accountLinked: {
    'zh-CN': '该账号已关联商户',
    'zh-TW': '該帳號已關聯商戶',
    'en-US': 'That account is already linked to a merchant',
  },
  secretUnreadable: {
    'zh-CN': '无法用当前服务器密钥解开该密钥，请重置密钥',
    'zh-TW': '無法用目前伺服器密鑰解開該密鑰，請重設密鑰',
    'en-US': 'The secret cannot be opened with this server’s key: rotate it',
  },
  invalidIp: {
    'zh-CN': '白名单的每一项须为 IPv4/IPv6 地址或 CIDR 网段',
    'zh-TW': '白名單的每一項須為 IPv4/IPv6 地址或 CIDR 網段',
    'en-US': 'Each whitelist entry must be an IPv4 or IPv6 address or a CIDR range',
  },
  ipTooWide: {
    'zh-CN': '白名单网段过大：IPv4 最大 /16，IPv6 最大 /32；0.0.0.0/0、::/0 这类网段几乎允许任何地址调用 API',
    'zh-TW': '白名單網段過大：IPv4 最大 /16，IPv6 最大 /32；0.0.0.0/0、::/0 這類網段幾乎允許任何地址呼叫 API',
    'en-US':
      'Whitelist range too wide: at most a /16 of IPv4 or a /32 of IPv6; ranges like 0.0.0.0/0 and ::/0 let almost any address call the API',
  },
  staffIpNotAllowed: {
    'zh-CN': '员工账号只能从 IP 白名单中的地址登录，当前地址不在名单中',
    'zh-TW': '員工帳號只能從 IP 白名單中的地址登入，目前地址不在名單中',
    'en-US': 'Staff accounts sign in only from the IP whitelist, and this address is not on it',
  },
  ipWhitelistLockout: {
    'zh-CN': '这样会把您当前的地址挡在登录之外：请先把当前地址加入名单',
    'zh-TW': '這樣會把您目前的地址擋在登入之外：請先把目前地址加入名單',
    'en-US': 'That would shut your own address out of sign-in: add your current address to the list first',
  },
  accountNotUsable: {
    'zh-CN': '该账号不是未关联的码商账号',
    'zh-TW': '該帳號不是未關聯的碼商帳號',
    'en-US': 'That account is not an unlinked supplier account',
  },
  agentCannotHaveAgents: {
    'zh-CN': '代理不能再创建自己的代理',
    'zh-TW': '代理不能再建立自己的代理',
    'en-US': 'An agent cannot have agents of its own',
  },
  notASupplier: {
    'zh-CN': '您的账号还没有码商档案，请联系管理员',
    'zh-TW': '您的帳號還沒有碼商檔案，請聯絡管理員',
    'en-US': 'Your account has no supplier record yet: ask an administrator',
  },
  productNotAvailable: {
    'zh-CN': '您没有该产品的佣金，代理也不能设置',
    'zh-TW': '您沒有該產品的佣金，代理也不能設定',
    'en-US': 'You have no commission on this product, so your agent cannot have one',
  },
  // ---- products ----
  notAParty: {
    'zh-CN': '该账号不是有效的商户或码商账号',
    'zh-TW': '此帳號不是有效的商戶或碼商帳號',
    'en-US': 'This account is not a live merchant or supplier account',
  },
  fieldNotForRole: {
    'zh-CN': '手续费只适用于商户，佣金只适用于码商',
    'zh-TW': '手續費只適用於商戶，佣金只適用於碼商',
    'en-US': 'Fees apply to merchants only, commission to suppliers only',
  },
  minAboveMax: {
    'zh-CN': '单笔最小金额不能大于最大金额',
    'zh-TW': '單筆最小金額不能大於最大金額',
    'en-US': 'The min amount may not exceed the max amount',
  },
  outsideProductLimits: {
    'zh-CN': '金额限制必须在产品限额之内（{{min}} 至 {{max}}）',
    'zh-TW': '金額限制必須在產品限額之內（{{min}} 至 {{max}}）',
    'en-US': "Limits must lie within the product's ({{min}} to {{max}})",
    values: { min: 'money', max: 'money' },
  },
  commissionAboveParent: {
    'zh-CN': '代理的佣金率不能高于其上级码商（最高 {{max}}）',
    'zh-TW': '代理的佣金率不能高於其上級碼商（最高 {{max}}）',
    'en-US': "An agent's commission may not exceed its parent's (at most {{max}})",
    values: { max: 'rate' },
  },
  commissionBelowAgent: {
    'zh-CN': '码商的佣金率不能低于其代理（{{min}}）',
    'zh-TW': '碼商的佣金率不能低於其代理（{{min}}）',
    'en-US': "A supplier's commission may not go below one of its agents' ({{min}})",
    values: { min: 'rate' },
  },
  // ---- balances and the ledger ----
  clearDisabled: {
    'zh-CN': '清零商户余额功能未开启（CanClearMerchantBalance）',
    'zh-TW': '清零商戶餘額功能未開啟（CanClearMerchantBalance）',
    'en-US': 'Clearing merchant balances is switched off (CanClearMerchantBalance)',
  },
  notPending: {
    'zh-CN': '该操作已不是待审核状态',
    'zh-TW': '該操作已不是待審核狀態',
    'en-US': 'The proposal is no longer pending',
  },
  selfApproval: {
    'zh-CN': '需要由另一位员工审核，不能审核自己提交的操作',
    'zh-TW': '需要由另一位員工審核，不能審核自己提交的操作',
    'en-US': 'A proposal must be approved by another staff account',
  },
  nothingToClear: {
    'zh-CN': '该商户可用余额已为 0，无需清零',
    'zh-TW': '該商戶可用餘額已為 0，無需清零',
    'en-US': 'The merchant’s available balance is already 0',
  },
  notProposer: {
    'zh-CN': '只有提交人可以撤回',
    'zh-TW': '只有提交人可以撤回',
    'en-US': 'Only the proposer may cancel it',
  },
  insufficientBalance: { 'zh-CN': '余额不足', 'zh-TW': '餘額不足', 'en-US': 'Insufficient balance' },
  balanceLimit: { 'zh-CN': '超出余额上限', 'zh-TW': '超出餘額上限', 'en-US': 'balance limit exceeded' },
  idempotencyConflict: {
    'zh-CN': '该幂等键已用于另一笔不同的操作',
    'zh-TW': '此冪等鍵已用於另一筆不同的操作',
    'en-US': 'the idempotency key was used with another input',
  },
  alreadyReversed: { 'zh-CN': '该转账已冲正', 'zh-TW': '該轉帳已沖正', 'en-US': 'the transfer is already reversed' },
  // ---- orders ----
  stateNotAllowed: {
    'zh-CN': '订单当前状态不允许此操作',
    'zh-TW': '訂單目前狀態不允許此操作',
    'en-US': 'This action is not allowed in the order’s current state',
  },
  orderLocked: {
    'zh-CN': '订单因调查被锁定，请先解锁',
    'zh-TW': '訂單因調查被鎖定，請先解鎖',
    'en-US': 'The order is locked for investigation: unlock it first',
  },
  orderChanged: {
    'zh-CN': '其他人已先处理了这个订单，请刷新后重试',
    'zh-TW': '其他人已先處理了這個訂單，請重新整理後重試',
    'en-US': 'Someone else acted on this order first: reload it',
  },
  timeoutSupplementOff: {
    'zh-CN': '已超时订单不允许补单（CanTimeoutSupplement 已关闭）',
    'zh-TW': '已逾時訂單不允許補單（CanTimeoutSupplement 已關閉）',
    'en-US': 'Timed-out orders may not be supplemented (CanTimeoutSupplement is off)',
  },
  utrUsed: {
    'zh-CN': '该 UTR 已确认过另一笔订单',
    'zh-TW': '該 UTR 已確認過另一筆訂單',
    'en-US': 'This UTR already confirmed another order',
  },
  supplierBalanceShort: {
    'zh-CN': '码商可用余额不足以承接该订单',
    'zh-TW': '碼商可用餘額不足以承接該訂單',
    'en-US': 'The supplier’s available balance does not cover this order',
  },
  merchantBalanceShort: {
    'zh-CN': '商户可用余额不足以冲正',
    'zh-TW': '商戶可用餘額不足以沖正',
    'en-US': 'The merchant’s available balance does not cover the reversal',
  },
  allocationFailed: {
    'zh-CN': '分配失败：没有可接单的收款账户',
    'zh-TW': '分配失敗：沒有可接單的收款帳戶',
    'en-US': 'Allocation failed: no receiving account can take this order',
  },
  callbacksOff: {
    'zh-CN': '该商户关闭了回调或没有回调地址',
    'zh-TW': '該商戶關閉了回呼或沒有回呼地址',
    'en-US': 'The merchant has callbacks off or no notify URL',
  },
  todoItemNotYours: {
    'zh-CN': '此待办事项不属于您的角色',
    'zh-TW': '此待辦事項不屬於您的角色',
    'en-US': 'This to-do item is not one of your role',
  },
  payerNameRequired: {
    'zh-CN': '请填写付款人姓名',
    'zh-TW': '請填寫付款人姓名',
    'en-US': "Enter the payer's name",
  },
  notAwaitingPayment: {
    'zh-CN': '该订单不在待支付状态',
    'zh-TW': '該訂單不在待付款狀態',
    'en-US': 'This order is not awaiting payment',
  },
  // ---- order performance analysis: its time window ----
  startAfterEnd: {
    'zh-CN': '开始时间必须早于结束时间',
    'zh-TW': '開始時間必須早於結束時間',
    'en-US': 'the start time must be before the end time',
  },
  windowTooLong: {
    'zh-CN': `时间范围最多 ${ORDER_PROFILE_MAX_DAYS} 天，请缩小开始和结束时间`,
    'zh-TW': `時間範圍最多 ${ORDER_PROFILE_MAX_DAYS} 天，請縮小開始和結束時間`,
    'en-US': `the window may span at most ${ORDER_PROFILE_MAX_DAYS} days: narrow the start and end times`,
  },
  // ---- the batch upload of orders (ORDER_UPLOAD_TEXTS; the upload flag's reasons too) ----
  notCsv: {
    'zh-CN': 'CSV 上传必须是 CSV 文件',
    'zh-TW': 'CSV 上傳必須是 CSV 檔案',
    'en-US': 'CSV uploads must be CSV files',
  },
  fileType: { 'zh-CN': '文件类型错误', 'zh-TW': '檔案類型錯誤', 'en-US': 'File type error' },
  parseFailed: {
    'zh-CN': '格式解析失败，请检查文件格式',
    'zh-TW': '格式解析失敗，請檢查檔案格式',
    'en-US': 'Format parsing failed, check the file format',
  },
  uploadFailed: { 'zh-CN': '上传失败', 'zh-TW': '上傳失敗', 'en-US': 'Upload failed' },
  tooLarge: {
    'zh-CN': `文件超过 ${UPLOAD_MAX_MIB} MiB`,
    'zh-TW': `檔案超過 ${UPLOAD_MAX_MIB} MiB`,
    'en-US': `The file is larger than ${UPLOAD_MAX_MIB} MiB`,
  },
  tooManyRows: {
    'zh-CN': `文件超过 ${ORDER_UPLOAD_MAX_ROWS} 行订单，请拆分`,
    'zh-TW': `檔案超過 ${ORDER_UPLOAD_MAX_ROWS} 列訂單，請拆分`,
    'en-US': `The file has more than ${ORDER_UPLOAD_MAX_ROWS} order rows: split it`,
  },
  noRows: {
    'zh-CN': '文件表头下没有订单行',
    'zh-TW': '檔案表頭下沒有訂單列',
    'en-US': 'The file has no order rows under its header',
  },
  orderType: {
    'zh-CN': '订单类型必须是代收（collection）或代付（payout）',
    'zh-TW': '訂單類型必須是代收（collection）或代付（payout）',
    'en-US': 'The order type must be collection or payout',
  },
  key: { 'zh-CN': '上传标识无效', 'zh-TW': '上傳識別碼無效', 'en-US': 'Invalid upload key' },
  keyReused: {
    'zh-CN': '该上传标识已用于另一个文件，请重新选择文件后上传',
    'zh-TW': '此上傳識別碼已用於另一個檔案，請重新選擇檔案後上傳',
    'en-US': 'This upload key was used for another file: choose the file again to upload it',
  },
  inProgress: {
    'zh-CN': '同一上传仍在处理中，请等待结果',
    'zh-TW': '同一上傳仍在處理中，請等待結果',
    'en-US': 'The same upload is still running: wait for its result',
  },
  merchantsOnly: {
    'zh-CN': '只有商户可以上传自己的订单',
    'zh-TW': '只有商戶可以上傳自己的訂單',
    'en-US': 'Only a merchant uploads its own orders',
  },
  merchantUnavailable: {
    'zh-CN': '商户不可用或已停用',
    'zh-TW': '商戶不可用或已停用',
    'en-US': 'Merchant unavailable or disabled',
  },
  serviceClosed: { 'zh-CN': '平台暂停接单', 'zh-TW': '平台暫停接單', 'en-US': 'The platform is not taking orders' },
  noProduct: {
    'zh-CN': '该商户没有已启用的代收产品',
    'zh-TW': '此商戶沒有已啟用的代收產品',
    'en-US': 'No collection product is enabled for this merchant',
  },
  noPayoutProduct: {
    'zh-CN': '该商户没有已启用的代付产品',
    'zh-TW': '此商戶沒有已啟用的代付產品',
    'en-US': 'No payout product is enabled for this merchant',
  },
  // ---- bank files of batch payouts (export and result upload; declared in payouts/bank-file-texts.ts) ----
  ...BANK_FILE_REASON_TEXTS,
  // ---- batch payouts (declared in payouts/batch-texts.ts) ----
  ...PAYOUT_BATCH_REASON_TEXTS,
  // ---- the order clear (declared in system/order-clear-texts.ts) ----
  ...ORDER_CLEAR_REASON_TEXTS,
  // ---- callbacks ----
  callbackPending: {
    'zh-CN': '回调仍在投递中，不能删除：请等它成功或失败',
    'zh-TW': '回調仍在投遞中，不能刪除：請等它成功或失敗',
    'en-US': 'a callback that is still being delivered cannot be deleted: wait until it succeeds or fails',
  },
  notReplayable: {
    'zh-CN': '只有已支付且未冲正的订单的回调可以重发',
    'zh-TW': '只有已支付且未沖正的訂單的回調可以重發',
    'en-US': 'only the callbacks of a paid order that is not reversed can be replayed',
  },
  // ---- resources ----
  supplierRequired: {
    'zh-CN': '请选择资源所属码商',
    'zh-TW': '請選擇資源所屬碼商',
    'en-US': 'choose the supplier of the resource',
  },
  supplierDisabled: {
    'zh-CN': '该资源的码商已停用，无法开启',
    'zh-TW': '該資源的碼商已停用，無法開啟',
    'en-US': 'the supplier of this resource is disabled, so it cannot be switched on',
  },
  productDisabled: {
    'zh-CN': '该资源的产品已停用，无法开启',
    'zh-TW': '該資源的產品已停用，無法開啟',
    'en-US': 'the product of this resource is disabled, so it cannot be switched on',
  },
  redWalletLimit: {
    'zh-CN': '该码商已启用 {{limit}} 个红包收款账户（微信、支付宝），已达上限，请先停用一个',
    'zh-TW': '該碼商已啟用 {{limit}} 個紅包收款帳戶（微信、支付寶），已達上限，請先停用一個',
    'en-US':
      'this supplier already has {{limit}} red-packet accounts (WeChat, Alipay) switched on, the most allowed: switch one off first',
    values: { limit: 'count' },
  },
  resourceBusy: {
    'zh-CN': '该资源有未完成的订单，无法删除',
    'zh-TW': '該資源有未完成的訂單，無法刪除',
    'en-US': 'the resource has open orders and cannot be deleted',
  },
  qrImageNotTaken: {
    'zh-CN': '该渠道的资源不使用二维码图片',
    'zh-TW': '該渠道的資源不使用二維碼圖片',
    'en-US': 'this channel takes no QR image',
  },
  imageTooLarge: {
    'zh-CN': '图片不能超过 512 KiB',
    'zh-TW': '圖片不能超過 512 KiB',
    'en-US': 'the image is larger than 512 KiB',
  },
  // ---- finding orders by picture (PICTURE_QUERY_TEXTS) ----
  pictureQueryOff: {
    'zh-CN': '图片查单未开启（AllowPictureQueryOrder）',
    'zh-TW': '圖片查單未開啟（AllowPictureQueryOrder）',
    'en-US': 'Finding orders by picture is switched off (AllowPictureQueryOrder)',
  },
  pictureQueryBusy: {
    'zh-CN': '正在识别其他图片，请稍后再试',
    'zh-TW': '正在辨識其他圖片，請稍後再試',
    'en-US': 'Other pictures are being read: try again in a moment',
  },
  pictureUnreadable: {
    'zh-CN': '无法识别这张图片，请换一张清晰的截图',
    'zh-TW': '無法辨識這張圖片，請換一張清晰的截圖',
    'en-US': 'The picture could not be read: try a clearer screenshot',
  },
  pictureTooLarge: {
    'zh-CN': `图片尺寸过大：每边最多 ${PICTURE_MAX_SIDE} 像素，总共最多 ${PICTURE_MAX_PIXELS / 1_000_000} 百万像素`,
    'zh-TW': `圖片尺寸過大：每邊最多 ${PICTURE_MAX_SIDE} 像素，總共最多 ${PICTURE_MAX_PIXELS / 1_000_000} 百萬像素`,
    'en-US': `The picture is too large: at most ${PICTURE_MAX_SIDE} pixels a side and ${PICTURE_MAX_PIXELS / 1_000_000} megapixels`,
  },
  // ---- dynamic pay scripts ----
  payScriptNameTaken: {
    'zh-CN': '已有同名的支付脚本',
    'zh-TW': '已有同名的支付腳本',
    'en-US': 'a pay script with this name exists',
  },
  payScriptSyntax: {
    'zh-CN': '脚本无法编译',
    'zh-TW': '腳本無法編譯',
    'en-US': 'the script does not compile',
  },
  payScriptNotCollection: {
    'zh-CN': '只有代收产品有付款页，可以使用支付脚本',
    'zh-TW': '只有代收產品有付款頁，可以使用支付腳本',
    'en-US': 'only collection products have a payer page that runs a pay script',
  },
  // ---- saved views, messages ----
  tooManyViews: {
    'zh-CN': '每个页面最多保存 50 个视图，请先删除一个',
    'zh-TW': '每個頁面最多儲存 50 個檢視，請先刪除一個',
    'en-US': 'At most 50 views per page: delete one first',
  },
  // ---- payouts ----
  payoutState: {
    'zh-CN': '代付订单当前状态不允许此操作',
    'zh-TW': '代付訂單目前狀態不允許此操作',
    'en-US': 'the payout’s current state does not allow this',
  },
  claimFailed: {
    'zh-CN': '认领失败：已被其他码商认领',
    'zh-TW': '認領失敗：已被其他碼商認領',
    'en-US': 'claim failed: another supplier claimed it first',
  },
  cancelClaimFailed: {
    'zh-CN': '取消认领失败：订单状态已变化',
    'zh-TW': '取消認領失敗：訂單狀態已變化',
    'en-US': 'cancel-claim failed: the payout changed meanwhile',
  },
  gatewayPayout: {
    'zh-CN': '网关代付由系统自动发送至网关，不能手动认领',
    'zh-TW': '閘道代付由系統自動送至閘道，不能手動認領',
    'en-US': 'a gateway payout is sent to its gateway by the system and cannot be claimed by hand',
  },
  claimLimit: {
    'zh-CN': '您处理中的代付已达上限，请先完成一笔',
    'zh-TW': '您處理中的代付已達上限，請先完成一筆',
    'en-US': 'you already hold as many payouts in progress as allowed: finish one first',
  },
  noPayoutAccount: {
    'zh-CN': '该产品未对您开通，或您没有启用的该产品代付账户',
    'zh-TW': '該產品未對您開通，或您沒有啟用的該產品代付帳戶',
    'en-US': 'this product is not enabled for you, or you have no enabled payout account of it',
  },
  supplierOff: {
    'zh-CN': '您的码商账号已停用，请联系管理员',
    'zh-TW': '您的碼商帳號已停用，請聯絡管理員',
    'en-US': 'your supplier account is disabled: ask an administrator',
  },
  depositShort: {
    'zh-CN': '您的可用余额（保证金）不足以认领该代付',
    'zh-TW': '您的可用餘額（保證金）不足以認領該代付',
    'en-US': 'your available balance (deposit) does not cover this payout',
  },
  stateChanged: {
    'zh-CN': '该消息已被修改，请刷新后重试',
    'zh-TW': '該訊息已被修改，請重新整理後重試',
    'en-US': 'the message changed meanwhile',
  },
  noRecipients: {
    'zh-CN': '这些角色下没有可用的账号',
    'zh-TW': '這些角色下沒有可用的帳號',
    'en-US': 'no live account has these roles',
  },
  // ---- Telegram bots ----
  telegramUserListed: {
    'zh-CN': '该 Telegram 用户已在白名单中',
    'zh-TW': '該 Telegram 使用者已在白名單中',
    'en-US': 'this Telegram user is already on the whitelist',
  },
  telegramChatTaken: {
    'zh-CN': '该 Telegram 群组已设置过',
    'zh-TW': '該 Telegram 群組已設定過',
    'en-US': 'this Telegram chat already has a bot group',
  },
  templateUnknownVariable: {
    'zh-CN': '模板使用了该消息没有的变量，请只使用列出的变量',
    'zh-TW': '範本使用了該訊息沒有的變數，請只使用列出的變數',
    'en-US': 'the template uses a variable this message does not fill: use only the listed ones',
  },
  telegramPartyMissing: {
    'zh-CN': '所选商户或码商不存在',
    'zh-TW': '所選商戶或碼商不存在',
    'en-US': 'the chosen merchant or supplier does not exist',
  },
  // ---- pay gateway config ----
  payGatewayNameTaken: {
    'zh-CN': '已有同名的支付网关',
    'zh-TW': '已有同名的支付閘道',
    'en-US': 'a pay gateway of this name exists already',
  },
  payGatewayInUse: {
    'zh-CN': '仍有代付账户使用该支付网关，不能删除',
    'zh-TW': '仍有代付帳戶使用該支付閘道，不能刪除',
    'en-US': 'payout accounts still use this pay gateway, so it cannot be deleted',
  },
  payGatewayIncomplete: {
    'zh-CN': '代付接口网关需要网关地址和 Key ID',
    'zh-TW': '代付介面閘道需要閘道位址和 Key ID',
    'en-US': 'a payout API gateway needs its base URL and key id',
  },
  payGatewayUnusable: {
    'zh-CN': '所选支付网关不存在或不是代付接口网关',
    'zh-TW': '所選支付閘道不存在或不是代付介面閘道',
    'en-US': 'the chosen pay gateway does not exist or is not a payout API gateway',
  },
  payGatewayScriptNotNotify: {
    'zh-CN': '只有收款通知网关可以指定支付脚本',
    'zh-TW': '只有收款通知閘道可以指定支付腳本',
    'en-US': 'only a collection notification gateway names a pay script',
  },
  payGatewayScriptUnknown: {
    'zh-CN': '所选支付脚本不存在',
    'zh-TW': '所選支付腳本不存在',
    'en-US': 'the chosen pay script does not exist',
  },
  transferNoticesStaffGroup: {
    'zh-CN': '员工群组不接收资金变动通知，只有商户和码商群组可以',
    'zh-TW': '員工群組不接收資金變動通知，只有商戶和碼商群組可以',
    'en-US': 'a staff group gets no balance changes: only merchant and supplier groups do',
  },
  botTokenMissing: {
    'zh-CN': '未设置机器人令牌（转账机器人令牌或机器人令牌）',
    'zh-TW': '未設定機器人令牌（轉帳機器人令牌或機器人令牌）',
    'en-US': 'no bot token is set (neither the transfer bot token nor the bot token)',
  },
  telegramSendFailed: {
    'zh-CN': 'Telegram 未接受该消息：请检查令牌，并确认机器人已加入该群组',
    'zh-TW': 'Telegram 未接受該訊息：請檢查令牌，並確認機器人已加入該群組',
    'en-US': 'Telegram did not take the message: check the token and that the bot is in the group',
  },
} as const satisfies Record<string, ReasonTexts>;

export type Reason = keyof typeof REASON_TEXTS;
export const REASONS = Object.keys(REASON_TEXTS) as Reason[];

/** Whether a string the server sent is a reason of the catalogue. */
export const isReason = (value: unknown): value is Reason =>
  typeof value === 'string' && Object.hasOwn(REASON_TEXTS, value);

// The reasons other modules declare (products, the upload) must be in the catalogue: a compile error otherwise.
const declaredElsewhere: Readonly<
  Record<ProductRefusalReason | OrderUploadReason | Exclude<ResourceActionRefusal, 'role'>, ReasonTexts>
> = REASON_TEXTS;
void declaredElsewhere;
