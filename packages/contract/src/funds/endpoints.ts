import { z } from 'zod';
import { defineEndpoint, type EndpointGroup } from '../common/endpoint.js';
import { MAX_MONEY_MINOR, moneyFilter, sortShape } from '../common/money.js';
import { noteTemplateSchema } from '../common/notes.js';
import {
  dateTimeSchema,
  emptyToNull,
  idSchema,
  pageOf,
  pagingShape,
  queryIdSchema,
  textFilter,
} from '../common/paging.js';
import { ALL_ROLES } from '../common/roles.js';

/** The two kinds of party that hold money on the ledger (DESIGN section 5). */
export const PARTY_KINDS = ['merchant', 'supplier'] as const;
export type PartyKind = (typeof PARTY_KINDS)[number];
export const partyKindSchema = z.enum(PARTY_KINDS);

/** A party's ledger buckets. */
export const FUND_BUCKETS = ['available', 'frozen'] as const;
export type FundBucket = (typeof FUND_BUCKETS)[number];

/**
 * Transfer types a fund record may show. Manual ones come from approved balance proposals (and a
 * superAdmin's reversal); the order ones from collection orders: the supplier's hold at allocation,
 * its release (reject, free, timeout) and the payment. The console names each in three languages.
 */
export const MANUAL_TRANSFER_TYPES = ['manualAdjustment', 'clearBalance', 'deposit', 'withdrawal', 'reversal'] as const;
export const ORDER_TRANSFER_TYPES = [
  'orderHold',
  'orderRelease',
  'orderPaid',
  'payoutHold',
  'payoutRelease',
  'payoutPaid',
] as const;
export type OrderTransferType = (typeof ORDER_TRANSFER_TYPES)[number];
export const TRANSFER_TYPES = [...ORDER_TRANSFER_TYPES, ...MANUAL_TRANSFER_TYPES] as const;

/** Maker-checker proposals (DESIGN section 3). */
export const PROPOSAL_KINDS = ['adjust', 'clear', 'deposit', 'withdraw'] as const;
export type ProposalKind = (typeof PROPOSAL_KINDS)[number];
export const PROPOSAL_STATES = ['pending', 'approved', 'rejected', 'cancelled'] as const;
export type ProposalState = (typeof PROPOSAL_STATES)[number];

/** Which kinds each party takes: clearing is for merchants, deposit and withdrawal for suppliers. */
export const PROPOSAL_KINDS_OF: Readonly<Record<PartyKind, readonly ProposalKind[]>> = {
  merchant: ['adjust', 'clear'],
  supplier: ['adjust', 'deposit', 'withdraw'],
};

/** The ledger transfer type an approved proposal posts. */
export const TRANSFER_TYPE_OF: Readonly<Record<ProposalKind, string>> = {
  adjust: 'manualAdjustment',
  clear: 'clearBalance',
  deposit: 'deposit',
  withdraw: 'withdrawal',
};

/** Staff who propose, approve and reject balance changes (two different accounts per change). */
export const BALANCE_DECIDERS = ['superAdmin', 'admin'] as const;
/** Staff who read every party's fund records and the proposals. */
const FUND_READERS = ['superAdmin', 'admin', 'customerService', 'technicalMaintenance'] as const;

const optionalEnum = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(emptyToNull, z.enum(values).nullable().optional());
const optionalQueryId = z.preprocess(emptyToNull, queryIdSchema.nullable().optional());

/** One ledger entry seen from a merchant's or supplier's account (DESIGN section 5). Money in minor units. */
export const fundRecordRowSchema = z.object({
  /** The entry's id. */
  id: z.number().int(),
  createdAt: z.string(),
  partyKind: partyKindSchema,
  /** The merchant's or supplier's record id. */
  partyId: z.number().int(),
  /** The party's console account id. */
  userId: z.number().int().nullable(),
  account: z.string().nullable(),
  partyName: z.string().nullable(),
  bucket: z.enum(FUND_BUCKETS),
  type: z.string(),
  orderCode: z.string().nullable(),
  amount: z.number().int(),
  balanceBefore: z.number().int(),
  balanceAfter: z.number().int(),
  note: z.string(),
  /** The note as a template the console renders in its language (NOTE_TEMPLATES); null when typed. */
  noteTemplate: noteTemplateSchema,
  transferId: z.number().int(),
});
export type FundRecordRow = z.infer<typeof fundRecordRowSchema>;

