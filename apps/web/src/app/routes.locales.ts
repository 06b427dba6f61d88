import type { Locales } from '../i18n/types.js';

/**
 * Page titles (`route.<name>`, one per ROUTES row) and side-menu group titles (`menu.<group>`, one per
 * MENU_GROUPS entry). Titles appear in the 256 px side menu, the breadcrumb and the tag tabs, so they
 * stay short. A page's role variants share its title, without a role suffix: the role picks the
 * variant (no menu holds two of them), the title names the page. A supplier's team lists, which it
 * sees beside its own, say 'team'.
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
      merchantListCustomerService: '商户列表',

      // Suppliers
      supplierList: '码商列表',
      supplierListCustomerService: '码商列表',
      supplierProxy: '码商代理',

      // Receiving accounts
      internationalCardToCardList: '国际卡转卡',
      internationalCardToCardListAdmin: '国际卡转卡',
      internationalCardToCardListAdminCustomerService: '国际卡转卡',
      usdtFloatingList: 'USDT 自动代收',
      usdtFloatingListAdmin: 'USDT 自动代收',
      usdtFloatingListAdminCustomerService: 'USDT 自动代收',
      kenyaListAdmin: '肯尼亚收款账户',
      kenyaListAdminCustomerService: '肯尼亚收款账户',
      otherChannelCardToCard: '卡转卡',
      otherChannelCardToCardAdmin: '卡转卡',
      otherChannelWechat: '微信支付',
      otherChannelWechatAdmin: '微信支付',
      otherChannelAlipay: '支付宝',
      otherChannelAlipayAdmin: '支付宝',
      otherChannelOthers: '其他通道',
      otherChannelOthersAdmin: '其他通道',

      // Payout accounts
      // The spec's /indiaAutoPayout pages list bank payout (2001) accounts; India auto payout (2002) is a
      // gateway product, its accounts on /razorpayPayProxy.
      indiaAutoPayoutList: '银行代付',
      indiaAutoPayoutListAdmin: '银行代付',
      indiaAutoPayoutListAdminCustomerService: '银行代付',
      razorpayPayProxyList: 'Razorpay 代付',
      razorpayPayProxyListAdmin: 'Razorpay 代付',
      razorpayPayProxyListAdminCustomerService: 'Razorpay 代付',
      usdtPayProxyList: 'USDT 自动代付',
      usdtPayProxyListAdmin: 'USDT 自动代付',
      usdtPayProxyListAdminCustomerService: 'USDT 自动代付',

      // Collection orders
      orderList: '代收订单',
      orderListCustomerService: '代收订单',
      orderListSupplier: '代收订单',
      orderListSupplierProxy: '团队代收订单',
      orderListMerchant: '代收订单',
      orderProfile: '订单性能分析',
      orderTestMerchant: '接口测试',

      // Records
      bankStatementList: '银行短信记录',
      bankStatementListSa: '银行短信记录',
      webMessageRecordAdmin: '网页消息记录',
      webMessageRecordAdminCustomerService: '网页消息记录',
      usdtTransactionRecordAdmin: 'USDT 交易记录',
      usdtTransactionRecordAdminCustomerService: 'USDT 交易记录',

      // Security nodes
      securityPatchList: '安全链补单明细',
      securityNodeList: '可信链路',

      // Order analysis
      orderAnalysisList: '订单分析',
      orderAnalysisListCustomerService: '订单分析',
      ipAnalysisList: 'IP 分析',
      ipAnalysisListCustomerService: 'IP 分析',
      frozenIpList: '异常 IP',
      frozenIpListCustomerService: '异常 IP',
      lostOrderList: '掉单分析',
      lostOrderListCustomerService: '掉单分析',

      // Payout orders
      payProxyOrderList: '代付订单',
      payProxyOrderListCustomerService: '代付订单',
      payProxyOrderListSupplier: '代付订单',
      payProxyOrderListSupplierProxy: '团队代付订单',
      payProxyOrderListMerchant: '代付订单',

      // Batch payout
      payoutBatchList: '批量代付',
      payoutBatchListCustomerService: '批量代付',

      // Collection statistics
      orderStatistics: '代收统计',
      orderStatisticsCustomerService: '代收统计',
      orderStatisticsByMerchantCustomerService: '商户代收统计',
      orderStatisticsByMerchantV2: '商户代收统计',
      orderStatisticsSupplierV2: '代收统计',
      orderStatisticsMerchant: '代收统计',

      // Payout statistics
      payProxyOrderStatistics: '代付统计',
      payProxyOrderStatisticsCustomerService: '代付统计',
      payProxyOrderStatisticsByMerchant: '商户代付统计',
      payProxyOrderStatisticsByMerchantCustomerService: '商户代付统计',
      payProxyOrderStatisticsSupplier: '代付统计',
      payProxyOrderStatisticsMerchant: '代付统计',

      // Funds
      fundRecord: '我的资金记录',
      fundRecordAdmin: '资金记录',
      fundRecordAdminCustomerService: '资金记录',
      financeFundFlow: '资金流水',

      // Monitor
      monitorLog: '监控日志',
      monitorLogCustomerService: '监控日志',

      // Profile
      profileList: '个人中心',
      profileListCustomerService: '个人中心',

      // System management
      dynamicPayScript: '动态支付脚本',
      dynamicPayScriptReadOnly: '动态支付脚本',
      dynamicPayScriptRecord: '脚本调用记录',
      dynamicPayScriptRecordReadOnly: '脚本调用记录',
      telegramWhitelist: 'Telegram 白名单',
      telegramWhitelistReadOnly: 'Telegram 白名单',
      telegramBotGroup: 'Telegram 机器人群组',
      telegramBotGroupReadOnly: 'Telegram 机器人群组',
      transferBot: '转账机器人',
      transferBotReadOnly: '转账机器人',
      monitorScript: '监控脚本',
      monitorScriptReadOnly: '监控脚本',
      bankNumber: '银行号码',
      bankNumberReadOnly: '银行号码',
      accountManagement: '账号管理',
      accountManagementReadOnly: '账号管理',
      systemConfig: '全局配置',
      systemConfigReadOnly: '全局配置',
      entityData: '实体数据',
      entityDataReadOnly: '实体数据',
      systemMaintenance: '系统维护',
      systemMaintenanceReadOnly: '系统维护',
      userProductConfig: '用户产品配置',
      userProductConfigReadOnly: '用户产品配置',
      orderSendTest: '订单发送测试',
      orderSendTestReadOnly: '订单发送测试',
      auditLog: '审计日志',
      auditLogReadOnly: '审计日志',
      onlineUsers: '在线用户',
      onlineUsersReadOnly: '在线用户',
      ipWhitelist: 'IP 白名单',
      ipWhitelistReadOnly: 'IP 白名单',
      nameBlacklist: '姓名黑名单',
      nameBlacklistReadOnly: '姓名黑名单',
      orderCallback: '订单回调',
      orderCallbackReadOnly: '订单回调',
      orderCallbackDetail: '回调详情',
      orderCallbackDetailReadOnly: '回调详情',
      payGatewayConfig: '支付网关配置',
      payGatewayConfigReadOnly: '支付网关配置',
      messageTemplate: '消息模板',
      messageTemplateReadOnly: '消息模板',
      orderClearHistory: '订单清理记录',
      orderClearHistoryReadOnly: '订单清理记录',

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
      merchantListCustomerService: '商戶列表',

      // Suppliers
      supplierList: '碼商列表',
      supplierListCustomerService: '碼商列表',
      supplierProxy: '碼商代理',

      // Receiving accounts
      internationalCardToCardList: '國際卡轉卡',
      internationalCardToCardListAdmin: '國際卡轉卡',
      internationalCardToCardListAdminCustomerService: '國際卡轉卡',
      usdtFloatingList: 'USDT 自動代收',
      usdtFloatingListAdmin: 'USDT 自動代收',
      usdtFloatingListAdminCustomerService: 'USDT 自動代收',
      kenyaListAdmin: '肯亞收款帳戶',
      kenyaListAdminCustomerService: '肯亞收款帳戶',
      otherChannelCardToCard: '卡轉卡',
      otherChannelCardToCardAdmin: '卡轉卡',
      otherChannelWechat: '微信支付',
      otherChannelWechatAdmin: '微信支付',
      otherChannelAlipay: '支付寶',
      otherChannelAlipayAdmin: '支付寶',
      otherChannelOthers: '其他通道',
      otherChannelOthersAdmin: '其他通道',

      // Payout accounts
      indiaAutoPayoutList: '銀行代付',
      indiaAutoPayoutListAdmin: '銀行代付',
      indiaAutoPayoutListAdminCustomerService: '銀行代付',
      razorpayPayProxyList: 'Razorpay 代付',
      razorpayPayProxyListAdmin: 'Razorpay 代付',
      razorpayPayProxyListAdminCustomerService: 'Razorpay 代付',
      usdtPayProxyList: 'USDT 自動代付',
      usdtPayProxyListAdmin: 'USDT 自動代付',
      usdtPayProxyListAdminCustomerService: 'USDT 自動代付',

      // Collection orders
      orderList: '代收訂單',
      orderListCustomerService: '代收訂單',
      orderListSupplier: '代收訂單',
      orderListSupplierProxy: '團隊代收訂單',
      orderListMerchant: '代收訂單',
      orderProfile: '訂單效能分析',
      orderTestMerchant: 'API 測試',

      // Records
      bankStatementList: '銀行簡訊紀錄',
      bankStatementListSa: '銀行簡訊紀錄',
      webMessageRecordAdmin: '網頁訊息紀錄',
      webMessageRecordAdminCustomerService: '網頁訊息紀錄',
      usdtTransactionRecordAdmin: 'USDT 交易紀錄',
      usdtTransactionRecordAdminCustomerService: 'USDT 交易紀錄',

      // Security nodes
      securityPatchList: '安全鏈補單明細',
      securityNodeList: '可信鏈路',

      // Order analysis
      orderAnalysisList: '訂單分析',
      orderAnalysisListCustomerService: '訂單分析',
      ipAnalysisList: 'IP 分析',
      ipAnalysisListCustomerService: 'IP 分析',
      frozenIpList: '異常 IP',
      frozenIpListCustomerService: '異常 IP',
      lostOrderList: '掉單分析',
      lostOrderListCustomerService: '掉單分析',

      // Payout orders
      payProxyOrderList: '代付訂單',
      payProxyOrderListCustomerService: '代付訂單',
      payProxyOrderListSupplier: '代付訂單',
      payProxyOrderListSupplierProxy: '團隊代付訂單',
      payProxyOrderListMerchant: '代付訂單',

      // Batch payout
      payoutBatchList: '批次代付',
      payoutBatchListCustomerService: '批次代付',

      // Collection statistics
      orderStatistics: '代收統計',
      orderStatisticsCustomerService: '代收統計',
      orderStatisticsByMerchantCustomerService: '商戶代收統計',
      orderStatisticsByMerchantV2: '商戶代收統計',
      orderStatisticsSupplierV2: '代收統計',
      orderStatisticsMerchant: '代收統計',

      // Payout statistics
      payProxyOrderStatistics: '代付統計',
      payProxyOrderStatisticsCustomerService: '代付統計',
      payProxyOrderStatisticsByMerchant: '商戶代付統計',
      payProxyOrderStatisticsByMerchantCustomerService: '商戶代付統計',
      payProxyOrderStatisticsSupplier: '代付統計',
      payProxyOrderStatisticsMerchant: '代付統計',

      // Funds
      fundRecord: '我的資金紀錄',
      fundRecordAdmin: '資金紀錄',
      fundRecordAdminCustomerService: '資金紀錄',
      financeFundFlow: '資金流水',

      // Monitor
      monitorLog: '監控日誌',
      monitorLogCustomerService: '監控日誌',

      // Profile
      profileList: '個人中心',
      profileListCustomerService: '個人中心',

      // System management
      dynamicPayScript: '動態支付腳本',
      dynamicPayScriptReadOnly: '動態支付腳本',
      dynamicPayScriptRecord: '腳本呼叫紀錄',
      dynamicPayScriptRecordReadOnly: '腳本呼叫紀錄',
      telegramWhitelist: 'Telegram 白名單',
      telegramWhitelistReadOnly: 'Telegram 白名單',
      telegramBotGroup: 'Telegram 機器人群組',
      telegramBotGroupReadOnly: 'Telegram 機器人群組',
      transferBot: '轉帳機器人',
      transferBotReadOnly: '轉帳機器人',
      monitorScript: '監控腳本',
      monitorScriptReadOnly: '監控腳本',
      bankNumber: '銀行號碼',
      bankNumberReadOnly: '銀行號碼',
      accountManagement: '帳號管理',
      accountManagementReadOnly: '帳號管理',
      systemConfig: '全域設定',
      systemConfigReadOnly: '全域設定',
      entityData: '實體資料',
      entityDataReadOnly: '實體資料',
      systemMaintenance: '系統維護',
      systemMaintenanceReadOnly: '系統維護',
      userProductConfig: '使用者產品設定',
      userProductConfigReadOnly: '使用者產品設定',
      orderSendTest: '訂單發送測試',
      orderSendTestReadOnly: '訂單發送測試',
      auditLog: '稽核日誌',
      auditLogReadOnly: '稽核日誌',
      onlineUsers: '線上使用者',
      onlineUsersReadOnly: '線上使用者',
      ipWhitelist: 'IP 白名單',
      ipWhitelistReadOnly: 'IP 白名單',
      nameBlacklist: '姓名黑名單',
      nameBlacklistReadOnly: '姓名黑名單',
      orderCallback: '訂單回調',
      orderCallbackReadOnly: '訂單回調',
      orderCallbackDetail: '回調詳情',
      orderCallbackDetailReadOnly: '回調詳情',
      payGatewayConfig: '支付閘道設定',
      payGatewayConfigReadOnly: '支付閘道設定',
      messageTemplate: '訊息範本',
      messageTemplateReadOnly: '訊息範本',
      orderClearHistory: '訂單清理紀錄',
      orderClearHistoryReadOnly: '訂單清理紀錄',

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
      merchantListCustomerService: 'Merchants',

      // Suppliers
      supplierList: 'Suppliers',
      supplierListCustomerService: 'Suppliers',
      supplierProxy: 'Supplier agents',

      // Receiving accounts
      internationalCardToCardList: 'Intl. card-to-card',
      internationalCardToCardListAdmin: 'Intl. card-to-card',
      internationalCardToCardListAdminCustomerService: 'Intl. card-to-card',
      usdtFloatingList: 'USDT collection',
      usdtFloatingListAdmin: 'USDT collection',
      usdtFloatingListAdminCustomerService: 'USDT collection',
      kenyaListAdmin: 'Kenya accounts',
      kenyaListAdminCustomerService: 'Kenya accounts',
      otherChannelCardToCard: 'Card to card',
      otherChannelCardToCardAdmin: 'Card to card',
      otherChannelWechat: 'WeChat Pay',
      otherChannelWechatAdmin: 'WeChat Pay',
      otherChannelAlipay: 'Alipay',
      otherChannelAlipayAdmin: 'Alipay',
      otherChannelOthers: 'Other channels',
      otherChannelOthersAdmin: 'Other channels',

      // Payout accounts
      indiaAutoPayoutList: 'Bank payout',
      indiaAutoPayoutListAdmin: 'Bank payout',
      indiaAutoPayoutListAdminCustomerService: 'Bank payout',
      razorpayPayProxyList: 'Razorpay payout',
      razorpayPayProxyListAdmin: 'Razorpay payout',
      razorpayPayProxyListAdminCustomerService: 'Razorpay payout',
      usdtPayProxyList: 'USDT payout',
      usdtPayProxyListAdmin: 'USDT payout',
      usdtPayProxyListAdminCustomerService: 'USDT payout',

      // Collection orders
      orderList: 'Collection orders',
      orderListCustomerService: 'Collection orders',
      orderListSupplier: 'Collection orders',
      orderListSupplierProxy: 'Team collection orders',
      orderListMerchant: 'Collection orders',
      orderProfile: 'Order performance',
      orderTestMerchant: 'API test',

      // Records
      bankStatementList: 'Bank SMS',
      bankStatementListSa: 'Bank SMS',
      webMessageRecordAdmin: 'Web messages',
      webMessageRecordAdminCustomerService: 'Web messages',
      usdtTransactionRecordAdmin: 'USDT transactions',
      usdtTransactionRecordAdminCustomerService: 'USDT transactions',

      // Security nodes
      securityPatchList: 'Chain supplements',
      securityNodeList: 'Trusted chains',

      // Order analysis
      orderAnalysisList: 'Order analysis',
      orderAnalysisListCustomerService: 'Order analysis',
      ipAnalysisList: 'IP analysis',
      ipAnalysisListCustomerService: 'IP analysis',
      frozenIpList: 'Abnormal IPs',
      frozenIpListCustomerService: 'Abnormal IPs',
      lostOrderList: 'Lost orders',
      lostOrderListCustomerService: 'Lost orders',

      // Payout orders
      payProxyOrderList: 'Payout orders',
      payProxyOrderListCustomerService: 'Payout orders',
      payProxyOrderListSupplier: 'Payout orders',
      payProxyOrderListSupplierProxy: 'Team payout orders',
      payProxyOrderListMerchant: 'Payout orders',

      // Batch payout
      payoutBatchList: 'Batch payout',
      payoutBatchListCustomerService: 'Batch payout',

      // Collection statistics
      orderStatistics: 'Collection stats',
      orderStatisticsCustomerService: 'Collection stats',
      orderStatisticsByMerchantCustomerService: 'Collection by merchant',
      orderStatisticsByMerchantV2: 'Collection by merchant',
      orderStatisticsSupplierV2: 'Collection stats',
      orderStatisticsMerchant: 'Collection stats',

      // Payout statistics
      payProxyOrderStatistics: 'Payout stats',
      payProxyOrderStatisticsCustomerService: 'Payout stats',
      payProxyOrderStatisticsByMerchant: 'Payout by merchant',
      payProxyOrderStatisticsByMerchantCustomerService: 'Payout by merchant',
      payProxyOrderStatisticsSupplier: 'Payout stats',
      payProxyOrderStatisticsMerchant: 'Payout stats',

      // Funds
      fundRecord: 'My fund records',
      fundRecordAdmin: 'Fund records',
      fundRecordAdminCustomerService: 'Fund records',
      financeFundFlow: 'Fund flow',

      // Monitor
      monitorLog: 'Monitor logs',
      monitorLogCustomerService: 'Monitor logs',

      // Profile
      profileList: 'Profile',
      profileListCustomerService: 'Profile',

      // System management
      dynamicPayScript: 'Pay scripts',
      dynamicPayScriptReadOnly: 'Pay scripts',
      dynamicPayScriptRecord: 'Script calls',
      dynamicPayScriptRecordReadOnly: 'Script calls',
      telegramWhitelist: 'Telegram whitelist',
      telegramWhitelistReadOnly: 'Telegram whitelist',
      telegramBotGroup: 'Telegram bot groups',
      telegramBotGroupReadOnly: 'Telegram bot groups',
      transferBot: 'Transfer bot',
      transferBotReadOnly: 'Transfer bot',
      monitorScript: 'Monitor scripts',
      monitorScriptReadOnly: 'Monitor scripts',
      bankNumber: 'Bank numbers',
      bankNumberReadOnly: 'Bank numbers',
      accountManagement: 'User accounts',
      accountManagementReadOnly: 'User accounts',
      systemConfig: 'Global settings',
      systemConfigReadOnly: 'Global settings',
      entityData: 'Entity data',
      entityDataReadOnly: 'Entity data',
      systemMaintenance: 'Maintenance',
      systemMaintenanceReadOnly: 'Maintenance',
      userProductConfig: 'User products',
      userProductConfigReadOnly: 'User products',
      orderSendTest: 'Order send test',
      orderSendTestReadOnly: 'Order send test',
      auditLog: 'Audit log',
      auditLogReadOnly: 'Audit log',
      onlineUsers: 'Online users',
      onlineUsersReadOnly: 'Online users',
      ipWhitelist: 'IP whitelist',
      ipWhitelistReadOnly: 'IP whitelist',
      nameBlacklist: 'Name blacklist',
      nameBlacklistReadOnly: 'Name blacklist',
      orderCallback: 'Order callbacks',
      orderCallbackReadOnly: 'Order callbacks',
      orderCallbackDetail: 'Callback details',
      orderCallbackDetailReadOnly: 'Callback details',
      payGatewayConfig: 'Gateway settings',
      payGatewayConfigReadOnly: 'Gateway settings',
      messageTemplate: 'Message templates',
      messageTemplateReadOnly: 'Message templates',
      orderClearHistory: 'Order cleanup log',
      orderClearHistoryReadOnly: 'Order cleanup log',

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
