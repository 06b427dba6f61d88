import { readFileSync } from 'node:fs';
import { MERCHANT_GUIDE_PATH } from '@paydesk/contract';
import type { FastifyInstance } from 'fastify';
import { marked } from 'marked';

/**
 * The merchant integration guide (docs/merchant-api.md) as a page of the server, at
 * /docs/merchant-api beside the OpenAPI reference at /docs: the console's API test page links it, so
 * a merchant's developers read it where they integrate, not in the project's repository. Rendered
 * at its first request and kept (the file is ours and does not change while the server runs), so
 * starting a server costs nothing for it.
 */
const GUIDE_FILE = new URL('../../../../docs/merchant-api.md', import.meta.url);

const STYLE = `
  body { font: 15px/1.6 system-ui, -apple-system, "Segoe UI", "Noto Sans", sans-serif; color: #1f1f1f;
         max-width: 860px; margin: 0 auto; padding: 24px 16px 64px; }
  h1, h2, h3 { line-height: 1.3; } h2 { margin-top: 2em; border-bottom: 1px solid #eee; padding-bottom: 4px; }
  code { font: 13px/1.5 ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; background: #f5f5f5;
         padding: 1px 4px; border-radius: 4px; }
  pre { background: #f5f5f5; padding: 12px; border-radius: 6px; overflow-x: auto; }
  pre code { padding: 0; background: none; }
  table { border-collapse: collapse; display: block; overflow-x: auto; }
  th, td { border: 1px solid #e5e5e5; padding: 6px 10px; text-align: left; vertical-align: top; }
  th { background: #fafafa; }
  a { color: #1677ff; }`;

export function renderMerchantGuide(markdown: string): string {
  const body = marked.parse(markdown, { async: false, gfm: true });
  const title = /^#\s+(.+)$/m.exec(markdown)?.[1] ?? 'Merchant API';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>${title.replace(/[<>&"]/g, '')}</title>
<style>${STYLE}</style></head><body>${body}
<p><a href="/docs">OpenAPI reference of every call</a></p></body></html>`;
}

let rendered: string | null = null;

export function installGuides(app: FastifyInstance): void {
  app.get(MERCHANT_GUIDE_PATH, { schema: { hide: true } }, async (_request, reply) => {
    rendered ??= renderMerchantGuide(readFileSync(GUIDE_FILE, 'utf8'));
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(rendered);
  });
}
