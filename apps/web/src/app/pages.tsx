import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import type { BuiltPage } from './built-pages';

/** Spec section 9: a lazily loaded page that has not arrived after 120 s is an error. */
export const PAGE_LOAD_TIMEOUT_MS = 120_000;

export class PageLoadTimeout extends Error {
  constructor() {
    super('page load timed out');
    this.name = 'PageLoadTimeout';
  }
}

export function withTimeout<T>(loading: Promise<T>, ms = PAGE_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new PageLoadTimeout()), ms);
    loading.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

type Page = LazyExoticComponent<ComponentType>;
type Load = () => Promise<{ default: ComponentType }>;
const loaders = new Map<Page, Load>();
const page = (load: Load): Page => {
  const lazyPage = lazy(() => withTimeout(load()));
  loaders.set(lazyPage, load);
  return lazyPage;
};

/**
 * Starts downloading a page's code before the shell asks for it (the browser keeps the module, so the
 * page then renders without waiting): the router does it for the page being opened, alongside the
 * shell's own code and the session check, not after them.
 */
export function preloadPage(name: string): Promise<unknown> | undefined {
  const found = pageOf(name);
  const load = found && loaders.get(found);
  return load?.().catch(() => undefined); // a failure shows when the page itself loads
}

const home = page(() => import('../features/home/HomePage'));
const todoList = page(() => import('../features/home/TodoPage'));
const auditLog = page(() => import('../features/audit/AuditLogPage'));
const accountManagement = page(() => import('../features/users/AccountManagementPage'));
const onlineUsers = page(() => import('../features/sessions/OnlineUsersPage'));
const errorLoggerPage = page(() => import('../features/errorlog/ErrorLoggerPage'));
const messagePage = page(() => import('../features/messages/MessagePage'));
const profile = page(() => import('../features/profile/ProfilePage'));
const userProductConfig = page(() => import('../features/products/UserProductConfigPage'));
const fundRecord = page(() => import('../features/funds/FundRecordPage'));
const financeFundFlow = page(() => import('../features/funds/FundFlowPage'));
const merchantList = page(() => import('../features/merchants/MerchantListPage'));
const supplierList = page(() => import('../features/suppliers/SupplierListPage'));
const supplierProxy = page(() => import('../features/suppliers/SupplierProxyPage'));
const resourceList = page(() => import('../features/resources/ResourceListPage'));
const orderList = page(() => import('../features/orders/OrderListPage'));
const payoutList = page(() => import('../features/payouts/PayoutListPage'));
const orderTestMerchant = page(() => import('../features/apitest/ApiTestPage'));
const orderProfile = page(() => import('../features/orderprofile/OrderProfilePage'));
const orderCallback = page(() => import('../features/callbacks/CallbackListPage'));
const orderCallbackDetail = page(() => import('../features/callbacks/CallbackDetailPage'));
const orderSendTest = page(() => import('../features/callbacks/SendTestPage'));
const payoutBatchList = page(() => import('../features/payoutBatches/PayoutBatchListPage'));
const entityData = page(() => import('../features/entityData/EntityDataPage'));
const ipWhitelist = page(() => import('../features/ipWhitelist/IpWhitelistPage'));
const nameBlacklist = page(() => import('../features/nameBlacklist/NameBlacklistPage'));
const orderClearHistory = page(() => import('../features/orderClear/OrderClearHistoryPage'));
const payGatewayConfig = page(() => import('../features/payGateway/PayGatewayPage'));
const systemConfig = page(() => import('../features/systemConfig/SystemConfigPage'));
const systemMaintenance = page(() => import('../features/systemMaintenance/SystemMaintenancePage'));
const telegramWhitelist = page(() => import('../features/telegram/TelegramWhitelistPage'));
const telegramBotGroup = page(() => import('../features/telegram/TelegramBotGroupPage'));
const messageTemplate = page(() => import('../features/telegram/MessageTemplatePage'));
const transferBot = page(() => import('../features/telegram/TransferBotPage'));
const dynamicPayScript = page(() => import('../features/payScripts/PayScriptPage'));
const dynamicPayScriptRecord = page(() => import('../features/payScripts/PayScriptRecordPage'));
const statistics = page(() => import('../features/statistics/StatisticsPage'));

/**
 * The pages that exist, by route name: exactly the names of BUILT_PAGES (the type holds it). A route
 * of the contract without a page is not in the menu and shows the 404 page: what is not built is
 * absent, never a placeholder.
 */
