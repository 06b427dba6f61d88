import { callbacksEndpoints } from '../callbacks/endpoints.js';
import type { Role } from '../common/roles.js';
import { MENU_GROUPS, type MenuGroup, type RouteDef } from './route.js';

// Access lists used by the table (spec sections 2 and 6). Order inside a list carries no meaning.
const ADMINS = ['admin', 'superAdmin'] as const satisfies readonly Role[];
/** A page's "customerService variant": customer service, plus technicalMaintenance (spec section 6). */
const CUSTOMER_SERVICE = ['customerService', 'technicalMaintenance'] as const satisfies readonly Role[];
const SUPPLIER = ['supplier'] as const satisfies readonly Role[];
const MERCHANT = ['merchant'] as const satisfies readonly Role[];
const SUPER_ADMIN = ['superAdmin'] as const satisfies readonly Role[];
const ADMINS_AND_SUPPLIER = ['superAdmin', 'admin', 'supplier'] as const satisfies readonly Role[];
/** System management pages (the editable variant). */
const SYSTEM = ['superAdmin', 'admin', 'customerService'] as const satisfies readonly Role[];
/** System pages technicalSupport may also see: dynamic pay scripts and their call records. */
const SYSTEM_WITH_SUPPORT = [...SYSTEM, 'technicalSupport'] as const satisfies readonly Role[];
/** Read-only system variants. */
const TECHNICAL_MAINTENANCE = ['technicalMaintenance'] as const satisfies readonly Role[];
const STAFF = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalMaintenance',
  'technicalSupport',
] as const satisfies readonly Role[];
const TODO_STAFF = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalMaintenance',
] as const satisfies readonly Role[];

/** A system management page: the editable page, and its read-only variant for technicalMaintenance. */
function systemPage(path: string, name: string, access: readonly Role[] = SYSTEM): [RouteDef, RouteDef] {
  return [
    { path, name, access, group: 'system' },
    {
      path: `${path}/readonly`,
      name: `${name}ReadOnly`,
      access: TECHNICAL_MAINTENANCE,
      group: 'system',
      readOnly: true,
    },
  ];
}

/**
 * An "other payment channel" (card to card, WeChat, Alipay, others): the supplier's list at `path`,
 * the admin list at `path-admin`.
 */
function otherChannel(path: string, name: string): [RouteDef, RouteDef] {
  return [
    { path, name, access: SUPPLIER, group: 'receivingAccounts' },
    { path: `${path}-admin`, name: `${name}Admin`, access: ADMINS, group: 'receivingAccounts' },
  ];
}

