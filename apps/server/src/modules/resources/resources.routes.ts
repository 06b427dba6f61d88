import { type endpoints, pageSizeOf } from '@paydesk/contract';
import type { Handlers, UserContext } from '../../platform/context.js';
import type { ResourceOwner, ResourcesService } from './resources.service.js';

/** Staff reach every supplier's resources; a supplier account its own supplier record's. */
const ownerOf = (ctx: UserContext): ResourceOwner =>
  ctx.scope.all ? { all: true } : { all: false, userId: ctx.user.userId };

export function resourcesHandlers(resources: ResourcesService) {
  return {
    getList: (input, ctx) => resources.getList(ownerOf(ctx), { ...input, pageSize: pageSizeOf(input) }, ctx.role),
    exportList: (input, ctx) => resources.exportList(ownerOf(ctx), input),
    create: (input, ctx) => resources.create(ownerOf(ctx), input, ctx.actor),
    update: (input, ctx) => resources.update(ownerOf(ctx), input, ctx.actor),
    delete: async (input, ctx) => {
      await resources.delete(ownerOf(ctx), input.id, ctx.actor);
      return null;
    },
    uploadQr: (input, ctx) => resources.uploadQr(ownerOf(ctx), input, ctx.actor),
    qrImage: (input, ctx) => resources.qrImage(ownerOf(ctx), input.id),
    getResourceDetailInfo: (input, ctx) => resources.detailInfo(ownerOf(ctx), input),
    getResourceStaticInfo: (input, ctx) => resources.staticInfo(ownerOf(ctx), input),
    enableResource: (input, ctx) => resources.enable(ownerOf(ctx), input, ctx.actor),
    bulkEnable: (input, ctx) => resources.bulkEnable(ownerOf(ctx), input, ctx.actor),
  } satisfies Handlers<typeof endpoints.resources>;
}
