import { z } from 'zod';
import { defineEndpoint, type EndpointGroup } from '../common/endpoint.js';
import { MAX_MONEY_MINOR } from '../common/money.js';
import { dateTimeSchema, emptyToNull, pageOf, pagingShape, queryIdSchema, textFilter } from '../common/paging.js';
import type { Role } from '../common/roles.js';
import { orderUploadForm } from '../orders/upload.js';
import { isBankTemplateId } from './bank-file-texts.js';
import {
  PAYOUT_BATCH_MAX_ORDERS,
  PAYOUT_BATCH_ROW_ERRORS,
  PAYOUT_BATCH_RULE_TEXTS,
  type PayoutBatchRuleKey,
} from './batch-texts.js';
import { payoutRowSchema } from './endpoints.js';

/**
 * Batch payouts (DESIGN section 7, spec sections 2, 5 and 8): staff group up to 500 awaiting payouts of
 * one bank payout account (a resource) into a batch, one staff account proposes it and another confirms
 * it (maker-checker, token2), the bank's bulk file is exported by a template and downloaded again, and
 * the bank's result file completes or fails each payout. The console pages are /payoutBatch/list
 * (superAdmin, admin, supplier) and /payoutBatch/list/customerService.
 */

/**
 * Batch states. A draft holds its payouts (still awaiting, reserved for it); confirming moves them to
 * preparing on the batch's account; a result file settles them; the batch is completed when none is
 * left preparing. Abnormal ends a batch: its unsettled payouts go back to the queue (before
 * confirmation) or to processing exception (after), for staff to resolve one by one.
 */
export const PAYOUT_BATCH_STATE = {
  draft: 0,
  proposed: 1,
  confirmed: 2,
  exported: 3,
  completed: 4,
  abnormal: 5,
} as const;
export type PayoutBatchStateName = keyof typeof PAYOUT_BATCH_STATE;
export type PayoutBatchState = (typeof PAYOUT_BATCH_STATE)[PayoutBatchStateName];

/** The batch actions (spec section 2: export batch, download, confirm, mark abnormal; confirm is propose + approve). */
export const PAYOUT_BATCH_ACTIONS = [
  'propose',
  'approve',
  'exportFile',
  'download',
  'uploadResult',
  'markAbnormal',
] as const;
export type PayoutBatchAction = (typeof PAYOUT_BATCH_ACTIONS)[number];

const B = PAYOUT_BATCH_STATE;
/** Staff who make and check batches. */
const BATCH_MANAGERS = ['superAdmin', 'admin'] as const satisfies readonly Role[];
/** Who reads batches: staff, and a supplier the batches of its own payout accounts. */
export const PAYOUT_BATCH_READ_ROLES = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalMaintenance',
  'supplier',
] as const satisfies readonly Role[];

/**
 * Who may take each action. The supplier whose bank account pays may export and download the file
 * (it uploads it to its bank); settling payouts from a result file moves money, so it stays with staff.
 */
export const PAYOUT_BATCH_ACTION_ROLES: Readonly<Record<PayoutBatchAction, readonly Role[]>> = {
  propose: BATCH_MANAGERS,
  approve: BATCH_MANAGERS,
  exportFile: [...BATCH_MANAGERS, 'supplier'],
  download: [...BATCH_MANAGERS, 'supplier'],
  uploadResult: BATCH_MANAGERS,
  markAbnormal: BATCH_MANAGERS,
};

/** The states each action starts from. */
export const PAYOUT_BATCH_ACTION_FROM: Readonly<Record<PayoutBatchAction, readonly PayoutBatchState[]>> = {
  propose: [B.draft],
  approve: [B.proposed],
  exportFile: [B.confirmed],
  download: [B.exported, B.completed, B.abnormal],
  uploadResult: [B.exported],
  markAbnormal: [B.draft, B.proposed, B.confirmed, B.exported],
};

