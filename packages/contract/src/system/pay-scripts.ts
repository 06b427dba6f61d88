import { z } from 'zod';
import { defineEndpoint, type EndpointGroup } from '../common/endpoint.js';
import { MAX_MONEY_MINOR } from '../common/money.js';
import {
  dateTimeSchema,
  emptyToNull,
  idSchema,
  pageOf,
  pagingShape,
  queryIdSchema,
  textFilter,
} from '../common/paging.js';
import type { Role } from '../common/roles.js';
import { utrSchema } from '../orders/endpoints.js';
import type { payeeSchema } from '../orders/merchant-api.js';

/**
 * Dynamic pay scripts (spec section 2, system management; DESIGN section 10): JavaScript that turns an
 * order of a product configured to use it into what the payer sees (a pay link, a QR payload,
 * instructions), and parses an upstream notification into order code, amount, UTR and status. Every
 * save is a new version; one version is active. Scripts run in a QuickJS sandbox (WebAssembly) with the
 * limits below and reach the network only through the `fetch` the server offers, to the hosts the
 * version declares. Every run (a test run or a real one) is a call record.
 *
 * The script's interface (docs/architecture.md, "Dynamic pay scripts"):
 *   function render(order)              -> { payUrl?, qrPayload?, instructions? }   (payScriptOrderSchema in)
 *   function parseNotification(notice)  -> { orderCode, amount, utr, status }       (payScriptNotificationSchema in)
 * Either may be async (return a promise); `fetch(url, {method, headers, body})` answers
 * `{status, ok, headers, text(), json()}`; `console.log` lines are kept with the call record.
 */

/** Who reads scripts and call records: system management staff, technical support among them. */
export const PAY_SCRIPT_READ_ROLES = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalMaintenance',
  'technicalSupport',
] as const satisfies readonly Role[];
/** Who writes, activates, assigns and test-runs scripts (technical maintenance reads only). */
export const PAY_SCRIPT_EDIT_ROLES = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalSupport',
] as const satisfies readonly Role[];

/** The sandbox's limits: what one run of a script may use (the server enforces each). */
export const PAY_SCRIPT_LIMITS = {
  /** Characters of a script's code. */
  codeChars: 65_536,
  /** Hosts one version may declare. */
  hosts: 10,
  /** CPU time the interpreter may spend on one run (waiting for fetch does not count). */
  cpuMs: 500,
  /** Memory of the script's heap. */
  memoryBytes: 16 * 1024 * 1024,
  /** The interpreter's stack (deep recursion stops here). */
  stackBytes: 256 * 1024,
  /** The whole run, fetches included. */
  wallMs: 10_000,
  /** fetch calls of one run. */
  fetchCalls: 5,
  /** One fetch, connection to last byte. */
  fetchTimeoutMs: 5_000,
  /** Bytes of one fetch's answer the script may read; a longer answer is an error. */
  fetchResponseBytes: 256 * 1024,
  /** Bytes of a fetch's request body. */
  fetchBodyBytes: 64 * 1024,
  /** Characters of a run's result (as JSON). */
  outputChars: 16_384,
  /** console.log lines kept of one run, and characters of each. */
  logLines: 50,
  logLineChars: 500,
} as const;

export const PAY_SCRIPT_KINDS = ['render', 'parse'] as const;
export type PayScriptKind = (typeof PAY_SCRIPT_KINDS)[number];
/**
 * test: a test run from the console; payerPage: the payer page of an order of a product that uses the
 * script; notify: a notification POSTed by a collectionNotify pay gateway that names the script.
 */
export const PAY_SCRIPT_SOURCES = ['test', 'payerPage', 'notify'] as const;
export type PayScriptSource = (typeof PAY_SCRIPT_SOURCES)[number];
/** The function a kind calls. */
export const PAY_SCRIPT_FUNCTIONS: Readonly<Record<PayScriptKind, string>> = {
  render: 'render',
  parse: 'parseNotification',
};

export const PAY_SCRIPT_TEXTS = {
  name: 'a name of 1 to 64 characters',
  code: `the script: 1 to ${PAY_SCRIPT_LIMITS.codeChars} characters`,
  host: 'a host name such as api.gateway.example (no scheme, path, port or wildcard)',
  hosts: `at most ${PAY_SCRIPT_LIMITS.hosts} hosts`,
  utrWhenPaid: 'a paid notification has a utr',
} as const;

