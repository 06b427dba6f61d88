import { randomBytes } from 'node:crypto';
import websocket from '@fastify/websocket';
import {
  Code,
  codeCatalogue,
  HEARTBEAT_INTERVAL_MS,
  type Issue,
  type Reason,
  WS_CLOSE_CODES,
  WS_MAX_MESSAGE_BYTES,
  WS_PATH,
  type WsResponse,
  wsCommandSchema,
  wsTopicDataSchema,
} from '@paydesk/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { z } from 'zod';
import { BIND_REQUIRED } from '../errors.js';
import type { SessionStore } from '../sessions.js';
import { parseJson, type RealtimeConnection, type RealtimeHub } from './hub.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The realtime hub of this app (the same one as `Services.realtime`). */
    realtime: RealtimeHub;
  }
}

export interface RealtimeLimits {
  /** Sustained commands per second per socket (a burst of as many is allowed); above: 429. */
  commandsPerSecond: number;
  /** A socket silent this long is closed (the console sends a heartbeat every 20 s). */
  idleTimeoutMs: number;
  /** A socket whose unsent output exceeds this is closed rather than buffered without bound. */
  maxBufferedBytes: number;
}

const DEFAULT_LIMITS: RealtimeLimits = {
  commandsPerSecond: 20,
  idleTimeoutMs: 3 * HEARTBEAT_INTERVAL_MS,
  maxBufferedBytes: 1024 * 1024,
};

export interface RealtimeDeps {
  sessions: SessionStore;
  hub: RealtimeHub;
  limits?: Partial<RealtimeLimits>;
}

/**
 * The websocket endpoint GET /v1.0/ws (protocol in the contract's realtime/protocol.ts). Starts the
 * hub's listener and stops it when the app closes.
 */
export async function installRealtime(app: FastifyInstance, deps: RealtimeDeps): Promise<void> {
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  await app.register(websocket, {
    options: { maxPayload: WS_MAX_MESSAGE_BYTES },
    // ws already closes the socket on protocol errors (an oversized frame: 1009); only log them.
    errorHandler: (err, socket, req) => {
      req.log.warn({ err }, 'websocket error');
      if (socket.readyState === socket.OPEN) socket.close(1011, 'internal error');
    },
  });
  app.decorate('realtime', deps.hub);
  await deps.hub.start(app.log);
  app.addHook('onClose', () => deps.hub.close());

  app.route({
    method: 'GET',
    url: WS_PATH,
    schema: { hide: true },
    // A page of another site may open a websocket to this one (browsers do not apply the same-origin
    // rule to them). The socket's commands carry the token, which that page does not have; refusing
    // foreign origins at the handshake keeps it from even trying. Clients that are no browser send no
    // Origin and are let through.
    onRequest: async (req, reply) => {
      const origin = req.headers.origin;
      if (origin !== undefined && !sameHost(origin, req.host)) {
        return reply.status(403).send({ code: Code.forbidden, msg: 'websocket from another site', data: null });
      }
    },
    handler: (_req, reply) =>
      reply.status(400).send({ code: Code.invalidInput, msg: 'websocket upgrade required', data: null }),
    wsHandler: (socket, req) => serveSocket(socket, req, deps, limits),
  });
}

/** Whether an Origin header names the host the request was sent to (scheme aside: a TLS proxy may end it). */
function sameHost(origin: string, host: string): boolean {
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}