/** What of a batch the action rule reads (a database record or a row the console holds). */
export interface PayoutBatchActionFacts {
  state: number;
  /** The caller proposed it (it may not approve it). */
  proposedByCaller: boolean;
  /** Its bank file was exported (a download has bytes to answer). */
  hasFile: boolean;
}

/** Why an action is refused: the role (403), the state, the caller's own proposal, no file yet (422). */
export type PayoutBatchActionRefusal = 'role' | 'state' | 'selfApproval' | 'noFile';

/**
 * THE rule of the batch actions: null when `role` may take `action` on the batch now, else why not.
 * The server refuses by it and answers every row's `allowedActions` by it.
 */
export function payoutBatchActionRefusal(
  action: PayoutBatchAction,
  role: Role | null | undefined,
  batch: PayoutBatchActionFacts,
): PayoutBatchActionRefusal | null {
  if (!role || !PAYOUT_BATCH_ACTION_ROLES[action].includes(role)) return 'role';
  if (!(PAYOUT_BATCH_ACTION_FROM[action] as readonly number[]).includes(batch.state)) return 'state';
  if (action === 'approve' && batch.proposedByCaller) return 'selfApproval';
  if (action === 'download' && !batch.hasFile) return 'noFile';
  return null;
}

export function allowedPayoutBatchActions(
  role: Role | null | undefined,
  batch: PayoutBatchActionFacts,
): PayoutBatchAction[] {
  return PAYOUT_BATCH_ACTIONS.filter((action) => payoutBatchActionRefusal(action, role, batch) === null);
}

const R = PAYOUT_BATCH_RULE_TEXTS;
const en = (key: PayoutBatchRuleKey) => R[key]['en-US'];
/** An amount bound in minor units: a positive whole number (a query's text is read as one). */
const amountOf = (number: z.ZodNumber) =>
  number.int(en('amount')).positive(en('amount')).max(MAX_MONEY_MINOR, en('amount'));
const optionalAmount = z.preprocess(
  emptyToNull,
  amountOf(z.number(en('amount')))
    .nullable()
    .optional(),
);
const optionalQueryAmount = z.preprocess(
  emptyToNull,
  amountOf(z.coerce.number(en('amount')))
    .nullable()
    .optional(),
);

/**
 * Creating a batch: the payout account, the template, when the bank pays ('YYYY-MM-DD HH:mm:ss' in the
 * platform's time zone), at most `maxCount` payouts (oldest first) between the amounts (minor units).
 */
export const createPayoutBatchInput = z
  .strictObject({
    resourceId: z.preprocess(
      emptyToNull,
      z
        .number(en('resourceRequired'))
        .int(en('resourceRequired'))
        .positive(en('resourceRequired'))
        .max(2_147_483_647, en('resourceRequired')),
    ),
    templateId: z.preprocess(
      emptyToNull,
      z
        .string(en('templateRequired'))
        .max(64, en('templateUnsupported'))
        .refine((id) => isBankTemplateId(id), en('templateUnsupported')),
    ),
    payoutTime: z.preprocess(
      emptyToNull,
      z
        .string(en('payoutTimeRequired'))
        .max(19, en('payoutTimeFormat'))
        .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, en('payoutTimeFormat')),
    ),
    minAmount: optionalAmount,
    maxAmount: optionalAmount,
    maxCount: z
      .number(en('maxCount'))
      .int(en('maxCount'))
      .min(1, en('maxCountMin'))
      .max(PAYOUT_BATCH_MAX_ORDERS, en('maxCount'))
      .default(PAYOUT_BATCH_MAX_ORDERS),
  })
  .superRefine((v, ctx) => {
    if (typeof v.minAmount === 'number' && typeof v.maxAmount === 'number' && v.minAmount > v.maxAmount) {
      ctx.addIssue({ code: 'custom', path: ['minAmount'], message: en('minAboveMax') });
    }
  });
