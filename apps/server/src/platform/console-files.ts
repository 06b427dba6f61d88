import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { Code } from '@paydesk/contract';
import type { FastifyInstance, FastifyReply } from 'fastify';

const API_PREFIXES = ['/v1.0/', '/message/', '/save_error_logger', '/docs', '/metrics', '/healthz', '/readyz'];

/** Hashed build output: a file's name changes with its content, so browsers keep it for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** HTML names the hashed files of the current build: browsers ask again every time (a 304 is cheap). */
const REVALIDATE = 'no-cache';

/**
 * The payer page has its own small HTML entry (pay.html); an older build without it uses index.html.
 * Its two addresses (IsNewPayUrl): /pay/<orderCode>, and the legacy /pay?orderCode=<orderCode>.
 */
const PAYER_PATH = /^\/pay(?:\/|\?|$)/;

/**
 * The built console: static files, and index.html for every console path (history routing), pay.html
 * for the payer page. Files are sent precompressed (the build writes .br and .gz next to them) to
 * browsers that accept it; hashed files under /assets/ are cached for good, the HTML never without
 * asking. API paths that match nothing answer the 404 envelope, and so does a missing file under
 * /assets/ (a page of an older build asking for its chunk must not get HTML for JavaScript). Files are
 * looked up per request (wildcard), not listed at start, so a console rebuilt under a running server is
 * served as it is.
 */
export function installConsole(app: FastifyInstance, webDist: string) {
  const hasConsole = existsSync(join(webDist, 'index.html'));
  if (hasConsole) {
    app.register(fastifyStatic, {
      root: webDist,
      wildcard: true,
      index: false,
      preCompressed: true,
      // The defaults (max-age=0) are replaced by the two policies above.
      cacheControl: false,
      setHeaders: (reply, path) => {
        reply.header('cache-control', isHashedAsset(webDist, path) ? IMMUTABLE : REVALIDATE);
      },
      // Only names with an extension are files; '/', '/order/list' and folders are console routes.
      allowedPath: (pathName) => /\.[A-Za-z0-9]+$/.test(pathName),
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const isApi = API_PREFIXES.some((p) => req.url.startsWith(p)) || req.url.startsWith('/assets/');
    if (hasConsole && !isApi && req.method === 'GET') return sendHtml(reply, webDist, req.url);
    return reply.status(404).send({ code: Code.notFound, msg: `no such path: ${req.method} ${req.url}`, data: null });
  });
}

function sendHtml(reply: FastifyReply, webDist: string, url: string) {
  const page = PAYER_PATH.test(url) && existsSync(join(webDist, 'pay.html')) ? 'pay.html' : 'index.html';
  return reply.type('text/html').sendFile(page);
}

const isHashedAsset = (webDist: string, path: string) => path.startsWith(`${join(webDist, 'assets')}/`);
