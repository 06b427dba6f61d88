import type { NoteTemplate, TextLocale } from '@paydesk/contract';
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Console accounts of every role. Deleted accounts are kept (history) and cannot sign in. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    account: text('account').notNull(),
    nickname: text('nickname').notNull(),
    role: text('role').notNull(),
    passwordHash: text('password_hash').notNull(),
    /** Second-level password; null means the sign-in password serves (after a reset). */
    payPasswordHash: text('pay_password_hash'),
    /** The active authenticator secret (base32); confirmed when googleConfirmed. */
    googleSecret: text('google_secret'),
    googleConfirmed: boolean('google_confirmed').notNull().default(false),
    /** A rebinding started from the profile: it replaces googleSecret once confirmed. */
    pendingGoogleSecret: text('pending_google_secret'),
    enableGoogleVerify: boolean('enable_google_verify').notNull().default(true),
    allowModify: boolean('allow_modify').notNull().default(true),
    /** The highest TOTP time step used: a code of that step or earlier is refused. */
    lastTotpStep: bigint('last_totp_step', { mode: 'number' }).notNull().default(0),
    /** A supplier agent's parent supplier. */
    parentId: integer('parent_id'),
    /** Linked to a merchant or supplier record (set by that area). */
    partyLinked: boolean('party_linked').notNull().default(false),
    failedLoginCount: integer('failed_login_count').notNull().default(0),
    lockedUntil: at('locked_until'),
    lastLoginAt: at('last_login_at'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    uniqueIndex('users_account_live_uq').on(sql`lower(${t.account})`).where(sql`${t.deletedAt} is null`),
    index('users_role_idx').on(t.role),
    index('users_parent_idx').on(t.parentId),
  ],
);

/**
 * Failed sign-ins (password, authenticator code, second-level password) per account name and source
 * address, and per account name over every address (ip ''). Keyed by the name typed, so an unknown
 * account is throttled exactly like an existing one. In the database: every server process sees them.
 */
export const signInThrottles = pgTable(
  'sign_in_throttles',
  {
    /** The account name as typed, lower-cased (it may name no account). */
    account: text('account').notNull(),
    /** The source address; '' for the row counting failures from every address. */
    ip: text('ip').notNull(),
    /** Failures in the current window (it restarts after a quiet window). */
    failures: integer('failures').notNull().default(0),
    lastFailureAt: at('last_failure_at'),
    /** This address may not try this account before then (the per-address lock). */
    lockedUntil: at('locked_until'),
    /** The last successful sign-in from this address: a known address skips the account-wide delay. */
    lastSuccessAt: at('last_success_at'),
  },
  (t) => [primaryKey({ columns: [t.account, t.ip] }), index('sign_in_throttles_last_failure_idx').on(t.lastFailureAt)],
);

/** Sessions; the token is stored only as its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Shown by getSessions and taken by forceLogout; not a credential. */
    publicId: text('public_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The account has no confirmed authenticator yet: only getInfo, confirmBind and logout. */
    pendingBind: boolean('pending_bind').notNull().default(false),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    createdAt: at('created_at').notNull(),
    lastSeenAt: at('last_seen_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
    revokedReason: text('revoked_reason'),
    token2Hash: text('token2_hash'),
    token2ExpiresAt: at('token2_expires_at'),
    token2Reason: text('token2_reason'),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_uq').on(t.tokenHash),
    uniqueIndex('sessions_public_id_uq').on(t.publicId),
    index('sessions_user_idx').on(t.userId),
  ],
);

/**
 * Append-only, hash-chained audit log. A row is written unsealed (no `seq`, `prevHash`, `hash`) in
 * the business transaction; the sealer gives it its place in the chain and its hash once, shortly
 * after commit (platform/audit-sealer.ts). A trigger refuses every other UPDATE, and every DELETE.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The row's place in the chain (1, 2, ...), in the order the sealer saw the rows committed. */
    seq: bigint('seq', { mode: 'number' }),
    at: at('at').notNull(),
    userId: integer('user_id'),
    account: text('account'),
    role: text('role'),
    action: text('action').notNull(),
    target: text('target'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
    prevHash: text('prev_hash'),
    hash: text('hash'),
  },
  (t) => [
    uniqueIndex('audit_seq_uq').on(t.seq),
    // What the sealer reads: the rows not yet sealed, a handful at any time.
    index('audit_unsealed_idx').on(t.id).where(sql`${t.seq} is null`),
    index('audit_at_idx').on(t.at),
    index('audit_action_idx').on(t.action),
    index('audit_account_idx').on(t.account),
  ],
);

/** Platform settings by key (the typed registry of system config comes with its area). */
export const systemSettings = pgTable('system_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
  updatedBy: integer('updated_by'),
});

/** In-app messages (spec section 3, Message): sent by the system (sender null) or broadcast by staff. */
export const messages = pgTable('messages', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  content: text('content').notNull(),
  /** A system message's title and content as templates (NOTE_TEMPLATES) the console renders in its language. */
  titleTemplate: jsonb('title_template').$type<NoteTemplate>(),
  contentTemplate: jsonb('content_template').$type<NoteTemplate>(),
  /**
   * A system message's title and content per language where staff edited the in-app template
   * (/system/messageTemplate, channel inApp), filled when it was sent; the console shows these over
   * the templates. Null when no template of it was edited.
   */
  localTexts: jsonb('local_texts').$type<Partial<Record<TextLocale, { title?: string; content?: string }>>>(),
  senderId: integer('sender_id').references(() => users.id),
  createdAt: at('created_at').notNull(),
});

/** One message in one account's inbox, and where it is there (spec section 4: unread, readed, trash). */
export const messageRecipients = pgTable(
  'message_recipients',
  {
    messageId: integer('message_id')
      .notNull()
      .references(() => messages.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    state: text('state').notNull().default('unread'),
    readAt: at('read_at'),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.userId] }),
    index('message_recipients_user_state_idx').on(t.userId, t.state),
    check('message_recipients_state_ck', sql`${t.state} in ('unread', 'readed', 'trash')`),
  ],
);

/** Script errors posted by the console (spec section 8); account is kept as it was when posted. */
export const errorLogs = pgTable(
  'error_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id'),
    account: text('account').notNull(),
    page: text('page').notNull(),
    message: text('message').notNull(),
    stack: text('stack'),
    userAgent: text('user_agent').notNull(),
    ip: text('ip').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('error_logs_created_at_idx').on(t.createdAt)],
);

/**
 * Ledger accounts (DESIGN section 5): `merchant:<id>:available|frozen`, `supplier:<id>:available|frozen`,
 * `platform:revenue`, `platform:adjustments`. The balance (minor units) is kept here, changed only by
 * the ledger service in the same transaction as the entries that explain it.
 */
export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    code: text('code').notNull(),
    ownerKind: text('owner_kind').notNull(),
    ownerId: integer('owner_id'),
    bucket: text('bucket').notNull(),
    allowNegative: boolean('allow_negative').notNull(),
    balance: bigint('balance', { mode: 'number' }).notNull().default(0),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_code_uq').on(t.code),
    index('ledger_accounts_owner_idx').on(t.ownerKind, t.ownerId),
    check('ledger_accounts_owner_kind_ck', sql`${t.ownerKind} in ('merchant', 'supplier', 'platform')`),
    check('ledger_accounts_bucket_ck', sql`${t.bucket} in ('available', 'frozen', 'revenue', 'adjustments')`),
    check('ledger_accounts_negative_ck', sql`${t.allowNegative} or ${t.balance} >= 0`),
  ],
);

