import type { Locales } from '../i18n/types.js';

/**
 * Page titles (`route.<name>`, one per ROUTES row) and side-menu group titles (`menu.<group>`, one per
 * MENU_GROUPS entry). Titles appear in the 256 px side menu, the breadcrumb and the tag tabs, so they
 * stay short; a page's role variants carry a suffix so that they stay distinguishable:
 * (CS) customer service, (supplier), (team) supplier team, (merchant), (read-only).
 */
export const routeLocales = {
  'zh-CN': {
    route: {
      // Shell, sign-in and error pages
      login: '登录',
      googleVerify: '谷歌验证',
      root: '首页',
      home: '首页',
      error401: '无权限',
      error404: '页面不存在',
      messagePage: '消息中心',
      errorLoggerPage: '脚本错误',

      // Merchants
      merchantList: '商户列表',
      merchantListCustomerService: '商户列表（客服）',

      // Suppliers
      supplierList: '码商列表',
      supplierListCustomerService: '码商列表（客服）',
      supplierProxy: '码商代理',

      // Receiving accounts
      internationalCardToCardList: '国际卡转卡（码商）',
      internationalCardToCardListAdmin: '国际卡转卡',
      internationalCardToCardListAdminCustomerService: '国际卡转卡（客服）',
      usdtFloatingList: 'USDT 自动代收（码商）',
      usdtFloatingListAdmin: 'USDT 自动代收',
      usdtFloatingListAdminCustomerService: 'USDT 自动代收（客服）',
      kenyaListAdmin: '肯尼亚收款账户',
      kenyaListAdminCustomerService: '肯尼亚收款账户（客服）',
      otherChannelCardToCard: '卡转卡（码商）',
      otherChannelCardToCardAdmin: '卡转卡',
      otherChannelWechat: '微信支付（码商）',
      otherChannelWechatAdmin: '微信支付',
      otherChannelAlipay: '支付宝（码商）',
      otherChannelAlipayAdmin: '支付宝',
      otherChannelOthers: '其他通道（码商）',
      otherChannelOthersAdmin: '其他通道',

      // Payout accounts
      indiaAutoPayoutList: '印度自动代付（码商）',
      indiaAutoPayoutListAdmin: '印度自动代付',
      indiaAutoPayoutListAdminCustomerService: '印度自动代付（客服）',
      razorpayPayProxyList: 'Razorpay 代付（码商）',
      razorpayPayProxyListAdmin: 'Razorpay 代付',
      razorpayPayProxyListAdminCustomerService: 'Razorpay 代付（客服）',
      usdtPayProxyList: 'USDT 自动代付（码商）',
      usdtPayProxyListAdmin: 'USDT 自动代付',
      usdtPayProxyListAdminCustomerService: 'USDT 自动代付（客服）',

      // Collection orders
      orderList: '代收订单',
      orderListCustomerService: '代收订单（客服）',
      orderListSupplier: '代收订单（码商）',
      orderListSupplierProxy: '代收订单（团队）',
      orderListMerchant: '代收订单（商户）',
      orderProfile: '订单性能分析',
      orderTestMerchant: '接口测试',

      // Records
      bankStatementList: '银行短信记录',
      bankStatementListSa: '银行短信记录（超管）',
      webMessageRecordAdmin: '网页消息记录',
      webMessageRecordAdminCustomerService: '网页消息记录（客服）',
      usdtTransactionRecordAdmin: 'USDT 交易记录',
      usdtTransactionRecordAdminCustomerService: 'USDT 交易记录（客服）',

      // Security nodes
      securityPatchList: '安全链补单明细',
      securityNodeList: '可信链路',

      // Order analysis
      orderAnalysisList: '订单分析',
      orderAnalysisListCustomerService: '订单分析（客服）',
      ipAnalysisList: 'IP 分析',
      ipAnalysisListCustomerService: 'IP 分析（客服）',
      frozenIpList: '异常 IP',
      frozenIpListCustomerService: '异常 IP（客服）',
      lostOrderList: '掉单分析',
      lostOrderListCustomerService: '掉单分析（客服）',

      // Payout orders
      payProxyOrderList: '代付订单',
      payProxyOrderListCustomerService: '代付订单（客服）',
      payProxyOrderListSupplier: '代付订单（码商）',
      payProxyOrderListSupplierProxy: '代付订单（团队）',
      payProxyOrderListMerchant: '代付订单（商户）',

      // Batch payout
      payoutBatchList: '批量代付',
      payoutBatchListCustomerService: '批量代付（客服）',

      // Collection statistics
      orderStatistics: '代收统计',
      orderStatisticsCustomerService: '代收统计（客服）',
      orderStatisticsByMerchantCustomerService: '商户代收统计（客服）',
      orderStatisticsByMerchantV2: '商户代收统计',
      orderStatisticsSupplierV2: '代收统计（码商）',
      orderStatisticsMerchant: '代收统计（商户）',

      // Payout statistics
      payProxyOrderStatistics: '代付统计',
      payProxyOrderStatisticsCustomerService: '代付统计（客服）',
      payProxyOrderStatisticsByMerchant: '商户代付统计',
      payProxyOrderStatisticsByMerchantCustomerService: '商户代付统计（客服）',
      payProxyOrderStatisticsSupplier: '代付统计（码商）',
      payProxyOrderStatisticsMerchant: '代付统计（商户）',

      // Funds
      fundRecord: '我的资金记录',
      fundRecordAdmin: '资金记录',
      fundRecordAdminCustomerService: '资金记录（客服）',
      financeFundFlow: '资金流水',

      // Monitor
      monitorLog: '监控日志',
      monitorLogCustomerService: '监控日志（客服）',

      // Profile
      profileList: '个人中心',
      profileListCustomerService: '个人中心（客服）',

      // System management
      dynamicPayScript: '动态支付脚本',
      dynamicPayScriptReadOnly: '动态支付脚本（只读）',
      dynamicPayScriptRecord: '脚本调用记录',
      dynamicPayScriptRecordReadOnly: '脚本调用记录（只读）',
      telegramWhitelist: 'Telegram 白名单',
      telegramWhitelistReadOnly: 'Telegram 白名单（只读）',
      telegramBotGroup: 'Telegram 机器人群组',
      telegramBotGroupReadOnly: 'Telegram 机器人群组（只读）',
      transferBot: '转账机器人',
      transferBotReadOnly: '转账机器人（只读）',
      monitorScript: '监控脚本',
      monitorScriptReadOnly: '监控脚本（只读）',
      bankNumber: '银行号码',
      bankNumberReadOnly: '银行号码（只读）',
      accountManagement: '账号管理',
      accountManagementReadOnly: '账号管理（只读）',
      systemConfig: '全局配置',
      systemConfigReadOnly: '全局配置（只读）',
      entityData: '实体数据',
      entityDataReadOnly: '实体数据（只读）',
      systemMaintenance: '系统维护',
      systemMaintenanceReadOnly: '系统维护（只读）',
      userProductConfig: '用户产品配置',
      userProductConfigReadOnly: '用户产品配置（只读）',
      orderSendTest: '订单发送测试',
      orderSendTestReadOnly: '订单发送测试（只读）',
      auditLog: '审计日志',
      auditLogReadOnly: '审计日志（只读）',
      onlineUsers: '在线用户',
      onlineUsersReadOnly: '在线用户（只读）',
      ipWhitelist: 'IP 白名单',
      ipWhitelistReadOnly: 'IP 白名单（只读）',
      nameBlacklist: '姓名黑名单',
      nameBlacklistReadOnly: '姓名黑名单（只读）',
      orderCallback: '订单回调',
      orderCallbackReadOnly: '订单回调（只读）',
      orderCallbackDetail: '回调详情',
      orderCallbackDetailReadOnly: '回调详情（只读）',
      payGatewayConfig: '支付网关配置',
      payGatewayConfigReadOnly: '支付网关配置（只读）',
      messageTemplate: '消息模板',
      messageTemplateReadOnly: '消息模板（只读）',
      orderClearHistory: '订单清理记录',
      orderClearHistoryReadOnly: '订单清理记录（只读）',

      // Other
      todoList: '待办事项',
    },
    menu: {
      home: '首页',
      merchants: '商户管理',
      suppliers: '码商管理',
      receivingAccounts: '收款账户',
      payoutAccounts: '代付账户',
      collectionOrders: '代收订单',
      records: '流水记录',
      security: '安全节点',
      orderAnalysis: '订单分析',
      payoutOrders: '代付订单',
      batchPayout: '批量代付',
      collectionStatistics: '代收统计',
      payoutStatistics: '代付统计',
      funds: '资金管理',
      monitor: '监控日志',
      profile: '个人中心',
      system: '系统管理',
      other: '其他',
    },
  },

  'zh-TW': {
    route: {
      // Shell, sign-in and error pages
      login: '登入',
      googleVerify: 'Google 驗證',
      root: '首頁',
      home: '首頁',
      error401: '無權限',
      error404: '找不到頁面',
      messagePage: '訊息中心',
      errorLoggerPage: '腳本錯誤',

      // Merchants
      merchantList: '商戶列表',
      merchantListCustomerService: '商戶列表（客服）',

      // Suppliers
      supplierList: '碼商列表',
      supplierListCustomerService: '碼商列表（客服）',
      supplierProxy: '碼商代理',

      // Receiving accounts
      internationalCardToCardList: '國際卡轉卡（碼商）',
      internationalCardToCardListAdmin: '國際卡轉卡',
      internationalCardToCardListAdminCustomerService: '國際卡轉卡（客服）',
      usdtFloatingList: 'USDT 自動代收（碼商）',
      usdtFloatingListAdmin: 'USDT 自動代收',
      usdtFloatingListAdminCustomerService: 'USDT 自動代收（客服）',
      kenyaListAdmin: '肯亞收款帳戶',
      kenyaListAdminCustomerService: '肯亞收款帳戶（客服）',
      otherChannelCardToCard: '卡轉卡（碼商）',
      otherChannelCardToCardAdmin: '卡轉卡',
      otherChannelWechat: '微信支付（碼商）',
      otherChannelWechatAdmin: '微信支付',
      otherChannelAlipay: '支付寶（碼商）',
      otherChannelAlipayAdmin: '支付寶',
      otherChannelOthers: '其他通道（碼商）',
      otherChannelOthersAdmin: '其他通道',

      // Payout accounts
      indiaAutoPayoutList: '印度自動代付（碼商）',
      indiaAutoPayoutListAdmin: '印度自動代付',
      indiaAutoPayoutListAdminCustomerService: '印度自動代付（客服）',
      razorpayPayProxyList: 'Razorpay 代付（碼商）',
      razorpayPayProxyListAdmin: 'Razorpay 代付',
      razorpayPayProxyListAdminCustomerService: 'Razorpay 代付（客服）',
      usdtPayProxyList: 'USDT 自動代付（碼商）',
      usdtPayProxyListAdmin: 'USDT 自動代付',
      usdtPayProxyListAdminCustomerService: 'USDT 自動代付（客服）',

      // Collection orders
      orderList: '代收訂單',
      orderListCustomerService: '代收訂單（客服）',
      orderListSupplier: '代收訂單（碼商）',
      orderListSupplierProxy: '代收訂單（團隊）',
      orderListMerchant: '代收訂單（商戶）',
      orderProfile: '訂單效能分析',
      orderTestMerchant: 'API 測試',

      // Records
      bankStatementList: '銀行簡訊紀錄',
      bankStatementListSa: '銀行簡訊紀錄（超管）',
      webMessageRecordAdmin: '網頁訊息紀錄',
      webMessageRecordAdminCustomerService: '網頁訊息紀錄（客服）',
      usdtTransactionRecordAdmin: 'USDT 交易紀錄',
      usdtTransactionRecordAdminCustomerService: 'USDT 交易紀錄（客服）',

      // Security nodes
      securityPatchList: '安全鏈補單明細',
      securityNodeList: '可信鏈路',

      // Order analysis
      orderAnalysisList: '訂單分析',
      orderAnalysisListCustomerService: '訂單分析（客服）',
      ipAnalysisList: 'IP 分析',
      ipAnalysisListCustomerService: 'IP 分析（客服）',
      frozenIpList: '異常 IP',
      frozenIpListCustomerService: '異常 IP（客服）',
      lostOrderList: '掉單分析',
      lostOrderListCustomerService: '掉單分析（客服）',

      // Payout orders
      payProxyOrderList: '代付訂單',
      payProxyOrderListCustomerService: '代付訂單（客服）',
      payProxyOrderListSupplier: '代付訂單（碼商）',
      payProxyOrderListSupplierProxy: '代付訂單（團隊）',
      payProxyOrderListMerchant: '代付訂單（商戶）',

      // Batch payout
      payoutBatchList: '批次代付',
      payoutBatchListCustomerService: '批次代付（客服）',

      // Collection statistics
      orderStatistics: '代收統計',
      orderStatisticsCustomerService: '代收統計（客服）',
      orderStatisticsByMerchantCustomerService: '商戶代收統計（客服）',
      orderStatisticsByMerchantV2: '商戶代收統計',
      orderStatisticsSupplierV2: '代收統計（碼商）',
      orderStatisticsMerchant: '代收統計（商戶）',

      // Payout statistics
      payProxyOrderStatistics: '代付統計',
      payProxyOrderStatisticsCustomerService: '代付統計（客服）',
      payProxyOrderStatisticsByMerchant: '商戶代付統計',
      payProxyOrderStatisticsByMerchantCustomerService: '商戶代付統計（客服）',
      payProxyOrderStatisticsSupplier: '代付統計（碼商）',
      payProxyOrderStatisticsMerchant: '代付統計（商戶）',

      // Funds
      fundRecord: '我的資金紀錄',
      fundRecordAdmin: '資金紀錄',
      fundRecordAdminCustomerService: '資金紀錄（客服）',
      financeFundFlow: '資金流水',

      // Monitor
      monitorLog: '監控日誌',
      monitorLogCustomerService: '監控日誌（客服）',

      // Profile
      profileList: '個人中心',
      profileListCustomerService: '個人中心（客服）',

      // System management
      dynamicPayScript: '動態支付腳本',
      dynamicPayScriptReadOnly: '動態支付腳本（唯讀）',
      dynamicPayScriptRecord: '腳本呼叫紀錄',
      dynamicPayScriptRecordReadOnly: '腳本呼叫紀錄（唯讀）',
      telegramWhitelist: 'Telegram 白名單',
      telegramWhitelistReadOnly: 'Telegram 白名單（唯讀）',
      telegramBotGroup: 'Telegram 機器人群組',
      telegramBotGroupReadOnly: 'Telegram 機器人群組（唯讀）',
      transferBot: '轉帳機器人',
      transferBotReadOnly: '轉帳機器人（唯讀）',
      monitorScript: '監控腳本',
      monitorScriptReadOnly: '監控腳本（唯讀）',
      bankNumber: '銀行號碼',
      bankNumberReadOnly: '銀行號碼（唯讀）',
      accountManagement: '帳號管理',
      accountManagementReadOnly: '帳號管理（唯讀）',
      systemConfig: '全域設定',
      systemConfigReadOnly: '全域設定（唯讀）',
      entityData: '實體資料',
      entityDataReadOnly: '實體資料（唯讀）',
      systemMaintenance: '系統維護',
      systemMaintenanceReadOnly: '系統維護（唯讀）',
      userProductConfig: '使用者產品設定',
      userProductConfigReadOnly: '使用者產品設定（唯讀）',
      orderSendTest: '訂單發送測試',
      orderSendTestReadOnly: '訂單發送測試（唯讀）',
      auditLog: '稽核日誌',
      auditLogReadOnly: '稽核日誌（唯讀）',
      onlineUsers: '線上使用者',
      onlineUsersReadOnly: '線上使用者（唯讀）',
      ipWhitelist: 'IP 白名單',
      ipWhitelistReadOnly: 'IP 白名單（唯讀）',
      nameBlacklist: '姓名黑名單',
      nameBlacklistReadOnly: '姓名黑名單（唯讀）',
      orderCallback: '訂單回調',
      orderCallbackReadOnly: '訂單回調（唯讀）',
      orderCallbackDetail: '回調詳情',
      orderCallbackDetailReadOnly: '回調詳情（唯讀）',
      payGatewayConfig: '支付閘道設定',
      payGatewayConfigReadOnly: '支付閘道設定（唯讀）',
      messageTemplate: '訊息範本',
      messageTemplateReadOnly: '訊息範本（唯讀）',
      orderClearHistory: '訂單清理紀錄',
      orderClearHistoryReadOnly: '訂單清理紀錄（唯讀）',

      // Other
      todoList: '待辦事項',
    },
    menu: {
      home: '首頁',
      merchants: '商戶管理',
      suppliers: '碼商管理',
      receivingAccounts: '收款帳戶',
      payoutAccounts: '代付帳戶',
      collectionOrders: '代收訂單',
      records: '流水紀錄',
      security: '安全節點',
      orderAnalysis: '訂單分析',
      payoutOrders: '代付訂單',
      batchPayout: '批次代付',
      collectionStatistics: '代收統計',
      payoutStatistics: '代付統計',
      funds: '資金管理',
      monitor: '監控日誌',
      profile: '個人中心',
      system: '系統管理',
      other: '其他',
    },
  },

  'en-US': {
    route: {
      // Shell, sign-in and error pages
      login: 'Sign in',
      googleVerify: 'Authenticator',
      root: 'Home',
      home: 'Home',
      error401: 'No permission',
      error404: 'Page not found',
      messagePage: 'Messages',
      errorLoggerPage: 'Script errors',

      // Merchants
      merchantList: 'Merchants',
      merchantListCustomerService: 'Merchants (CS)',

      // Suppliers
      supplierList: 'Suppliers',
      supplierListCustomerService: 'Suppliers (CS)',
      supplierProxy: 'Supplier agents',

      // Receiving accounts
      internationalCardToCardList: 'Intl. card-to-card (supplier)',
      internationalCardToCardListAdmin: 'Intl. card-to-card',
      internationalCardToCardListAdminCustomerService: 'Intl. card-to-card (CS)',
      usdtFloatingList: 'USDT collection (supplier)',
      usdtFloatingListAdmin: 'USDT collection',
      usdtFloatingListAdminCustomerService: 'USDT collection (CS)',
      kenyaListAdmin: 'Kenya accounts',
      kenyaListAdminCustomerService: 'Kenya accounts (CS)',
      otherChannelCardToCard: 'Card to card (supplier)',
      otherChannelCardToCardAdmin: 'Card to card',
      otherChannelWechat: 'WeChat Pay (supplier)',
      otherChannelWechatAdmin: 'WeChat Pay',
      otherChannelAlipay: 'Alipay (supplier)',
      otherChannelAlipayAdmin: 'Alipay',
      otherChannelOthers: 'Other channels (supplier)',
      otherChannelOthersAdmin: 'Other channels',

      // Payout accounts
      indiaAutoPayoutList: 'India auto payout (supplier)',
      indiaAutoPayoutListAdmin: 'India auto payout',
      indiaAutoPayoutListAdminCustomerService: 'India auto payout (CS)',
      razorpayPayProxyList: 'Razorpay payout (supplier)',
      razorpayPayProxyListAdmin: 'Razorpay payout',
      razorpayPayProxyListAdminCustomerService: 'Razorpay payout (CS)',
      usdtPayProxyList: 'USDT payout (supplier)',
      usdtPayProxyListAdmin: 'USDT payout',
      usdtPayProxyListAdminCustomerService: 'USDT payout (CS)',

      // Collection orders
      orderList: 'Collection orders',
      orderListCustomerService: 'Collection orders (CS)',
      orderListSupplier: 'Collection orders (supplier)',
      orderListSupplierProxy: 'Collection orders (team)',
      orderListMerchant: 'Collection orders (merchant)',
      orderProfile: 'Order performance',
      orderTestMerchant: 'API test',

      // Records
      bankStatementList: 'Bank SMS',
      bankStatementListSa: 'Bank SMS (super admin)',
      webMessageRecordAdmin: 'Web messages',
      webMessageRecordAdminCustomerService: 'Web messages (CS)',
      usdtTransactionRecordAdmin: 'USDT transactions',
      usdtTransactionRecordAdminCustomerService: 'USDT transactions (CS)',

      // Security nodes
      securityPatchList: 'Chain supplements',
      securityNodeList: 'Trusted chains',

      // Order analysis
      orderAnalysisList: 'Order analysis',
      orderAnalysisListCustomerService: 'Order analysis (CS)',
      ipAnalysisList: 'IP analysis',
      ipAnalysisListCustomerService: 'IP analysis (CS)',
      frozenIpList: 'Abnormal IPs',
      frozenIpListCustomerService: 'Abnormal IPs (CS)',
      lostOrderList: 'Lost orders',
      lostOrderListCustomerService: 'Lost orders (CS)',

      // Payout orders
      payProxyOrderList: 'Payout orders',
      payProxyOrderListCustomerService: 'Payout orders (CS)',
      payProxyOrderListSupplier: 'Payout orders (supplier)',
      payProxyOrderListSupplierProxy: 'Payout orders (team)',
      payProxyOrderListMerchant: 'Payout orders (merchant)',

      // Batch payout
      payoutBatchList: 'Batch payout',
      payoutBatchListCustomerService: 'Batch payout (CS)',

      // Collection statistics
      orderStatistics: 'Collection stats',
      orderStatisticsCustomerService: 'Collection stats (CS)',
      orderStatisticsByMerchantCustomerService: 'Collection by merchant (CS)',
      orderStatisticsByMerchantV2: 'Collection by merchant',
      orderStatisticsSupplierV2: 'Collection stats (supplier)',
      orderStatisticsMerchant: 'Collection stats (merchant)',

      // Payout statistics
      payProxyOrderStatistics: 'Payout stats',
      payProxyOrderStatisticsCustomerService: 'Payout stats (CS)',
      payProxyOrderStatisticsByMerchant: 'Payout by merchant',
      payProxyOrderStatisticsByMerchantCustomerService: 'Payout by merchant (CS)',
      payProxyOrderStatisticsSupplier: 'Payout stats (supplier)',
      payProxyOrderStatisticsMerchant: 'Payout stats (merchant)',

      // Funds
      fundRecord: 'My fund records',
      fundRecordAdmin: 'Fund records',
      fundRecordAdminCustomerService: 'Fund records (CS)',
      financeFundFlow: 'Fund flow',

      // Monitor
      monitorLog: 'Monitor logs',
      monitorLogCustomerService: 'Monitor logs (CS)',

      // Profile
      profileList: 'Profile',
      profileListCustomerService: 'Profile (CS)',

      // System management
      dynamicPayScript: 'Pay scripts',
      dynamicPayScriptReadOnly: 'Pay scripts (read-only)',
      dynamicPayScriptRecord: 'Script calls',
      dynamicPayScriptRecordReadOnly: 'Script calls (read-only)',
      telegramWhitelist: 'Telegram whitelist',
      telegramWhitelistReadOnly: 'Telegram whitelist (read-only)',
      telegramBotGroup: 'Telegram bot groups',
      telegramBotGroupReadOnly: 'Telegram bot groups (read-only)',
      transferBot: 'Transfer bot',
      transferBotReadOnly: 'Transfer bot (read-only)',
      monitorScript: 'Monitor scripts',
      monitorScriptReadOnly: 'Monitor scripts (read-only)',
      bankNumber: 'Bank numbers',
      bankNumberReadOnly: 'Bank numbers (read-only)',
      accountManagement: 'User accounts',
      accountManagementReadOnly: 'User accounts (read-only)',
      systemConfig: 'Global settings',
      systemConfigReadOnly: 'Global settings (read-only)',
      entityData: 'Entity data',
      entityDataReadOnly: 'Entity data (read-only)',
      systemMaintenance: 'Maintenance',
      systemMaintenanceReadOnly: 'Maintenance (read-only)',
      userProductConfig: 'User products',
      userProductConfigReadOnly: 'User products (read-only)',
      orderSendTest: 'Order send test',
      orderSendTestReadOnly: 'Order send test (read-only)',
      auditLog: 'Audit log',
      auditLogReadOnly: 'Audit log (read-only)',
      onlineUsers: 'Online users',
      onlineUsersReadOnly: 'Online users (read-only)',
      ipWhitelist: 'IP whitelist',
      ipWhitelistReadOnly: 'IP whitelist (read-only)',
      nameBlacklist: 'Name blacklist',
      nameBlacklistReadOnly: 'Name blacklist (read-only)',
      orderCallback: 'Order callbacks',
      orderCallbackReadOnly: 'Order callbacks (read-only)',
      orderCallbackDetail: 'Callback details',
      orderCallbackDetailReadOnly: 'Callback details (read-only)',
      payGatewayConfig: 'Gateway settings',
      payGatewayConfigReadOnly: 'Gateway settings (read-only)',
      messageTemplate: 'Message templates',
      messageTemplateReadOnly: 'Message templates (read-only)',
      orderClearHistory: 'Order cleanup log',
      orderClearHistoryReadOnly: 'Order cleanup log (read-only)',

      // Other
      todoList: 'To-do list',
    },
    menu: {
      home: 'Home',
      merchants: 'Merchants',
      suppliers: 'Suppliers',
      receivingAccounts: 'Receiving accounts',
      payoutAccounts: 'Payout accounts',
      collectionOrders: 'Collection orders',
      records: 'Records',
      security: 'Security nodes',
      orderAnalysis: 'Order analysis',
      payoutOrders: 'Payout orders',
      batchPayout: 'Batch payout',
      collectionStatistics: 'Collection statistics',
      payoutStatistics: 'Payout statistics',
      funds: 'Funds',
      monitor: 'Monitoring',
      profile: 'Profile',
      system: 'System management',
      other: 'Other',
    },
  },
} satisfies Locales;