/** The fund records' filters, shared by the list and its export. */
const fundRecordFilterShape = {
  partyKind: optionalEnum(PARTY_KINDS),
  /** The party's console account (getUserOptions?role=merchant|supplier). */
  userId: optionalQueryId,
  bucket: optionalEnum(FUND_BUCKETS),
  type: textFilter(64),
  orderCode: textFilter(64),
  startTime: dateTimeSchema,
  endTime: dateTimeSchema,
  minAmount: moneyFilter,
  maxAmount: moneyFilter,
};

export const totalBalanceSchema = z.object({
  /** 'platform' for staff: the sums over every merchant and supplier. */
  kind: z.enum(['merchant', 'supplier', 'platform']),
  balance: z.number().int(),
  frozenBalance: z.number().int(),
  /** The platform's revenue account; null for a merchant or supplier. */
  revenue: z.number().int().nullable(),
});
export type TotalBalance = z.infer<typeof totalBalanceSchema>;

/** A maker-checker balance proposal as the list shows it. Money in minor units. */
export const proposalRowSchema = z.object({
  id: z.number().int(),
  partyKind: partyKindSchema,
  partyId: z.number().int(),
  partyName: z.string().nullable(),
  kind: z.enum(PROPOSAL_KINDS),
  /** Signed for an adjustment, positive for a deposit or withdrawal, null for clearing. */
  amount: z.number().int().nullable(),
  note: z.string(),
  state: z.enum(PROPOSAL_STATES),
  /** The proposer's account name, and id (the console disables approving one's own). */
  proposedBy: z.string(),
  proposedById: z.number().int(),
  proposedAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
  transferId: z.number().int().nullable(),
});
export type ProposalRow = z.infer<typeof proposalRowSchema>;

const proposalFilterShape = {
  state: optionalEnum(PROPOSAL_STATES),
  partyKind: optionalEnum(PARTY_KINDS),
  partyId: optionalQueryId,
  kind: optionalEnum(PROPOSAL_KINDS),
};

const noteSchema = z.string().trim().min(1, 'a note is required').max(200, 'a note is at most 200 characters');

/**
 * A proposal: the amount's shape depends on the kind (signed non-zero for an adjustment, positive for
 * a deposit or withdrawal, none for clearing), and each kind fits only its party.
 */
export const proposeInputSchema = z
  .strictObject({
    partyKind: partyKindSchema,
    partyId: idSchema,
    kind: z.enum(PROPOSAL_KINDS),
    amount: z.number().int().min(-MAX_MONEY_MINOR).max(MAX_MONEY_MINOR).nullable().optional(),
    note: noteSchema,
  })
  .superRefine((v, ctx) => {
    if (!PROPOSAL_KINDS_OF[v.partyKind].includes(v.kind)) {
      ctx.addIssue({ code: 'custom', path: ['kind'], message: `a ${v.partyKind} does not take '${v.kind}'` });
    }
    const amount = v.amount ?? null;
    if (v.kind === 'clear') {
      if (amount !== null) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'clearing takes no amount' });
    } else if (amount === null || amount === 0) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: 'an amount is required and may not be zero' });
    } else if (v.kind !== 'adjust' && amount < 0) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: `a ${v.kind} amount is positive` });
    }
  });

const ok = z.null();

/**
 * Funds (DESIGN sections 3 and 5): fund records, balances, and balance changes proposed by one staff
 * account and approved by another.
 */
