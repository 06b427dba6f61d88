/**
 * The route names that have a page. Plain data (no React) so the browser tests can compute each
 * role's exact menu; `PAGES` in pages.tsx must have exactly these keys (the type checker holds it).
 */
export const BUILT_PAGES = [
  'home',
  'messagePage',
  'errorLoggerPage',
  'profileList',
  'profileListCustomerService',
  'accountManagement',
  'accountManagementReadOnly',
  'onlineUsers',
  'onlineUsersReadOnly',
  'auditLog',
  'auditLogReadOnly',
  'merchantList',
  'merchantListCustomerService',
  'supplierList',
  'supplierListCustomerService',
  'supplierProxy',
  'userProductConfig',
  'userProductConfigReadOnly',
  'fundRecord',
  'fundRecordAdmin',
  'fundRecordAdminCustomerService',
  // Receiving and payout accounts (features/resources/channels.ts RESOURCE_PAGES)
  'internationalCardToCardList',
  'internationalCardToCardListAdmin',
  'internationalCardToCardListAdminCustomerService',
  'indiaAutoPayoutList',
  'indiaAutoPayoutListAdmin',
  'indiaAutoPayoutListAdminCustomerService',
  'razorpayPayProxyList',
  'razorpayPayProxyListAdmin',
  'razorpayPayProxyListAdminCustomerService',
  'usdtFloatingList',
  'usdtFloatingListAdmin',
  'usdtFloatingListAdminCustomerService',
  'usdtPayProxyList',
  'usdtPayProxyListAdmin',
  'usdtPayProxyListAdminCustomerService',
  'kenyaListAdmin',
  'kenyaListAdminCustomerService',
  'otherChannelCardToCard',
  'otherChannelCardToCardAdmin',
  'otherChannelWechat',
  'otherChannelWechatAdmin',
  'otherChannelAlipay',
  'otherChannelAlipayAdmin',
  'otherChannelOthers',
  'otherChannelOthersAdmin',
  // Collection order lists (features/orders/pages.ts ORDER_PAGES)
  'orderList',
  'orderListCustomerService',
  'orderListSupplier',
  'orderListSupplierProxy',
  'orderListMerchant',
  // Payout order lists (features/payouts/pages.ts PAYOUT_PAGES)
  'payProxyOrderList',
  'payProxyOrderListCustomerService',
  'payProxyOrderListSupplier',
  'payProxyOrderListSupplierProxy',
  'payProxyOrderListMerchant',
  // The merchant's API test page (features/apitest)
  'orderTestMerchant',
  // Order performance analysis (features/orderprofile)
  'orderProfile',
  // Merchant callbacks (features/callbacks)
  'orderCallback',
  'orderCallbackReadOnly',
  'orderCallbackDetail',
  'orderCallbackDetailReadOnly',
  'orderSendTest',
  'orderSendTestReadOnly',
  // Batch payouts (features/payoutBatches)
  'payoutBatchList',
  'payoutBatchListCustomerService',
  // The entity data view (features/entityData)
  'entityData',
  'entityDataReadOnly',
  // The staff sign-in IP whitelist (features/ipWhitelist)
  'ipWhitelist',
  'ipWhitelistReadOnly',
  // The name blacklist (features/nameBlacklist)
  'nameBlacklist',
  'nameBlacklistReadOnly',
  // Global settings (features/systemConfig)
  'systemConfig',
  'systemConfigReadOnly',
  // Telegram bots (features/telegram)
  'telegramWhitelist',
  'telegramWhitelistReadOnly',
  'telegramBotGroup',
  'telegramBotGroupReadOnly',
  'messageTemplate',
  'messageTemplateReadOnly',
  // Dynamic pay scripts and their call records (features/payScripts)
  'dynamicPayScript',
  'dynamicPayScriptReadOnly',
  'dynamicPayScriptRecord',
  'dynamicPayScriptRecordReadOnly',
] as const;
export type BuiltPage = (typeof BUILT_PAGES)[number];
