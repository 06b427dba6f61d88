import { Code, type Endpoint, envelopeOf, STAFF_ROLES } from '@paydesk/contract';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { users } from '../db/schema.js';
import type { Actor } from './audit.js';
import type { DataScope, Handlers, PublicContext, UserContext } from './context.js';
import { sendCsv } from './csv.js';
import { AppError, BIND_REQUIRED, catalogued } from './errors.js';
import { unstorableTextIssue } from './input-guard.js';
import type { SessionStore, SessionUser } from './sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guard of a contract endpoint before validation. */
    paydesk?: { user: SessionUser | null; scope: DataScope; token2Valid: boolean };
  }
  interface FastifyContextConfig {
    endpoint?: Endpoint;
  }
}

export interface GuardDeps {
  config: Config;
  database: Database;
  sessions: SessionStore;
}

/**
 * The session token: the `token` header; the cookie only for a CSV export (a download the browser
 * makes by itself, without headers). Every other call needs the header, so a request another site
 * makes the browser send (a form's POST, an image's GET such as the spec's GET deleteUser) carries
 * no credential, whatever the cookie's SameSite.
 */
function tokenOf(req: FastifyRequest, endpoint: Endpoint): string | undefined {
  const header = req.headers.token;
  if (typeof header === 'string' && header.length > 0) return header;
  if (req.method === 'GET' && endpoint.produces === 'csv') return req.cookies?.token || undefined;
  return undefined;
}

async function scopeOf(deps: GuardDeps, endpoint: Endpoint, user: SessionUser): Promise<DataScope> {
  if (endpoint.scope === 'none') return { all: true };
  if (endpoint.scope === 'self') return { all: false, userIds: [user.userId] };
  const allRoles = endpoint.allScopeRoles ?? STAFF_ROLES;
  if (allRoles.includes(user.role)) return { all: true };
  if (user.role === 'supplier' && endpoint.team) {
    // A supplier's team: itself and its agents (one level: agents do not have agents).
    const agents = await deps.database.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.parentId, user.userId), isNull(users.deletedAt)));
    return { all: false, userIds: [user.userId, ...agents.map((a) => a.id)] };
  }
  return { all: false, userIds: [user.userId] };
}

/**
 * The guards of a contract endpoint, in order: session (1003), authenticator binding, role (403,
 * deny unless listed), second-level password (1024/1025), data scope. They run on request, before the
 * body is even parsed, so a caller without the right gets no hint about the input's shape.
 */
function guardOf(deps: GuardDeps, endpoint: Endpoint) {
  return async (req: FastifyRequest) => {
    if (endpoint.access === 'public') {
      req.paydesk = { user: null, scope: { all: true }, token2Valid: false };
      return;
    }
    const token = tokenOf(req, endpoint);
    // Under EnableIpChangedCheck a request from another address than the sign-in's ends the session.
    const { user, ended } = token ? await deps.sessions.resolveRequest(token, req.ip) : { user: null };
    if (!user) throw catalogued(Code.sessionExpired, ended ? { reason: ended } : null);
    if (user.pendingBind && !endpoint.allowPendingBind) {
      throw new AppError(Code.forbidden, BIND_REQUIRED.message, { reason: BIND_REQUIRED.reason });
    }
    if (!endpoint.access.includes(user.role)) {
      throw new AppError(Code.forbidden, 'your role may not do this', { reason: 'roleDenied' });
    }
    const header = req.headers.token2;
    const state = deps.sessions.checkToken2(user, typeof header === 'string' ? header : undefined);
    if (endpoint.token2) {
      if (state === 'missing') throw catalogued(Code.token2Required);
      if (state === 'expired') throw catalogued(Code.token2Expired);
    }
    req.paydesk = { user, scope: await scopeOf(deps, endpoint, user), token2Valid: state === 'valid' };
  };
}

/** Before the schema: text the database cannot hold is refused whatever field it is in (input-guard.ts). */
/**
 * For a POST the spec writes with a query (`claimOrder ?orderId`): without a body, the query string is
 * the input (validated by the body's schema like any body).
 */
async function bodyFromQuery(req: FastifyRequest) {
  const empty =
    req.body === undefined || req.body === null || (typeof req.body === 'object' && Object.keys(req.body).length === 0);
  if (empty) req.body = { ...(req.query as Record<string, unknown>) };
}

async function refuseUnstorableText(req: FastifyRequest) {
  const issue = unstorableTextIssue(req.method === 'GET' ? req.query : req.body);
  if (issue) {
    const msg = issue.path ? `${issue.path}: ${issue.message}` : issue.message;
    throw new AppError(Code.invalidInput, msg, { issues: [issue] });
  }
}

function actorOf(req: FastifyRequest, user: SessionUser | null): Actor {
  return { userId: user?.userId ?? null, account: user?.account ?? null, role: user?.role ?? null, ip: req.ip };
}

/**
 * Registers every endpoint of a contract group with its guards, schemas and handler. This is the only
 * way a route of the API comes to exist.
 */
export function registerEndpoints<G extends Record<string, Endpoint>>(
  app: FastifyInstance,
  deps: GuardDeps,
  area: string,
  group: G,
  handlers: Handlers<G>,
): void {
  for (const [name, endpoint] of Object.entries(group) as Array<[keyof G & string, Endpoint]>) {
    const handler = handlers[name] as unknown as (input: unknown, ctx: PublicContext | UserContext) => Promise<unknown>;
    const limit = endpoint.rateLimit;
    app.route({
      method: endpoint.method,
      url: endpoint.path,
      config: {
        endpoint,
        rateLimit: limit
          ? { max: Math.ceil(limit.max * deps.config.rateLimitFactor), timeWindow: limit.timeWindowMs }
          : false,
      },
      schema: {
        tags: [area],
        summary: endpoint.summary,
        description: describeAccess(endpoint),
        ...(endpoint.method === 'GET' ? { querystring: endpoint.input } : { body: endpoint.input }),
        ...(endpoint.produces === 'csv'
          ? { produces: ['text/csv'] }
          : { response: { 200: envelopeOf(endpoint.output) } }),
        ...(endpoint.access === 'public' ? { security: [] } : {}),
      },
      onRequest: guardOf(deps, endpoint),
      preValidation: endpoint.bodyFromQuery ? [bodyFromQuery, refuseUnstorableText] : refuseUnstorableText,
      handler: async (req, reply) => {
        const guarded = req.paydesk ?? { user: null, scope: { all: true } as DataScope, token2Valid: false };
        const input = endpoint.method === 'GET' ? req.query : req.body;
        const base = {
          actor: actorOf(req, guarded.user),
          ip: req.ip,
          userAgent: String(req.headers['user-agent'] ?? ''),
          requestId: req.id,
          reply,
        };
        const ctx: PublicContext | UserContext = guarded.user
          ? {
              ...base,
              user: guarded.user,
              scope: guarded.scope,
              role: guarded.user.role,
              token2Valid: guarded.token2Valid,
            }
          : { ...base, user: null };
        if (endpoint.produces === 'csv') {
          return sendCsv(reply, endpoint, handler(input, ctx) as unknown as AsyncIterable<Record<string, unknown>>);
        }
        const data = await handler(input, ctx);
        return { code: Code.success, msg: 'success', data: data ?? null };
      },
    });
  }
}

function describeAccess(e: Endpoint): string {
  const who = e.access === 'public' ? 'public' : e.access.join(', ');
  const extra = [e.token2 ? 'needs token2' : '', `scope ${e.scope}`].filter(Boolean).join('; ');
  return `Access: ${who}. ${extra}.`;
}
