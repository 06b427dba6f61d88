import { Code, httpStatusOf, type Issue, type Reason } from '@paydesk/contract';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isConcurrencyFailure } from './db-errors.js';
import { AppError } from './errors.js';

function issuesOfValidation(err: { validation: Array<{ instancePath: string; message?: string }> }): Issue[] {
  return err.validation.map((v) => ({
    path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
    message: v.message ?? 'invalid value',
  }));
}

/**
 * One error handler for the whole API: a typed refusal keeps its code; any malformed request
 * (bad JSON, wrong types, unknown fields, oversized or unsupported bodies) is a 400 with issues;
 * everything else is a 500 whose message carries only the request id.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, req, reply) => {
    if (error instanceof AppError) {
      return reply.status(httpStatusOf(error.code)).send({ code: error.code, msg: error.message, data: error.data });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = issuesOfValidation(error);
      const first = issues[0];
      const msg = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'invalid input';
      return reply.status(400).send({ code: Code.invalidInput, msg, data: { issues } });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply
        .status(429)
        .send({ code: Code.tooManyRequests, msg: 'too many requests, try again later', data: null });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      // HTTP says what is wrong (413); the body keeps the invalid-input code clients already handle.
      const message = 'request body is too large';
      return reply
        .status(413)
        .send({ code: Code.invalidInput, msg: message, data: { issues: [{ path: '', message }] } });
    }
    if (status >= 400 && status < 500) {
      // Fastify's own refusals: invalid JSON, prototype poisoning, unsupported media type.
      const message = error.message;
      return reply
        .status(400)
        .send({ code: Code.invalidInput, msg: message, data: { issues: [{ path: '', message }] } });
    }
    if (isConcurrencyFailure(error)) {
      // Two changes crossed (deadlock or serialization failure): the database undid this one.
      return reply.status(409).send({
        code: Code.conflict,
        msg: 'someone else changed it at the same moment: try again',
        data: { reason: 'concurrentChange' satisfies Reason },
      });
    }
    req.log.error({ err: error }, 'unhandled error');
    return reply
      .status(500)
      .send({ code: Code.internal, msg: `internal error (request ${req.id})`, data: { requestId: req.id } });
  });
}
