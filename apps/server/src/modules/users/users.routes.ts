import { type endpoints, pageSizeOf } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { UsersService } from './users.service.js';

export function usersHandlers(users: UsersService) {
  return {
    getUserOptions: (input) => users.getUserOptions(input),
    getSupplierUserOptions: (input, ctx) =>
      users.getSupplierUserOptions(ctx.scope, input.isGetAllAgentSupplier ?? false),
    getUnusedUserOptions: (input) => users.getUnusedUserOptions(input.role),
    addUser: (input, ctx) => users.addUser(ctx.role, input, ctx.actor),
    getUserList: (input) => users.getUserList({ ...input, pageSize: pageSizeOf(input) }),
    exportUserList: (input) => users.exportUserList(input),
    getSupplierProxyList: (input, ctx) =>
      users.getSupplierProxyList(ctx.scope, {
        pageIndex: input.pageIndex,
        pageSize: pageSizeOf(input),
        account: input.account,
      }),
    exportSupplierProxyList: (input, ctx) => users.exportSupplierProxyList(ctx.scope, input),
    updateUser: async (input, ctx) => {
      await users.updateUser(ctx.user, input, ctx.actor);
      return null;
    },
    deleteUser: async (input, ctx) => {
      await users.deleteUser(ctx.user, input.id, ctx.actor);
      return null;
    },
    repairUser: async (input, ctx) => {
      await users.repairUser(ctx.user, input, ctx.actor);
      return null;
    },
    resetPayPassword: async (input, ctx) => {
      await users.resetPayPassword(ctx.user, input.id, ctx.actor);
      return null;
    },
  } satisfies Handlers<typeof endpoints.users>;
}