/** Every console route of spec section 2, in menu order. */
export const ROUTES: readonly RouteDef[] = [
  // Shell, sign-in and error pages
  { path: '/login', name: 'login', access: 'public', group: 'other', hideInMenu: true },
  // A signed-in user whose authenticator is not yet confirmed; the console guard sends them here.
  { path: '/googleVerify', name: 'googleVerify', access: 'public', group: 'other', hideInMenu: true },
  { path: '/', name: 'root', group: 'home', hideInMenu: true, redirect: '/home' },
  { path: '/home', name: 'home', group: 'home' },
  { path: '/401', name: 'error401', group: 'other', hideInMenu: true },
  { path: '/404', name: 'error404', group: 'other', hideInMenu: true },
  { path: '/message_page', name: 'messagePage', group: 'other', hideInMenu: true },
  // Reached from the header's script-error badge.
  {
    path: '/error_logger_page',
    name: 'errorLoggerPage',
    access: STAFF,
    group: 'monitor',
    hideInMenu: true,
  },

  // Merchants
  { path: '/merchants/list', name: 'merchantList', access: ADMINS, group: 'merchants' },
  {
    path: '/merchants/list/customerService',
    name: 'merchantListCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'merchants',
  },

  // Suppliers
  {
    path: '/supplier/list',
    name: 'supplierList',
    access: ['admin', 'superAdmin', 'technicalSupport'],
    group: 'suppliers',
  },
  {
    path: '/supplier/list/customerService',
    name: 'supplierListCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'suppliers',
  },
  { path: '/supplier-proxy', name: 'supplierProxy', access: SUPPLIER, group: 'suppliers', team: true },

  // Receiving accounts (collection channels)
  {
    path: '/internationalCardToCard/list',
    name: 'internationalCardToCardList',
    access: SUPPLIER,
    group: 'receivingAccounts',
  },
  {
    path: '/internationalCardToCard/list-admin',
    name: 'internationalCardToCardListAdmin',
    access: ADMINS,
    group: 'receivingAccounts',
  },
  {
    path: '/internationalCardToCard/list-admin/customerService',
    name: 'internationalCardToCardListAdminCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'receivingAccounts',
  },
  { path: '/uSDTFloating/list', name: 'usdtFloatingList', access: SUPPLIER, group: 'receivingAccounts' },
  {
    path: '/uSDTFloating/list-admin',
    name: 'usdtFloatingListAdmin',
    access: ADMINS,
    group: 'receivingAccounts',
  },
  {
    path: '/uSDTFloating/list-admin/customerService',
    name: 'usdtFloatingListAdminCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'receivingAccounts',
  },
  { path: '/kenya/list-admin', name: 'kenyaListAdmin', access: ADMINS, group: 'receivingAccounts' },
  {
    path: '/kenya/list-admin/customerService',
    name: 'kenyaListAdminCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'receivingAccounts',
  },
  ...otherChannel('/otherChannel/cardToCard', 'otherChannelCardToCard'),
  ...otherChannel('/otherChannel/wechat', 'otherChannelWechat'),
  ...otherChannel('/otherChannel/alipay', 'otherChannelAlipay'),
  ...otherChannel('/otherChannel/others', 'otherChannelOthers'),

  // Payout accounts (payout channels)
  { path: '/indiaAutoPayout/list', name: 'indiaAutoPayoutList', access: SUPPLIER, group: 'payoutAccounts' },
  {
    path: '/indiaAutoPayout/list-admin',
    name: 'indiaAutoPayoutListAdmin',
    access: ADMINS,
    group: 'payoutAccounts',
  },
  {
    path: '/indiaAutoPayout/list-admin/customerService',
    name: 'indiaAutoPayoutListAdminCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'payoutAccounts',
  },
  {
    path: '/razorpayPayProxy/list',
    name: 'razorpayPayProxyList',
    access: SUPPLIER,
    group: 'payoutAccounts',
  },
  {
    path: '/razorpayPayProxy/list-admin',
    name: 'razorpayPayProxyListAdmin',
    access: ADMINS,
    group: 'payoutAccounts',
  },
  {
    path: '/razorpayPayProxy/list-admin/customerService',
    name: 'razorpayPayProxyListAdminCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'payoutAccounts',
  },
  { path: '/uSDTPayProxy/list', name: 'usdtPayProxyList', access: SUPPLIER, group: 'payoutAccounts' },
  {
    path: '/uSDTPayProxy/list-admin',
    name: 'usdtPayProxyListAdmin',
    access: ADMINS,
    group: 'payoutAccounts',
  },
  {
    path: '/uSDTPayProxy/list-admin/customerService',
    name: 'usdtPayProxyListAdminCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'payoutAccounts',
  },

  // Collection orders
  { path: '/order/list', name: 'orderList', access: ADMINS, group: 'collectionOrders' },
  {
    path: '/order/list/customerService',
    name: 'orderListCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'collectionOrders',
  },
  { path: '/order/list/supplier', name: 'orderListSupplier', access: SUPPLIER, group: 'collectionOrders' },
  {
    path: '/order/list/supplierProxy',
    name: 'orderListSupplierProxy',
    access: SUPPLIER,
    group: 'collectionOrders',
    team: true,
  },
  { path: '/order/list/merchant', name: 'orderListMerchant', access: MERCHANT, group: 'collectionOrders' },
  { path: '/order/profile', name: 'orderProfile', access: SUPER_ADMIN, group: 'collectionOrders' },
  {
    path: '/order/test/merchant',
    name: 'orderTestMerchant',
    access: MERCHANT,
    group: 'collectionOrders',
    confirmClose: true,
  },

  // Records
  { path: '/bankStatement/list', name: 'bankStatementList', access: ['admin', 'supplier'], group: 'records' },
  { path: '/bankStatement/list-sa', name: 'bankStatementListSa', access: SUPER_ADMIN, group: 'records' },
  {
    path: '/bankStatement/webMessageRecord-admin',
    name: 'webMessageRecordAdmin',
    access: ADMINS_AND_SUPPLIER,
    group: 'records',
  },
  {
    path: '/bankStatement/webMessageRecord-admin/customerService',
    name: 'webMessageRecordAdminCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'records',
  },
  {
    path: '/bankStatement/usdtTransactionRecord-admin',
    name: 'usdtTransactionRecordAdmin',
    access: ADMINS_AND_SUPPLIER,
    group: 'records',
  },
  {
    path: '/bankStatement/usdtTransactionRecord-admin/customerService',
    name: 'usdtTransactionRecordAdminCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'records',
  },

  // Security nodes
  {
    path: '/securityNodes/security-patch-list',
    name: 'securityPatchList',
    access: SUPER_ADMIN,
    group: 'security',
  },
  { path: '/securityNodes/list', name: 'securityNodeList', access: SUPER_ADMIN, group: 'security' },

  // Order analysis
  {
    path: '/orderAnalysis/order-analysis-list',
    name: 'orderAnalysisList',
    access: ADMINS,
    group: 'orderAnalysis',
  },
  {
    path: '/orderAnalysis/order-analysis-list/customerService',
    name: 'orderAnalysisListCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'orderAnalysis',
  },
  {
    path: '/orderAnalysis/ip-analysis-list',
    name: 'ipAnalysisList',
    access: ADMINS,
    group: 'orderAnalysis',
  },
  {
    path: '/orderAnalysis/ip-analysis-list/customerService',
    name: 'ipAnalysisListCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'orderAnalysis',
  },
  {
    path: '/orderAnalysis/fronzen-ip-list',
    name: 'frozenIpList',
    access: ADMINS,
    group: 'orderAnalysis',
  },
  {
    path: '/orderAnalysis/fronzen-ip-list/customerService',
    name: 'frozenIpListCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'orderAnalysis',
  },
  { path: '/lostOrder/list', name: 'lostOrderList', access: ADMINS, group: 'orderAnalysis' },
  {
    path: '/lostOrder/list/customerService',
    name: 'lostOrderListCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'orderAnalysis',
  },

  // Payout orders
  { path: '/payProxyOrder/list', name: 'payProxyOrderList', access: ADMINS, group: 'payoutOrders' },
  {
    path: '/payProxyOrder/list/customerService',
    name: 'payProxyOrderListCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'payoutOrders',
  },
  {
    path: '/payProxyOrder/list/supplier',
    name: 'payProxyOrderListSupplier',
    access: SUPPLIER,
    group: 'payoutOrders',
  },
  {
    path: '/payProxyOrder/list/supplierProxy',
    name: 'payProxyOrderListSupplierProxy',
    access: SUPPLIER,
    group: 'payoutOrders',
    team: true,
  },
  {
    path: '/payProxyOrder/list/merchant',
    name: 'payProxyOrderListMerchant',
    access: MERCHANT,
    group: 'payoutOrders',
  },

  // Batch payout
  {
    path: '/payoutBatch/list',
    name: 'payoutBatchList',
    access: ADMINS_AND_SUPPLIER,
    group: 'batchPayout',
    confirmClose: true,
  },
  {
    path: '/payoutBatch/list/customerService',
    name: 'payoutBatchListCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'batchPayout',
  },

  // Collection statistics
  { path: '/order/statistics', name: 'orderStatistics', access: ADMINS, group: 'collectionStatistics' },
  {
    path: '/order/statistics/customerService',
    name: 'orderStatisticsCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'collectionStatistics',
  },
  {
    // The spec's spelling ("Merhcant") is the path.
    path: '/order/statisticsByMerhcant/customerService',
    name: 'orderStatisticsByMerchantCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'collectionStatistics',
  },
  {
    path: '/order/statisticsByMerhcantV2',
    name: 'orderStatisticsByMerchantV2',
    access: ['superAdmin', 'admin'],
    group: 'collectionStatistics',
  },
  {
    path: '/order/statistics/supplierV2',
    name: 'orderStatisticsSupplierV2',
    access: SUPPLIER,
    group: 'collectionStatistics',
  },
  {
    path: '/order/statistics/merchant',
    name: 'orderStatisticsMerchant',
    access: MERCHANT,
    group: 'collectionStatistics',
  },

  // Payout statistics
  {
    path: '/payProxyOrder/statistics',
    name: 'payProxyOrderStatistics',
    access: ADMINS,
    group: 'payoutStatistics',
  },
  {
    path: '/payProxyOrder/statistics/customerService',
    name: 'payProxyOrderStatisticsCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'payoutStatistics',
  },
  {
    path: '/payProxyOrder/statisticsByMerchant',
    name: 'payProxyOrderStatisticsByMerchant',
    access: ADMINS,
    group: 'payoutStatistics',
  },
  {
    path: '/payProxyOrder/statisticsByMerchant/customerService',
    name: 'payProxyOrderStatisticsByMerchantCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'payoutStatistics',
  },
  {
    path: '/payProxyOrder/statistics/supplier',
    name: 'payProxyOrderStatisticsSupplier',
    access: SUPPLIER,
    group: 'payoutStatistics',
  },
  {
    path: '/payProxyOrder/statistics/merchant',
    name: 'payProxyOrderStatisticsMerchant',
    access: MERCHANT,
    group: 'payoutStatistics',
  },

  // Funds
  {
    path: '/fundRecord/fundRecord',
    name: 'fundRecord',
    access: ['merchant', 'supplier'],
    group: 'funds',
  },
  { path: '/fundRecord/fundRecordAdmin', name: 'fundRecordAdmin', access: ADMINS, group: 'funds' },
  {
    path: '/fundRecord/fundRecordAdmin/customerService',
    name: 'fundRecordAdminCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'funds',
  },
  { path: '/finance/fundFlow', name: 'financeFundFlow', access: ADMINS, group: 'funds' },

  // Monitor
  { path: '/monitorLog/monitorLog', name: 'monitorLog', access: ADMINS, group: 'monitor' },
  {
    path: '/monitorLog/monitorLog/customerService',
    name: 'monitorLogCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'monitor',
  },

  // Profile
  {
    path: '/profile/list',
    name: 'profileList',
    access: ['admin', 'supplier', 'merchant', 'superAdmin'],
    group: 'profile',
  },
  {
    path: '/profile/list/customerService',
    name: 'profileListCustomerService',
    access: CUSTOMER_SERVICE,
    group: 'profile',
  },

  // System management
  ...systemPage('/system/dynamicPayScript', 'dynamicPayScript', SYSTEM_WITH_SUPPORT),
  ...systemPage('/system/dynamicPayScriptRecord', 'dynamicPayScriptRecord', SYSTEM_WITH_SUPPORT),
  ...systemPage('/system/telegramWhitelist', 'telegramWhitelist'),
  ...systemPage('/system/telegramBotGroup', 'telegramBotGroup'),
  // The money channel's bot: the account managers (its token is superAdmin's, as BotToken's).
  ...systemPage('/system/transferBot', 'transferBot', ADMINS),
  ...systemPage('/system/monitorScript', 'monitorScript'),
  ...systemPage('/system/bankNumber', 'bankNumber'),
  ...systemPage('/system/accountManagement', 'accountManagement'),
  ...systemPage('/systemConfig', 'systemConfig'),
  // The whole database's rows, secrets masked: superAdmin alone (DESIGN section 10).
  ...systemPage('/system/entityData', 'entityData', ['superAdmin']),
  // Maintenance changes are the administrators' (DESIGN section 10); technical maintenance checks.
  ...systemPage('/system/maintenance', 'systemMaintenance', ADMINS),
  ...systemPage('/system/userProductConfig', 'userProductConfig'),
  // Only the roles that may send a test have something to do on it (customer service and the
  // read-only variant show a disabled form: reachable by its address, not offered in the menu).
  ...systemPage('/system/orderSendTest', 'orderSendTest').map((r) => ({ ...r, needs: callbacksEndpoints.sendTest })),
  // The audit log is for account managers; technical maintenance reads it (DESIGN section 4).
  ...systemPage('/system/auditLog', 'auditLog', ADMINS),
  ...systemPage('/system/onlineUsers', 'onlineUsers'),
  ...systemPage('/system/ipWhitelist', 'ipWhitelist'),
  ...systemPage('/system/nameBlacklist', 'nameBlacklist'),
  ...systemPage('/system/orderCallback', 'orderCallback'),
  ...systemPage('/system/orderCallbackDetail', 'orderCallbackDetail'),
  // Upstream credentials: superAdmin and admin (spec section 2), technical maintenance reads.
  ...systemPage('/system/payGatewayConfig', 'payGatewayConfig', ADMINS),
  ...systemPage('/system/messageTemplate', 'messageTemplate'),
  // The DataClearCycle runs: superAdmin and admin (spec section 2); technical maintenance reads.
  ...systemPage('/system/orderClearHistory', 'orderClearHistory', ADMINS),

  // Other
  { path: '/todo/list', name: 'todoList', access: TODO_STAFF, group: 'other' },
];

