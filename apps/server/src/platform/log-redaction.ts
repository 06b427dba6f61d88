import type { FastifyRequest } from 'fastify';

/**
 * What the server's log must never hold (DESIGN section 3, "never a secret"), and the pino serializers
 * and redaction paths that keep it out. Bodies are never logged; these cover what is: request URLs
 * (a query string may carry a token or a merchant's sign), headers if a line ever includes them, and
 * errors (a failed SQL statement's error carries its parameters: passwords' hashes, secrets, input).
 */

/** Query parameters, headers and error fields whose values are credentials. */
const SECRET_NAME = /token|secret|passw|^sign$|apikey|^key$|googlecode|authorization|cookie|otp/i;

/** Paths pino replaces with "[Redacted]", wherever a header or body object is logged. */
export const REDACT_PATHS = [
  'req.headers.token',
  'req.headers.token2',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.googleCode',
  '*.token',
  '*.token2',
  '*.sign',
  '*.secret',
];

/** The URL with the values of secret-named query parameters replaced: `/x?token=[redacted]&page=2`. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replaceAll('+', ' '));
      } catch {
        // A malformed escape: judge the raw name.
      }
      return eq >= 0 && SECRET_NAME.test(name) ? `${rawName}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

/** Fastify's request serializer, with the URL's secret query values redacted. */
export function serializeRequest(req: FastifyRequest) {
  return {
    method: req.method,
    url: redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  };
}

/** Fields of an error (or of its causes) that are never logged: statement parameters and values. */
const DROPPED_FIELDS = new Set(['params', 'parameters', 'queryOptions', 'detail', 'where', 'input', 'body', 'raw']);

type ErrorLike = Error & Record<string, unknown>;
const isErrorLike = (v: unknown): v is ErrorLike =>
  typeof v === 'object' && v !== null && typeof (v as Error).message === 'string';

/**
 * The message an error may show. Drizzle's DrizzleQueryError writes the statement's parameters into
 * its message ("Failed query: ...\nparams: a,b"): keep the statement only. PostgreSQL's data
 * exceptions (SQLSTATE class 22) quote the offending value ('invalid input syntax for type integer:
 * "..."'): keep the text before the value.
 */
function safeMessage(err: ErrorLike): string {
  let message = err.message;
  if (typeof err.query === 'string' && 'params' in err) {
    const cut = message.indexOf('\nparams:');
    if (cut >= 0) message = message.slice(0, cut);
  }
  if (typeof err.code === 'string' && err.code.startsWith('22')) {
    const quote = message.search(/:?\s*"/);
    if (quote >= 0) message = `${message.slice(0, quote)}: [value redacted]`;
  }
  return message;
}

/** The stack's frames under a safe first line (a stack starts with the message it was made with). */
function safeStack(err: ErrorLike, type: string, message: string): string | undefined {
  if (typeof err.stack !== 'string') return undefined;
  const frames = err.stack.split('\n').filter((line) => /^\s+at /.test(line));
  return [`${type}: ${message}`, ...frames].join('\n');
}

/**
 * The error serializer: pino's shape (type, message, stack, the error's own fields) without
 * parameters, values or secret-named fields, at every level of `cause`. The SQL statement text
 * (`query`), SQLSTATE (`code`), constraint, table and column stay: they say what failed.
 */
export function serializeError(err: Error): { type: string; message: string; stack: string; [key: string]: unknown } {
  const out = serializeAny(err, 0);
  if (typeof out !== 'object' || out === null) return { type: typeof err, message: String(err), stack: '' };
  return { stack: '', ...(out as { type: string; message: string }) };
}

function serializeAny(err: unknown, depth: number): unknown {
  if (!isErrorLike(err)) return err;
  const type = err.constructor?.name ?? err.name;
  const message = safeMessage(err);
  const out: Record<string, unknown> = { type, message, stack: safeStack(err, type, message) };
  for (const key of Object.keys(err)) {
    if (key in out || key === 'cause' || key === 'errors' || DROPPED_FIELDS.has(key) || SECRET_NAME.test(key)) continue;
    const value = err[key];
    out[key] = isErrorLike(value) ? (depth < 5 ? serializeAny(value, depth + 1) : String(value.message)) : value;
  }
  if (err.cause !== undefined && depth < 5) out.cause = serializeAny(err.cause, depth + 1);
  if (Array.isArray(err.errors)) out.aggregateErrors = err.errors.map((e) => serializeAny(e, depth + 1));
  return out;
}