/** One posted transfer; append-only (a trigger refuses UPDATE and DELETE). A reversal is a new transfer. */
export const ledgerTransfers = pgTable(
  'ledger_transfers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    idempotencyKey: text('idempotency_key').notNull(),
    /** SHA-256 of the canonical JSON of the input: the same key with another input is refused. */
    inputHash: text('input_hash').notNull(),
    type: text('type').notNull(),
    orderCode: text('order_code'),
    note: text('note').notNull(),
    /** The note as a template (NOTE_TEMPLATES) the console renders in its language; null when typed. */
    noteTemplate: jsonb('note_template').$type<NoteTemplate>(),
    actorUserId: integer('actor_user_id'),
    reversesId: bigint('reverses_id', { mode: 'number' }).references((): AnyPgColumn => ledgerTransfers.id),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('ledger_transfers_idempotency_key_uq').on(t.idempotencyKey),
    // A transfer is reversed at most once.
    uniqueIndex('ledger_transfers_reverses_uq').on(t.reversesId).where(sql`${t.reversesId} is not null`),
    index('ledger_transfers_order_idx').on(t.orderCode),
    // The fund flow reads a range of days. Transfers are appended in time order, so a BRIN index (a
    // few pages per million rows, next to nothing to keep up on the payment path) finds the range.
    index('ledger_transfers_created_brin').using('brin', t.createdAt),
  ],
);

/**
 * The entries of each transfer (signed minor units); append-only. Fund records read them per account.
 * No foreign keys: the one statement that posts a transfer writes its entries with the transfer it
 * inserted and the accounts it locked (docs/scaling.md); the ledger check finds an orphan entry.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transferId: bigint('transfer_id', { mode: 'number' }).notNull(),
    accountId: bigint('account_id', { mode: 'number' }).notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    balanceBefore: bigint('balance_before', { mode: 'number' }).notNull(),
    balanceAfter: bigint('balance_after', { mode: 'number' }).notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('ledger_entries_account_idx').on(t.accountId, t.id),
    index('ledger_entries_transfer_idx').on(t.transferId),
    check('ledger_entries_amount_ck', sql`${t.amount} <> 0`),
    check('ledger_entries_balance_ck', sql`${t.balanceAfter} = ${t.balanceBefore} + ${t.amount}`),
  ],
);

/**
 * The product catalogue (DESIGN section 6). What never changes (name, direction, resource kind, amount
 * scale) is in the contract's PRODUCTS; this table holds what staff may change. Rows are inserted by
 * migration 0005, one per catalogue id.
 */
export const products = pgTable(
  'products',
  {
    id: integer('id').primaryKey(),
    enabled: boolean('enabled').notNull().default(true),
    /** Per-order limits in minor units, for every party (a party's own limits must fit inside). */
    minAmount: bigint('min_amount', { mode: 'number' }).notNull(),
    maxAmount: bigint('max_amount', { mode: 'number' }).notNull(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    updatedBy: integer('updated_by'),
    /** The dynamic pay script whose active version renders this product's payer page (collection only). */
    payScriptId: integer('pay_script_id').references((): AnyPgColumn => payScripts.id),
  },
  (t) => [check('products_limits_ck', sql`${t.minAmount} > 0 and ${t.minAmount} <= ${t.maxAmount}`)],
);

/**
 * Per-party product settings ("user product config"): a merchant's or supplier's console account x a
 * product. Rates are in basis points (1 = 0.01 %), money in minor units; null limits mean "the product's".
 */
export const partyProducts = pgTable(
  'party_products',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    enabled: boolean('enabled').notNull().default(false),
    /** Merchant fee: amount x feeRate / 10000 + perTransactionFee. */
    feeRate: integer('fee_rate').notNull().default(0),
    perTransactionFee: bigint('per_transaction_fee', { mode: 'number' }).notNull().default(0),
    /** Supplier commission; an agent's is never above its parent's for the same product. */
    commissionRate: integer('commission_rate').notNull().default(0),
    /** Sum of a day's orders (platform time zone); null: no daily limit. */
    dailyLimit: bigint('daily_limit', { mode: 'number' }),
    minAmount: bigint('min_amount', { mode: 'number' }),
    maxAmount: bigint('max_amount', { mode: 'number' }),
    /** Orders from this amount up need the payer's KYC (spec: KYC lower limit); null: never. */
    kycLowerLimit: bigint('kyc_lower_limit', { mode: 'number' }),
    updatedAt: at('updated_at').notNull(),
    updatedBy: integer('updated_by'),
  },
  (t) => [
    uniqueIndex('party_products_user_product_uq').on(t.userId, t.productId),
    index('party_products_product_idx').on(t.productId),
    check('party_products_rates_ck', sql`${t.feeRate} between 0 and 10000 and ${t.commissionRate} between 0 and 10000`),
    check(
      'party_products_amounts_ck',
      sql`${t.perTransactionFee} >= 0 and coalesce(${t.dailyLimit}, 0) >= 0 and coalesce(${t.kycLowerLimit}, 0) >= 0
          and coalesce(${t.minAmount}, 1) > 0 and coalesce(${t.minAmount}, 0) <= coalesce(${t.maxAmount}, ${t.minAmount}, 0)`,
    ),
  ],
);

/**
 * Dynamic pay scripts (issue 21 item 4; modules/payscripts): a name and the active version. The code
 * lives in `pay_script_versions`: every save is a new version, never changed afterwards.
 */
export const payScripts = pgTable(
  'pay_scripts',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    activeVersion: integer('active_version').notNull(),
    createdAt: at('created_at').notNull(),
    createdBy: integer('created_by'),
    updatedAt: at('updated_at').notNull(),
    updatedBy: integer('updated_by'),
  },
  (t) => [uniqueIndex('pay_scripts_name_uq').on(sql`lower(${t.name})`)],
);

/** One saved version of a pay script: its code and the hosts its fetch may reach. */
export const payScriptVersions = pgTable(
  'pay_script_versions',
  {
    id: serial('id').primaryKey(),
    scriptId: integer('script_id')
      .notNull()
      .references(() => payScripts.id),
    version: integer('version').notNull(),
    code: text('code').notNull(),
    hosts: jsonb('hosts').$type<string[]>().notNull(),
    createdAt: at('created_at').notNull(),
    createdBy: integer('created_by'),
  },
  (t) => [
    uniqueIndex('pay_script_versions_uq').on(t.scriptId, t.version),
    check('pay_script_versions_ck', sql`${t.version} > 0`),
  ],
);

/**
 * Call records: every run of a pay script (a test run or a real one), with what went in and came out.
 * Append-only; no foreign key on the hot path's table beyond the script's.
 */