const HOST = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
/** A host a version may reach: a name or an IPv4 address, lower case, exactly (no wildcard, no port). */
export const payScriptHostSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253, PAY_SCRIPT_TEXTS.host)
  .regex(HOST, PAY_SCRIPT_TEXTS.host);
const hostsSchema = z
  .array(payScriptHostSchema)
  .max(PAY_SCRIPT_LIMITS.hosts, PAY_SCRIPT_TEXTS.hosts)
  .transform((hosts) => [...new Set(hosts)]);
const nameSchema = z.string().trim().min(1, PAY_SCRIPT_TEXTS.name).max(64, PAY_SCRIPT_TEXTS.name);
const codeSchema = z.string().min(1, PAY_SCRIPT_TEXTS.code).max(PAY_SCRIPT_LIMITS.codeChars, PAY_SCRIPT_TEXTS.code);
const versionSchema = z.number().int().positive().max(1_000_000);

const text = (max = 512) => z.string().max(max).optional();
/**
 * The receiving account's public fields as `render` gets them: the payer page's payee
 * (orders/merchant-api.ts `payeeSchema`), with the bounds a test run's sample input is held to.
 */
export const payScriptPayeeSchema = z.object({
  kind: z.string().max(64),
  accountName: text(),
  bankName: text(),
  cardNumber: text(64),
  ifsc: text(32),
  vpa: text(),
  upiLink: text(2048),
  address: text(),
  usdtCount: z.number().int().min(0).max(MAX_MONEY_MINOR).optional(),
  phone: text(64),
  paymentLink: text(2048),
  qrCode: z.string().max(2048).nullable().optional(),
  hasQrImage: z.boolean().optional(),
}) satisfies z.ZodType<z.infer<typeof payeeSchema>>;

/** What `render(order)` receives: the order's public details and its receiving account's (never a secret). */
export const payScriptOrderSchema = z.object({
  orderCode: z.string().min(1).max(64),
  /** Minor units (1/100 of the currency). */
  amount: z.number().int().positive().max(MAX_MONEY_MINOR),
  currency: z.string().min(1).max(8),
  product: z.object({ id: z.number().int().min(1).max(999_999_999), name: z.string().max(128) }),
  merchantName: z.string().max(128),
  subject: z.string().max(256).nullable(),
  expiresAt: z.string().max(40).nullable(),
  /** The receiving account's public fields (orders' payee), or null. */
  payee: payScriptPayeeSchema.nullable(),
});
export type PayScriptOrder = z.infer<typeof payScriptOrderSchema>;

/** What `parseNotification(notification)` receives: an upstream's notification as it arrived. */
export const payScriptNotificationSchema = z.object({
  headers: z.record(z.string().max(128), z.string().max(4096)),
  body: z.string().max(65_536),
});
export type PayScriptNotification = z.infer<typeof payScriptNotificationSchema>;

/** What `parseNotification` must return. */
export const payScriptParsedSchema = z
  .strictObject({
    orderCode: z.string().min(1).max(64),
    /** Minor units. */
    amount: z.number().int().positive().max(MAX_MONEY_MINOR),
    /** The payment's UTR, within the bounds of the orders' UTR (`utrSchema`); null when there is none. */
    utr: utrSchema.nullable(),
    status: z.enum(['paid', 'failed']),
  })
  .refine((v) => v.status !== 'paid' || v.utr !== null, { message: PAY_SCRIPT_TEXTS.utrWhenPaid, path: ['utr'] });
export type PayScriptParsed = z.infer<typeof payScriptParsedSchema>;

/** One outbound call of a run, as the call record keeps it. */
export const payScriptFetchSchema = z.object({
  url: z.string(),
  method: z.string(),
  status: z.number().int().nullable(),
  durationMs: z.number().int(),
  /** Why it failed or was refused (an undeclared host, a private address, a timeout), else null. */
  error: z.string().nullable(),
});
export type PayScriptFetch = z.infer<typeof payScriptFetchSchema>;

