import type { LocalTexts } from '../common/server-texts.js';
import type {
  GLOBAL_SECURITY_FIELDS,
  SECURITY_FREQ_FIELDS,
  SettingArea,
  SettingGroup,
  SettingKey,
  SettingUnit,
} from './registry.js';

/**
 * The texts of the settings registry in three languages: each key's label and description, the group
 * and area names, the units, the choices' options and the structured values' fields. The global config
 * page shows these; docs/configuration.md says the same in prose.
 */

export interface SettingTexts {
  readonly label: LocalTexts;
  readonly description: LocalTexts;
}

export const SETTING_TEXTS = {
  redWalletCount: {
    label: { 'zh-CN': '红包钱包数量', 'zh-TW': '紅包錢包數量', 'en-US': 'Red-packet wallets per supplier' },
    description: {
      'zh-CN': '每个码商最多同时启用的微信、支付宝红包收款账户数（产品 5001、5002）。',
      'zh-TW': '每個碼商最多同時啟用的微信、支付寶紅包收款帳戶數（產品 5001、5002）。',
      'en-US':
        'The most WeChat and Alipay red-packet receiving accounts (products 5001, 5002) one supplier may have enabled at once.',
    },
  },
  enableService: {
    label: { 'zh-CN': '开启服务', 'zh-TW': '開啟服務', 'en-US': 'Service enabled' },
    description: {
      'zh-CN': '关闭后商户接口拒绝新订单并返回明确的错误码，控制台显示维护横幅；员工仍可登录。',
      'zh-TW': '關閉後商戶介面拒絕新訂單並返回明確的錯誤碼，控制台顯示維護橫幅；員工仍可登入。',
      'en-US':
        'When off, the merchant API refuses new orders with a clear code and the console shows a maintenance banner; staff can still sign in.',
    },
  },
  OrderTimeoutMinutes: {
    label: { 'zh-CN': '订单超时时间', 'zh-TW': '訂單逾時時間', 'en-US': 'Order timeout' },
    description: {
      'zh-CN': '已分配的代收订单在此时间内未支付即超时，并释放收款账户。',
      'zh-TW': '已分配的代收訂單在此時間內未支付即逾時，並釋放收款帳戶。',
      'en-US': 'An allocated collection order not paid within this time times out and frees its receiving account.',
    },
  },
  EnableIpChangedCheck: {
    label: { 'zh-CN': 'IP 变更检查', 'zh-TW': 'IP 變更檢查', 'en-US': 'End sessions whose address changed' },
    description: {
      'zh-CN': '开启后，会话的请求地址与登录时不同即结束该会话，需重新登录。',
      'zh-TW': '開啟後，會話的請求位址與登入時不同即結束該會話，需重新登入。',
      'en-US':
        'When on, a session whose requests come from another address than its sign-in ends and must sign in again.',
    },
  },
  EnablePayPassword: {
    label: { 'zh-CN': '启用支付密码', 'zh-TW': '啟用支付密碼', 'en-US': 'Require a pay password' },
    description: {
      'zh-CN': '开启后，二级验证只接受单独设置的支付密码；未设置支付密码的账户须先设置。关闭时登录密码亦可使用。',
      'zh-TW': '開啟後，二級驗證只接受單獨設定的支付密碼；未設定支付密碼的帳戶須先設定。關閉時登入密碼亦可使用。',
      'en-US':
        'When on, the second-level check accepts only a separately set pay password, and an account without one must set it first. When off, the sign-in password serves until one is set.',
    },
  },
  KYC: {
    label: { 'zh-CN': 'KYC 校验', 'zh-TW': 'KYC 校驗', 'en-US': 'KYC check' },
    description: {
      'zh-CN':
        '开启后，金额达到商户产品 KYC 下限（商户产品配置中设置）的代收订单必须提供付款人姓名（userName），否则拒绝（2010）；关闭后不检查该下限。',
      'zh-TW':
        '開啟後，金額達到商戶產品 KYC 下限（商戶產品配置中設定）的代收訂單必須提供付款人姓名（userName），否則拒絕（2010）；關閉後不檢查該下限。',
      'en-US':
        "When on, a collection order at or above the KYC lower limit of the merchant's product (set in the merchant's product config) must carry the payer's name (userName), else it is refused (2010); off, that limit is not checked.",
    },
  },
  NeedNameCheck: {
    label: { 'zh-CN': '姓名校验', 'zh-TW': '姓名校驗', 'en-US': 'Payer name check' },
    description: {
      'zh-CN':
        '开启后，每笔代收订单都须提供付款人姓名（userName），且只能包含字母、空格和点，最长 128 个字符，否则拒绝（2014）。',
      'zh-TW':
        '開啟後，每筆代收訂單都須提供付款人姓名（userName），且只能包含字母、空格和點，最長 128 個字元，否則拒絕（2014）。',
      'en-US':
        "When on, every collection order must carry the payer's name (userName), made of letters, spaces and dots, at most 128 characters, else it is refused (2014).",
    },
  },
  MessageDelay: {
    label: { 'zh-CN': '支付延迟', 'zh-TW': '支付延遲', 'en-US': 'Payment delay' },
    description: {
      'zh-CN': '订单超时后，在此时间内到达的匹配银行短信、网页消息或 USDT 转账仍可确认该订单。',
      'zh-TW': '訂單逾時後，在此時間內到達的相符銀行簡訊、網頁訊息或 USDT 轉帳仍可確認該訂單。',
      'en-US':
        'For this long after an order timed out, a matching bank SMS, web message or USDT transfer still confirms it.',
    },
  },
  MonitorLiveTime: {
    label: { 'zh-CN': '监控存活时间', 'zh-TW': '監控存活時間', 'en-US': 'Monitor keep-alive' },
    description: {
      'zh-CN': '收款账户的监控在此时间内没有心跳即视为离线，其账户不再分配订单。',
      'zh-TW': '收款帳戶的監控在此時間內沒有心跳即視為離線，其帳戶不再分配訂單。',
      'en-US':
        "A receiving account's monitor without a heartbeat for this long counts as offline, and its account gets no orders.",
    },
  },
  OrderStatisticsTimeFormat: {
    label: { 'zh-CN': '订单统计时间粒度', 'zh-TW': '訂單統計時間粒度', 'en-US': 'Statistics time buckets' },
    description: {
      'zh-CN': '订单统计按天或按小时汇总显示。',
      'zh-TW': '訂單統計按天或按小時彙總顯示。',
      'en-US': 'Order statistics are summed and shown by day or by hour.',
    },
  },
  ShowLogo: {
    label: { 'zh-CN': '显示系统标识', 'zh-TW': '顯示系統標識', 'en-US': 'Show the system flag' },
    description: {
      'zh-CN': '开启后，左侧菜单显示系统标识名称。',
      'zh-TW': '開啟後，左側選單顯示系統標識名稱。',
      'en-US': 'When on, the side menu shows the system flag name.',
    },
  },
  DataClearCycle: {
    label: { 'zh-CN': '数据清理周期', 'zh-TW': '資料清理週期', 'en-US': 'Data clear cycle' },
    description: {
      'zh-CN':
        '已结束的代收和代付订单超过此天数未变动，其明细（时间线、分配记录、回调、回单图片、脚本调用记录、付款人和收款人个人信息）由每日清理任务删除；订单本身、账本分录、资金记录和审计日志保留，统计不变。0 表示永久保留。',
      'zh-TW':
        '已結束的代收和代付訂單超過此天數未變動，其明細（時間線、分配紀錄、回調、回單圖片、腳本呼叫紀錄、付款人和收款人個人資料）由每日清理任務刪除；訂單本身、帳本分錄、資金紀錄和稽核日誌保留，統計不變。0 表示永久保留。',
      'en-US':
        'Finished collection orders and payouts unchanged for longer than this many days lose their details (timelines, allocation records, callbacks, receipt images, script call records, the payer’s and payee’s personal fields) to the daily clear job; the orders themselves, ledger entries, fund records and the audit log stay, and totals stay right. 0 keeps everything.',
    },
  },
  BotToken: {
    label: { 'zh-CN': '机器人令牌', 'zh-TW': '機器人令牌', 'en-US': 'Bot token' },
    description: {
      'zh-CN': '通知机器人的 Telegram Bot API 令牌；加密保存，只显示是否已设置。',
      'zh-TW': '通知機器人的 Telegram Bot API 令牌；加密儲存，只顯示是否已設定。',
      'en-US': "The notice bot's Telegram Bot API token; sealed at rest, shown only as set or not set.",
    },
  },
  SecurityFreqParameters: {
    label: { 'zh-CN': '安全链参数', 'zh-TW': '安全鏈參數', 'en-US': 'Security chain parameters' },
    description: {
      'zh-CN': '收款账户何时可信：在时间范围内至少有多少可靠节点、核验次数和核验金额；以及未匹配消息的检查间隔。',
      'zh-TW': '收款帳戶何時可信：在時間範圍內至少有多少可靠節點、核驗次數和核驗金額；以及未匹配訊息的檢查間隔。',
      'en-US':
        'When a receiving account is trusted: the reliable nodes, checks and checked amount it needs within the time range; and how often unmatched messages are checked.',
    },
  },
  GlobalSecuritySetting: {
    label: { 'zh-CN': '全局安全设置', 'zh-TW': '全域安全設定', 'en-US': 'Global security setting' },
    description: {
      'zh-CN': '消息匹配窗口、同一付款 IP 每分钟下单次数上限（超过即冻结该 IP），以及消息的缓存时间。',
      'zh-TW': '訊息比對視窗、同一付款 IP 每分鐘下單次數上限（超過即凍結該 IP），以及訊息的快取時間。',
      'en-US':
        'The message match window, the orders per payer IP per minute before that IP is frozen, and how long messages are kept for matching.',
    },
  },
  EnableSystemCheck: {
    label: { 'zh-CN': '系统自检', 'zh-TW': '系統自檢', 'en-US': 'System check' },
    description: {
      'zh-CN':
        '每 30 分钟核对账本余额与分录、资源池的每日计数（今天和昨天）与订单；发现差异时以站内消息告知每位超级管理员（同样的差异每天最多提醒一次）。',
      'zh-TW':
        '每 30 分鐘核對帳本餘額與分錄、資源池的每日計數（今天和昨天）與訂單；發現差異時以站內訊息告知每位超級管理員（同樣的差異每天最多提醒一次）。',
      'en-US':
        "Every 30 minutes, check ledger balances against their entries and the resource pool's daily counters (today and yesterday) against the orders; differences go to every superAdmin as an in-app message (the same differences at most once a day).",
    },
  },
  FixSecurityChainSupplementLimit: {
    label: { 'zh-CN': '安全链补单上限', 'zh-TW': '安全鏈補單上限', 'en-US': 'Chain supplement limit' },
    description: {
      'zh-CN': '不可信收款账户上无需超级管理员审核即可接受的补单数；超过后补单进入安全补单列表等待审核。',
      'zh-TW': '不可信收款帳戶上無需超級管理員審核即可接受的補單數；超過後補單進入安全補單列表等待審核。',
      'en-US':
        'Supplements an untrusted receiving account accepts without superAdmin review; beyond it, supplements wait in the security patch list.',
    },
  },
  AutoCreateRelateSupplier: {
    label: { 'zh-CN': '自动创建码商账户', 'zh-TW': '自動建立碼商帳戶', 'en-US': 'Create the supplier account' },
    description: {
      'zh-CN': '开启后，新建码商时可同时创建其控制台账户；关闭时只能关联已有账户。',
      'zh-TW': '開啟後，新建碼商時可同時建立其控制台帳戶；關閉時只能關聯既有帳戶。',
      'en-US':
        'When on, creating a supplier may create its console account too; when off, it can only use an existing account.',
    },
  },
  AutoCreateRelateMerchant: {
    label: { 'zh-CN': '自动创建商户账户', 'zh-TW': '自動建立商戶帳戶', 'en-US': 'Create the merchant account' },
    description: {
      'zh-CN': '开启后，新建商户时可同时创建其控制台账户；关闭时只能关联已有账户。',
      'zh-TW': '開啟後，新建商戶時可同時建立其控制台帳戶；關閉時只能關聯既有帳戶。',
      'en-US':
        'When on, creating a merchant may create its console account too; when off, it can only use an existing account.',
    },
  },
  AllowOneMonitorAccountMoreUser: {
    label: {
      'zh-CN': '监控账户多用户',
      'zh-TW': '監控帳戶多使用者',
      'en-US': 'One monitor account, several suppliers',
    },
    description: {
      'zh-CN': '开启后，一个监控账户（设备应用的登录）可服务多个码商。',
      'zh-TW': '開啟後，一個監控帳戶（裝置應用程式的登入）可服務多個碼商。',
      'en-US': "When on, one monitor account (the device app's sign-in) may serve more than one supplier.",
    },
  },
  UsdtAuto: {
    label: { 'zh-CN': 'USDT 自动处理', 'zh-TW': 'USDT 自動處理', 'en-US': 'USDT automation' },
    description: {
      'zh-CN': '开启后，链上监听自动确认 USDT 代收（3015）并自动发送 USDT 代付（3016）。',
      'zh-TW': '開啟後，鏈上監聽自動確認 USDT 代收（3015）並自動發送 USDT 代付（3016）。',
      'en-US': 'When on, the chain watcher confirms USDT collections (3015) and sends USDT payouts (3016) by itself.',
    },
  },
  BotConstantReminder: {
    label: { 'zh-CN': '机器人定时提醒', 'zh-TW': '機器人定時提醒', 'en-US': 'Bot reminders' },
    description: {
      'zh-CN': '开启后，机器人定时向群组提醒待处理的工作：待审核补单、待领取代付、失败回调。',
      'zh-TW': '開啟後，機器人定時向群組提醒待處理的工作：待審核補單、待領取代付、失敗回呼。',
      'en-US':
        'When on, the bot reminds the groups of waiting work on a schedule: supplements to review, payouts waiting for a claim, failed callbacks.',
    },
  },
  BotAutoSendFundRecord: {
    label: { 'zh-CN': '机器人推送资金记录', 'zh-TW': '機器人推送資金紀錄', 'en-US': 'Bot sends fund records' },
    description: {
      'zh-CN': '开启后，每笔余额变动由机器人发送到该方的群组。',
      'zh-TW': '開啟後，每筆餘額變動由機器人發送到該方的群組。',
      'en-US': "When on, the bot sends each balance change to the party's group.",
    },
  },
  TransferBotToken: {
    label: { 'zh-CN': '转账机器人令牌', 'zh-TW': '轉帳機器人令牌', 'en-US': 'Transfer bot token' },
    description: {
      'zh-CN':
        '转账机器人的 Telegram Bot API 令牌：设置后由它向各方群组发送资金变动，机器人令牌只负责查询和提醒；未设置时由机器人令牌发送。加密保存，只显示是否已设置。',
      'zh-TW':
        '轉帳機器人的 Telegram Bot API 令牌：設定後由它向各方群組發送資金變動，機器人令牌只負責查詢和提醒；未設定時由機器人令牌發送。加密儲存，只顯示是否已設定。',
      'en-US':
        "The transfer bot's Telegram Bot API token: when set, it posts the balance changes to the parties' groups and the main bot keeps the questions and reminders; when not set, the main bot posts them. Sealed at rest, shown only as set or not set.",
    },
  },
  LimitMode: {
    label: { 'zh-CN': '日限额模式', 'zh-TW': '日限額模式', 'en-US': 'Daily limit mode' },
    description: {
      'zh-CN':
        '商户代收产品日限额的计算方式。严格：当日已支付订单和仍未完成的订单（已分配、尚未支付、失败或超时）的金额一起计入；宽松：只计当日已支付订单。代付的日限额始终计入当日所有未被拒绝或取消的代付。',
      'zh-TW':
        '商戶代收產品日限額的計算方式。嚴格：當日已支付訂單和仍未完成的訂單（已分配、尚未支付、失敗或逾時）的金額一起計入；寬鬆：只計當日已支付訂單。代付的日限額始終計入當日所有未被拒絕或取消的代付。',
      'en-US':
        "How a merchant's daily limit of a collection product counts. Strict: the day's paid orders and the orders still open (allocated, not yet paid, failed or timed out) count; relaxed: only the day's paid orders count. A payout product's daily limit always counts every payout of the day not rejected or cancelled.",
    },
  },
  CompleteTimeFilter: {
    label: { 'zh-CN': '按完成时间筛选', 'zh-TW': '按完成時間篩選', 'en-US': 'Filter by completion time' },
    description: {
      'zh-CN':
        '开启后，代收和代付订单列表（及其导出）的时间筛选对已完成的订单（已支付的代收、已完成的代付）按完成时间，其余订单仍按创建时间；关闭时全部按创建时间。',
      'zh-TW':
        '開啟後，代收和代付訂單列表（及其匯出）的時間篩選對已完成的訂單（已支付的代收、已完成的代付）按完成時間，其餘訂單仍按建立時間；關閉時全部按建立時間。',
      'en-US':
        'When on, the time range of the collection and payout order lists (and their exports) applies to the completion time of completed orders (paid collections, completed payouts) and to the creation time of the others; off, to the creation time of all.',
    },
  },
  SupplierUnifyQueryGroup: {
    label: { 'zh-CN': '码商统一查询组', 'zh-TW': '碼商統一查詢組', 'en-US': 'Supplier team queries' },
    description: {
      'zh-CN':
        '开启后，码商的订单和代付列表（含合计和导出）显示整个团队（码商及其代理）的记录；关闭时只显示自己的记录，代理的记录在团队订单页查看。',
      'zh-TW':
        '開啟後，碼商的訂單和代付列表（含合計和匯出）顯示整個團隊（碼商及其代理）的紀錄；關閉時只顯示自己的紀錄，代理的紀錄在團隊訂單頁查看。',
      'en-US':
        "When on, a supplier's order and payout lists (their totals and exports too) show its whole team (the supplier and its agents); when off, only its own rows, its agents' being on the team order pages.",
    },
  },
  CanTimeoutSupplement: {
    label: { 'zh-CN': '超时订单可补单', 'zh-TW': '逾時訂單可補單', 'en-US': 'Supplement timed-out orders' },
    description: {
      'zh-CN': '开启后，已超时的订单也可以用 UTR 补单。',
      'zh-TW': '開啟後，已逾時的訂單也可以用 UTR 補單。',
      'en-US': 'When on, timed-out orders can be supplemented with a UTR too.',
    },
  },
  CanClearMerchantBalance: {
    label: { 'zh-CN': '允许清空商户余额', 'zh-TW': '允許清空商戶餘額', 'en-US': 'Allow clearing merchant balances' },
    description: {
      'zh-CN': '开启后，可提议清空商户的全部可用余额（经审核后记入账本）。',
      'zh-TW': '開啟後，可提議清空商戶的全部可用餘額（經審核後記入帳本）。',
      'en-US':
        "When on, a merchant's whole available balance may be proposed for clearing (booked in the ledger once decided).",
    },
  },
  IsSupplierRemoveBalanceOnOrderFinished: {
    label: {
      'zh-CN': '订单完成时扣码商余额',
      'zh-TW': '訂單完成時扣碼商餘額',
      'en-US': 'Debit the supplier at payment',
    },
    description: {
      'zh-CN': '开启：码商余额在订单支付时扣除；关闭：在订单分配时冻结。',
      'zh-TW': '開啟：碼商餘額在訂單支付時扣除；關閉：在訂單分配時凍結。',
      'en-US':
        "On: the supplier's balance is debited when the order is paid; off: it is held when the order is allocated.",
    },
  },
  ShowUserStatisticInfo: {
    label: { 'zh-CN': '显示用户统计', 'zh-TW': '顯示使用者統計', 'en-US': 'Show statistics to partners' },
    description: {
      'zh-CN': '开启后，商户和码商的首页显示今日、昨日和近 7 天的统计。',
      'zh-TW': '開啟後，商戶和碼商的首頁顯示今日、昨日和近 7 天的統計。',
      'en-US':
        "When on, merchants' and suppliers' home pages show today's, yesterday's and the last 7 days' statistics.",
    },
  },
  IsNewPayUrl: {
    label: { 'zh-CN': '新版支付链接', 'zh-TW': '新版支付連結', 'en-US': 'New pay URL form' },
    description: {
      'zh-CN':
        '开启：返回给商户的支付链接为 /pay/<订单号>；关闭：为旧版 /pay?orderCode=<订单号>。两种链接都能打开付款页。',
      'zh-TW':
        '開啟：返回給商戶的支付連結為 /pay/<訂單號>；關閉：為舊版 /pay?orderCode=<訂單號>。兩種連結都能開啟付款頁。',
      'en-US':
        'On: the payUrl given to merchants is /pay/<orderCode>; off: the legacy /pay?orderCode=<orderCode>. Both forms open the payer page.',
    },
  },
  HighPerfOrderQuery: {
    label: { 'zh-CN': '高性能订单查询', 'zh-TW': '高效能訂單查詢', 'en-US': 'Fast order queries' },
    description: {
      'zh-CN': '开启后，订单列表不计算精确总数，且未指定时间范围时只查询最近 31 天。',
      'zh-TW': '開啟後，訂單列表不計算精確總數，且未指定時間範圍時只查詢最近 31 天。',
      'en-US':
        'When on, order lists skip the exact total count and search only the last 31 days unless a date range is given.',
    },
  },
  AlipayToAlipayByHandSubmitName: {
    label: {
      'zh-CN': '支付宝转支付宝手填姓名',
      'zh-TW': '支付寶轉支付寶手填姓名',
      'en-US': 'Alipay to Alipay: name by hand',
    },
    description: {
      'zh-CN':
        '开启后，支付宝订单（5002）的付款人在支付页提交 UTR 时须填写姓名（字母、空格和点，最多 128 个字符），码商在订单列表和详情中看到该姓名，用于与支付宝转账的实名比对。关闭时或其他通道不询问姓名。',
      'zh-TW':
        '開啟後，支付寶訂單（5002）的付款人在支付頁提交 UTR 時須填寫姓名（字母、空格和點，最多 128 個字元），碼商在訂單列表和詳情中看到該姓名，用於與支付寶轉帳的實名比對。關閉時或其他通道不詢問姓名。',
      'en-US':
        'When on, the payer of an Alipay order (5002) types their name with the UTR on the payer page (letters, spaces and dots, at most 128), and the supplier sees it in the order list and detail to match against the name on the Alipay transfer. Off, or on other channels, no name is asked.',
    },
  },
  CardCountry: {
    label: { 'zh-CN': '卡国家', 'zh-TW': '卡國家', 'en-US': 'Card country' },
    description: {
      'zh-CN':
        '卡转卡订单接受的付款人银行卡国家（ISO 3166-1 两位字母代码，例如 IN）。带 IFSC 代码（ifscCode）的卡是印度卡（IN）；已知国家不符的卡转卡订单被拒绝（2015）。',
      'zh-TW':
        '卡轉卡訂單接受的付款人銀行卡國家（ISO 3166-1 兩位字母代碼，例如 IN）。帶 IFSC 代碼（ifscCode）的卡是印度卡（IN）；已知國家不符的卡轉卡訂單被拒絕（2015）。',
      'en-US':
        "The country of the payers' bank cards card-to-card orders accept (ISO 3166-1 two-letter code, e.g. IN). A card given with an IFSC code (ifscCode) is an Indian card (IN); a card-to-card order whose card is known to be of another country is refused (2015).",
    },
  },
  TimeoutCallbackTime: {
    label: { 'zh-CN': '回调时间窗口', 'zh-TW': '回呼時間視窗', 'en-US': 'Callback window' },
    description: {
      'zh-CN': '回调自创建起在此时间内按计划重试，之后停止（仍可手动回调）。',
      'zh-TW': '回呼自建立起在此時間內按計畫重試，之後停止（仍可手動回呼）。',
      'en-US':
        'A callback is retried on its schedule for this long after it was created, then stops (a manual callback still works).',
    },
  },
  ApiUrl: {
    label: { 'zh-CN': 'API 地址', 'zh-TW': 'API 位址', 'en-US': 'API base address' },
    description: {
      'zh-CN': '显示给商户的接口基础地址（商户接入指南、API 凭证卡片和 API 测试页）；留空则使用控制台自身的地址。',
      'zh-TW': '顯示給商戶的介面基礎位址（商戶接入指南、API 憑證卡片和 API 測試頁）；留空則使用控制台自身的位址。',
      'en-US':
        "The API base address shown to merchants (the merchant guide, the API credentials card and the API test page); empty uses the console's own address.",
    },
  },
  ContactInfo: {
    label: { 'zh-CN': '联系方式', 'zh-TW': '聯絡方式', 'en-US': 'Contact info' },
    description: {
      'zh-CN': '显示给商户和码商的客服联系方式（在其首页和右上角的用户菜单中）；留空则不显示。',
      'zh-TW': '顯示給商戶和碼商的客服聯絡方式（在其首頁和右上角的使用者選單中）；留空則不顯示。',
      'en-US':
        'The support contact shown to merchants and suppliers (on their home page and in the user menu); empty shows none.',
    },
  },
  SysFlag: {
    label: { 'zh-CN': '系统标识', 'zh-TW': '系統標識', 'en-US': 'System flag' },
    description: {
      'zh-CN': '菜单中显示的系统名称，也是身份验证器中显示的发行方名称。',
      'zh-TW': '選單中顯示的系統名稱，也是身分驗證器中顯示的發行方名稱。',
      'en-US': 'The system name shown in the menu, and the issuer name authenticator apps show.',
    },
  },
  AllowPictureQueryOrder: {
    label: { 'zh-CN': '允许图片查单', 'zh-TW': '允許圖片查單', 'en-US': 'Find orders by picture' },
    description: {
      'zh-CN': '开启后，员工可上传付款凭证图片查找订单（读取其中的 UTR 和金额）。',
      'zh-TW': '開啟後，員工可上傳付款憑證圖片查找訂單（讀取其中的 UTR 和金額）。',
      'en-US':
        "When on, staff can find an order by uploading a picture of the payer's receipt (its UTR and amount are read).",
    },
  },
  CompleteCheckOrderTime: {
    label: { 'zh-CN': '完成检查间隔', 'zh-TW': '完成檢查間隔', 'en-US': 'Completion check interval' },
    description: {
      'zh-CN': '每隔此时间，将已分配的订单与未匹配的到账消息再核对一次。',
      'zh-TW': '每隔此時間，將已分配的訂單與未比對的到帳訊息再核對一次。',
      'en-US': 'How often allocated orders are checked again against unmatched payment messages.',
    },
  },
  SendSmsMessageUrl: {
    label: { 'zh-CN': '短信发送地址', 'zh-TW': '簡訊發送位址', 'en-US': 'SMS gateway address' },
    description: {
      'zh-CN': '监控告警（收款账户的监控超过存活时间未上报）以短信发送所用短信网关的地址；留空则不发送短信。',
      'zh-TW': '監控告警（收款帳戶的監控超過存活時間未回報）以簡訊發送所用簡訊閘道的位址；留空則不發送簡訊。',
      'en-US':
        "The address of the SMS gateway that monitor alerts (a receiving account's monitor silent beyond its live time) are sent through; empty sends none.",
    },
  },
  PayoutMaxInProgress: {
    label: { 'zh-CN': '代付最多进行中', 'zh-TW': '代付最多進行中', 'en-US': 'Payouts in progress per supplier' },
    description: {
      'zh-CN': '每个码商最多同时领取、处理中的代付订单数（本系统新增的设置，不在规格列表中）。',
      'zh-TW': '每個碼商最多同時領取、處理中的代付訂單數（本系統新增的設定，不在規格列表中）。',
      'en-US':
        "The most payouts one supplier may hold in progress at once (a setting of ours, beyond the spec's list).",
    },
  },
  StaffIpWhitelist: {
    label: { 'zh-CN': '员工登录 IP 白名单', 'zh-TW': '員工登入 IP 白名單', 'en-US': 'Staff sign-in IP whitelist' },
    description: {
      'zh-CN':
        '开启后，员工账号（不含商户和码商）只能从 IP 白名单页面列出的地址登录；当前地址不在名单中时不能开启（本系统新增的设置，不在规格列表中）。',
      'zh-TW':
        '開啟後，員工帳號（不含商戶和碼商）只能從 IP 白名單頁面列出的地址登入；目前地址不在名單中時不能開啟（本系統新增的設定，不在規格列表中）。',
      'en-US':
        "When on, staff accounts (not merchants or suppliers) sign in only from the addresses on the IP whitelist page; it cannot be turned on from an address the list does not hold (a setting of ours, beyond the spec's list).",
    },
  },
} as const satisfies Record<SettingKey, SettingTexts>;

