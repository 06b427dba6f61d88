import { auditEndpoints } from './audit/endpoints.js';
import { authEndpoints } from './auth/endpoints.js';
import { botsEndpoints } from './bots/endpoints.js';
import { callbacksEndpoints } from './callbacks/endpoints.js';
import type { Endpoint } from './common/endpoint.js';
import { errorLogEndpoints } from './errorLog/endpoints.js';
import { financeEndpoints } from './finance/endpoints.js';
import { fundsEndpoints } from './funds/endpoints.js';
import { ledgerEndpoints } from './ledger/endpoints.js';
import { merchantsEndpoints } from './merchants/endpoints.js';
import { messagesEndpoints } from './messages/endpoints.js';
import { ordersEndpoints } from './orders/endpoints.js';
import { orderProfileEndpoints } from './orders/profile.js';
import { payoutBatchEndpoints } from './payouts/batch-endpoints.js';
import { payoutsEndpoints } from './payouts/endpoints.js';
import { productsEndpoints } from './products/endpoints.js';
import { profileEndpoints } from './profile/endpoints.js';
import { resourcesEndpoints } from './resources/endpoints.js';
import { systemConfigEndpoints } from './settings/endpoints.js';
import { statisticsEndpoints } from './statistics/endpoints.js';
import { suppliersEndpoints } from './suppliers/endpoints.js';
import { systemEndpoints } from './system/endpoints.js';
import { entityDataEndpoints } from './system/entity-data.js';
import { ipWhitelistEndpoints } from './system/ip-whitelist.js';
import { systemMaintenanceEndpoints } from './system/maintenance.js';
import { nameBlacklistEndpoints } from './system/name-blacklist.js';
import { orderClearEndpoints } from './system/order-clear.js';
import { payGatewaysEndpoints } from './system/pay-gateways.js';
import { payerScriptEndpoints } from './system/pay-script-view.js';
import { payScriptsEndpoints } from './system/pay-scripts.js';
import { todoEndpoints } from './todo/endpoints.js';
import { usersEndpoints } from './users/endpoints.js';
import { viewsEndpoints } from './views/endpoints.js';

/** Every endpoint of the API, by area. Each later area adds its group here. */
export const endpoints = {
  auth: authEndpoints,
  users: usersEndpoints,
  audit: auditEndpoints,
  messages: messagesEndpoints,
  errorLog: errorLogEndpoints,
  profile: profileEndpoints,
  ledger: ledgerEndpoints,
  products: productsEndpoints,
  merchants: merchantsEndpoints,
  suppliers: suppliersEndpoints,
  funds: fundsEndpoints,
  views: viewsEndpoints,
  resources: resourcesEndpoints,
  orders: ordersEndpoints,
  callbacks: callbacksEndpoints,
  payouts: payoutsEndpoints,
  payoutBatches: payoutBatchEndpoints,
  orderProfile: orderProfileEndpoints,
  system: systemEndpoints,
  systemConfig: systemConfigEndpoints,
  entityData: entityDataEndpoints,
  ipWhitelist: ipWhitelistEndpoints,
  nameBlacklist: nameBlacklistEndpoints,
  bots: botsEndpoints,
  payScripts: payScriptsEndpoints,
  payerScripts: payerScriptEndpoints,
  statistics: statisticsEndpoints,
  todo: todoEndpoints,
  finance: financeEndpoints,
  orderClear: orderClearEndpoints,
  systemMaintenance: systemMaintenanceEndpoints,
  payGateways: payGatewaysEndpoints,
} as const;

export type EndpointArea = keyof typeof endpoints;

/** Every endpoint with its id `<area>.<name>`, for the server's registry, OpenAPI and the matrix tests. */
export function listEndpoints(): Array<{ id: string; endpoint: Endpoint }> {
  return Object.entries(endpoints).flatMap(([area, group]) =>
    Object.entries(group).map(([name, endpoint]) => ({ id: `${area}.${name}`, endpoint: endpoint as Endpoint })),
  );
}