export const payScriptCalls = pgTable(
  'pay_script_calls',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    scriptId: integer('script_id')
      .notNull()
      .references(() => payScripts.id),
    version: integer('version').notNull(),
    /** render | parse */
    kind: text('kind').notNull(),
    /** test | payerPage | notify (a pay gateway's notification) */
    source: text('source').notNull(),
    orderCode: text('order_code'),
    ok: boolean('ok').notNull(),
    input: jsonb('input').notNull(),
    output: jsonb('output'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    fetches: jsonb('fetches').notNull(),
    logs: jsonb('logs').$type<string[]>().notNull(),
    createdAt: at('created_at').notNull(),
    createdBy: integer('created_by'),
  },
  (t) => [
    index('pay_script_calls_created_idx').on(t.createdAt),
    index('pay_script_calls_script_idx').on(t.scriptId, t.id),
    // The payer page's reuse of an order's render.
    index('pay_script_calls_order_idx').on(t.orderCode, t.id).where(sql`${t.orderCode} is not null`),
    check('pay_script_calls_kind_ck', sql`${t.kind} in ('render', 'parse')`),
    check('pay_script_calls_source_ck', sql`${t.source} in ('test', 'payerPage', 'notify')`),
  ],
);

/** A merchant: the party that creates orders through the signed API, linked to one console account. */
export const merchants = pgTable(
  'merchants',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** `mchId` of the merchant API. */
    merchantNo: text('merchant_no').notNull(),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    signType: text('sign_type').notNull().default('HMAC-SHA256'),
    /** The API secret sealed with the server's key (platform/crypto.ts); revealed only with token2. */
    secretSealed: text('secret_sealed').notNull(),
    secretRotatedAt: at('secret_rotated_at').notNull(),
    /** Addresses (IPv4/IPv6 or CIDR) allowed to call the API; empty: any. */
    ipWhitelist: jsonb('ip_whitelist').$type<string[]>().notNull().default([]),
    /** Callback settings: the address used when an order names none, and whether callbacks are sent. */
    notifyUrl: text('notify_url'),
    callbackEnabled: boolean('callback_enabled').notNull().default(true),
    remark: text('remark').notNull().default(''),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('merchants_user_uq').on(t.userId),
    uniqueIndex('merchants_merchant_no_uq').on(t.merchantNo),
    check('merchants_sign_type_ck', sql`${t.signType} in ('HMAC-SHA256', 'MD5')`),
  ],
);

/** A supplier (code merchant), linked to one console account; an agent is a supplier with a parent. */
export const suppliers = pgTable(
  'suppliers',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** An agent's parent supplier (one level: agents have no agents). */
    parentId: integer('parent_id').references((): AnyPgColumn => suppliers.id),
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    remark: text('remark').notNull().default(''),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [uniqueIndex('suppliers_user_uq').on(t.userId), index('suppliers_parent_idx').on(t.parentId)],
);

/**
 * Maker-checker balance changes (DESIGN section 3): proposed by one staff account, posted to the ledger
 * only when a different authorised account approves.
 */
export const balanceProposals = pgTable(
  'balance_proposals',
  {
    id: serial('id').primaryKey(),
    partyKind: text('party_kind').notNull(),
    /** The merchant's or supplier's record id. */
    partyId: integer('party_id').notNull(),
    kind: text('kind').notNull(),
    /** Minor units: signed for an adjustment, positive for a deposit or withdrawal, null for clearing. */
    amount: bigint('amount', { mode: 'number' }),
    note: text('note').notNull(),
    state: text('state').notNull().default('pending'),
    proposedBy: integer('proposed_by')
      .notNull()
      .references(() => users.id),
    proposedAt: at('proposed_at').notNull(),
    decidedBy: integer('decided_by').references(() => users.id),
    decidedAt: at('decided_at'),
    decisionNote: text('decision_note'),
    transferId: bigint('transfer_id', { mode: 'number' }).references(() => ledgerTransfers.id),
  },
  (t) => [
    index('balance_proposals_state_idx').on(t.state, t.id),
    index('balance_proposals_party_idx').on(t.partyKind, t.partyId),
    check('balance_proposals_party_kind_ck', sql`${t.partyKind} in ('merchant', 'supplier')`),
    check('balance_proposals_kind_ck', sql`${t.kind} in ('adjust', 'clear', 'deposit', 'withdraw')`),
    check('balance_proposals_state_ck', sql`${t.state} in ('pending', 'approved', 'rejected', 'cancelled')`),
  ],
);

/**
 * The staff sign-in whitelist (issue 21 item 6): while the StaffIpWhitelist setting is on, staff
 * accounts sign in only from these addresses or ranges (platform/ip-list.ts).
 */
export const staffIpWhitelist = pgTable('staff_ip_whitelist', {
  id: serial('id').primaryKey(),
  entry: text('entry').notNull().unique(),
  remark: text('remark').notNull().default(''),
  createdAt: at('created_at').notNull(),
  createdBy: integer('created_by').references(() => users.id),
});

/**
 * The name blacklist (issue 21 item 6): payer names refused at collection create, payee names at
 * payout create; `normalized` is the contract's normalizeBlacklistName of `name` (what create looks up).
 */
export const nameBlacklist = pgTable(
  'name_blacklist',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    normalized: text('normalized').notNull().unique(),
    kind: text('kind').notNull(),
    remark: text('remark').notNull().default(''),
    createdAt: at('created_at').notNull(),
    createdBy: integer('created_by').references(() => users.id),
  },
  (t) => [check('name_blacklist_kind_ck', sql`${t.kind} in ('payer', 'payee', 'both')`)],
);

/** Named filter sets a user saved on a list page (DESIGN section 3). */
export const savedViews = pgTable(
  'saved_views',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The route name of the list page. */
    page: text('page').notNull(),
    name: text('name').notNull(),
    filters: jsonb('filters').$type<Record<string, unknown>>().notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [uniqueIndex('saved_views_user_page_name_uq').on(t.userId, t.page, t.name)],
);

/** Raw bytes (PostgreSQL bytea) as a Buffer on both drivers. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array | string }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) =>
    typeof value === 'string' ? Buffer.from(value.replace(/^\\x/, ''), 'hex') : Buffer.from(value),
});

/**
 * A resource (receiving or payout account, DESIGN section 6) of a supplier for one product. `kind` is
 * the product's resourceKind; `details` the channel's own fields (validated by the contract's schema of
 * that kind) without secrets: a gateway's key secret is sealed in `secretSealed` and never read back
 * to a client. state 0 is enabled, 1 disabled (new ones start disabled). Deleting keeps the row.
 */
