/** A plain number ('-12', '+3'): kept as a number, never treated as a formula. */
const PLAIN_NUMBER = /^[+-]?\d+(?:\.\d+)?$/;

/**
 * The server's CSV rule (platform/csv.ts neutraliseCell), for files made in the browser: a text cell
 * that a spreadsheet would run as a formula gets a leading apostrophe; plain numbers keep their sign.
 */
export function neutraliseCell(text: string): string {
  if (text === '' || !/^[=+\-@\t\r]/.test(text) || PLAIN_NUMBER.test(text)) return text;
  return `'${text}`;
}

const quoted = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);

/**
 * CSV text as the lists' exports write it: a BOM so spreadsheet programs read Chinese text as UTF-8, a
 * header of the columns' keys, raw values (money in minor units), empty for a missing value.
 */
export function toCsv(columns: readonly string[], rows: ReadonlyArray<Record<string, unknown>>): string {
  const cell = (v: unknown) => (v === null || v === undefined ? '' : quoted(neutraliseCell(String(v))));
  const lines = [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))];
  return `\uFEFF${lines.join('\n')}\n`;
}

/** The lists' export file name: `<last two path parts>-<part>-<UTC stamp>.csv`. */
export function csvFileName(path: string, part: string, now = new Date()): string {
  const name = path.split('/').filter(Boolean).slice(-2).join('-');
  const stamp = now.toISOString().replace(/[-:]/g, '').slice(0, 15);
  return `${name}-${part}-${stamp}.csv`;
}

/** Hands CSV text to the browser as a download. */
export function saveCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
