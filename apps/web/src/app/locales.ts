import { apiTestLocales } from '../features/apitest/locales';
import { auditLocales } from '../features/audit/locales';
import { authLocales } from '../features/auth/locales';
import { callbacksLocales } from '../features/callbacks/locales';
import { entityDataLocales } from '../features/entityData/locales';
import { errorLogLocales } from '../features/errorlog/locales';
import { fundsLocales } from '../features/funds/locales';
import { homeLocales } from '../features/home/locales';
import { ipWhitelistLocales } from '../features/ipWhitelist/locales';
import { merchantsLocales } from '../features/merchants/locales';
import { messagesLocales } from '../features/messages/locales';
import { nameBlacklistLocales } from '../features/nameBlacklist/locales';
import { orderClearLocales } from '../features/orderClear/locales';
import { orderProfileLocales } from '../features/orderprofile/locales';
import { ordersLocales } from '../features/orders/locales';
import { payLocales } from '../features/pay/locales';
import { payGatewayLocales } from '../features/payGateway/locales';
import { payoutBatchesLocales } from '../features/payoutBatches/locales';
import { payoutsLocales } from '../features/payouts/locales';
import { payScriptsLocales } from '../features/payScripts/locales';
import { productsLocales } from '../features/products/locales';
import { profileLocales } from '../features/profile/locales';
import { resourcesLocales } from '../features/resources/locales';
import { sessionsLocales } from '../features/sessions/locales';
import { statisticsLocales } from '../features/statistics/locales';
import { suppliersLocales } from '../features/suppliers/locales';
import { systemConfigLocales } from '../features/systemConfig/locales';
import { systemMaintenanceLocales } from '../features/systemMaintenance/locales';
import { telegramLocales } from '../features/telegram/locales';
import { usersLocales } from '../features/users/locales';
import { commonLocales } from '../i18n/common.locales';
import type { Locales } from '../i18n/types';
import { serverLocales } from '../shared/api/errorText';
import { notesLocales } from '../shared/notes/locales';
import { routeLocales } from './routes.locales';

/**
 * Every i18n namespace: the shell's, the route titles, the server's texts (the contract's catalogue,
 * `server:code.<code>` and `server:reason.<reason>`), and one per feature. A feature adds its
 * locales here (app/ is the one layer that knows every feature; main.tsx registers this list with
 * i18n); the completeness test checks every namespace has the same keys in every language.
 */
export const NAMESPACES: Record<string, Locales> = {
  common: commonLocales,
  routes: routeLocales,
  auth: authLocales,
  home: homeLocales,
  audit: auditLocales,
  users: usersLocales,
  sessions: sessionsLocales,
  suppliers: suppliersLocales,
  errorLog: errorLogLocales,
  messages: messagesLocales,
  merchants: merchantsLocales,
  profile: profileLocales,
  funds: fundsLocales,
  products: productsLocales,
  resources: resourcesLocales,
  orders: ordersLocales,
  payouts: payoutsLocales,
  pay: payLocales,
  apiTest: apiTestLocales,
  orderProfile: orderProfileLocales,
  callbacks: callbacksLocales,
  payoutBatches: payoutBatchesLocales,
  entityData: entityDataLocales,
  ipWhitelist: ipWhitelistLocales,
  nameBlacklist: nameBlacklistLocales,
  orderClear: orderClearLocales,
  payGateway: payGatewayLocales,
  systemConfig: systemConfigLocales,
  systemMaintenance: systemMaintenanceLocales,
  telegram: telegramLocales,
  payScripts: payScriptsLocales,
  statistics: statisticsLocales,
  notes: notesLocales,
  server: serverLocales,
};