export const resources = pgTable(
  'resources',
  {
    id: serial('id').primaryKey(),
    supplierId: integer('supplier_id')
      .notNull()
      .references(() => suppliers.id),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    state: integer('state').notNull().default(1),
    details: jsonb('details').$type<Record<string, string>>().notNull(),
    secretSealed: text('secret_sealed'),
    /** Per-order and daily limits in minor units; null: none of its own. */
    minAmount: bigint('min_amount', { mode: 'number' }),
    maxAmount: bigint('max_amount', { mode: 'number' }),
    dailyAmountLimit: bigint('daily_amount_limit', { mode: 'number' }),
    dailyCountLimit: integer('daily_count_limit'),
    link: text('link'),
    jumpLink: text('jump_link'),
    /** The text a QR code encodes (UPI deep link, USDT address), derived from details; else null. */
    qrCode: text('qr_code'),
    qrImageId: integer('qr_image_id').references((): AnyPgColumn => resourceImages.id),
    /** Allocation picks the least recently used resource (issue 6). */
    lastAllocatedAt: at('last_allocated_at'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    index('resources_supplier_idx').on(t.supplierId),
    index('resources_product_state_idx').on(t.productId, t.state),
    check('resources_state_ck', sql`${t.state} in (0, 1)`),
    check(
      'resources_limits_ck',
      sql`coalesce(${t.minAmount}, 1) > 0 and coalesce(${t.minAmount}, 0) <= coalesce(${t.maxAmount}, ${t.minAmount}, 0)
          and coalesce(${t.dailyAmountLimit}, 0) >= 0 and coalesce(${t.dailyCountLimit}, 0) >= 0`,
    ),
  ],
);

/** Uploaded QR images of resources: PNG, JPEG or WebP (checked by content), at most 512 KiB. */
export const resourceImages = pgTable(
  'resource_images',
  {
    id: serial('id').primaryKey(),
    resourceId: integer('resource_id').references((): AnyPgColumn => resources.id),
    mime: text('mime').notNull(),
    bytes: bytea('bytes').notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('resource_images_resource_idx').on(t.resourceId)],
);

/**
 * What a resource processed on one day (platform time zone, 'YYYY-MM-DD'): the order work (issue 6)
 * adds to it when an order on the resource is paid; lists read today's row (none yet: 0).
 */
export const resourceDaily = pgTable(
  'resource_daily',
  {
    resourceId: integer('resource_id')
      .notNull()
      .references(() => resources.id),
    day: text('day').notNull(),
    count: integer('count').notNull().default(0),
    amount: bigint('amount', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.resourceId, t.day] })],
);

/**
 * A collection order (DESIGN section 6). States and marks are the contract's codes. Money in minor
 * units; `apiAmount` is the amount as the merchant sent it (product 1045: 1/10000 units). The owner
 * user ids are copied from the merchant and the resource's supplier so data scopes filter one table.
 * `holdOpen`: the supplier's hold for this order is posted and not yet released or consumed.
 */
export const orders = pgTable(
  'orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderCode: text('order_code').notNull(),
    merchantId: integer('merchant_id')
      .notNull()
      .references(() => merchants.id),
    merchantUserId: integer('merchant_user_id').notNull(),
    merchantOrderNo: text('merchant_order_no').notNull(),
    /** SHA-256 of the signed request's parameters: a repeat must match it (else 2005). */
    requestHash: text('request_hash').notNull(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    apiAmount: bigint('api_amount', { mode: 'number' }).notNull(),
    fee: bigint('fee', { mode: 'number' }).notNull(),
    commission: bigint('commission', { mode: 'number' }),
    state: integer('state').notNull(),
    mark: integer('mark').notNull().default(0),
    locked: boolean('locked').notNull().default(false),
    supplemented: boolean('supplemented').notNull().default(false),
    supplementType: integer('supplement_type'),
    utr: text('utr'),
    payerUtr: text('payer_utr'),
    /** The name the payer typed with the UTR on the payer page (AlipayToAlipayByHandSubmitName). */
    payerName: text('payer_name'),
    supplierId: integer('supplier_id').references(() => suppliers.id),
    supplierUserId: integer('supplier_user_id'),
    isProxy: boolean('is_proxy').notNull().default(false),
    resourceId: integer('resource_id').references(() => resources.id),
    /** How many times the order was allocated (reselect allocates again): part of the hold's key. */
    allocationNo: integer('allocation_no').notNull().default(0),
    holdOpen: boolean('hold_open').notNull().default(false),
    /** The payment took the supplier's money from its hold (frozen) rather than from available. */
    paidFromHold: boolean('paid_from_hold'),
    usdtCount: bigint('usdt_count', { mode: 'number' }),
    usdtAddress: text('usdt_address'),
    userName: text('user_name'),
    cardNumber: text('card_number'),
    ifscCode: text('ifsc_code'),
    bankName: text('bank_name'),
    vpa: text('vpa'),
    mode: text('mode'),
    address: text('address'),
    clientIp: text('client_ip'),
    subject: text('subject'),
    body: text('body'),
    extra: text('extra'),
    notifyUrl: text('notify_url'),
    returnUrl: text('return_url'),
    rejectReason: text('reject_reason'),
    createdAt: at('created_at').notNull(),
    allocatedAt: at('allocated_at'),
    expiresAt: at('expires_at'),
    paidAt: at('paid_at'),
    updatedAt: at('updated_at').notNull(),
    /** When the order clear removed its details (DataClearCycle; modules/system/order-clear.ts); null: kept. */
    detailsClearedAt: at('details_cleared_at'),
  },
  (t) => [
    uniqueIndex('orders_order_code_uq').on(t.orderCode),
    uniqueIndex('orders_merchant_order_no_uq').on(t.merchantId, t.merchantOrderNo),
    // A UTR confirms one order only.
    uniqueIndex('orders_utr_uq').on(t.utr).where(sql`${t.utr} is not null`),
    // The amount identifies the payer's transfer: one open order per amount on an account ...
    uniqueIndex('orders_open_amount_uq')
      .on(t.resourceId, t.amount)
      .where(sql`${t.state} = 1 and ${t.usdtCount} is null`),
    // ... and per floating USDT amount on a wallet.
    uniqueIndex('orders_open_usdt_uq')
      .on(t.resourceId, t.usdtCount)
      .where(sql`${t.state} = 1 and ${t.usdtCount} is not null`),
    index('orders_merchant_user_idx').on(t.merchantUserId, t.id),
    index('orders_supplier_user_idx').on(t.supplierUserId, t.id),
    index('orders_created_idx').on(t.createdAt),
    // The time filters on the completion time (CompleteTimeFilter).
    index('orders_paid_idx').on(t.paidAt),
    index('orders_state_idx').on(t.state, t.id),
    index('orders_expiry_idx').on(t.expiresAt).where(sql`${t.state} = 1`),
    // Open orders of an account: their count and sum, and (with the amount) the allocation's check that
    // no open order on the account has the amount, one index probe per account.
    index('orders_resource_open_idx').on(t.resourceId, t.amount).where(sql`${t.state} = 1`),
    // A merchant product's open orders: what the strict daily limit adds to the day's paid volume.
    index('orders_merchant_open_idx').on(t.merchantUserId, t.productId).where(sql`${t.state} in (0, 1)`),
    // The order clear's walk: the orders whose details are still kept, in id order.
    index('orders_details_kept_idx').on(t.id).where(sql`${t.detailsClearedAt} is null`),
    // The work waiting (todo.service.ts): orders whose payer sent a UTR to confirm, and locked orders.
    // Both are a few rows among millions; without these the home page's counts read every allocated
    // or timed-out order (0.5 s each at 10 million orders, bench/README.md "Scale").
    index('orders_to_confirm_idx')
      .on(t.supplierUserId, t.id)
      .where(sql`${t.state} in (1, 2) and ${t.payerUtr} is not null and not ${t.locked}`),
    index('orders_locked_idx').on(t.id).where(sql`${t.locked}`),
    // Finding orders by a receipt's picture (pictureQuery): the UTR the payer submitted, one probe.
    index('orders_payer_utr_idx').on(t.payerUtr).where(sql`${t.payerUtr} is not null`),
    check('orders_state_ck', sql`${t.state} between 0 and 9`),
    check('orders_mark_ck', sql`${t.mark} between 0 and 4`),
    check('orders_amount_ck', sql`${t.amount} > 0 and ${t.fee} >= 0 and ${t.fee} < ${t.amount}`),
  ],
);