const ROUTES_BY_PATH: ReadonlyMap<string, RouteDef> = new Map(ROUTES.map((r) => [r.path, r]));

/** The route at exactly this path (a trailing slash is ignored), or undefined. */
export function routeByPath(path: string): RouteDef | undefined {
  const exact = ROUTES_BY_PATH.get(path);
  if (exact !== undefined || path.length <= 1 || !path.endsWith('/')) return exact;
  return ROUTES_BY_PATH.get(path.replace(/\/+$/, '') || '/');
}

/**
 * Whether a user of this role (undefined: not signed in) may open the route. 'public' routes: always;
 * no access list: any signed-in user; otherwise the role must be listed.
 */
export function canAccessRoute(route: RouteDef, role: Role | undefined): boolean {
  if (route.access === 'public') return true;
  if (role === undefined) return false;
  if (route.access === undefined) return true;
  return route.access.includes(role);
}

const GROUP_ORDER: ReadonlyMap<MenuGroup, number> = new Map(MENU_GROUPS.map((g, i) => [g, i]));

/** Whether the role may use the page: call what it is for (`needs`); an agent has no team pages. */
export function canUseRoute(route: RouteDef, role: Role, who: { agent?: boolean } = {}): boolean {
  if (route.team && who.agent) return false;
  const needs = route.needs?.access;
  return needs === undefined || needs === 'public' || needs.includes(role);
}

/**
 * The routes of the role's side menu, ordered by menu group (then table order): accessible and usable
 * (canUseRoute; `agent` for a supplier's agent), not hidden, not public, not a redirect.
 */
export function menuRoutesFor(role: Role, who: { agent?: boolean } = {}): RouteDef[] {
  return ROUTES.filter(
    (r) =>
      r.access !== 'public' &&
      r.hideInMenu !== true &&
      r.redirect === undefined &&
      canAccessRoute(r, role) &&
      canUseRoute(r, role, who),
  ).sort((a, b) => (GROUP_ORDER.get(a.group) ?? 0) - (GROUP_ORDER.get(b.group) ?? 0));
}
