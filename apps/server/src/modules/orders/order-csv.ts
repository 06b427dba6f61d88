import {
  Code,
  type Issue,
  looksLikeCsv,
  ORDER_UPLOAD_LAYOUTS,
  ORDER_UPLOAD_MAX_ROWS,
  ORDER_UPLOAD_TEXTS,
  type OrderUploadReason,
} from '@paydesk/contract';
import { CsvError, parse } from 'csv-parse/sync';
import { AppError } from '../../platform/errors.js';

/** One order row of an uploaded file: its line in the file and its non-empty cells by column. */
export interface OrderCsvRow {
  /** The line of the file where the row starts (the header is line 1): the spreadsheet's row. */
  row: number;
  /** By column of the upload's layout (only its columns: any other is refused with the header). */
  cells: Record<string, string>;
}

/** The columns a file of one order type may have, and those its header must have. */
export interface UploadLayout {
  columns: readonly string[];
  requiredColumns: readonly string[];
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

/**
 * Reads an upload's CSV by its order type's layout (collection orders unless told): a header row
 * naming the layout's columns (the required ones present, none twice), then at most
 * ORDER_UPLOAD_MAX_ROWS order rows with exactly the header's number of cells. Cells are trimmed;
 * empty cells are absent; rows of empty cells only (a spreadsheet's leftovers) are skipped.
 * Bad quoting, a wrong cell count or a wrong header: 'format parsing failed' with the line and why.
 */
export function parseOrderCsv(text: string, layout: UploadLayout = ORDER_UPLOAD_LAYOUTS.collection): OrderCsvRow[] {
  const known = new Set<string>(layout.columns);
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
    if (!known.has(name)) {
      throw uploadRefused(
        'parseFailed',
        `line 1: unknown column "${name.slice(0, 40)}" (the columns are ${layout.columns.join(', ')})`,
      );
    }
    if (seen.has(name)) throw uploadRefused('parseFailed', `line 1: the column "${name}" appears twice`);
    seen.add(name);
  }
  const missing = layout.requiredColumns.filter((c) => !seen.has(c));
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
      if (value !== '') cells[name] = value;
    });
    rows.push({ row, cells });
  }
  if (rows.length === 0) throw uploadRefused('noRows');
  return rows;
}