export const payScriptRowSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  activeVersion: z.number().int(),
  latestVersion: z.number().int(),
  /** The active version's hosts. */
  hosts: z.array(z.string()),
  /** Collection products whose payer page runs this script. */
  productIds: z.array(z.number().int()),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
});
export type PayScriptRow = z.infer<typeof payScriptRowSchema>;

export const payScriptVersionSchema = z.object({
  version: z.number().int(),
  code: z.string(),
  hosts: z.array(z.string()),
  active: z.boolean(),
  createdAt: z.string(),
  createdBy: z.string().nullable(),
});
export type PayScriptVersion = z.infer<typeof payScriptVersionSchema>;

/** The outcome of a run: the checked result, or why there is none. */
export const payScriptRunSchema = z.object({
  recordId: z.number().int(),
  version: z.number().int(),
  ok: z.boolean(),
  output: z.unknown().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
  fetches: z.array(payScriptFetchSchema),
  logs: z.array(z.string()),
});
export type PayScriptRun = z.infer<typeof payScriptRunSchema>;

export const payScriptRecordSchema = z.object({
  id: z.number().int(),
  scriptId: z.number().int(),
  scriptName: z.string(),
  version: z.number().int(),
  kind: z.enum(PAY_SCRIPT_KINDS),
  source: z.enum(PAY_SCRIPT_SOURCES),
  orderCode: z.string().nullable(),
  ok: z.boolean(),
  input: z.unknown(),
  output: z.unknown().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().int(),
  fetches: z.array(payScriptFetchSchema),
  logs: z.array(z.string()),
  /** The account of a test run; null for a real run. */
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type PayScriptRecord = z.infer<typeof payScriptRecordSchema>;

const optionalEnum = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(emptyToNull, z.enum(values).nullable().optional());

/** Filters of the call records, shared with their export. */
export const payScriptRecordFilterShape = {
  scriptId: z.preprocess(emptyToNull, queryIdSchema.nullable().optional()),
  kind: optionalEnum(PAY_SCRIPT_KINDS),
  source: optionalEnum(PAY_SCRIPT_SOURCES),
  /** ok: runs that returned a valid result; error: the others. */
  outcome: optionalEnum(['ok', 'error'] as const),
  orderCode: textFilter(64),
  startTime: dateTimeSchema,
  endTime: dateTimeSchema,
};

const renderRun = z.strictObject({
  id: idSchema,
  /** The version to run; the active one when absent. */
  version: versionSchema.optional(),
  kind: z.literal('render'),
  input: payScriptOrderSchema,
});
const parseRun = z.strictObject({
  id: idSchema,
  version: versionSchema.optional(),
  kind: z.literal('parse'),
  input: payScriptNotificationSchema,
});

const SAMPLE_CODE = `function render(order) {
  return { instructions: 'Pay ' + (order.amount / 100).toFixed(2) + ' ' + order.currency };
}
function parseNotification(n) {
  const b = JSON.parse(n.body);
  return { orderCode: b.order, amount: b.amount, utr: b.utr, status: b.ok ? 'paid' : 'failed' };
}`;

export const payScriptsEndpoints = {
  getPayScriptList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/dynamicPayScript/getList',
    summary: 'Dynamic pay scripts with their active and latest versions, hosts and the products that use them',
    input: z.strictObject({ ...pagingShape, name: textFilter(64) }),
    output: pageOf(payScriptRowSchema),
    example: { pageIndex: 1 },
    access: PAY_SCRIPT_READ_ROLES,
    token2: false,
    scope: 'none',
  }),
  exportPayScriptList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/dynamicPayScript/export',
    summary: 'The filtered pay scripts as CSV, newest first (hosts and product ids as JSON)',
    input: z.strictObject({ name: textFilter(64) }),
    output: payScriptRowSchema,
    example: {},
    access: PAY_SCRIPT_READ_ROLES,
    token2: false,
    scope: 'none',
    produces: 'csv',
  }),
  getPayScriptVersions: defineEndpoint({
    method: 'GET',
    path: '/v1.0/dynamicPayScript/getVersions',
    summary: 'Every version of a pay script, newest first, with its code and hosts',
    input: z.strictObject({ id: queryIdSchema }),
    output: z.object({ list: z.array(payScriptVersionSchema) }),
    example: { id: 1 },
    access: PAY_SCRIPT_READ_ROLES,
    token2: false,
    scope: 'none',
  }),
  createPayScript: defineEndpoint({
    method: 'POST',
    path: '/v1.0/dynamicPayScript/create',
    summary: 'A new pay script: its first version, active (the code must compile)',
    input: z.strictObject({ name: nameSchema, code: codeSchema, hosts: hostsSchema }),
    output: payScriptRowSchema,
    example: { name: 'UPI link', code: SAMPLE_CODE, hosts: [] },
    access: PAY_SCRIPT_EDIT_ROLES,
    token2: true,
    scope: 'none',
  }),
  savePayScriptVersion: defineEndpoint({
    method: 'POST',
    path: '/v1.0/dynamicPayScript/saveVersion',
    summary: 'Save a pay script: a new version (active at once only when asked; the code must compile)',
    input: z.strictObject({
      id: idSchema,
      name: nameSchema,
      code: codeSchema,
      hosts: hostsSchema,
      activate: z.boolean().default(false),
    }),
    output: payScriptRowSchema,
    example: { id: 1, name: 'UPI link', code: SAMPLE_CODE, hosts: ['api.gateway.example'], activate: false },
    access: PAY_SCRIPT_EDIT_ROLES,
    token2: true,
    scope: 'none',
  }),
  activatePayScriptVersion: defineEndpoint({
    method: 'POST',
    path: '/v1.0/dynamicPayScript/activate',
    summary: 'Make a version of a pay script the active one (what real runs use)',
    input: z.strictObject({ id: idSchema, version: versionSchema }),
    output: payScriptRowSchema,
    example: { id: 1, version: 1 },
    access: PAY_SCRIPT_EDIT_ROLES,
    token2: true,
    scope: 'none',
  }),
  setPayScriptProducts: defineEndpoint({
    method: 'POST',
    path: '/v1.0/dynamicPayScript/setProducts',
    summary:
      'The collection products whose payer page runs this script (a product listed leaves its former script; one left out uses none)',
    input: z.strictObject({
      id: idSchema,
      productIds: z
        .array(idSchema)
        .max(50)
        .transform((ids) => [...new Set(ids)]),
    }),
    output: payScriptRowSchema,
    example: { id: 1, productIds: [1001] },
    access: PAY_SCRIPT_EDIT_ROLES,
    token2: true,
    scope: 'none',
  }),
  testPayScript: defineEndpoint({
    method: 'POST',
    path: '/v1.0/dynamicPayScript/testRun',
    summary:
      'Run a version (the active one by default) on sample input: its checked result or error, and the time taken',
    input: z.discriminatedUnion('kind', [renderRun, parseRun]),
    output: payScriptRunSchema,
    example: {
      id: 1,
      kind: 'parse',
      input: {
        headers: { 'content-type': 'application/json' },
        body: '{"order":"C1","amount":10000,"utr":"412345678901","ok":true}',
      },
    },
    access: PAY_SCRIPT_EDIT_ROLES,
    token2: false,
    scope: 'none',
    rateLimit: { max: 60, timeWindowMs: 60_000 },
  }),
  getPayScriptRecords: defineEndpoint({
    method: 'GET',
    path: '/v1.0/dynamicPayScriptRecord/getList',
    summary: 'Call records of the pay scripts, newest first: version, kind, input, output or error, duration',
    input: z.strictObject({ ...pagingShape, ...payScriptRecordFilterShape }),
    output: pageOf(payScriptRecordSchema),
    example: { pageIndex: 1, kind: 'render', outcome: 'error' },
    access: PAY_SCRIPT_READ_ROLES,
    token2: false,
    scope: 'none',
  }),
  exportPayScriptRecords: defineEndpoint({
    method: 'GET',
    path: '/v1.0/dynamicPayScriptRecord/export',
    summary: 'Every call record of the filtered set as CSV, newest first (input, output and fetches as JSON)',
    input: z.strictObject(payScriptRecordFilterShape),
    output: payScriptRecordSchema,
    example: { outcome: 'error' },
    access: PAY_SCRIPT_READ_ROLES,
    token2: false,
    scope: 'none',
    produces: 'csv',
  }),
} as const satisfies EndpointGroup;
