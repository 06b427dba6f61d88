import type { BankTemplateId } from '@paydesk/contract';

/**
 * The language a bank file template is declared in: a template is data (its file's shape, its columns,
 * its payment-mode rule, the layout of the bank's result file), and export.ts and result.ts are the one
 * interpreter of it. A new bank is a new declaration in templates.ts, not new code.
 */

/** One payout of a batch as the export reads it. */
export interface PayoutRow {
  payoutCode: string;
  /** Integer paise. */
  amount: number;
  payeeName: string;
  /** The payee's account number. */
  cardNumber: string;
  ifscCode: string;
  bankName: string;
  bankBranch: string;
  remark: string;
}

/** What of a batch the export reads: the account that pays, and the day it pays. */
export interface BatchForExport {
  id: number | string;
  payoutAccount: { accountNumber: string; ifsc: string; name: string };
  /** An instant (the bank's calendar day in India is written) or a calendar day 'YYYY-MM-DD'. */
  payoutDate: Date | string;
}

/**
 * Free text (names, branches, remarks): accents dropped, characters outside the template's set
 * replaced by a space, cut to `max`, then formula-neutralised.
 */
export type TextSource = 'payeeName' | 'bankName' | 'bankBranch' | 'remark' | 'debitName';
/**
 * Identifiers (account numbers, IFSC, our reference): letters and digits only, upper case, never cut:
 * one too long for the bank's field stops the export (a cut account number pays someone else).
 */
export type CodeSource = 'payoutCode' | 'cardNumber' | 'ifscCode' | 'debitAccount' | 'debitIfsc' | 'batchId';

/**
 * A column of the export: `header` is the bank's name for the field (the header row when the file has
 * one, documentation when it has none), and the rest says where the value comes from.
 */
export type ExportColumn =
  | { header: string; constant: string }
  | { header: string; text: TextSource; max: number }
  | { header: string; code: CodeSource; max: number }
  /** The payout's amount in rupees with two decimals ('1500.00'), from integer paise. */
  | { header: string; amount: 'rupees' }
  /** The batch's payout day in a dayjs pattern ('DD/MM/YYYY'). */
  | { header: string; date: string }
  /** The payment mode's code by the template's mode rule. */
  | { header: string; mode: true };

export type PaymentMode = 'IMPS' | 'NEFT' | 'RTGS';

/**
 * How a payout is sent: to an account at the paying bank itself (its IFSC prefix) by the bank's
 * internal transfer, else by amount: the first band whose `belowPaise` exceeds the amount; the last
 * band has no bound. RTGS takes amounts from ₹2,00,000; IMPS at most ₹5,00,000 (RBI).
 */
export interface ModeRule {
  internal?: { ifscPrefix: string; code: string };
  bands: readonly { belowPaise?: number; mode: PaymentMode; code: string }[];
}

/** Where the bank's result file holds what a row says: header names, or zero-based positions. */
export type ResultColumns =
  | { header: true; reference: string; amount: string; status: string; utr: string; failureReason: string }
  | { header: false; reference: number; amount: number; status: number; utr: number; failureReason: number };

export interface ResultLayout {
  delimiter: ',' | '|';
  columns: ResultColumns;
  /** Status values (compared without case) meaning paid, and meaning not paid; any other is an unreadable row. */
  success: readonly string[];
  failure: readonly string[];
  /** Where the layout comes from, and what of it is our choice. */
  notes: string;
}

export interface BankTemplate {
  id: BankTemplateId;
  bank: string;
  file: {
    /** `{batch}` is the batch id, `{date:PATTERN}` the payout day in a dayjs pattern. */
    fileName: string;
    delimiter: ',' | '|';
    header: boolean;
    /**
     * 'csv': a cell holding the delimiter is quoted (the bank reads CSV quoting); 'never': the bank
     * splits on the delimiter blindly, so the delimiter is a refused character of every text.
     */
    quoting: 'csv' | 'never';
    recordDelimiter: '\r\n' | '\n';
    /** What the bank's parser expects of the bytes. */
    encoding: string;
  };
  /** Punctuation a text keeps besides letters, digits and the space; anything else is refused by the bank. */
  textPunctuation: string;
  modes: ModeRule;
  columns: readonly ExportColumn[];
  /** The layout of the bank's result file; absent: the bank's results are not read back (the template does not support upload details). */
  result?: ResultLayout;
}