/** A token bucket: `perSecond` tokens refilled continuously, as many held at most. */
function tokenBucket(perSecond: number) {
  let tokens = perSecond;
  let last = performance.now();
  return () => {
    const now = performance.now();
    tokens = Math.min(perSecond, tokens + ((now - last) / 1000) * perSecond);
    last = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

const issuesOf = (error: z.ZodError, under?: string): Issue[] =>
  error.issues.map((i) => ({ path: [...(under ? [under] : []), ...i.path.map(String)].join('.'), message: i.message }));

function invalidInput(requestId: string | null, issues: Issue[]): WsResponse {
  const first = issues[0];
  const msg = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'invalid input';
  return { code: Code.invalidInput, requestId, data: { issues }, msg };
}

/** The requestId of a frame that failed validation, when it has a usable one, so the client can match it. */
function requestIdOf(json: unknown): string | null {
  if (typeof json !== 'object' || json === null || !('requestId' in json)) return null;
  const id = json.requestId;
  return typeof id === 'string' && id.length > 0 && id.length <= 64 ? id : null;
}

function serveSocket(socket: WebSocket, req: FastifyRequest, deps: RealtimeDeps, limits: RealtimeLimits) {
  const { hub, sessions } = deps;
  const takeToken = tokenBucket(limits.commandsPerSecond);
  const conn: RealtimeConnection = {
    send(text) {
      if (socket.readyState !== socket.OPEN) return;
      // A client that does not read must not make the server buffer without bound.
      if (socket.bufferedAmount > limits.maxBufferedBytes) {
        socket.close(1013, 'too slow');
        return;
      }
      socket.send(text);
    },
  };
  const reply = (response: WsResponse) => conn.send(JSON.stringify(response));
  const idle = setTimeout(() => socket.close(WS_CLOSE_CODES.idle, 'idle'), limits.idleTimeoutMs);

  socket.on('close', () => {
    clearTimeout(idle);
    hub.remove(conn);
  });
  socket.on('message', (raw, isBinary) => {
    idle.refresh();
    handle(raw, isBinary).catch((err: unknown) => req.log.error({ err }, 'realtime frame failed'));
  });

  async function handle(raw: RawData, isBinary: boolean) {
    const json = isBinary ? undefined : parseJson(textOf(raw));
    const requestId = requestIdOf(json);
    // Every frame counts, malformed ones too, and is counted before any database work.
    if (!takeToken()) {
      reply({ code: Code.tooManyRequests, requestId, data: null, msg: 'too many requests, try again later' });
      return;
    }
    if (json === undefined) {
      reply(invalidInput(null, [{ path: '', message: 'a command is a JSON text frame' }]));
      return;
    }
    const parsed = wsCommandSchema.safeParse(json);
    if (!parsed.success) {
      reply(invalidInput(requestId, issuesOf(parsed.error)));
      return;
    }
    try {
      await run(parsed.data);
    } catch (err) {
      // A database failure answers 500 like HTTP does, without internals; the socket stays usable.
      req.log.error({ err }, 'realtime command failed');
      reply({ code: Code.internal, requestId, data: { requestId: req.id }, msg: `internal error (request ${req.id})` });
    }
  }

  /** The guards of an HTTP endpoint, in the same order: session (1003), authenticator binding (403). */
  async function run(command: z.output<typeof wsCommandSchema>) {
    const { requestId } = command;
    // Resolved on every command: a session can be revoked or expire at any moment (or, under
    // EnableIpChangedCheck, be ended for coming from another address than its sign-in's).
    const { user, ended } = command.token ? await sessions.resolveRequest(command.token, req.ip) : { user: null };
    if (socket.readyState !== socket.OPEN) return; // closed meanwhile: do not register it again
    if (!user) {
      hub.remove(conn);
      reply({
        code: Code.sessionExpired,
        requestId,
        data: ended ? { reason: ended } : null,
        msg: codeCatalogue[Code.sessionExpired].message,
      });
      socket.close(WS_CLOSE_CODES.sessionExpired, 'session expired');
      return;
    }
    if (user.pendingBind) {
      reply({
        code: Code.forbidden,
        requestId,
        data: { reason: BIND_REQUIRED.reason },
        msg: BIND_REQUIRED.message,
      });
      return;
    }
    hub.identify(conn, user);

    switch (command.commandType) {
      case 'heartbeat':
        reply({ code: Code.success, requestId, data: { key: randomBytes(16).toString('base64url') }, msg: 'success' });
        return;
      case 'subscribe':
      case 'unsubscribe': {
        const data = wsTopicDataSchema.safeParse(command.data);
        if (!data.success) {
          reply(invalidInput(requestId, issuesOf(data.error, 'data')));
          return;
        }
        const { topic } = data.data;
        const topics = command.commandType === 'subscribe' ? hub.subscribe(conn, topic) : hub.unsubscribe(conn, topic);
        if (!topics) {
          reply({
            code: Code.businessRule,
            requestId,
            data: { reason: 'tooManyTopics' satisfies Reason },
            msg: 'too many topics on one connection',
          });
          return;
        }
        reply({ code: Code.success, requestId, data: { topics }, msg: 'success' });
        return;
      }
    }
  }
}

function textOf(raw: RawData): string {
  if (Buffer.isBuffer(raw)) return raw.toString('utf8');
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return Buffer.from(raw).toString('utf8');
}
