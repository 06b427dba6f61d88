import { type endpoints, pageSizeOf } from '@paydesk/contract';
import type { Db } from '../../db/client.js';
import type { Handlers } from '../../platform/context.js';
import { demoHistoryStatus } from './demo-history.js';
import type { EntityData } from './entity-data.js';
import type { SystemMaintenance } from './maintenance.js';
import type { NameBlacklist } from './name-blacklist.js';
import type { OrderClear } from './order-clear.js';
import type { StaffIpWhitelist } from './staff-ip-whitelist.js';

export function systemHandlers(db: Db) {
  return {
    demoHistory: () => demoHistoryStatus(db),
  } satisfies Handlers<typeof endpoints.system>;
}

export function entityDataHandlers(entityData: EntityData) {
  return {
    entityTables: async () => ({ list: await entityData.tables() }),
    entityRows: (input) => entityData.rows({ ...input, pageSize: pageSizeOf(input) }),
    entityExport: (input) => entityData.export(input),
  } satisfies Handlers<typeof endpoints.entityData>;
}

export function ipWhitelistHandlers(staffIps: StaffIpWhitelist) {
  return {
    getStaffIpList: (input, ctx) => staffIps.list({ ...input, pageSize: pageSizeOf(input) }, ctx.actor.ip ?? ''),
    exportStaffIpList: (input) => staffIps.export(input),
    addStaffIp: (input, ctx) => staffIps.add(input, ctx.actor),
    deleteStaffIp: async (input, ctx) => {
      await staffIps.delete(input.id, ctx.actor);
      return null;
    },
  } satisfies Handlers<typeof endpoints.ipWhitelist>;
}

export function nameBlacklistHandlers(blacklist: NameBlacklist) {
  return {
    getBlacklist: (input) => blacklist.list({ ...input, pageSize: pageSizeOf(input) }),
    exportBlacklist: (input) => blacklist.export(input),
    addBlacklistName: (input, ctx) => blacklist.add(input, ctx.actor),
    deleteBlacklistName: async (input, ctx) => {
      await blacklist.delete(input.id, ctx.actor);
      return null;
    },
  } satisfies Handlers<typeof endpoints.nameBlacklist>;
}

export function orderClearHandlers(orderClear: OrderClear) {
  return {
    getOrderClearRuns: (input) => orderClear.list({ ...input, pageSize: pageSizeOf(input) }),
    exportOrderClearRuns: (input) => orderClear.export(input),
    runOrderClear: (_input, ctx) => orderClear.runNow(ctx.actor),
  } satisfies Handlers<typeof endpoints.orderClear>;
}

export function systemMaintenanceHandlers(maintenance: SystemMaintenance) {
  return {
    checkSystemResources: (input) => maintenance.check(input),
    fixSystemResources: (input, ctx) => maintenance.fix(input, ctx.actor),
    resetSystemResourcePool: (_input, ctx) => maintenance.reset(ctx.actor),
  } satisfies Handlers<typeof endpoints.systemMaintenance>;
}
