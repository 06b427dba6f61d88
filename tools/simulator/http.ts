import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';

export interface Answer {
  status: number;
  text: string;
  /** The envelope's `code` and `data` when the answer is JSON ({code, msg, data}); else undefined. */
  code: number | undefined;
  msg: string | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: answers of every endpoint pass through here
  data: any;
  ms: number;
}

export interface RequestOptions {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** The local address to call from (a payer's own loopback address); undefined: the system's choice. */
  localAddress?: string | undefined;
  timeoutMs?: number;
}

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 64 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

/** One HTTP exchange; the answer's JSON envelope is read when there is one. Network errors throw. */
export function request(url: URL, opts: RequestOptions): Promise<Answer> {
  const started = performance.now();
  const secure = url.protocol === 'https:';
  const lib = secure ? https : http;
  // A call from a chosen loopback address must go to the IPv4 loopback ('localhost' may be ::1).
  const hostname = opts.localAddress && url.hostname === 'localhost' ? '127.0.0.1' : url.hostname;
  return new Promise((resolve, reject) => {
    const req = lib.request(
      {
        protocol: url.protocol,
        hostname,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: opts.method,
        headers: {
          ...(opts.body !== undefined ? { 'content-length': String(Buffer.byteLength(opts.body)) } : {}),
          ...opts.headers,
        },
        // A payer's call gets its own connection from its own address; the rest reuse connections.
        ...(opts.localAddress
          ? { localAddress: opts.localAddress, family: 4, agent: false }
          : { agent: secure ? agents.https : agents.http }),
        timeout: opts.timeoutMs ?? 15_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let envelope: { code?: unknown; msg?: unknown; data?: unknown } | undefined;
          try {
            envelope = JSON.parse(text);
          } catch {
            envelope = undefined;
          }
          resolve({
            status: res.statusCode ?? 0,
            text,
            code: typeof envelope?.code === 'number' ? envelope.code : undefined,
            msg: typeof envelope?.msg === 'string' ? envelope.msg : undefined,
            data: envelope?.data,
            ms: performance.now() - started,
          });
        });
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`no answer from ${url.origin} within ${opts.timeoutMs ?? 15_000} ms`)),
    );
    req.on('error', reject);
    if (opts.body !== undefined) req.write(opts.body);
    req.end();
  });
}

/** Whether `host` is this machine's loopback (where each payer can call from an address of its own). */
export function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return false;
}

/** The n-th payer's own loopback address: 127.1.0.1, 127.1.0.2, ... (Linux routes all of 127/8 to lo). */
export function payerAddress(n: number): string {
  const i = n % (250 * 250 * 250);
  return `127.${1 + Math.floor(i / 62_500)}.${Math.floor(i / 250) % 250}.${1 + (i % 250)}`;
}