/** An order's timeline: every state change and action, who did it, and why (append-only). */
export const orderEvents = pgTable(
  'order_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** No foreign key (append-only; written with its order, in the order's transaction: docs/scaling.md). */
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    fromState: integer('from_state'),
    toState: integer('to_state'),
    actorUserId: integer('actor_user_id'),
    actorAccount: text('actor_account'),
    note: text('note').notNull().default(''),
    /** The note as a template (NOTE_TEMPLATES) the console renders in its language; null when typed. */
    noteTemplate: jsonb('note_template').$type<NoteTemplate>(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('order_events_order_idx').on(t.orderId, t.id)],
);

/** Each allocation of an order: the accounts it considered and why each was skipped (getOrderAllocateInfo). */
export const orderAllocations = pgTable(
  'order_allocations',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** No foreign key (append-only; written with its order, in the order's transaction: docs/scaling.md). */
    orderId: bigint('order_id', { mode: 'number' }).notNull(),
    chosenResourceId: integer('chosen_resource_id'),
    /**
     * The candidates in the order considered: [resourceId, outcome] (names are read with the record);
     * records written before 2026-11-25 hold objects with the names as they were then.
     */
    candidates: jsonb('candidates')
      .$type<
        Array<[number, string] | { resourceId: number; resourceName: string; supplierName: string; outcome: string }>
      >()
      .notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('order_allocations_order_idx').on(t.orderId)],
);

/**
 * What a merchant or supplier (by console account) processed per product and day (platform time zone):
 * paid orders, for the daily limits of user product config.
 */
export const partyDaily = pgTable(
  'party_daily',
  {
    userId: integer('user_id').notNull(),
    productId: integer('product_id').notNull(),
    day: text('day').notNull(),
    count: integer('count').notNull().default(0),
    amount: bigint('amount', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.productId, t.day] })],
);

/**
 * What payments and reversals added to `party_daily` and the folder has not moved there yet (issue 19):
 * a payment appends a row here (no conflict, no lock on a shared row) instead of updating the
 * merchant's and the supplier's totals, which every payment of them would queue on. A day's total is
 * its `party_daily` row plus these rows, read in one statement; the folder (`orders/daily-folder.ts`)
 * moves them into `party_daily` and deletes them in one transaction, so a reader sees either.
 * Written on the hot path: no foreign keys (see migration 0014).
 */
export const partyDailyDeltas = pgTable(
  'party_daily_deltas',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull(),
    productId: integer('product_id').notNull(),
    day: text('day').notNull(),
    count: integer('count').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
  },
  (t) => [index('party_daily_deltas_key_idx').on(t.userId, t.productId, t.day)],
);

/**
 * The platform time zone the order rollups' hours are in (one row). The rollup triggers read it; the
 * server writes its TIME_ZONE here at start and rebuilds the rollups when it changed
 * (statistics/rollups.ts).
 */
export const statsClock = pgTable(
  'stats_clock',
  {
    id: integer('id').primaryKey(),
    timeZone: text('time_zone').notNull(),
  },
  (t) => [check('stats_clock_one_ck', sql`${t.id} = 1`)],
);

/** A rollup's counts and amounts (ROLLUP_FIGURES in statistics/rollups.ts). */
const rollupCounts = {
  createdCount: integer('created_count').notNull(),
  createdAmount: bigint('created_amount', { mode: 'number' }).notNull(),
  /** Paid (collections; not reversed) or completed (payouts), with the fees and commissions they bear. */
  successCount: integer('success_count').notNull(),
  successAmount: bigint('success_amount', { mode: 'number' }).notNull(),
  fee: bigint('fee', { mode: 'number' }).notNull(),
  commission: bigint('commission', { mode: 'number' }).notNull(),
  /** Allocation failed or rejected (collections), rejected (payouts). */
  failedCount: integer('failed_count').notNull(),
  timedOutCount: integer('timed_out_count').notNull(),
  reversedCount: integer('reversed_count').notNull(),
  reversedAmount: bigint('reversed_amount', { mode: 'number' }).notNull(),
  /** Payouts cancelled before a claim. */
  cancelledCount: integer('cancelled_count').notNull(),
  /**
   * The fee and the commission of every order or payout as it is now, whatever its state (what the
   * lists' totals sum: migration 0037); `fee` and `commission` above count the successful ones only.
   */
  allFee: bigint('all_fee', { mode: 'number' }).notNull().default(0),
  allCommission: bigint('all_commission', { mode: 'number' }).notNull().default(0),
};

/**
 * The figures of one rollup bucket (issue 22): the orders (direction 1) or payouts (direction 2)
 * created in one hour of the platform time zone by one merchant, held by one supplier (0: none yet),
 * of one product and mark (payouts: 0), in one state now (an order's change of state moves it from
 * one bucket to another: migration 0038). Written only by the database's
 * own triggers on `orders` and `payouts` (migration 0028) and the rebuild (statistics/rollups.ts).
 */
const rollupFigures = {
  /** The bucket's hour, wall-clock time in the platform time zone. */
  hour: timestamp('hour', { mode: 'string' }).notNull(),
  direction: smallint('direction').notNull(),
  merchantUserId: integer('merchant_user_id').notNull(),
  supplierUserId: integer('supplier_user_id').notNull(),
  productId: integer('product_id').notNull(),
  mark: smallint('mark').notNull(),
  /** The state the orders or payouts are in now (a list filtered by state totals from it: issue 22 item 5). */
  state: smallint('state').notNull(),
  ...rollupCounts,
};

/** The folded rollups: one row per bucket. A bucket's figures are its row plus its unfolded deltas. */
export const orderRollups = pgTable('order_rollups', rollupFigures, (t) => [
  primaryKey({ columns: [t.hour, t.direction, t.merchantUserId, t.supplierUserId, t.productId, t.mark, t.state] }),
  index('order_rollups_supplier_idx').on(t.supplierUserId, t.hour),
]);

/**
 * What each order or payout change added to a bucket (the new row's figures less the old row's), by
 * the triggers, in the change's own transaction: insert-only, so no payment waits on a shared row;
 * `foldRollups` moves them into `order_rollups` as the daily folder does (no foreign keys: hot path).
 */
export const orderRollupDeltas = pgTable('order_rollup_deltas', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  ...rollupFigures,
});

/**
 * The rollups summed over one party (issue 22 item 5): at 10 million orders the buckets of
 * `order_rollups` are nearly one per order (2,000 merchant x supplier pairs an hour), so a 30-day
 * statistic over them reads over a million rows. A level keeps one side, summed over the states
 * (the statistics': level 1 per merchant and hour, 2 per supplier and hour, 3 per merchant and day,
 * 4 per supplier and day) or by state (the lists' totals: 5 per day over every party, 6 to 9 as 1 to
 * 4); `at`: the hour, or the day's first hour; `party_user_id`: the merchant's or the supplier's
 * user, 0 for none yet, and 0 on level 5 (ROLLUP_LEVELS in statistics/rollups.ts). The folder
 * writes them with `order_rollups`, from the same deltas, in the same statement; the rebuild
 * recomputes them and the check compares them.
 */
