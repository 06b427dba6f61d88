import type { FastifyMultipartBaseOptions } from '@fastify/multipart';
import { ORDER_UPLOAD_MAX_BYTES } from '@paydesk/contract';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.js';
import { uploadRefused } from './order-csv.js';

/**
 * Limits of the order upload's multipart form, given to @fastify/multipart (busboy): one file of at
 * most ORDER_UPLOAD_MAX_BYTES, a few short fields (orderType, key), nothing else of any size.
 */
export const UPLOAD_FORM_LIMITS: FastifyMultipartBaseOptions['limits'] = {
  fileSize: ORDER_UPLOAD_MAX_BYTES,
  files: 1,
  fields: 8,
  parts: 10,
  fieldNameSize: 64,
  fieldSize: 1024,
  headerPairs: 50,
};

const TOO_MANY = new Set(['FST_FILES_LIMIT', 'FST_FIELDS_LIMIT', 'FST_PARTS_LIMIT']);

/**
 * preValidation of an upload endpoint: reads the multipart form into the body its contract schema
 * validates (`orderUploadForm`): the file part as {filename, mimetype, content: Buffer} and each field
 * as its text. Anything wrong with the form itself is a 400 here, never a 500: a file over the
 * limit ('the file is larger than 1 MiB'), a part twice, too many parts, a truncated field, or a
 * body that is not well-formed multipart ('upload failed', with busboy's reason in the issue).
 * Requests that are not multipart are left to the JSON and form parsers (and then refused by the
 * schema, whose file content no JSON can be).
 */
export async function readUploadForm(req: FastifyRequest): Promise<void> {
  if (!req.isMultipart()) return;
  const body: Record<string, unknown> = {};
  try {
    for await (const part of req.parts()) {
      if (Object.hasOwn(body, part.fieldname)) {
        throw uploadRefused('uploadFailed', `the form has the part "${part.fieldname}" twice`, part.fieldname);
      }
      if (part.type === 'file') {
        const content = await part.toBuffer();
        body[part.fieldname] = { filename: part.filename, mimetype: part.mimetype, content };
      } else {
        if (part.valueTruncated || part.fieldnameTruncated) {
          throw uploadRefused('uploadFailed', `the field "${part.fieldname.slice(0, 64)}" is too long`, part.fieldname);
        }
        body[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw uploadRefused('tooLarge');
    if (typeof code === 'string' && TOO_MANY.has(code)) {
      throw uploadRefused('uploadFailed', 'the form has too many parts: send one file, orderType and key');
    }
    const why = error instanceof Error ? error.message : String(error);
    throw uploadRefused('uploadFailed', `the request is not a well-formed multipart form: ${why}`, '');
  }
  req.body = body;
}