export const SETTING_GROUP_TEXTS = {
  service: { 'zh-CN': '服务', 'zh-TW': '服務', 'en-US': 'Service' },
  orders: { 'zh-CN': '代收订单', 'zh-TW': '代收訂單', 'en-US': 'Collection orders' },
  callbacks: { 'zh-CN': '回调', 'zh-TW': '回呼', 'en-US': 'Callbacks' },
  payouts: { 'zh-CN': '代付', 'zh-TW': '代付', 'en-US': 'Payouts' },
  funds: { 'zh-CN': '资金', 'zh-TW': '資金', 'en-US': 'Funds' },
  accounts: { 'zh-CN': '账户与登录', 'zh-TW': '帳戶與登入', 'en-US': 'Accounts and sign-in' },
  security: { 'zh-CN': '安全链', 'zh-TW': '安全鏈', 'en-US': 'Security chain' },
  monitors: { 'zh-CN': '监控与消息', 'zh-TW': '監控與訊息', 'en-US': 'Monitors and messages' },
  bots: { 'zh-CN': '机器人', 'zh-TW': '機器人', 'en-US': 'Bots' },
  display: { 'zh-CN': '显示', 'zh-TW': '顯示', 'en-US': 'Display' },
  statistics: { 'zh-CN': '统计', 'zh-TW': '統計', 'en-US': 'Statistics' },
  integration: { 'zh-CN': '对接', 'zh-TW': '對接', 'en-US': 'Integration' },
  retention: { 'zh-CN': '数据保留', 'zh-TW': '資料保留', 'en-US': 'Data retention' },
} as const satisfies Record<SettingGroup, LocalTexts>;

