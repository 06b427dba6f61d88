import { type endpoints, pageSizeOf } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { BotsAdminService } from './bots-admin.service.js';
import type { MessageTemplates } from './templates.js';

export function botsHandlers(admin: BotsAdminService, templates: MessageTemplates) {
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
    templateList: async () => ({ list: await templates.list() }),
    templateUpdate: ({ key, language, text }, ctx) => templates.update(key, language, text, ctx.actor),
    templateReset: ({ key, language }, ctx) => templates.reset(key, language, ctx.actor),
  } satisfies Handlers<typeof endpoints.bots>;
}
