import { z } from 'zod';

/**
 * Texts the server writes about what it did (an order's timeline, a ledger transfer, a system
 * message's title and content): each is stored
 * twice, as English text (`note`: exports, logs, the audit view, and rows older than the templates)
 * and as a template (`noteTemplate`: a key of NOTE_TEMPLATES and its values), which the console renders
 * in its language (`notes:<key>`). Notes people type (a rejection's reason, a deposit's note) have no
 * template and are shown as typed.
 *
 * Values are interpolated as `{{name}}` (i18next's syntax, so the console's English texts are these).
 * Some hold codes the console shows by their names in its language: `fromMark` and `toMark`
 * (ORDER_MARK), `proposalKind` and `partyKind` (balance proposals; ENGLISH_WORDS names the former's
 * codes in this file's English).
 */
export const NOTE_TEMPLATES = {
  // Order timeline.
  viaApi: 'merchant API from {{ip}}',
  viaUpload: 'batch upload {{key}} by {{account}}',
  confirmedBy: 'confirmed by {{account}}',
  supplementOffset: 'supplement (offset)',
  supplementUtr: 'supplement with UTR {{utr}}',
  paidByGateway: 'paid: pay gateway {{gateway}} notified UTR {{utr}}',
  callbacksOff: 'callbacks are off or no notify URL',
  resourcesFreed: 'resources freed',
  marked: 'mark {{fromMark}} -> {{toMark}}',
  markedLocked: 'mark {{fromMark}} -> {{toMark}}, locked',
  payerUtr: 'payer submitted UTR {{utr}}',
  payerUtrName: 'payer submitted UTR {{utr}} as {{name}}',
  callbackSucceeded: 'the merchant answered SUCCESS (callback #{{callbackId}}, attempt {{attempt}})',
  callbackFailed: 'no SUCCESS from the merchant after {{attempts}} attempts (callback #{{callbackId}})',
  callbackReplayed: 'replay of callback #{{callbackId}} as #{{newCallbackId}} to {{url}}',
  // Ledger transfers of orders.
  orderHold: 'hold for order {{orderCode}}',
  releaseReselected: 'release of order {{orderCode}}: reselected',
  releaseRejected: 'release of order {{orderCode}}: rejected',
  releaseFreed: 'release of order {{orderCode}}: resources freed',
  releaseReversed: 'release of order {{orderCode}}: reversed',
  releaseTimedOut: 'release of order {{orderCode}}: timed out',
  orderPaid: 'order {{orderCode}} paid',
  orderPaidOffset: 'order {{orderCode}} paid: supplement (offset)',
  orderPaidUtr: 'order {{orderCode}} paid: supplement with UTR {{utr}}',
  orderReversal: 'reversal of order {{orderCode}}',
  // Payouts: their timeline and ledger transfers.
  viaConsole: 'created in the console by {{account}}',
  payoutHold: 'hold for payout {{orderCode}}',
  payoutReleaseCancelled: 'release of payout {{orderCode}}: cancelled',
  payoutReleaseRejected: 'release of payout {{orderCode}}: rejected',
  payoutPaid: 'payout {{orderCode}} completed',
  payoutClaimed: 'claimed onto payout account #{{resourceId}}',
  payoutSubmitted: 'paid with UTR {{utr}}',
  payoutSubmittedWithReceipt: 'paid with UTR {{utr}}, receipt attached',
  payoutBatched: 'taken into batch #{{batchId}} on payout account #{{resourceId}}',
  payoutBatchPaid: 'paid by the bank in batch #{{batchId}} with UTR {{utr}}',
  payoutBatchFailed: 'the bank did not pay it in batch #{{batchId}}: {{reason}}',
  payoutBatchAbnormal: 'batch #{{batchId}} marked abnormal: {{reason}}',
  // System messages about balance proposals (to the proposer).
  proposalApprovedTitle: 'Balance proposal #{{id}} approved',
  proposalApproved:
    'Your proposal #{{id}} ({{proposalKind}}, {{partyKind}} {{party}}, {{amount}}) was approved by {{account}} and posted as transfer #{{transferId}}. Note: {{note}}',
  proposalRejectedTitle: 'Balance proposal #{{id}} rejected',
  proposalRejected:
    'Your proposal #{{id}} ({{proposalKind}}, {{partyKind}} {{party}}) was rejected by {{account}}; nothing was posted. Reason: {{reason}}',
  // The periodic system check (EnableSystemCheck) to every superAdmin.
  systemCheckTitle: 'System check: {{count}} difference(s) found',
  systemCheck:
    'The periodic system check found {{ledgerCount}} ledger problem(s) and {{counterCount}} resource pool counter(s) that differ from the orders. Ledger: {{ledger}}. Counters (stored count / amount -> from the orders): {{counters}}. Correct the counters on /system/maintenance (fix resource counters); the ledger check (GET /v1.0/admin/ledgerCheck) lists the ledger problems.',
} as const;
export type NoteKey = keyof typeof NOTE_TEMPLATES;
export const NOTE_KEYS = Object.keys(NOTE_TEMPLATES) as NoteKey[];

export type NoteValues = Record<string, string | number>;
export interface NoteTemplate {
  key: NoteKey;
  values: NoteValues;
}

/** A note's template as the API answers it (null: a typed note, or a row older than templates). */
export const noteTemplateSchema = z
  .object({
    key: z.string(),
    values: z.record(z.string(), z.union([z.string(), z.number()])),
  })
  .nullable();

/** Codes among the values that the English text names in words. */
const ENGLISH_WORDS: Record<string, Record<string, string>> = {
  proposalKind: { adjust: 'balance adjustment', clear: 'balance clearing', deposit: 'deposit', withdraw: 'withdrawal' },
};

/** The template's English text, as `note` stores it. */
export function englishNoteText(template: NoteTemplate): string {
  return NOTE_TEMPLATES[template.key].replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = String(template.values[name] ?? '');
    return ENGLISH_WORDS[name]?.[value] ?? value;
  });
}

/** A template with its values. */
export const note = (key: NoteKey, values: NoteValues = {}): NoteTemplate => ({ key, values });

/** A note as stored: its English text, and its template when it has one (a typed note has none). */
export function noteParts(value: string | NoteTemplate): { note: string; noteTemplate: NoteTemplate | null } {
  return typeof value === 'string'
    ? { note: value, noteTemplate: null }
    : { note: englishNoteText(value), noteTemplate: value };
}
