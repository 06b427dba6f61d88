import type { endpoints } from '@paydesk/contract';
import { pageSizeOf } from '@paydesk/contract';
import type { Handlers, UserContext } from '../../platform/context.js';
import type { PayoutBatchesService } from './batches.service.js';
import type { PayoutCaller } from './payouts.service.js';

const caller = (ctx: UserContext): PayoutCaller => ({
  role: ctx.role,
  userId: ctx.user.userId,
  scope: ctx.scope,
  actor: ctx.actor,
});

/**
 * Batch payouts' endpoints. `uploadResult` is a multipart upload: app.ts registers it in the context
 * that parses multipart forms (as the orders' createBatch), the rest with the others.
 */
export function payoutBatchHandlers(batches: PayoutBatchesService): Handlers<typeof endpoints.payoutBatches> {
  return {
    getList: (input, ctx) => batches.getList({ ...input, pageSize: pageSizeOf(input) }, caller(ctx)),
    exportList: (input, ctx) => batches.exportList(input, caller(ctx)),
    getPayouts: (input, ctx) =>
      batches.getPayouts(input.batchId, { pageIndex: input.pageIndex, pageSize: pageSizeOf(input) }, caller(ctx)),
    getTemplateList: async () => batches.listTemplates(),
    getResourceList: () => batches.listResources(),
    getPayoutCount: (input) => batches.countPayouts(input),
    create: (input, ctx) => batches.create(input, caller(ctx)),
    propose: (input, ctx) => batches.propose(input.batchId, caller(ctx)),
    approve: (input, ctx) => batches.approve(input.batchId, caller(ctx)),
    exportFile: (input, ctx) => batches.exportFile(input.batchId, caller(ctx)),
    download: (input, ctx) => batches.download(input.batchId, caller(ctx)),
    uploadResult: (input, ctx) =>
      batches.uploadResult(
        input.batchId,
        { fileName: input.file.filename, mimeType: input.file.mimetype, body: Buffer.from(input.file.content) },
        caller(ctx),
      ),
    markAbnormal: (input, ctx) => batches.markAbnormal(input.batchId, input.reason, caller(ctx)),
  };
}
