import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Endpoint } from '@paydesk/contract';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/** A plain number ('-12.50', '+3'): shown as a number, never run as a formula. */
const PLAIN_NUMBER = /^[+-]?\d+(?:\.\d+)?$/;

/**
 * A text cell that a spreadsheet would run as a formula (it begins with =, +, -, @, a tab or a carriage
 * return) gets a leading apostrophe, as OWASP recommends for CSV injection: the program shows the text
 * and runs nothing. Plain numbers keep their sign. Every export goes through here.
 */
export function neutraliseCell(text: string): string {
  if (text === '' || !/^[=+\-@\t\r]/.test(text) || PLAIN_NUMBER.test(text)) return text;
  return `'${text}`;
}

/**
 * Streams an export's rows as CSV: a header of the row schema's keys, a BOM so spreadsheet programs
 * read Chinese text as UTF-8, objects as JSON text, formulas neutralised. Memory stays flat whatever
 * the row count.
 *
 * The first row is read before the answer starts, so a failure there (a filter the database refuses, a
 * database that is down) is an ordinary error answer. A failure later ends that download (the client
 * sees a cut-off transfer, not a complete file) and is logged with the request id; it never reaches
 * the process as an unhandled error.
 */
export async function sendCsv(reply: FastifyReply, endpoint: Endpoint, rows: AsyncIterable<Record<string, unknown>>) {
  const iterator = rows[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* all() {
    try {
      if (first.done) return;
      yield first.value;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      // A client that leaves early ends the read (its database cursor) too.
      await iterator.return?.();
    }
  }
  const columns = endpoint.output instanceof z.ZodObject ? Object.keys(endpoint.output.shape) : undefined;
  const csv = stringify({
    header: true,
    bom: true,
    ...(columns ? { columns } : {}),
    cast: {
      string: neutraliseCell,
      object: (v) => neutraliseCell(JSON.stringify(v)),
      boolean: (v) => (v ? 'true' : 'false'),
      date: (v) => v.toISOString(),
    },
  });
  pipeline(Readable.from(all()), csv).catch((error: unknown) => {
    // A client that went away is no error of ours.
    if ((error as { code?: unknown }).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    reply.log.error({ err: error }, 'export ended by an error after it began');
  });
  const name = endpoint.path.split('/').filter(Boolean).slice(-2).join('-');
  const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
  reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}-${stamp}.csv"`)
    .header('cache-control', 'no-store');
  return reply.send(csv);
}
