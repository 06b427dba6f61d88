import {
  Code,
  type Issue,
  looksLikeCsv,
  ORDER_UPLOAD_COLUMNS,
  ORDER_UPLOAD_MAX_ROWS,
  ORDER_UPLOAD_REQUIRED_COLUMNS,
  ORDER_UPLOAD_TEXTS,
  type OrderUploadColumn,
  type OrderUploadReason,
} from '@paydesk/contract';
import { CsvError, parse } from 'csv-parse/sync';
import { AppError } from '../../platform/errors.js';

/** One order row of an uploaded file: its line in the file and its non-empty cells by column. */
export interface OrderCsvRow {
  /** The line of the file where the row starts (the header is line 1): the spreadsheet's row. */
  row: number;
  cells: Partial<Record<OrderUploadColumn, string>>;
}

/** A refusal of the whole upload (400): the contract's text as `msg`, its key as `data.reason`. */
export function uploadRefused(reason: OrderUploadReason, detail?: string, path = 'file'): AppError {
  const message = ORDER_UPLOAD_TEXTS[reason];
  const issues: Issue[] = [{ path, message: detail ?? message }];
  return new AppError(Code.invalidInput, message, { reason, issues });
}

/**
 * The checks of the file itself: a .csv name with a CSV content type, and content that is UTF-8 text
 * (a BOM is fine) without NUL bytes, so an image or a spreadsheet renamed to .csv is a 'file type
 * error' rather than a parse failure.
 */
export function csvText(file: { filename: string; mimetype: string; content: Uint8Array }): string {
  if (!looksLikeCsv(file.filename, file.mimetype)) {
    throw uploadRefused('fileType', `${ORDER_UPLOAD_TEXTS.notCsv} (got "${file.filename}", ${file.mimetype})`);
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(file.content);
  } catch {
    throw uploadRefused('fileType', 'the file is not UTF-8 text: save it as "CSV UTF-8"');
  }
  if (text.includes('\u0000')) throw uploadRefused('fileType', 'the file is not text');
  return text;
}

const KNOWN = new Set<string>(ORDER_UPLOAD_COLUMNS);

/**
 * Reads an upload's CSV: a header row naming known columns (the required ones present, none twice),
 * then at most ORDER_UPLOAD_MAX_ROWS order rows with exactly the header's number of cells. Cells are
 * trimmed; empty cells are absent; rows of empty cells only (a spreadsheet's leftovers) are skipped.
 * Bad quoting, a wrong cell count or a wrong header: 'format parsing failed' with the line and why.
 */
export function parseOrderCsv(text: string): OrderCsvRow[] {
  let records: Array<{ record: string[]; raw: string; info: { lines: number } }>;
  try {
    // With `info` and `raw`, each record comes with its text and the line where it ends.
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
      raw: true,
    }) as unknown as typeof records;
  } catch (error) {
    if (error instanceof CsvError) throw uploadRefused('parseFailed', error.message);
    throw error;
  }
  const [header, ...body] = records;
  if (!header) throw uploadRefused('noRows');
  const columns = header.record;
  const seen = new Set<string>();
  for (const name of columns) {
    if (!KNOWN.has(name)) {
      throw uploadRefused(
        'parseFailed',
        `line 1: unknown column "${name.slice(0, 40)}" (the columns are ${ORDER_UPLOAD_COLUMNS.join(', ')})`,
      );
    }
    if (seen.has(name)) throw uploadRefused('parseFailed', `line 1: the column "${name}" appears twice`);
    seen.add(name);
  }
  const missing = ORDER_UPLOAD_REQUIRED_COLUMNS.filter((c) => !seen.has(c));
  if (missing.length > 0) throw uploadRefused('parseFailed', `line 1: missing column ${missing.join(', ')}`);

  const rows: OrderCsvRow[] = [];
  for (const { record, raw, info } of body) {
    if (record.every((cell) => cell === '')) continue;
    if (rows.length === ORDER_UPLOAD_MAX_ROWS) throw uploadRefused('tooManyRows');
    // `lines` is where the record ends; a quoted cell may span lines, and skipped empty lines lead `raw`.
    const inner = raw.replace(/^[\r\n]+/, '').replace(/\r?\n$/, '');
    const row = info.lines - (inner.match(/\n/g)?.length ?? 0);
    const cells: OrderCsvRow['cells'] = {};
    columns.forEach((name, i) => {
      const value = record[i] ?? '';
      if (value !== '') cells[name as OrderUploadColumn] = value;
    });
    rows.push({ row, cells });
  }
  if (rows.length === 0) throw uploadRefused('noRows');
  return rows;
}
