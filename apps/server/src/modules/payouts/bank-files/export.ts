import { minorToMajorText } from '@paydesk/contract';
import { stringify } from 'csv-stringify/sync';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { neutraliseCell } from '../../../platform/csv.js';
import type { BankTemplate, BatchForExport, CodeSource, ExportColumn, PayoutRow, TextSource } from './template.js';
import { templateFor } from './templates.js';

dayjs.extend(utc);
dayjs.extend(timezone);

/** Indian banks settle on India's calendar, whatever the platform's time zone. */
const BANK_TIME_ZONE = 'Asia/Kolkata';
const CALENDAR_DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A batch holds at most 500 payouts (spec section 9); the file never carries more. */
const MAX_ROWS = 500;

export interface BankFile {
  fileName: string;
  contentType: string;
  body: Buffer;
}

/**
 * The bank's bulk upload file of a batch, by its template: one record per payout in the template's
 * columns (and its header row when it has one). Texts are cut to the bank's lengths and cleaned of
 * characters it refuses, then formula-neutralised as every export is; identifiers are never cut. An
 * unknown template: 'unsupported template type'. A payout the file cannot carry faithfully (an amount
 * that is not a positive integer of paise, an identifier longer than the bank's field) is a bug of the
 * caller, refused before any byte is written.
 */
export function exportBatchFile(templateId: string, batch: BatchForExport, rows: readonly PayoutRow[]): BankFile {
  const template = templateFor(templateId);
  if (rows.length === 0 || rows.length > MAX_ROWS) {
    throw new RangeError(`a batch file carries 1 to ${MAX_ROWS} payouts, not ${rows.length}`);
  }
  const day = payoutDay(batch.payoutDate);
  const records = rows.map((row) => template.columns.map((column) => cellOf(template, column, batch, row, day)));
  const header = template.file.header ? [template.columns.map((c) => c.header)] : [];
  const csv = stringify([...header, ...records], {
    delimiter: template.file.delimiter,
    record_delimiter: template.file.recordDelimiter,
    // Every cell, as csv.ts does for every export (texts are neutralised within their length already).
    cast: { string: neutraliseCell },
  });
  const extension = template.file.fileName.slice(template.file.fileName.lastIndexOf('.') + 1);
  return {
    fileName: fileNameOf(template, batch, day),
    contentType: extension === 'csv' ? 'text/csv; charset=utf-8' : 'text/plain; charset=utf-8',
    body: Buffer.from(csv, 'utf8'),
  };
}

/** The batch's payout day (a dayjs in UTC mode holding India's calendar day). */
function payoutDay(at: Date | string): dayjs.Dayjs {
  if (typeof at === 'string') {
    const day = CALENDAR_DAY.test(at) ? dayjs.utc(at) : null;
    if (!day?.isValid()) throw new RangeError(`a payout date is an instant or YYYY-MM-DD, not "${at}"`);
    return day;
  }
  const local = dayjs(at).tz(BANK_TIME_ZONE);
  return dayjs.utc(local.format('YYYY-MM-DD'));
}

function fileNameOf(template: BankTemplate, batch: BatchForExport, day: dayjs.Dayjs): string {
  const batchId = String(batch.id).replace(/[^A-Za-z0-9_-]/g, '');
  return template.file.fileName.replace(/\{(batch|date:([^}]+))\}/g, (_, token: string, pattern?: string) =>
    token === 'batch' ? batchId : day.format(pattern),
  );
}

function cellOf(
  template: BankTemplate,
  column: ExportColumn,
  batch: BatchForExport,
  row: PayoutRow,
  day: dayjs.Dayjs,
): string {
  if ('constant' in column) return column.constant;
  if ('text' in column) return cleanText(template, textOf(column.text, batch, row), column.max);
  if ('code' in column) return cleanCode(column, codeOf(column.code, batch, row), row.payoutCode);
  if ('amount' in column) {
    if (!Number.isSafeInteger(row.amount) || row.amount <= 0) {
      throw new RangeError(`payout ${row.payoutCode}: the amount ${row.amount} is not a positive integer of paise`);
    }
    return minorToMajorText(row.amount);
  }
  if ('date' in column) return day.format(column.date);
  return modeCode(template, row);
}

function textOf(source: TextSource, batch: BatchForExport, row: PayoutRow): string {
  return source === 'debitName' ? batch.payoutAccount.name : row[source];
}

function codeOf(source: CodeSource, batch: BatchForExport, row: PayoutRow): string {
  switch (source) {
    case 'debitAccount':
      return batch.payoutAccount.accountNumber;
    case 'debitIfsc':
      return batch.payoutAccount.ifsc;
    case 'batchId':
      return String(batch.id);
    default:
      return row[source];
  }
}

const regexEscape = (text: string) => text.replace(/[\\\]^-]/g, '\\$&');

/**
 * A free text as the bank takes it: accents dropped (José -> Jose), every character outside letters,
 * digits, the space and the template's punctuation replaced by a space (never the double quote, nor
 * the delimiter of a file the bank splits blindly), spaces collapsed, cut to `max`, formula-neutralised
 * within `max`.
 */
function cleanText(template: BankTemplate, text: string, max: number): string {
  let punctuation = template.textPunctuation.replaceAll('"', '');
  if (template.file.quoting === 'never') punctuation = punctuation.replaceAll(template.file.delimiter, '');
  const refused = new RegExp(`[^A-Za-z0-9 ${regexEscape(punctuation)}]`, 'g');
  const clean = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(refused, ' ')
    .replace(/ +/g, ' ')
    .trim();
  const cut = clean.slice(0, max).trimEnd();
  const neutralised = neutraliseCell(cut);
  return neutralised.length <= max ? neutralised : neutraliseCell(cut.slice(0, max - 1).trimEnd());
}

/** An identifier as the bank takes it: letters and digits, upper case, whole or not at all. */
function cleanCode(column: { header: string; max: number }, text: string, payoutCode: string): string {
  const code = text.toUpperCase().replace(/[^A-Z0-9]/g, '');
  if (code.length > column.max) {
    throw new RangeError(
      `payout ${payoutCode}: "${column.header}" takes at most ${column.max} characters, "${code}" has ${code.length}`,
    );
  }
  return code;
}

function modeCode(template: BankTemplate, row: PayoutRow): string {
  const { internal, bands } = template.modes;
  if (internal && row.ifscCode.toUpperCase().startsWith(internal.ifscPrefix)) return internal.code;
  const band = bands.find((b) => b.belowPaise === undefined || row.amount < b.belowPaise);
  if (!band) throw new RangeError(`template ${template.id}: no payment mode for ${row.amount} paise`);
  return band.code;
}
