import { type endpoints, pageSizeOf, templateMatches } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { BotsAdminService } from './bots-admin.service.js';
import type { MessageTemplates } from './templates.js';
import type { TransferBot } from './transfer-bot.js';

export function botsHandlers(admin: BotsAdminService, templates: MessageTemplates, transferBot: TransferBot) {
  return {
    whitelistList: (input) => admin.whitelistList({ ...input, pageSize: pageSizeOf(input) }),
    whitelistExport: (input) => admin.whitelistExport(input),
    whitelistAdd: (input, ctx) => admin.whitelistAdd(input, ctx.actor),
    whitelistUpdate: ({ id, ...fields }, ctx) => admin.whitelistUpdate(id, fields, ctx.actor),
    whitelistDelete: ({ id }, ctx) => admin.whitelistDelete(id, ctx.actor),
    groupList: (input) => admin.groupList({ ...input, pageSize: pageSizeOf(input) }),
    groupExport: (input) => admin.groupExport(input),
    groupParties: () => admin.groupParties(),
    groupAdd: (input, ctx) => admin.groupAdd(input, ctx.actor),
    groupUpdate: ({ id, ...fields }, ctx) => admin.groupUpdate(id, fields, ctx.actor),
    groupTransferNotices: ({ id, transferNotices }, ctx) => admin.groupTransferNotices(id, transferNotices, ctx.actor),
    transferBotStatus: () => transferBot.status(),
    transferBotTest: ({ groupId }, ctx) => transferBot.test(groupId, ctx.actor),
    groupDelete: ({ id }, ctx) => admin.groupDelete(id, ctx.actor),
    templateList: async () => ({ list: await templates.list() }),
    templateExport: async function* (filters) {
      for (const row of await templates.list()) if (templateMatches(row, filters)) yield row;
    },
    templateUpdate: ({ channel, key, language, text }, ctx) =>
      templates.update(channel, key, language, text, ctx.actor),
    templateReset: ({ channel, key, language }, ctx) => templates.reset(channel, key, language, ctx.actor),
  } satisfies Handlers<typeof endpoints.bots>;
}