export const orderRollupLevels = pgTable(
  'order_rollup_levels',
  {
    level: smallint('level').notNull(),
    at: timestamp('at', { mode: 'string' }).notNull(),
    direction: smallint('direction').notNull(),
    partyUserId: integer('party_user_id').notNull(),
    productId: integer('product_id').notNull(),
    mark: smallint('mark').notNull(),
    /** The state (levels 5 to 9), or -1 on the levels summed over the states (1 to 4). */
    state: smallint('state').notNull(),
    ...rollupCounts,
  },
  (t) => [
    // Direction before the time: a range of one direction is one run of the index.
    primaryKey({ columns: [t.level, t.direction, t.at, t.partyUserId, t.productId, t.mark, t.state] }),
    // One party's rows over a range (a merchant's or a supplier's own statistics, or a filter on one).
    index('order_rollup_levels_party_idx').on(t.level, t.partyUserId, t.at),
    check('order_rollup_levels_level_ck', sql`${t.level} between 1 and 9`),
  ],
);

/**
 * A merchant notification of an order (DESIGN section 6): one row per payment and per manual trigger,
 * all carrying the order's stable notification id, which the merchant deduplicates on. Attempts are in
 * order_callback_attempts. The order is a collection order (`order_id`) or a payout (`payout_id`, its
 * final state): one outbox, one dispatcher, one console for both (docs/architecture.md).
 */
export const orderCallbacks = pgTable(
  'order_callbacks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The collection order notified; null for a payout's callback (exactly one of the two is set). */
    orderId: bigint('order_id', { mode: 'number' }).references(() => orders.id),
    /** The payout notified (a completed, rejected or cancelled payout); null for a collection order's callback. */
    payoutId: bigint('payout_id', { mode: 'number' }).references(() => payouts.id),
    /** The order's code: a collection order's or a payout's (they never collide: C... and P...). */
    orderCode: text('order_code').notNull(),
    merchantOrderNo: text('merchant_order_no').notNull(),
    notificationId: text('notification_id').notNull(),
    url: text('url').notNull(),
    /** pending (attempts to come), succeeded, failed (window over), cancelled (order reversed). */
    state: text('state').notNull().default('pending'),
    /** 'auto' (payment), 'manual' (trigger callback), 'replay' (a staff replay). */
    trigger: text('trigger').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** When the next attempt is due, on the application's clock (what the console shows). */
    nextAttemptAt: at('next_attempt_at'),
    /**
     * The outbox's queue (callbacks/dispatcher.ts): when a dispatcher may claim the next attempt, on the
     * database's clock (the one every process shares); null once the callback is settled.
     */
    dueAt: at('due_at'),
    /** A dispatcher's claim on the attempt in hand: the row is its own until then (a crash's claim lapses). */
    claimedUntil: at('claimed_until'),
    /** Which dispatcher holds the claim (process and instance), for operators and for releasing it on stop. */
    claimedBy: text('claimed_by'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    index('order_callbacks_notification_idx').on(t.notificationId),
    index('order_callbacks_order_idx').on(t.orderId),
    // A payout's callbacks (the claim's check for a claim in flight, a success's siblings); collection rows are not in it.
    index('order_callbacks_payout_idx').on(t.payoutId).where(sql`${t.payoutId} is not null`),
    // The claim's scan: pending, not deleted, by due time.
    index('order_callbacks_due_idx').on(t.dueAt).where(sql`${t.state} = 'pending' and ${t.deletedAt} is null`),
    check('order_callbacks_state_ck', sql`${t.state} in ('pending', 'succeeded', 'failed', 'cancelled')`),
    // One callback notifies one order: a collection order or a payout, never both, never neither.
    check('order_callbacks_subject_ck', sql`(${t.orderId} is null) <> (${t.payoutId} is null)`),
  ],
);

/** Every delivery attempt of a callback: request, answer, status and duration. */
export const orderCallbackAttempts = pgTable(
  'order_callback_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** No foreign key (append-only; written with its locked callback: docs/scaling.md). */
    callbackId: bigint('callback_id', { mode: 'number' }).notNull(),
    orderCode: text('order_code').notNull(),
    attemptNo: integer('attempt_no').notNull(),
    url: text('url').notNull(),
    httpMethod: text('http_method').notNull().default('POST'),
    requestBody: text('request_body').notNull(),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    error: text('error'),
    succeeded: boolean('succeeded').notNull(),
    durationMs: integer('duration_ms').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('order_callback_attempts_callback_idx').on(t.callbackId, t.id),
    index('order_callback_attempts_order_idx').on(t.orderCode),
  ],
);

/**
 * Payout orders (issue 20; DESIGN section 7): a merchant's order to pay a payee, its amount plus fee
 * held from the merchant's balance at creation, paid by a supplier that claims it (or a gateway).
 * States: the contract's PAYOUT_STATE.
 */
/**
 * Batch payouts (DESIGN section 7): up to 500 awaiting payouts of one bank payout account (a resource),
 * paid by the account's bank from one bulk file. Maker-checker: proposed by one staff account, confirmed
 * by another (the check below holds it in the database too). The exported file is kept as written, so a
 * download answers the same bytes; the result files read back are counted here, their rows answered.
 */
