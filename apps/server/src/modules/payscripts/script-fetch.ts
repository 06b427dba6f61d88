import { request } from 'undici';
import { checkedAgent, urlRefusal } from '../callbacks/delivery.js';

/** A fetch a script asked for, as the sandbox hands it over. */
export interface ScriptRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | null;
}

/** What the script gets back: the status, the headers (lower-case names) and the body as text. */
export interface ScriptResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface ScriptFetchLimits {
  timeoutMs: number;
  maxResponseBytes: number;
  maxBodyBytes: number;
}

/** Why a script's fetch was refused or failed: the script sees it as a thrown TypeError with this text. */
export class ScriptFetchError extends Error {}

/** The host fetch of the sandbox: the network as the server lets a script see it. */
export type ScriptFetcher = (
  req: ScriptRequest,
  hosts: readonly string[],
  signal: AbortSignal,
) => Promise<ScriptResponse>;

/** The SSRF guard's refusals name callbacks and their setting: here they are a script's, by GATEWAY_PRIVATE_NETWORKS. */
const forScripts = (text: string) =>
  text.replace('callbacks', 'pay scripts').replace('(CALLBACK_PRIVATE_NETWORKS)', '(GATEWAY_PRIVATE_NETWORKS)');

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']);
/** Headers a script may not set: the connection's own, and the ones that would name another host. */
const FORBIDDEN_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'proxy-authorization',
  'proxy-connection',
]);

/**
 * The fetch scripts get (DESIGN section 10): http(s) only, to a host the version declares (exactly, by
 * name or IPv4 address), and through the callbacks' SSRF guard: link-local and metadata addresses are
 * never reached, private and reserved ranges only when `privateNetworks` is on (the demo; otherwise
 * refused for names too, every address a name resolves to checked at connect time), nor the ports of
 * the bad-port list. No redirect is followed; one exchange is bounded by `timeoutMs` and at most
 * `maxResponseBytes` of the answer are read (a longer answer is an error, not a cut one).
 */
export function scriptFetcher(options: { privateNetworks: boolean; limits: ScriptFetchLimits }): ScriptFetcher {
  const { privateNetworks, limits } = options;
  return async (req, hosts, signal) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      throw new ScriptFetchError(`not a URL: ${req.url.slice(0, 200)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ScriptFetchError(`only http and https are allowed, not ${url.protocol}`);
    }
    if (url.username || url.password) throw new ScriptFetchError('credentials in the URL are not allowed');
    const host = url.hostname.replace(/\.$/, '').toLowerCase();
    if (!hosts.includes(host)) {
      throw new ScriptFetchError(`the host ${host} is not among the hosts this version declares`);
    }
    const method = req.method.toUpperCase();
    if (!METHODS.has(method)) throw new ScriptFetchError(`the method ${req.method.slice(0, 20)} is not allowed`);
    const headers: Record<string, string> = { 'user-agent': 'PayDesk-PayScript/1.0' };
    for (const [name, value] of Object.entries(req.headers)) {
      const lower = name.toLowerCase();
      if (FORBIDDEN_HEADERS.has(lower)) throw new ScriptFetchError(`the header ${lower} may not be set`);
      headers[lower] = value;
    }
    if (req.body !== null && Buffer.byteLength(req.body) > limits.maxBodyBytes) {
      throw new ScriptFetchError(`the request body is larger than ${limits.maxBodyBytes} bytes`);
    }
    // An IP literal is connected to without a lookup: its range is checked here; a name's addresses
    // are checked by the agent's lookup when it connects.
    const why = urlRefusal(url.href, privateNetworks);
    if (why) throw new ScriptFetchError(forScripts(why));
    const timeout = AbortSignal.timeout(limits.timeoutMs);
    try {
      const res = await request(url.href, {
        dispatcher: checkedAgent(privateNetworks),
        method: method as 'GET',
        headers,
        body: req.body ?? null,
        maxRedirections: 0,
        signal: AbortSignal.any([timeout, signal]),
      });
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        size += bytes.byteLength;
        if (size > limits.maxResponseBytes) {
          res.body.destroy();
          throw new ScriptFetchError(`the answer is larger than ${limits.maxResponseBytes} bytes`);
        }
        chunks.push(bytes);
      }
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(res.headers)) {
        if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      return { status: res.statusCode, headers: out, body: Buffer.concat(chunks).toString('utf8') };
    } catch (error) {
      if (error instanceof ScriptFetchError) throw error;
      const e = error as { name?: string; message?: string; code?: string; cause?: { message?: string } };
      if (timeout.aborted) throw new ScriptFetchError(`no answer within ${limits.timeoutMs / 1000} s`);
      if (signal.aborted) throw new ScriptFetchError('the run ended before the answer came');
      const message = e?.cause?.message ?? e?.message ?? String(error);
      throw new ScriptFetchError(forScripts(message).slice(0, 300));
    }
  };
}
