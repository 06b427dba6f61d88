import {
  BANK_RESULT_MAX_BYTES,
  BANK_RESULT_MAX_ROWS,
  type BankResultRowError,
  looksLikeCsv,
  majorToMinor,
  minorToMajorText,
} from '@paydesk/contract';
import { CsvError, parse } from 'csv-parse/sync';
import { BankFileError } from './errors.js';
import type { ResultColumns, ResultLayout } from './template.js';
import { templateFor } from './templates.js';

/** What the bank says of one of the batch's payouts. `line` is the file's line (1 is the first). */
export interface ResultOutcome {
  line: number;
  payoutCode: string;
  outcome: 'completed' | 'failed';
  /** The bank's reference of a paid row (required there). */
  utr?: string;
  /** The bank's reason of a failed row, when it gives one. */
  reason?: string;
}

/** A row that settles nothing, and why (`detail`: the server's English). */
export interface ResultRowProblem {
  line: number;
  error: BankResultRowError;
  detail: string;
  /** The reference the row names, when it names one. */
  payoutCode?: string;
}

export type ResultRow = ResultOutcome | ResultRowProblem;

export interface ResultFile {
  fileName: string;
  mimeType: string;
  body: Buffer;
}

const UTR = /^[A-Za-z0-9/-]{1,64}$/;
const MAX_REASON = 255;

/**
 * Reads the bank's result file of a batch by the template's result layout, against the batch's
 * payouts (`expected`: payout code -> amount in paise). Every data row gives an outcome or a problem:
 * a row the layout cannot read (cells missing, no reference, an amount or a status it does not know,
 * a paid row without UTR) is 'malformed'; a reference outside the batch 'unknownPayout'; an amount
 * other than the payout's 'amountMismatch'; a payout named again 'duplicate' (the first row stands
 * when the repeats say the same; when they disagree none does). Good rows parse whatever the others.
 *
 * The whole file is refused (BankFileError) for: an unknown template, a template without result
 * layout, a name or declared type that is not CSV, more than 1 MiB, bytes that are not UTF-8 text,
 * CSV it cannot split (bad quoting), no header row naming the layout's columns, no data row, more data
 * rows than a batch holds.
 */
export function parseResultFile(
  templateId: string,
  file: ResultFile,
  expected: ReadonlyMap<string, number>,
): { rows: ResultRow[] } {
  const template = templateFor(templateId);
  const layout = template.result;
  if (!layout) {
    throw new BankFileError(
      'templateWithoutResults',
      `${template.bank}'s results are not read back: settle its payouts one by one`,
    );
  }
  const records = recordsOf(file, layout);
  const data = dataRecords(records, layout.columns);
  const candidates = data.map((record) => readRow(record, layout, expected));
  return { rows: settleDuplicates(candidates) };
}

interface CsvRecord {
  line: number;
  cells: string[];
}

/** The file's records with their lines: name, size and text checked, split by the layout's delimiter. */
function recordsOf(file: ResultFile, layout: ResultLayout): CsvRecord[] {
  if (!looksLikeCsv(file.fileName, file.mimeType)) {
    throw new BankFileError(
      'notCsv',
      `expected a .csv file, got "${file.fileName.slice(0, 255)}" (${file.mimeType.slice(0, 100)})`,
    );
  }
  if (file.body.length > BANK_RESULT_MAX_BYTES) throw new BankFileError('resultFileTooLarge');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(file.body);
  } catch {
    throw new BankFileError('fileType', 'the file is not UTF-8 text: save it as "CSV UTF-8"');
  }
  if (text.includes('\u0000')) throw new BankFileError('fileType', 'the file is not text');
  let parsed: Array<{ record: string[]; raw: string; info: { lines: number } }>;
  try {
    // Line breaks as \n: csv-parse counts a CRLF inside a quoted cell as two lines.
    parsed = parse(text.replace(/\r\n?/g, '\n'), {
      bom: true,
      delimiter: layout.delimiter,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      info: true,
      raw: true,
    }) as unknown as typeof parsed;
  } catch (error) {
    if (error instanceof CsvError) throw new BankFileError('parseFailed', error.message);
    throw error;
  }
  return parsed
    .filter(({ record }) => record.some((cell) => cell !== ''))
    .map(({ record, raw, info }) => {
      // `lines` is where the record ends; a quoted cell may span lines, and skipped empty lines lead `raw`.
      const inner = raw.replace(/^\n+/, '').replace(/\n$/, '');
      return { line: info.lines - (inner.match(/\n/g)?.length ?? 0), cells: record };
    });
}

/** A data record with the cells the layout reads, by role; null cells: the record is too short. */
interface DataRecord {
  line: number;
  cells: Record<'reference' | 'amount' | 'status' | 'utr' | 'failureReason', string> | null;
  width: { has: number; needs: number };
}

const ROLES = ['reference', 'amount', 'status', 'utr', 'failureReason'] as const;

/**
 * The data records: after the header row when the layout names its columns (title lines a bank's
 * report puts above it are skipped), else every record. At most BANK_RESULT_MAX_ROWS, at least one.
 */
