import { isIP } from 'node:net';
import { Code } from '@paydesk/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { sameSecret, sha256 } from './secrets.js';

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || (isIP(plain) === 4 && plain.startsWith('127.'));
}

/**
 * Who may read /metrics: a caller with `Authorization: Bearer <METRICS_TOKEN>` (compared in constant
 * time), or a direct call from this machine. Direct means the socket's peer is loopback and the
 * request names no forwarded client: through a proxy on the same machine every caller's socket is
 * loopback, whether or not TRUST_PROXY is set, so a forwarded request needs the token.
 */
export function mayReadMetrics(req: FastifyRequest, token: string | undefined): boolean {
  const authorization = req.headers.authorization;
  if (token && typeof authorization === 'string' && authorization.startsWith('Bearer ')) {
    // Hashed first, so the comparison takes the same time whatever the lengths.
    return sameSecret(sha256(authorization.slice(7).trim()), sha256(token));
  }
  const forwarded = req.headers['x-forwarded-for'] !== undefined || req.headers.forwarded !== undefined;
  return !forwarded && isLoopback(req.socket.remoteAddress);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts an error nobody caught (main.ts: an unhandled promise rejection). */
    countUnexpected(kind: 'rejection'): void;
  }
}

/**
 * Prometheus metrics at /metrics: process metrics, and requests by route and status with latencies.
 * Readable from the machine itself or with the token (mayReadMetrics); anyone else gets the same 404
 * as an unknown path, so a scanner learns nothing.
 */
export function installMetrics(app: FastifyInstance, opts: { token: string | undefined }): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'paydesk_http_requests_total',
    help: 'HTTP requests by method, route and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const unexpected = new Counter({
    name: 'paydesk_unexpected_errors_total',
    help: 'Errors nobody caught: promise rejections outside any request (500 answers are in the requests total)',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  app.decorate('countUnexpected', (kind: 'rejection') => unexpected.inc({ kind }));
  const latency = new Histogram({
    name: 'paydesk_http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  app.addHook('onResponse', async (req, reply) => {
    // The route pattern, not the raw URL: a label per order code would explode the series.
    const route = req.routeOptions.url ?? 'unmatched';
    requests.inc({ method: req.method, route, status: String(reply.statusCode) });
    latency.observe({ method: req.method, route }, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { schema: { hide: true } }, async (req, reply) => {
    if (!mayReadMetrics(req, opts.token)) {
      return reply.status(404).send({ code: Code.notFound, msg: `no such path: ${req.method} /metrics`, data: null });
    }
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
  return registry;
}