export const SETTING_AREA_TEXTS = {
  orders: { 'zh-CN': '代收订单', 'zh-TW': '代收訂單', 'en-US': 'Collection orders' },
  payouts: { 'zh-CN': '代付', 'zh-TW': '代付', 'en-US': 'Payouts' },
  callbacks: { 'zh-CN': '回调', 'zh-TW': '回呼', 'en-US': 'Callbacks' },
  funds: { 'zh-CN': '资金', 'zh-TW': '資金', 'en-US': 'Funds' },
  accounts: { 'zh-CN': '商户与码商账户', 'zh-TW': '商戶與碼商帳戶', 'en-US': 'Merchant and supplier accounts' },
  auth: { 'zh-CN': '登录与会话', 'zh-TW': '登入與會話', 'en-US': 'Sign-in and sessions' },
  console: { 'zh-CN': '控制台', 'zh-TW': '控制台', 'en-US': 'Console' },
  statistics: { 'zh-CN': '统计', 'zh-TW': '統計', 'en-US': 'Statistics' },
  records: {
    'zh-CN': '到账记录与监控',
    'zh-TW': '到帳紀錄與監控',
    'en-US': 'Payment records and monitors',
  },
  security: { 'zh-CN': '安全链', 'zh-TW': '安全鏈', 'en-US': 'Security chain' },
  bots: { 'zh-CN': 'Telegram 机器人', 'zh-TW': 'Telegram 機器人', 'en-US': 'Telegram bots' },
  system: { 'zh-CN': '系统维护', 'zh-TW': '系統維護', 'en-US': 'System maintenance' },
} as const satisfies Record<SettingArea, LocalTexts>;

