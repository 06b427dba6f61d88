import helmet from '@fastify/helmet';
import { Code } from '@paydesk/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from './errors.js';

/**
 * The Content-Security-Policy of every answer: the console, the payer page (a console route), the
 * swagger UI at /docs and the API's JSON alike. Scripts only from this origin, no page may frame
 * ours. Styles allow 'unsafe-inline' because antd writes its CSS-in-JS into <style> elements at run
 * time (a nonce would need a templated index.html per answer; the console's is a static file); an
 * injected style cannot run code, and scripts stay strict. data: images are the QR codes the server
 * sends as data URLs; ws:/wss: the console's websocket at /v1.0/ws. No upgrade-insecure-requests:
 * a console reached over plain http (a LAN address) would have its own files upgraded to https.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'base-uri': ["'none'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'", 'ws:', 'wss:'],
  'object-src': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
} as const;

/** One year, subdomains included (ASVS 5.0 3.4.1); sent only on answers to https requests. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Security headers on every answer (helmet): the CSP above, X-Frame-Options DENY for browsers that
 * predate frame-ancestors, nosniff, Referrer-Policy no-referrer, and helmet's other defaults.
 * HSTS only when the request came over https (`req.protocol`, which follows X-Forwarded-Proto when
 * TRUST_PROXY is set): a plain-http answer cannot set it anyway, and the demo runs on http.
 */
export async function installSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: { ...CONTENT_SECURITY_POLICY } },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', async (req, reply) => {
    if (req.protocol === 'https') reply.header('strict-transport-security', HSTS);
  });
}

/**
 * The global per-address limit (`config.globalRateLimit` a minute, times `rateLimitFactor`; 0: off),
 * on top of the per-endpoint limits of the contract. It runs as the first hook of every request,
 * unknown paths and static files included, so a flood of any kind meets it. It uses the rate-limit
 * plugin's own store through `createRateLimit` rather than a route hook of the plugin: those share one
 * "already limited" mark per request, so a global hook would switch the endpoint's own limit off.
 */
export function installGlobalRateLimit(app: FastifyInstance, config: Config): void {
  if (config.globalRateLimit <= 0) return;
  const max = Math.ceil(config.globalRateLimit * config.rateLimitFactor);
  const check = app.createRateLimit({ max, timeWindow: 60_000 });
  app.addHook('onRequest', async (req: FastifyRequest, reply) => {
    const result = await check(req);
    if (result.isAllowed || !result.isExceeded) return;
    reply.header('retry-after', String(result.ttlInSeconds));
    // The same envelope as an endpoint's own limit (the console already translates code 429).
    throw new AppError(Code.tooManyRequests, 'too many requests, try again later', null);
  });
}
