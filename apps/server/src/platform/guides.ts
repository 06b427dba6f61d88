import { readFileSync } from 'node:fs';
import { BASE_URL_OR_EMPTY, MERCHANT_GUIDE_PATH } from '@paydesk/contract';
import type { FastifyInstance } from 'fastify';
import { marked } from 'marked';

/**
 * The merchant integration guide (docs/merchant-api.md) as a page of the server, at
 * /docs/merchant-api beside the OpenAPI reference at /docs: the console's API test page links it, so
 * a merchant's developers read it where they integrate, not in the project's repository. Written with
 * the API address merchants are shown (ApiUrl, else the server's own), rendered at the first request
 * for an address and kept (the file is ours and does not change while the server runs), so starting a
 * server costs nothing for it.
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

/** The API address the guide's examples are written with (docs/merchant-api.md). */
export const GUIDE_EXAMPLE_API = 'https://pay.example.com';
/** Pages kept per API address (the address may follow the request's Host: a bounded few). */
const KEPT_PAGES = 16;
/** A request's host as a base address may carry it: a name or an IPv6 literal, and a port. */
const HOST = /^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/;

/**
 * The guide written for one API address: the table's "API address" row names it and every example
 * calls it (their signatures do not cover the address, so they stay right).
 */
export function merchantGuideFor(markdown: string, address: string): string {
  const text = markdown
    .replace(/^\| The API address \|.*\|$/m, `| The API address | \`${address}\` |`)
    .replaceAll(GUIDE_EXAMPLE_API, address);
  return renderMerchantGuide(text);
}

/**
 * The API address merchants are shown (the ApiUrl setting): the setting when set, else the
 * address this request reached the server by (the console's own); the examples' own address when
 * neither is a plain base address.
 */
export function apiAddressOf(apiUrl: string, request: { protocol: string; host: string }): string {
  if (apiUrl !== '' && BASE_URL_OR_EMPTY.test(apiUrl)) return apiUrl.replace(/\/+$/, '');
  if (HOST.test(request.host)) return `${request.protocol}://${request.host}`;
  return GUIDE_EXAMPLE_API;
}

export interface GuideDeps {
  /** The ApiUrl setting (cached by the settings store). */
  apiUrl(): Promise<string>;
}

export function installGuides(app: FastifyInstance, deps: GuideDeps): void {
  let markdown: string | null = null;
  const pages = new Map<string, string>();
  app.get(MERCHANT_GUIDE_PATH, { schema: { hide: true } }, async (request, reply) => {
    markdown ??= readFileSync(GUIDE_FILE, 'utf8');
    const address = apiAddressOf(await deps.apiUrl(), request);
    let page = pages.get(address);
    if (page === undefined) {
      page = merchantGuideFor(markdown, address);
      if (pages.size >= KEPT_PAGES) pages.delete(pages.keys().next().value as string);
      pages.set(address, page);
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page);
  });
}