export const SETTING_UNIT_TEXTS = {
  seconds: { 'zh-CN': '秒', 'zh-TW': '秒', 'en-US': 'seconds' },
  minutes: { 'zh-CN': '分钟', 'zh-TW': '分鐘', 'en-US': 'minutes' },
  hours: { 'zh-CN': '小时', 'zh-TW': '小時', 'en-US': 'hours' },
  days: { 'zh-CN': '天', 'zh-TW': '天', 'en-US': 'days' },
  count: { 'zh-CN': '个', 'zh-TW': '個', 'en-US': 'count' },
  minorUnits: { 'zh-CN': '金额（1/100）', 'zh-TW': '金額（1/100）', 'en-US': 'amount (1/100 units)' },
} as const satisfies Record<SettingUnit, LocalTexts>;

/** The options of the choice settings. */
export const SETTING_CHOICE_TEXTS = {
  OrderStatisticsTimeFormat: {
    day: { 'zh-CN': '按天', 'zh-TW': '按天', 'en-US': 'By day' },
    hour: { 'zh-CN': '按小时', 'zh-TW': '按小時', 'en-US': 'By hour' },
  },
  LimitMode: {
    strict: { 'zh-CN': '严格', 'zh-TW': '嚴格', 'en-US': 'Strict' },
    relaxed: { 'zh-CN': '宽松', 'zh-TW': '寬鬆', 'en-US': 'Relaxed' },
  },
} as const satisfies Partial<Record<SettingKey, Record<string, LocalTexts>>>;