export const payoutBatches = pgTable(
  'payout_batches',
  {
    id: serial('id').primaryKey(),
    resourceId: integer('resource_id')
      .notNull()
      .references(() => resources.id),
    /** The resource's supplier (and its console account: the supplier's data scope). */
    supplierId: integer('supplier_id')
      .notNull()
      .references(() => suppliers.id),
    supplierUserId: integer('supplier_user_id').notNull(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    /** A bank file template (contract BANK_TEMPLATE_IDS). */
    templateId: text('template_id').notNull(),
    /** When the bank pays: the file's payment date. */
    payoutAt: at('payout_at').notNull(),
    /** The selection's amount bounds and most payouts, in minor units (null: no bound). */
    minAmount: bigint('min_amount', { mode: 'number' }),
    maxAmount: bigint('max_amount', { mode: 'number' }),
    maxCount: integer('max_count').notNull(),
    orderCount: integer('order_count').notNull().default(0),
    totalAmount: bigint('total_amount', { mode: 'number' }).notNull().default(0),
    /** PAYOUT_BATCH_STATE: draft 0, proposed 1, confirmed 2, exported 3, completed 4, abnormal 5. */
    state: integer('state').notNull(),
    createdBy: integer('created_by').notNull(),
    createdByAccount: text('created_by_account').notNull(),
    proposedBy: integer('proposed_by'),
    proposedByAccount: text('proposed_by_account'),
    proposedAt: at('proposed_at'),
    approvedBy: integer('approved_by'),
    approvedByAccount: text('approved_by_account'),
    approvedAt: at('approved_at'),
    /** The bank file as first exported: downloads answer these bytes. */
    fileName: text('file_name'),
    fileContentType: text('file_content_type'),
    /** SHA-256 (hex) of fileBody. */
    fileHash: text('file_hash'),
    fileBody: bytea('file_body'),
    exportedAt: at('exported_at'),
    /** Payouts the result files completed and failed, how many files were read, and the last one's counts. */
    completedCount: integer('completed_count').notNull().default(0),
    failedCount: integer('failed_count').notNull().default(0),
    resultUploads: integer('result_uploads').notNull().default(0),
    lastResult: jsonb('last_result').$type<Record<string, string | number>>(),
    abnormalReason: text('abnormal_reason'),
    abnormalAt: at('abnormal_at'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    index('payout_batches_state_idx').on(t.state, t.id),
    index('payout_batches_supplier_user_idx').on(t.supplierUserId, t.id),
    index('payout_batches_resource_idx').on(t.resourceId),
    check('payout_batches_state_ck', sql`${t.state} between 0 and 5`),
    check(
      'payout_batches_selection_ck',
      sql`${t.maxCount} between 1 and 500 and coalesce(${t.minAmount}, 1) > 0
          and coalesce(${t.minAmount}, 0) <= coalesce(${t.maxAmount}, ${t.minAmount}, 0)`,
    ),
    // Maker-checker: the approver is another account than the proposer.
    check(
      'payout_batches_checker_ck',
      sql`${t.approvedBy} is null or (${t.proposedBy} is not null and ${t.approvedBy} <> ${t.proposedBy})`,
    ),
  ],
);

export const payouts = pgTable(
  'payouts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderCode: text('order_code').notNull(),
    merchantId: integer('merchant_id')
      .notNull()
      .references(() => merchants.id),
    merchantUserId: integer('merchant_user_id').notNull(),
    merchantOrderNo: text('merchant_order_no').notNull(),
    /** SHA-256 of the request's parameters (all but `sign`): a repeat of mchOrderNo must match it (else 2005). */
    requestHash: text('request_hash').notNull(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** The merchant's fee, held with the amount; the platform keeps fee - commission at completion. */
    fee: bigint('fee', { mode: 'number' }).notNull(),
    /** The supplier's commission, fixed when it claims (its product settings then). */
    commission: bigint('commission', { mode: 'number' }),
    state: integer('state').notNull(),
    supplierId: integer('supplier_id').references(() => suppliers.id),
    supplierUserId: integer('supplier_user_id'),
    /** The supplier's payout account it pays from. */
    resourceId: integer('resource_id').references(() => resources.id),
    /** How many times it was claimed (a cancelled claim and a new one): part of the timeline's story. */
    claimNo: integer('claim_no').notNull().default(0),
    userName: text('user_name'),
    cardNumber: text('card_number'),
    ifscCode: text('ifsc_code'),
    bankName: text('bank_name'),
    bankBranch: text('bank_branch'),
    address: text('address'),
    remark: text('remark'),
    clientIp: text('client_ip'),
    notifyUrl: text('notify_url'),
    utr: text('utr'),
    /** The receipt image the supplier attached to its UTR (payout_receipts); cleared with the UTR. */
    receiptId: bigint('receipt_id', { mode: 'number' }).references((): AnyPgColumn => payoutReceipts.id),
    rejectReason: text('reject_reason'),
    exceptionReason: text('exception_reason'),
    /** The batch that holds it (reserved while awaiting, paid by the batch's bank file once confirmed). */
    batchId: integer('batch_id').references(() => payoutBatches.id),
    /** A gateway payout's id at its gateway, once the gateway accepted it (gateway-payouts.ts). */
    gatewayId: text('gateway_id'),
    /** Sends of a gateway payout that got no answer (each retried with the same idempotency key). */
    gatewayAttempts: integer('gateway_attempts').notNull().default(0),
    /**
     * When the gateway dispatcher next sends (preparing) or polls (in progress) a gateway payout; a
     * claim moves it a lease ahead. Null: nothing for the dispatcher to do.
     */
    gatewayDueAt: at('gateway_due_at'),
    createdAt: at('created_at').notNull(),
    claimedAt: at('claimed_at'),
    submittedAt: at('submitted_at'),
    completedAt: at('completed_at'),
    updatedAt: at('updated_at').notNull(),
    /** When the order clear removed its details (DataClearCycle; modules/system/order-clear.ts); null: kept. */
    detailsClearedAt: at('details_cleared_at'),
  },
  (t) => [
    uniqueIndex('payouts_order_code_uq').on(t.orderCode),
    uniqueIndex('payouts_merchant_order_no_uq').on(t.merchantId, t.merchantOrderNo),
    // A UTR proves one payout only.
    uniqueIndex('payouts_utr_uq').on(t.utr).where(sql`${t.utr} is not null`),
    index('payouts_merchant_user_idx').on(t.merchantUserId, t.id),
    index('payouts_supplier_user_idx').on(t.supplierUserId, t.id),
    // The claim queue: awaiting payouts of a product, oldest first.
    index('payouts_queue_idx').on(t.productId, t.id).where(sql`${t.state} = 0`),
    index('payouts_state_idx').on(t.state, t.id),
    index('payouts_created_idx').on(t.createdAt),
    // The time filters on the completion time (CompleteTimeFilter).
    index('payouts_completed_idx').on(t.completedAt),
    index('payouts_batch_idx').on(t.batchId, t.id).where(sql`${t.batchId} is not null`),
    // The gateway dispatcher's work, and the webhook's lookup of a gateway's payout on its account.
    index('payouts_gateway_due_idx').on(t.gatewayDueAt).where(sql`${t.gatewayDueAt} is not null`),
    uniqueIndex('payouts_gateway_id_uq').on(t.resourceId, t.gatewayId).where(sql`${t.gatewayId} is not null`),
    index('payouts_details_kept_idx').on(t.id).where(sql`${t.detailsClearedAt} is null`),
    check('payouts_state_ck', sql`${t.state} between 0 and 9`),
    check('payouts_amount_ck', sql`${t.amount} > 0 and ${t.fee} >= 0 and coalesce(${t.commission}, 0) >= 0`),
    // A claimed payout names its supplier and its account; an awaiting one names none.
    check(
      'payouts_claim_ck',
      sql`(${t.supplierId} is null) = (${t.resourceId} is null)
          and (${t.state} <> 0 or ${t.supplierId} is null)
          and (${t.state} not in (2, 5, 7, 8, 9) or ${t.supplierId} is not null)`,
    ),
  ],
);

/**
 * Receipt images suppliers attach to a payout's UTR: PNG, JPEG or WebP (checked by content), at most
 * 512 KiB. Kept when the payout's UTR is cleared (a resolved exception), as the evidence it was; the
 * payout's `receipt_id` names the current one. Never read by lists: only `GET payoutOrder/receipt`.
 */
export const payoutReceipts = pgTable(
  'payout_receipts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    payoutId: bigint('payout_id', { mode: 'number' })
      .notNull()
      .references((): AnyPgColumn => payouts.id),
    mime: text('mime').notNull(),
    bytes: bytea('bytes').notNull(),
    sha256: text('sha256').notNull(),
    size: integer('size').notNull(),
    uploadedByUserId: integer('uploaded_by_user_id'),
    uploadedByAccount: text('uploaded_by_account'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('payout_receipts_payout_idx').on(t.payoutId)],
);

/** A payout's timeline: every state change and who made it. Append-only, written with its payout. */
export const payoutEvents = pgTable(
  'payout_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** No foreign key (append-only; written with its payout, in the payout's transaction: docs/scaling.md). */
    payoutId: bigint('payout_id', { mode: 'number' }).notNull(),
    kind: text('kind').notNull(),
    fromState: integer('from_state'),
    toState: integer('to_state'),
    actorUserId: integer('actor_user_id'),
    actorAccount: text('actor_account'),
    note: text('note').notNull().default(''),
    noteTemplate: jsonb('note_template').$type<NoteTemplate>(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('payout_events_payout_idx').on(t.payoutId, t.id)],
);

/**
 * The Telegram whitelist (spec section 2, system management): the Telegram users who may talk to the
 * bots. The bots answer no one else (modules/bots).
 */
export const telegramCursors = pgTable('telegram_cursors', {
  /** What the position is of: 'fundRecord' (the last ledger entry the bots have sent). */
  name: text('name').primaryKey(),
  position: bigint('position', { mode: 'number' }).notNull(),
  updatedAt: at('updated_at').notNull(),
});

/**
 * Message templates (/system/messageTemplate): the staff's own text of a bot message in a language,
 * replacing the contract's default (BOT_MESSAGE_TEXTS) until reset.
 */
export const messageTemplates = pgTable(
  'message_templates',
  {
    /** bot (the Telegram bots' messages) or inApp (the system messages of the in-app inbox). */
    channel: text('channel').notNull().default('bot'),
    key: text('key').notNull(),
    language: text('language').notNull(),
    text: text('text').notNull(),
    updatedAt: at('updated_at').notNull(),
    updatedBy: integer('updated_by'),
  },
  (t) => [
    primaryKey({ columns: [t.channel, t.key, t.language] }),
    check('message_templates_channel_ck', sql`${t.channel} in ('bot', 'inApp')`),
  ],
);

export const telegramWhitelist = pgTable(
  'telegram_whitelist',
  {
    id: serial('id').primaryKey(),
    /** Telegram's numeric user id, as digits. */
    telegramUserId: text('telegram_user_id').notNull(),
    /** Who this is, for the staff reading the list (a name or @username). */
    name: text('name').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    remark: text('remark').notNull().default(''),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [uniqueIndex('telegram_whitelist_user_uq').on(t.telegramUserId)],
);

/**
 * Bot groups (spec section 2): which Telegram chat receives which party's notices. A merchant's or
 * supplier's group gets that party's balance changes and answers its balance; a staff group gets the
 * reminders of waiting work. One row per chat, so a chat speaks for one party.
 */
export const telegramGroups = pgTable(
  'telegram_groups',
  {
    id: serial('id').primaryKey(),
    /** Telegram's chat id (a group's is negative), as digits. */
    chatId: text('chat_id').notNull(),
    name: text('name').notNull(),
    /** merchant, supplier or staff. */
    partyKind: text('party_kind').notNull(),
    /** The merchant's or supplier's id; null for a staff group. */
    partyId: integer('party_id'),
    /** The language of the bots' messages to this chat (zh-CN, zh-TW or en-US). */
    language: text('language').notNull().default('zh-CN'),
    enabled: boolean('enabled').notNull().default(true),
    /** Whether the balance changes (fund notices) of its party reach this chat (/system/transferBot). */
    transferNotices: boolean('transfer_notices').notNull().default(true),
    remark: text('remark').notNull().default(''),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    uniqueIndex('telegram_groups_chat_uq').on(t.chatId),
    index('telegram_groups_party_idx').on(t.partyKind, t.partyId),
    check('telegram_groups_language_ck', sql`${t.language} in ('zh-CN', 'zh-TW', 'en-US')`),
    check(
      'telegram_groups_party_ck',
      sql`(${t.partyKind} = 'staff' and ${t.partyId} is null) or (${t.partyKind} in ('merchant', 'supplier') and ${t.partyId} is not null)`,
    ),
  ],
);

/**
 * Order clear history (spec section 2; modules/system/order-clear.ts): one row per run of the
 * DataClearCycle retention job, with what it removed. At most one run is `running` at a time across
 * every process (the partial unique index); `heartbeat_at` moves with each batch, so a run whose process
 * died is seen as interrupted by the next one.
 */
export const orderClearRuns = pgTable(
  'order_clear_runs',
  {
    id: serial('id').primaryKey(),
    /** schedule (the daily job) or manual (a superAdmin's run now). */
    trigger: text('trigger').notNull(),
    startedBy: integer('started_by').references(() => users.id),
    /** running, succeeded, failed, interrupted. */
    state: text('state').notNull(),
    cycleDays: integer('cycle_days').notNull(),
    cutoff: at('cutoff').notNull(),
    startedAt: at('started_at').notNull(),
    heartbeatAt: at('heartbeat_at').notNull(),
    finishedAt: at('finished_at'),
    error: text('error'),
    orders: integer('orders').notNull().default(0),
    payouts: integer('payouts').notNull().default(0),
    orderEvents: integer('order_events').notNull().default(0),
    payoutEvents: integer('payout_events').notNull().default(0),
    allocations: integer('allocations').notNull().default(0),
    callbacks: integer('callbacks').notNull().default(0),
    callbackAttempts: integer('callback_attempts').notNull().default(0),
    receipts: integer('receipts').notNull().default(0),
    payScriptCalls: integer('pay_script_calls').notNull().default(0),
  },
  (t) => [
    index('order_clear_runs_started_idx').on(t.startedAt),
    // One run at a time, across every process.
    uniqueIndex('order_clear_runs_running_uq').on(t.state).where(sql`${t.state} = 'running'`),
    check('order_clear_runs_trigger_ck', sql`${t.trigger} in ('schedule', 'manual')`),
    check('order_clear_runs_state_ck', sql`${t.state} in ('running', 'succeeded', 'failed', 'interrupted')`),
    check('order_clear_runs_cycle_ck', sql`${t.cycleDays} > 0`),
  ],
);

/**
 * Pay gateway config (issue 21 item 6; contract `system/pay-gateways.ts`): an upstream gateway's
 * address and credentials, named by gateway payout accounts (`resources.details.gatewayId`) and read at
 * every call, so a rotated secret applies at once. The two secrets are sealed apart under the server
 * key (platform/crypto.ts) and never answered.
 */
export const payGateways = pgTable(
  'pay_gateways',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    /** payoutApi or collectionNotify. */
    kind: text('kind').notNull(),
    baseUrl: text('base_url').notNull().default(''),
    keyId: text('key_id').notNull().default(''),
    keySecretSealed: text('key_secret_sealed'),
    webhookSecretSealed: text('webhook_secret_sealed'),
    remark: text('remark').notNull().default(''),
    enabled: boolean('enabled').notNull().default(true),
    /** collectionNotify: the pay script whose active version's parseNotification reads its notifications. */
    payScriptId: integer('pay_script_id').references(() => payScripts.id),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    updatedBy: integer('updated_by'),
  },
  (t) => [
    uniqueIndex('pay_gateways_name_uq').on(t.name),
    check('pay_gateways_kind_ck', sql`${t.kind} in ('payoutApi', 'collectionNotify')`),
  ],
);
