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
] as const;
export type BuiltPage = (typeof BUILT_PAGES)[number];