export const PAGES: Readonly<Record<BuiltPage, Page>> = {
  home,
  todoList,
  auditLog,
  auditLogReadOnly: auditLog,
  accountManagement,
  accountManagementReadOnly: accountManagement,
  onlineUsers,
  onlineUsersReadOnly: onlineUsers,
  errorLoggerPage,
  messagePage,
  profileList: profile,
  profileListCustomerService: profile,
  userProductConfig,
  userProductConfigReadOnly: userProductConfig,
  fundRecord,
  fundRecordAdmin: fundRecord,
  fundRecordAdminCustomerService: fundRecord,
  financeFundFlow,
  merchantList,
  merchantListCustomerService: merchantList,
  supplierList,
  supplierListCustomerService: supplierList,
  supplierProxy,
  internationalCardToCardList: resourceList,
  internationalCardToCardListAdmin: resourceList,
  internationalCardToCardListAdminCustomerService: resourceList,
  indiaAutoPayoutList: resourceList,
  indiaAutoPayoutListAdmin: resourceList,
  indiaAutoPayoutListAdminCustomerService: resourceList,
  razorpayPayProxyList: resourceList,
  razorpayPayProxyListAdmin: resourceList,
  razorpayPayProxyListAdminCustomerService: resourceList,
  usdtFloatingList: resourceList,
  usdtFloatingListAdmin: resourceList,
  usdtFloatingListAdminCustomerService: resourceList,
  usdtPayProxyList: resourceList,
  usdtPayProxyListAdmin: resourceList,
  usdtPayProxyListAdminCustomerService: resourceList,
  kenyaListAdmin: resourceList,
  kenyaListAdminCustomerService: resourceList,
  otherChannelCardToCard: resourceList,
  otherChannelCardToCardAdmin: resourceList,
  otherChannelWechat: resourceList,
  otherChannelWechatAdmin: resourceList,
  otherChannelAlipay: resourceList,
  otherChannelAlipayAdmin: resourceList,
  otherChannelOthers: resourceList,
  otherChannelOthersAdmin: resourceList,
  orderList,
  orderListCustomerService: orderList,
  orderListSupplier: orderList,
  orderListSupplierProxy: orderList,
  orderListMerchant: orderList,
  payProxyOrderList: payoutList,
  payProxyOrderListCustomerService: payoutList,
  payProxyOrderListSupplier: payoutList,
  payProxyOrderListSupplierProxy: payoutList,
  payProxyOrderListMerchant: payoutList,
  orderTestMerchant,
  orderProfile,
  orderCallback,
  orderCallbackReadOnly: orderCallback,
  orderCallbackDetail,
  orderCallbackDetailReadOnly: orderCallbackDetail,
  orderSendTest,
  orderSendTestReadOnly: orderSendTest,
  payoutBatchList,
  payoutBatchListCustomerService: payoutBatchList,
  entityData,
  entityDataReadOnly: entityData,
  ipWhitelist,
  ipWhitelistReadOnly: ipWhitelist,
  nameBlacklist,
  nameBlacklistReadOnly: nameBlacklist,
  orderClearHistory,
  orderClearHistoryReadOnly: orderClearHistory,
  payGatewayConfig,
  payGatewayConfigReadOnly: payGatewayConfig,
  systemConfig,
  systemConfigReadOnly: systemConfig,
  systemMaintenance,
  systemMaintenanceReadOnly: systemMaintenance,
  telegramWhitelist,
  telegramWhitelistReadOnly: telegramWhitelist,
  telegramBotGroup,
  telegramBotGroupReadOnly: telegramBotGroup,
  messageTemplate,
  messageTemplateReadOnly: messageTemplate,
  transferBot,
  transferBotReadOnly: transferBot,
  dynamicPayScript,
  dynamicPayScriptReadOnly: dynamicPayScript,
  dynamicPayScriptRecord,
  dynamicPayScriptRecordReadOnly: dynamicPayScriptRecord,
  orderStatistics: statistics,
  orderStatisticsCustomerService: statistics,
  orderStatisticsByMerchantCustomerService: statistics,
  orderStatisticsByMerchantV2: statistics,
  orderStatisticsSupplierV2: statistics,
  orderStatisticsMerchant: statistics,
  payProxyOrderStatistics: statistics,
  payProxyOrderStatisticsCustomerService: statistics,
  payProxyOrderStatisticsByMerchant: statistics,
  payProxyOrderStatisticsByMerchantCustomerService: statistics,
  payProxyOrderStatisticsSupplier: statistics,
  payProxyOrderStatisticsMerchant: statistics,
};

/** The page of a route name, if it is built. */
export function pageOf(name: string): Page | undefined {
  return (PAGES as Readonly<Record<string, Page>>)[name];
}