export const fundsEndpoints = {
  getFundRecordList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/fundRecord/getList',
    summary:
      'Fund records: ledger entries of merchant and supplier accounts with balance before and after; a merchant or supplier sees its own',
    input: z.strictObject({ ...pagingShape, ...fundRecordFilterShape, ...sortShape(['createdAt', 'amount']) }),
    output: pageOf(fundRecordRowSchema),
    example: { pageIndex: 1, pageSize: 20, partyKind: 'merchant', bucket: 'available', sortBy: 'createdAt' },
    access: [...FUND_READERS, 'merchant', 'supplier'],
    token2: false,
    scope: 'owned',
    allScopeRoles: FUND_READERS,
  }),
  exportFundRecords: defineEndpoint({
    method: 'GET',
    path: '/v1.0/fundRecord/export',
    summary: 'Every fund record of the filtered set as CSV, in the list’s order (at most 1,000,000 rows)',
    input: z.strictObject({ ...fundRecordFilterShape, ...sortShape(['createdAt', 'amount']) }),
    // The CSV's columns: the note as text (its template is for the console).
    output: fundRecordRowSchema.omit({ noteTemplate: true }),
    example: { partyKind: 'supplier', type: 'deposit' },
    access: [...FUND_READERS, 'merchant', 'supplier'],
    token2: false,
    scope: 'owned',
    allScopeRoles: FUND_READERS,
    produces: 'csv',
  }),
  getTotalBalance: defineEndpoint({
    method: 'GET',
    path: '/v1.0/user/getTotalBalance',
    summary:
      'The caller’s balance and frozen balance; staff get the platform totals over every merchant and supplier, and revenue',
    input: z.strictObject({}),
    output: totalBalanceSchema,
    example: {},
    access: ALL_ROLES,
    token2: false,
    scope: 'self',
  }),
  propose: defineEndpoint({
    method: 'POST',
    path: '/v1.0/balance/propose',
    summary:
      'Propose a balance change (adjust, clear a merchant balance, supplier deposit or withdrawal); another staff account approves it',
    input: proposeInputSchema,
    output: z.object({ id: z.number().int() }),
    example: { partyKind: 'merchant', partyId: 1, kind: 'adjust', amount: 500_000, note: 'opening balance' },
    access: BALANCE_DECIDERS,
    token2: true,
    scope: 'owned',
  }),
  approve: defineEndpoint({
    method: 'POST',
    path: '/v1.0/balance/approve',
    summary: 'Approve a pending proposal of another staff account: posts its ledger transfer',
    input: z.strictObject({ id: idSchema }),
    output: z.object({ id: z.number().int(), transferId: z.number().int() }),
    example: { id: 1 },
    access: BALANCE_DECIDERS,
    token2: true,
    scope: 'owned',
  }),
  reject: defineEndpoint({
    method: 'POST',
    path: '/v1.0/balance/reject',
    summary: 'Reject a pending proposal with a reason; nothing is posted',
    input: z.strictObject({ id: idSchema, reason: noteSchema }),
    output: ok,
    example: { id: 1, reason: 'amount not confirmed by finance' },
    access: BALANCE_DECIDERS,
    token2: false,
    scope: 'owned',
  }),
  cancel: defineEndpoint({
    method: 'POST',
    path: '/v1.0/balance/cancel',
    summary: 'Withdraw one’s own pending proposal',
    input: z.strictObject({ id: idSchema }),
    output: ok,
    example: { id: 1 },
    access: BALANCE_DECIDERS,
    token2: false,
    scope: 'owned',
  }),
  getProposalList: defineEndpoint({
    method: 'GET',
    path: '/v1.0/balance/getProposalList',
    summary: 'Balance proposals, newest first, filtered by state, party and kind',
    input: z.strictObject({ ...pagingShape, ...proposalFilterShape }),
    output: pageOf(proposalRowSchema),
    example: { pageIndex: 1, pageSize: 20, state: 'pending' },
    access: FUND_READERS,
    token2: false,
    scope: 'owned',
  }),
  exportProposals: defineEndpoint({
    method: 'GET',
    path: '/v1.0/balance/exportProposals',
    summary: 'Every balance proposal of the filtered set as CSV, newest first',
    input: z.strictObject({ ...proposalFilterShape }),
    output: proposalRowSchema,
    example: { state: 'approved' },
    access: FUND_READERS,
    token2: false,
    scope: 'owned',
    produces: 'csv',
  }),
} as const satisfies EndpointGroup;

/** The texts of the funds refusals (reason keys the console translates). */
export const FUNDS_TEXTS = {
  selfApproval: 'a proposal must be approved by another staff account',
  notPending: 'the proposal is no longer pending',
  clearDisabled: 'clearing a merchant balance is switched off (CanClearMerchantBalance)',
  nothingToClear: 'the merchant’s available balance is already 0',
  notProposer: 'only the proposer may cancel a proposal',
} as const;
