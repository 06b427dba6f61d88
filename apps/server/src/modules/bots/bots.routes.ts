import { type endpoints, pageSizeOf } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { BotsAdminService } from './bots-admin.service.js';

export function botsHandlers(admin: BotsAdminService) {
  return {
    whitelistList: (input) => admin.whitelistList({ ...input, pageSize: pageSizeOf(input) }),
    whitelistAdd: (input, ctx) => admin.whitelistAdd(input, ctx.actor),
    whitelistUpdate: ({ id, ...fields }, ctx) => admin.whitelistUpdate(id, fields, ctx.actor),
    whitelistDelete: ({ id }, ctx) => admin.whitelistDelete(id, ctx.actor),
    groupList: (input) => admin.groupList({ ...input, pageSize: pageSizeOf(input) }),
    groupParties: () => admin.groupParties(),
    groupAdd: (input, ctx) => admin.groupAdd(input, ctx.actor),
    groupUpdate: ({ id, ...fields }, ctx) => admin.groupUpdate(id, fields, ctx.actor),
    groupDelete: ({ id }, ctx) => admin.groupDelete(id, ctx.actor),
  } satisfies Handlers<typeof endpoints.bots>;
}