function dataRecords(records: CsvRecord[], columns: ResultColumns): DataRecord[] {
  let positions: Record<(typeof ROLES)[number], number>;
  let body: CsvRecord[];
  if (columns.header) {
    const wanted = ROLES.map((role) => columns[role].toLowerCase());
    const at = records.findIndex(({ cells }) => {
      const names = cells.map((c) => c.toLowerCase());
      return wanted.every((name) => names.includes(name));
    });
    if (at < 0) {
      throw new BankFileError(
        'parseFailed',
        `no header row naming the columns ${ROLES.map((r) => `"${columns[r]}"`).join(', ')}`,
      );
    }
    const names = records[at]!.cells.map((c) => c.toLowerCase());
    positions = Object.fromEntries(ROLES.map((role, i) => [role, names.indexOf(wanted[i]!)])) as typeof positions;
    body = records.slice(at + 1);
  } else {
    positions = columns;
    body = records;
  }
  if (body.length === 0) throw new BankFileError('resultFileEmpty');
  if (body.length > BANK_RESULT_MAX_ROWS) {
    throw new BankFileError('resultFileTooManyRows', `${body.length} data rows`);
  }
  const needs = Math.max(...ROLES.map((role) => positions[role])) + 1;
  return body.map(({ line, cells }) => ({
    line,
    width: { has: cells.length, needs },
    cells:
      cells.length < needs
        ? null
        : (Object.fromEntries(ROLES.map((role) => [role, cells[positions[role]]!])) as DataRecord['cells']),
  }));
}

function readRow(record: DataRecord, layout: ResultLayout, expected: ReadonlyMap<string, number>): ResultRow {
  const { line, cells } = record;
  const problem = (error: BankResultRowError, detail: string, payoutCode?: string): ResultRowProblem =>
    payoutCode === undefined ? { line, error, detail } : { line, error, detail, payoutCode };
  if (!cells) {
    return problem('malformed', `${record.width.has} cells, the layout reads ${record.width.needs}`);
  }
  const payoutCode = cells.reference;
  if (payoutCode === '') return problem('malformed', 'no reference');
  const amount = majorToMinor(cells.amount.replace(/[,\s]/g, ''));
  if (amount === null || amount <= 0) {
    return problem('malformed', `the amount "${cells.amount.slice(0, 40)}" is not a number of rupees`, payoutCode);
  }
  const status = cells.status.toLowerCase();
  const paid = layout.success.some((s) => s.toLowerCase() === status);
  if (!paid && !layout.failure.some((s) => s.toLowerCase() === status)) {
    return problem(
      'malformed',
      `the status "${cells.status.slice(0, 40)}" is neither paid (${layout.success.join(', ')}) nor failed (${layout.failure.join(', ')})`,
      payoutCode,
    );
  }
  if (paid && !UTR.test(cells.utr)) {
    return problem(
      'malformed',
      cells.utr === '' ? 'a paid row without UTR' : `the UTR "${cells.utr.slice(0, 70)}" is not a bank reference`,
      payoutCode,
    );
  }
  const owed = expected.get(payoutCode);
  if (owed === undefined)
    return problem('unknownPayout', `no payout ${payoutCode.slice(0, 64)} in this batch`, payoutCode);
  if (owed !== amount) {
    return problem(
      'amountMismatch',
      `the payout is ${minorToMajorText(owed)}, the file says ${minorToMajorText(amount)}`,
      payoutCode,
    );
  }
  if (paid) return { line, payoutCode, outcome: 'completed', utr: cells.utr };
  const reason = cells.failureReason.replace(/\s+/g, ' ').slice(0, MAX_REASON);
  return reason === '' ? { line, payoutCode, outcome: 'failed' } : { line, payoutCode, outcome: 'failed', reason };
}

/**
 * A payout named by several rows: the first stands and the repeats are duplicates when all say the
 * same (the bank listed it twice); when they disagree (paid here, failed there) no row of it stands.
 */
function settleDuplicates(rows: ResultRow[]): ResultRow[] {
  const byCode = new Map<string, ResultRow[]>();
  for (const row of rows) {
    if (row.payoutCode === undefined || ('error' in row && row.error === 'unknownPayout')) continue;
    byCode.set(row.payoutCode, [...(byCode.get(row.payoutCode) ?? []), row]);
  }
  const replaced = new Map<ResultRow, ResultRowProblem>();
  for (const [payoutCode, group] of byCode) {
    if (group.length < 2) continue;
    const [first, ...repeats] = group as [ResultRow, ...ResultRow[]];
    const agree = group.every((r) => sameOutcome(r, first));
    const lines = group.map((r) => r.line).join(', ');
    for (const row of agree ? repeats : group) {
      replaced.set(row, {
        line: row.line,
        error: 'duplicate',
        payoutCode,
        detail: agree
          ? `payout ${payoutCode} again (first on line ${first.line})`
          : `lines ${lines} say different things of payout ${payoutCode}: none is applied`,
      });
    }
  }
  return rows.map((row) => replaced.get(row) ?? row);
}

function sameOutcome(a: ResultRow, b: ResultRow): boolean {
  if ('error' in a || 'error' in b) return 'error' in a && 'error' in b && a.error === b.error;
  return a.outcome === b.outcome && a.utr === b.utr;
}