export type CreatePayoutBatchInput = z.infer<typeof createPayoutBatchInput>;

/** The selection a batch would take now (the create form shows the count before creating). */
export const payoutCountInput = z
  .strictObject({
    resourceId: z.preprocess(emptyToNull, queryIdSchema),
    minAmount: optionalQueryAmount,
    maxAmount: optionalQueryAmount,
    maxCount: z.coerce
      .number(en('maxCount'))
      .int(en('maxCount'))
      .min(1, en('maxCountMin'))
      .max(PAYOUT_BATCH_MAX_ORDERS, en('maxCount'))
      .default(PAYOUT_BATCH_MAX_ORDERS),
  })
  .superRefine((v, ctx) => {
    if (typeof v.minAmount === 'number' && typeof v.maxAmount === 'number' && v.minAmount > v.maxAmount) {
      ctx.addIssue({ code: 'custom', path: ['minAmount'], message: en('minAboveMax') });
    }
  });

/** A batch's fields as the list and its CSV export show them. Money in minor units, times ISO. */
export const payoutBatchFieldsSchema = z.object({
  id: z.number().int(),
  resourceId: z.number().int(),
  resourceName: z.string(),
  supplierId: z.number().int(),
  supplierName: z.string(),
  productId: z.number().int(),
  templateId: z.string(),
  payoutTime: z.string(),
  minAmount: z.number().int().nullable(),
  maxAmount: z.number().int().nullable(),
  maxCount: z.number().int(),
  orderCount: z.number().int(),
  totalAmount: z.number().int(),
  state: z.number().int(),
  createdBy: z.string(),
  proposedBy: z.string().nullable(),
  proposedAt: z.string().nullable(),
  approvedBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  fileName: z.string().nullable(),
  fileHash: z.string().nullable(),
  exportedAt: z.string().nullable(),
  completedCount: z.number().int(),
  failedCount: z.number().int(),
  resultUploads: z.number().int(),
  abnormalReason: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export const payoutBatchRowSchema = payoutBatchFieldsSchema.extend({
  allowedActions: z.array(z.enum(PAYOUT_BATCH_ACTIONS)),
});
export type PayoutBatchRow = z.infer<typeof payoutBatchRowSchema>;
export type PayoutBatchFields = z.infer<typeof payoutBatchFieldsSchema>;

const optionalId = z.preprocess(emptyToNull, queryIdSchema.nullable().optional());
const batchFilterShape = {
  batchId: optionalId,
  resourceId: optionalId,
  supplierId: optionalId,
  state: z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? Number(v) : v),
    z.number().int().min(0).max(5).optional(),
  ),
  templateId: textFilter(64),
  /** Created between ('YYYY-MM-DD HH:mm:ss', platform time zone). */
  startTime: dateTimeSchema,
  endTime: dateTimeSchema,
};

