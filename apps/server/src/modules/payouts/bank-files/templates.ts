import { BANK_TEMPLATE_NAMES, type BankTemplateId, isBankTemplateId, type LocalTexts } from '@paydesk/contract';
import { BankFileError } from './errors.js';
import type { BankTemplate, ExportColumn } from './template.js';

/** ₹2,00,000 in paise: RTGS's minimum, so the line between the small-payment mode and RTGS. */
const RTGS_FROM = 20_000_000;

const empty = (header: string): ExportColumn => ({ header, constant: '' });

/**
 * ICICI Bank Corporate Internet Banking (CIB), bulk upload of payments to ad hoc beneficiaries: the
 * column order of ICICI's bulk payment sheet (debit account, beneficiary account, name, amount, pay
 * mode, date, IFSC, locations, contact and address fields, five additional details, remarks), saved
 * as CSV with its header row. Not public, hence our choice: the field lengths, IMPS's code 'M' (public
 * copies of the sheet list I within ICICI, N NEFT, R RTGS), our reference in "Add Details 1". ICICI's
 * transaction status report (downloaded from CIB, saved as CSV) is read back by header names.
 */
const ICICI: BankTemplate = {
  id: 'icici-cib-bulk',
  bank: 'ICICI Bank',
  file: {
    fileName: 'ICICI_CIB_{batch}_{date:YYYYMMDD}.csv',
    delimiter: ',',
    header: true,
    quoting: 'csv',
    recordDelimiter: '\r\n',
    encoding: 'ASCII only (UTF-8 without BOM): CIB refuses other characters; CSV quoting for cells with a comma',
  },
  textPunctuation: ".,-/'&()",
  modes: {
    internal: { ifscPrefix: 'ICIC', code: 'I' },
    bands: [
      { belowPaise: RTGS_FROM, mode: 'IMPS', code: 'M' },
      { mode: 'RTGS', code: 'R' },
    ],
  },
  columns: [
    { header: 'Debit Ac No', code: 'debitAccount', max: 20 },
    { header: 'Beneficiary Ac No', code: 'cardNumber', max: 20 },
    { header: 'Beneficiary Name', text: 'payeeName', max: 35 },
    { header: 'Amt', amount: 'rupees' },
    { header: 'Pay Mod', mode: true },
    { header: 'Date', date: 'DD/MM/YYYY' },
    { header: 'IFSC', code: 'ifscCode', max: 11 },
    empty('Payable Location'),
    empty('Print Location'),
    empty('Bene Mobile No.'),
    empty('Bene email ID'),
    empty('Bene add1'),
    empty('Bene add2'),
    empty('Bene add3'),
    empty('Bene add4'),
    { header: 'Add Details 1', code: 'payoutCode', max: 30 },
    { header: 'Add Details 2', text: 'bankName', max: 30 },
    { header: 'Add Details 3', text: 'bankBranch', max: 30 },
    empty('Add Details 4'),
    empty('Add Details 5'),
    { header: 'Remarks', text: 'remark', max: 30 },
  ],
  result: {
    delimiter: ',',
    columns: {
      header: true,
      reference: 'Add Details 1',
      amount: 'Amt',
      status: 'Status',
      utr: 'UTR No',
      failureReason: 'Reason',
    },
    success: ['Paid', 'Success', 'Processed'],
    failure: ['Failed', 'Rejected', 'Returned'],
    notes:
      'Not public: the upload columns echoed, then Status, UTR No and Reason, found by header name (title lines above the header are skipped)',
  },
};

/**
 * HDFC Bank ENet vendor payments: ENet's 28-field comma-separated record without a header row
 * (transaction type, beneficiary code, account, amount, name, drawee and print locations, five address
 * lines, instruction and customer references, seven payment details, cheque number, date DD/MM/YYYY,
 * MICR, IFSC, bank, branch, e-mail), with no comma in any field (ENet does not read quotes) and no
 * special characters. ENet names uploads ClientCode+DDMM.NNN with the bank's client code; the file is
 * named per batch here and staff rename it if their ENet setup insists. Our choice: field lengths
 * where ENet's are not public, our reference as the customer reference number. Results: HDFC's reverse
 * file, positional (customer reference, name, account, IFSC, account type, amount, value date, bank
 * reference, status E executed / R rejected, reject reason), saved as .csv.
 */
