import { Readable } from 'node:stream';
import type { Endpoint } from '@paydesk/contract';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * Streams an export's rows as CSV: a header of the row schema's keys, a BOM so spreadsheet programs
 * read Chinese text as UTF-8, objects as JSON text. Memory stays flat whatever the row count.
 */
export function sendCsv(reply: FastifyReply, endpoint: Endpoint, rows: AsyncIterable<Record<string, unknown>>) {
  const columns = endpoint.output instanceof z.ZodObject ? Object.keys(endpoint.output.shape) : undefined;
  const csv = stringify({
    header: true,
    bom: true,
    ...(columns ? { columns } : {}),
    cast: { object: (v) => JSON.stringify(v), boolean: (v) => (v ? 'true' : 'false'), date: (v) => v.toISOString() },
  });
  const name = endpoint.path.split('/').filter(Boolean).slice(-2).join('-');
  const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
  reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${name}-${stamp}.csv"`)
    .header('cache-control', 'no-store');
  return reply.send(Readable.from(rows).pipe(csv));
}
