import { Code, type endpoints, ORDER_UPLOAD_TEXTS, pageSizeOf } from '@paydesk/contract';
import type { Handlers, UserContext } from '../../platform/context.js';
import { isConcurrencyFailure } from '../../platform/db-errors.js';
import { AppError } from '../../platform/errors.js';
import type { OrderQueries } from './orders.query.js';
import type { OrderRecord, OrdersService } from './orders.service.js';
import type { OrderUploadService } from './orders.upload.js';
import type { PictureQuery } from './picture-query.js';

const caller = (ctx: UserContext) => ({ role: ctx.role, userId: ctx.user.userId });
const stateOf = (o: OrderRecord) => ({ orderCode: o.orderCode, state: o.state });

const baseUrlOf = (ctx: { reply: UserContext['reply'] }) => {
  const req = ctx.reply.request;
  return `${req.protocol}://${req.host}`;
};

export function ordersHandlers(
  orders: OrdersService,
  queries: OrderQueries,
  uploads: OrderUploadService,
  pictures: PictureQuery,
) {
  return {
    create: (input, ctx) => orders.create(input, { ip: ctx.ip, baseUrl: baseUrlOf(ctx) }),
    query: (input, ctx) => queries.merchantApi.order(input, ctx.ip),
    queryBalance: (input, ctx) => queries.merchantApi.balance(input, ctx.ip),
    createBatch: async (input, ctx) => {
      try {
        return await uploads.createBatch(
          input,
          { actor: ctx.actor, userId: ctx.user.userId, token2Valid: ctx.token2Valid },
          { baseUrl: baseUrlOf(ctx) },
        );
      } catch (error) {
        if (error instanceof AppError || isConcurrencyFailure(error)) throw error;
        // Spec section 8: anything unexpected is 'upload failed' (logged with the request id). Rows
        // made before the failure are kept; the same file again gives them back (mchOrderNo).
        ctx.reply.request.log.error({ err: error }, 'order upload failed');
        throw new AppError(Code.internal, ORDER_UPLOAD_TEXTS.uploadFailed, {
          reason: 'uploadFailed',
          requestId: ctx.requestId,
        });
      }
    },
    orderUploadFlag: (_input, ctx) => uploads.flag({ userId: ctx.user.userId, role: ctx.role }),
    getList: (input, ctx) => queries.getList(ctx.scope, caller(ctx), { ...input, pageSize: pageSizeOf(input) }),
    exportList: (input, ctx) => queries.exportList(ctx.scope, caller(ctx), input),
    getDetail: (input, ctx) => queries.getDetail(ctx.scope, caller(ctx), input.orderCode),
    getLastOrder: async (_input, ctx) => queries.getLastOrder(ctx.scope, caller(ctx)),
    getOrderStatusList: async () => queries.getOrderStatusList(),
    getOrderMarkList: async () => queries.getOrderMarkList(),
    pictureQuery: (input, ctx) => pictures.find(input.receipt, ctx.scope, caller(ctx)),
    getOrderAllocateInfo: (input, ctx) => queries.getAllocateInfo(ctx.scope, input.orderCode),
    confirmOrder: async (input, ctx) => stateOf(await orders.confirm(input.orderCode, ctx.scope, ctx.actor)),
    replenishmentOrder: async (input, ctx) => stateOf(await orders.supplement(input, ctx.scope, ctx.actor)),
    reselect: async (input, ctx) => stateOf(await orders.reselect(input.orderCode, ctx.scope, ctx.actor)),
    reject: async (input, ctx) => stateOf(await orders.reject(input, ctx.scope, ctx.actor)),
    freeResource: async (input, ctx) => stateOf(await orders.freeResource(input.orderCode, ctx.scope, ctx.actor)),
    callback: async (input, ctx) => stateOf(await orders.triggerCallback(input.orderCode, ctx.scope, ctx.actor)),
    reverseOrder: async (input, ctx) => stateOf(await orders.reverse(input.orderCode, ctx.scope, ctx.actor)),
    updateOrderMark: (input, ctx) => orders.updateMark(input, ctx.scope, ctx.actor),
    unlockOrder: (input, ctx) => orders.unlock(input.orderCodes, ctx.scope, ctx.actor),
    payerOrder: (input) => queries.payerView(input.orderCode),
    payerQrImage: (input) => queries.payerQrImage(input.orderCode),
    payerSubmitUtr: (input) => orders.submitPayerUtr(input.orderCode, input.utr, input.payerName),
  } satisfies Handlers<typeof endpoints.orders>;
}