/** A bank file as exported (and downloaded again): its bytes in base64, with their SHA-256. */
export const payoutBatchFileSchema = z.object({
  batchId: z.number().int(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  contentBase64: z.string(),
});

/** The bank's result file of a batch (multipart: file, batchId), as order uploads are sent. */
export const payoutBatchResultForm = z.strictObject({
  file: orderUploadForm.shape.file,
  batchId: queryIdSchema,
});

/**
 * What became of one row of a result file: `line` is its line in the file; `outcome` completed or
 * failed (the payout moved), or refused with its `error` (PAYOUT_BATCH_ROW_ERRORS) and the server's
 * English `detail`.
 */
export const payoutBatchRowResult = z.object({
  line: z.number().int(),
  payoutCode: z.string().nullable(),
  outcome: z.enum(['completed', 'failed', 'refused']),
  error: z.enum(PAYOUT_BATCH_ROW_ERRORS).nullable(),
  detail: z.string().nullable(),
  utr: z.string().nullable(),
});
export type PayoutBatchRowResult = z.infer<typeof payoutBatchRowResult>;

export const payoutBatchResultAnswer = z.object({
  batchId: z.number().int(),
  fileName: z.string(),
  rows: z.number().int(),
  completed: z.number().int(),
  failed: z.number().int(),
  refused: z.number().int(),
  /** Payouts of the batch still preparing (no row settled them yet). */
  pending: z.number().int(),
  /** The batch's state after the file (completed when nothing is pending). */
  state: z.number().int(),
  results: z.array(payoutBatchRowResult),
});

const batchIdInput = z.strictObject({ batchId: queryIdSchema });
const stateAnswer = z.object({ batchId: z.number().int(), state: z.number().int() });

/** Batch payouts (issue 20 item 8). */
export const payoutBatchEndpoints = {
  getList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/payoutBatch/getList',
    summary:
      'Payout batches, paged and filtered (a supplier: its own payout accounts’ batches); summary sums orderCount and totalAmount',
    input: z.strictObject({ ...pagingShape, ...batchFilterShape }),
    output: pageOf(payoutBatchRowSchema),
    example: { pageIndex: 1, pageSize: 20, state: 2 },
    access: PAYOUT_BATCH_READ_ROLES,
    token2: false,
    scope: 'owned',
  }),
  exportList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/payoutBatch/exportList',
    summary: 'Every batch of the filtered set as CSV, in the list’s order',
    input: z.strictObject(batchFilterShape),
    output: payoutBatchFieldsSchema,
    example: { state: 4 },
    access: PAYOUT_BATCH_READ_ROLES,
    token2: false,
    scope: 'owned',
    produces: 'csv',
  }),
  getPayouts: defineEndpoint({
    method: 'GET',
    path: '/v1.0/payoutBatch/getPayouts',
    summary: 'The payouts a batch holds, oldest first; summary sums amount and fee',
    input: z.strictObject({ batchId: queryIdSchema, ...pagingShape }),
    output: pageOf(payoutRowSchema),
    example: { batchId: 1, pageIndex: 1, pageSize: 50 },
    access: PAYOUT_BATCH_READ_ROLES,
    token2: false,
    scope: 'owned',
  }),
  getTemplateList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/payoutBatch/getTemplateList',
    summary: 'The bank file templates (ids, banks, columns; whether their result files are read back)',
    input: z.strictObject({}),
    output: z.array(
      z.object({
        id: z.string(),
        bank: z.string(),
        extension: z.string(),
        delimiter: z.string(),
        header: z.boolean(),
        encoding: z.string(),
        columns: z.array(z.string()),
        supportsResult: z.boolean(),
      }),
    ),
    example: {},
    access: PAYOUT_BATCH_READ_ROLES,
    token2: false,
    scope: 'none',
  }),
  getResourceList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/payoutBatch/getResourceList',
    summary:
      'The bank payout accounts a batch may pay from (enabled, of enabled suppliers), each with the awaiting payouts of its product in no batch',
    input: z.strictObject({}),
    output: z.array(
      z.object({
        id: z.number().int(),
        name: z.string(),
        supplierId: z.number().int(),
        supplierName: z.string(),
        productId: z.number().int(),
        awaitingCount: z.number().int(),
      }),
    ),
    example: {},
    access: BATCH_MANAGERS,
    token2: false,
    scope: 'none',
  }),
  getPayoutCount: defineEndpoint({
    method: 'GET',
    path: '/v1.0/payoutBatch/getPayoutCount',
    summary: 'How many awaiting payouts (and how much) a batch with these conditions would take now',
    input: payoutCountInput,
    output: z.object({ count: z.number().int(), totalAmount: z.number().int() }),
    example: { resourceId: 1, minAmount: 10_000, maxAmount: 5_000_000, maxCount: 500 },
    access: BATCH_MANAGERS,
    token2: false,
    scope: 'none',
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/v1.0/payoutBatch/create',
    summary:
      'Create a draft batch: the oldest awaiting payouts of the account’s product within the amounts, at most maxCount, reserved for it',
    input: createPayoutBatchInput,
    output: z.object({ batchId: z.number().int(), orderCount: z.number().int(), totalAmount: z.number().int() }),
    example: {
      resourceId: 1,
      templateId: 'icici-cib-bulk',
      payoutTime: '2026-11-27 10:00:00',
      minAmount: 10_000,
      maxAmount: 5_000_000,
      maxCount: 500,
    },
    access: BATCH_MANAGERS,
    token2: false,
    scope: 'none',
  }),
  propose: defineEndpoint({
    method: 'POST',
    path: '/v1.0/payoutBatch/propose',
    summary: 'Propose a draft batch for confirmation (maker): another staff account approves it',
    input: batchIdInput,
    output: stateAnswer,
    example: { batchId: 1 },
    access: PAYOUT_BATCH_ACTION_ROLES.propose,
    token2: false,
    scope: 'none',
  }),
  approve: defineEndpoint({
    method: 'POST',
    path: '/v1.0/payoutBatch/approve',
    summary:
      'Confirm a proposed batch (checker: not its proposer): its payouts still awaiting move to preparing on the batch’s account',
    input: batchIdInput,
    output: stateAnswer.extend({ orderCount: z.number().int(), totalAmount: z.number().int() }),
    example: { batchId: 1 },
    access: PAYOUT_BATCH_ACTION_ROLES.approve,
    token2: true,
    scope: 'none',
  }),
  exportFile: defineEndpoint({
    method: 'POST',
    path: '/v1.0/payoutBatch/exportBatch',
    summary: 'Write the bank’s bulk upload file of a confirmed batch by its template (-> exported); kept for downloads',
    input: batchIdInput,
    output: payoutBatchFileSchema,
    example: { batchId: 1 },
    access: PAYOUT_BATCH_ACTION_ROLES.exportFile,
    token2: false,
    scope: 'owned',
  }),
  download: defineEndpoint({
    method: 'GET',
    path: '/v1.0/payoutBatch/download',
    summary: 'The batch’s bank file again: the same bytes as exported',
    input: batchIdInput,
    output: payoutBatchFileSchema,
    example: { batchId: 1 },
    access: PAYOUT_BATCH_ACTION_ROLES.download,
    token2: false,
    scope: 'owned',
  }),
  uploadResult: defineEndpoint({
    method: 'POST',
    path: '/v1.0/payoutBatch/uploadResult',
    summary:
      'Upload the bank’s result file (multipart: file, batchId): each row completes or fails its payout, with a result per row',
    input: payoutBatchResultForm,
    output: payoutBatchResultAnswer,
    example: {
      file: {
        filename: 'result.csv',
        mimetype: 'text/csv',
        content: new TextEncoder().encode(
          'Add Details 1,Amt,Status,UTR No,Reason\nP261127100000A0000001,1500.00,Paid,ICIC000123456,\n',
        ),
      },
      batchId: 1,
    },
    access: PAYOUT_BATCH_ACTION_ROLES.uploadResult,
    token2: true,
    scope: 'none',
    rateLimit: { max: 30, timeWindowMs: 60_000 },
  }),
  markAbnormal: defineEndpoint({
    method: 'POST',
    path: '/v1.0/payoutBatch/markAbnormal',
    summary:
      'Mark a batch abnormal with a reason: before confirmation its payouts go back to the queue, after it the unsettled ones to processing exception',
    input: z.strictObject({
      batchId: queryIdSchema,
      reason: z.string().trim().min(1, 'enter the reason').max(256, 'the reason is at most 256 characters'),
    }),
    output: stateAnswer,
    example: { batchId: 1, reason: 'the bank rejected the whole file' },
    access: PAYOUT_BATCH_ACTION_ROLES.markAbnormal,
    token2: false,
    scope: 'none',
  }),
} as const satisfies EndpointGroup;