/** The fields of the structured settings (spec section 3's security parameters). */
export const SETTING_FIELD_TEXTS = {
  sbLeakCheckInterval: {
    'zh-CN': '未匹配消息检查间隔',
    'zh-TW': '未比對訊息檢查間隔',
    'en-US': 'Unmatched message check interval',
  },
  minReliableChainSize: { 'zh-CN': '最少可靠节点数', 'zh-TW': '最少可靠節點數', 'en-US': 'Minimum reliable nodes' },
  minReliableCheckSize: { 'zh-CN': '最少核验次数', 'zh-TW': '最少核驗次數', 'en-US': 'Minimum checks' },
  minReliableCheckTimeRange: { 'zh-CN': '核验时间范围', 'zh-TW': '核驗時間範圍', 'en-US': 'Check time range' },
  minReliableCheckAmount: { 'zh-CN': '最少核验金额', 'zh-TW': '最少核驗金額', 'en-US': 'Minimum checked amount' },
  lookForwardMinutes: { 'zh-CN': '消息匹配窗口', 'zh-TW': '訊息比對視窗', 'en-US': 'Message match window' },
  perMinuteFreqCount: {
    'zh-CN': '每 IP 每分钟订单上限',
    'zh-TW': '每 IP 每分鐘訂單上限',
    'en-US': 'Orders per payer IP per minute',
  },
  messageMaxCacheTime: { 'zh-CN': '消息缓存时间', 'zh-TW': '訊息快取時間', 'en-US': 'Message keep time' },
  messageInSecurityChainCacheTime: {
    'zh-CN': '安全链消息缓存时间',
    'zh-TW': '安全鏈訊息快取時間',
    'en-US': 'Chain message keep time',
  },
} as const satisfies Record<keyof typeof SECURITY_FREQ_FIELDS | keyof typeof GLOBAL_SECURITY_FIELDS, LocalTexts>;

/** How a secret is answered: whether it is set. */
export const SETTING_SECRET_TEXTS = {
  set: { 'zh-CN': '已设置', 'zh-TW': '已設定', 'en-US': 'Set' },
  notSet: { 'zh-CN': '未设置', 'zh-TW': '未設定', 'en-US': 'Not set' },
} as const satisfies Record<string, LocalTexts>;