const HDFC: BankTemplate = {
  id: 'hdfc-enet-vendor',
  bank: 'HDFC Bank',
  file: {
    fileName: 'HDFC_ENET_{batch}_{date:YYYYMMDD}.txt',
    delimiter: ',',
    header: false,
    quoting: 'never',
    recordDelimiter: '\r\n',
    encoding: 'ASCII only (ENet reads ISO-8859-1); no commas or quotes inside fields',
  },
  textPunctuation: ".-/'",
  modes: {
    internal: { ifscPrefix: 'HDFC', code: 'I' },
    bands: [
      { belowPaise: RTGS_FROM, mode: 'NEFT', code: 'N' },
      { mode: 'RTGS', code: 'R' },
    ],
  },
  columns: [
    { header: 'Transaction Type', mode: true },
    // Empty for a beneficiary not registered in ENet (every payout here pays an ad hoc payee).
    empty('Beneficiary Code'),
    { header: 'Beneficiary Account Number', code: 'cardNumber', max: 25 },
    { header: 'Instrument Amount', amount: 'rupees' },
    { header: 'Beneficiary Name', text: 'payeeName', max: 40 },
    empty('Drawee Location'),
    empty('Print Location'),
    empty('Bene Address 1'),
    empty('Bene Address 2'),
    empty('Bene Address 3'),
    empty('Bene Address 4'),
    empty('Bene Address 5'),
    empty('Instruction Reference Number'),
    { header: 'Customer Reference Number', code: 'payoutCode', max: 30 },
    { header: 'Payment Details 1', text: 'remark', max: 30 },
    empty('Payment Details 2'),
    empty('Payment Details 3'),
    empty('Payment Details 4'),
    empty('Payment Details 5'),
    empty('Payment Details 6'),
    empty('Payment Details 7'),
    empty('Cheque Number'),
    { header: 'Chq / Trn Date', date: 'DD/MM/YYYY' },
    empty('MICR Number'),
    { header: 'IFC Code', code: 'ifscCode', max: 11 },
    { header: 'Bene Bank Name', text: 'bankName', max: 40 },
    { header: 'Bene Bank Branch Name', text: 'bankBranch', max: 40 },
    empty('Beneficiary email id'),
  ],
  result: {
    delimiter: ',',
    columns: { header: false, reference: 0, amount: 5, status: 8, utr: 7, failureReason: 9 },
    success: ['E'],
    failure: ['R'],
    notes: "HDFC's reverse file layout: the bank reference (column 8) is the UTR of NEFT and RTGS payments",
  },
};

/**
 * State Bank of India Corporate Internet Banking CMP (Cash Management Product) bulk upload: a
 * pipe-delimited text file without header. SBI does not publish the layout; ours carries what every
 * Indian bulk upload needs, in an order of our choosing: mode (DCR, SBI's direct credit, within SBI),
 * debit account, value date DD-MM-YYYY, amount, currency, beneficiary, account, IFSC, bank, branch,
 * our reference, remarks. CMP shows results in its own reports only, so this template has no result
 * layout: its batches are settled payout by payout.
 */
const SBI: BankTemplate = {
  id: 'sbi-cmp-bulk',
  bank: 'State Bank of India',
  file: {
    fileName: 'SBI_CMP_{batch}_{date:YYYYMMDD}.txt',
    delimiter: '|',
    header: false,
    quoting: 'never',
    recordDelimiter: '\r\n',
    encoding: 'ASCII only; no pipe inside fields',
  },
  textPunctuation: ".,-/'&",
  modes: {
    internal: { ifscPrefix: 'SBIN', code: 'DCR' },
    bands: [
      { belowPaise: RTGS_FROM, mode: 'NEFT', code: 'NEFT' },
      { mode: 'RTGS', code: 'RTGS' },
    ],
  },
  columns: [
    { header: 'Payment Mode', mode: true },
    { header: 'Debit Account Number', code: 'debitAccount', max: 17 },
    { header: 'Value Date', date: 'DD-MM-YYYY' },
    { header: 'Amount', amount: 'rupees' },
    { header: 'Currency', constant: 'INR' },
    { header: 'Beneficiary Name', text: 'payeeName', max: 35 },
    { header: 'Beneficiary Account Number', code: 'cardNumber', max: 20 },
    { header: 'IFSC', code: 'ifscCode', max: 11 },
    { header: 'Beneficiary Bank Name', text: 'bankName', max: 35 },
    { header: 'Beneficiary Branch', text: 'bankBranch', max: 35 },
    { header: 'Customer Reference', code: 'payoutCode', max: 30 },
    { header: 'Remarks', text: 'remark', max: 30 },
  ],
};

export const BANK_TEMPLATES: readonly BankTemplate[] = [ICICI, HDFC, SBI];

/** The template of an id; an id of no template: 'unsupported template type'. */
export function templateFor(templateId: string): BankTemplate {
  const template = isBankTemplateId(templateId) ? BANK_TEMPLATES.find((t) => t.id === templateId) : undefined;
  if (!template) throw new BankFileError('unsupportedTemplate', `no bank file template "${templateId.slice(0, 64)}"`);
  return template;
}

/** A template as the console's template list shows it. */
export interface BankTemplateSummary {
  id: BankTemplateId;
  name: LocalTexts;
  bank: string;
  extension: string;
  delimiter: ',' | '|';
  header: boolean;
  encoding: string;
  /** The bank's names of the export's columns, in order. */
  columns: string[];
  /** Whether the bank's result file can be uploaded to settle the batch. */
  supportsResult: boolean;
}

export function listTemplates(): BankTemplateSummary[] {
  return BANK_TEMPLATES.map((t) => ({
    id: t.id,
    name: BANK_TEMPLATE_NAMES[t.id],
    bank: t.bank,
    extension: t.file.fileName.slice(t.file.fileName.lastIndexOf('.') + 1),
    delimiter: t.file.delimiter,
    header: t.file.header,
    encoding: t.file.encoding,
    columns: t.columns.map((c) => c.header),
    supportsResult: t.result !== undefined,
  }));
}
