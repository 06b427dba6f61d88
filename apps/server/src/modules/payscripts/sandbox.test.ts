import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PAY_SCRIPT_LIMITS } from '@paydesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayScriptSandbox, type SandboxLimits } from './sandbox.js';
import { scriptFetcher } from './script-fetch.js';

/**
 * The sandbox on its own (issue 21 item 4): what a script can do, and every way it is stopped. Short
 * limits keep the runaway cases fast; the real ones are PAY_SCRIPT_LIMITS.
 */
let server: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.url === '/hang') return; // never answers
    if (req.url === '/big') {
      res.end('x'.repeat(4096));
      return;
    }
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ link: 'upi://pay?pa=shop@bank', echo: body, method: req.method }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

// The CPU budget is time inside the VM by the clock: generous enough for a loaded machine's first run.
const limits: Partial<SandboxLimits> = { cpuMs: 600, wallMs: 2_000, fetchTimeoutMs: 5_000, fetchResponseBytes: 1024 };
const sandbox = (privateNetworks = true, more: Partial<SandboxLimits> = {}) => {
  const l = { ...PAY_SCRIPT_LIMITS, ...limits, ...more };
  return new PayScriptSandbox(
    scriptFetcher({
      privateNetworks,
      limits: { timeoutMs: l.fetchTimeoutMs, maxResponseBytes: l.fetchResponseBytes, maxBodyBytes: l.fetchBodyBytes },
    }),
    l,
  );
};
const order = { orderCode: 'C1', amount: 12_345, currency: 'INR' };

describe('a good script', () => {
  it('renders: the function gets the order and its result comes back as data', async () => {
    const out = await sandbox().run({
      code: `function render(o) { console.log('rendering', o.orderCode); return { instructions: 'Pay ' + (o.amount / 100).toFixed(2) + ' ' + o.currency }; }`,
      fn: 'render',
      arg: order,
      hosts: [],
    });
    expect(out).toMatchObject({ ok: true, value: { instructions: 'Pay 123.45 INR' }, error: null });
    expect(out.logs).toEqual(['rendering C1']);
    expect(out.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('awaits fetch to a declared host: the answer reaches the script and the call is recorded', async () => {
    const out = await sandbox().run({
      code: `async function render(o) {
        const r = await fetch('${base}/link?o=' + o.orderCode, { method: 'POST', body: JSON.stringify({ a: o.amount }) });
        const j = await r.json();
        return { payUrl: j.link, instructions: r.status + ' ' + j.method + ' ' + j.echo };
      }`,
      fn: 'render',
      arg: order,
      hosts: ['127.0.0.1'],
    });
    expect(out).toMatchObject({
      ok: true,
      value: { payUrl: 'upi://pay?pa=shop@bank', instructions: '200 POST {"a":12345}' },
    });
    expect(out.fetches).toEqual([
      { url: `${base}/link?o=C1`, method: 'POST', status: 200, durationMs: expect.any(Number), error: null },
    ]);
  });

  it('parses a notification', async () => {
    const out = await sandbox().run({
      code: `function parseNotification(n) { const b = JSON.parse(n.body); return { orderCode: b.o, amount: b.a, utr: b.u, status: n.headers['x-state'] }; }`,
      fn: 'parseNotification',
      arg: { headers: { 'x-state': 'paid' }, body: '{"o":"C9","a":500,"u":"412345678901"}' },
      hosts: [],
    });
    expect(out).toMatchObject({
      ok: true,
      value: { orderCode: 'C9', amount: 500, utr: '412345678901', status: 'paid' },
    });
  });

  it('says what is missing when the function is not defined, and what a script threw, with where', async () => {
    const none = await sandbox().run({ code: 'const x = 1;', fn: 'parseNotification', arg: {}, hosts: [] });
    expect(none).toMatchObject({
      ok: false,
      error: expect.stringContaining('defines no function parseNotification()'),
    });
    const threw = await sandbox().run({
      code: `function render() {\n  throw new RangeError('no account');\n}`,
      fn: 'render',
      arg: {},
      hosts: [],
    });
    expect(threw.ok).toBe(false);
    expect(threw.error).toMatch(/^RangeError: no account \(at render \(payscript\.js:2/);
  });

  it('tells a syntax error before anything runs', async () => {
    expect(await sandbox().compileError('function render( {')).toMatch(/SyntaxError/);
    expect(await sandbox().compileError('while (true) {}')).toBeNull();
  });
});

describe('the limits stop a script', () => {
  it('that loops for ever: at the CPU budget', async () => {
    const started = Date.now();
    const out = await sandbox().run({ code: 'function render() { for (;;) {} }', fn: 'render', arg: {}, hosts: [] });
    expect(out).toMatchObject({ ok: false, error: 'the script used more than 600 ms of CPU time' });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('that loops for ever inside an async continuation (after a fetch)', async () => {
    const out = await sandbox().run({
      code: `async function render() { await fetch('${base}/x'); while (true) {} }`,
      fn: 'render',
      arg: {},
      hosts: ['127.0.0.1'],
    });
    expect(out).toMatchObject({ ok: false, error: 'the script used more than 600 ms of CPU time' });
  });

  it('that allocates without bound: at the memory limit, long before the CPU budget', async () => {
    const out = await sandbox(true, { cpuMs: 5_000 }).run({
      code: 'function render() { const a = []; for (;;) a.push({ n: a.length, s: "y" + a.length }); }',
      fn: 'render',
      arg: {},
      hosts: [],
    });
    expect(out).toMatchObject({ ok: false, error: `the script used more than 16 MiB of memory` });
    const buffer = await sandbox().run({
      code: 'function render() { return new ArrayBuffer(64 * 1024 * 1024).byteLength; }',
      fn: 'render',
      arg: {},
      hosts: [],
    });
    expect(buffer.error).toBe('the script used more than 16 MiB of memory');
  });

  it('that recurses without end: at the stack limit', async () => {
    const out = await sandbox().run({
      code: 'function render() { return render() + 1; }',
      fn: 'render',
      arg: {},
      hosts: [],
    });
    expect(out).toMatchObject({ ok: false, error: "the script's stack went past 256 KiB" });
  });

  it('that waits for ever: at the wall-clock limit', async () => {
    const out = await sandbox(true, { wallMs: 400 }).run({
      code: `async function render() { await fetch('${base}/hang'); return { instructions: 'late' }; }`,
      fn: 'render',
      arg: {},
      hosts: ['127.0.0.1'],
    });
    expect(out).toMatchObject({ ok: false, error: 'the run took longer than 0.4 s' });
  });

  it('that returns too much', async () => {
    const out = await sandbox().run({
      code: 'function render() { return "x".repeat(20000); }',
      fn: 'render',
      arg: {},
      hosts: [],
    });
    expect(out.error).toBe('the result is longer than 16384 characters as JSON');
  });

  it('and a failed run leaves the next one unharmed', async () => {
    const box = sandbox();
    await box.run({ code: 'function render() { for (;;) {} }', fn: 'render', arg: {}, hosts: [] });
    expect(await box.run({ code: 'function render() { return 1 }', fn: 'render', arg: {}, hosts: [] })).toMatchObject({
      ok: true,
      value: 1,
    });
  });
});

describe('no access to the host', () => {
  it('has no require, process, fs, std, os, timers or module loading, by any route to the global object', async () => {
    const out = await sandbox().run({
      code: `function render() {
        const viaFunction = Function('return this')();
        const viaConstructor = ({}).constructor.constructor('return typeof process')();
        return {
          require: typeof require, process: typeof process, globalProcess: typeof globalThis.process,
          viaFunction: typeof viaFunction.process, viaConstructor,
          std: typeof std, os: typeof os, setTimeout: typeof setTimeout, Buffer: typeof Buffer,
          bridge: typeof __hostFetch, globals: Object.getOwnPropertyNames(globalThis).filter((k) => /host|require|process/i.test(k)),
        };
      }`,
      fn: 'render',
      arg: {},
      hosts: [],
    });
    expect(out.value).toEqual({
      require: 'undefined',
      process: 'undefined',
      globalProcess: 'undefined',
      viaFunction: 'undefined',
      viaConstructor: 'undefined',
      std: 'undefined',
      os: 'undefined',
      setTimeout: 'undefined',
      Buffer: 'undefined',
      bridge: 'undefined',
      globals: [],
    });
  });

  it('calling require or importing a module fails inside the sandbox', async () => {
    const required = await sandbox().run({
      code: `function render() { return require('fs').readFileSync('/etc/passwd', 'utf8'); }`,
      fn: 'render',
      arg: {},
      hosts: [],
    });
    expect(required.error).toMatch(/^ReferenceError: .*require/);
    const imported = await sandbox().run({
      code: `async function render() { const fs = await import('fs'); return fs.readFileSync('/etc/passwd', 'utf8'); }`,
      fn: 'render',
      arg: {},
      hosts: [],
    });
    expect(imported.ok).toBe(false);
  });

  it('refuses an address the version does not declare, without connecting', async () => {
    const before = seen.length;
    const out = await sandbox().run({
      code: `async function render() { try { await fetch('${base}/secret'); return { instructions: 'reached' }; } catch (e) { return { instructions: e.name + ': ' + e.message }; } }`,
      fn: 'render',
      arg: {},
      hosts: ['api.gateway.example'],
    });
    expect(out.value).toEqual({
      instructions: 'TypeError: the host 127.0.0.1 is not among the hosts this version declares',
    });
    expect(out.fetches[0]).toMatchObject({ status: null, error: expect.stringContaining('not among the hosts') });
    expect(seen.length).toBe(before);
  });

  it('refuses private addresses unless private networks are allowed: a literal and a name that resolves to one', async () => {
    const before = seen.length;
    const literal = await sandbox(false).run({
      code: `async function render() { await fetch('${base}/x'); }`,
      fn: 'render',
      arg: {},
      hosts: ['127.0.0.1'],
    });
    expect(literal).toMatchObject({ ok: false, error: expect.stringContaining('private network') });
    const port = base.split(':').at(-1);
    const named = await sandbox(false).run({
      code: `async function render() { await fetch('http://localhost:${port}/x'); }`,
      fn: 'render',
      arg: {},
      hosts: ['localhost'],
    });
    expect(named).toMatchObject({ ok: false, error: expect.stringContaining('private network') });
    // Link-local (cloud metadata) is refused even where private networks are allowed.
    const metadata = await sandbox(true).run({
      code: `async function render() { await fetch('http://169.254.169.254/latest/meta-data/'); }`,
      fn: 'render',
      arg: {},
      hosts: ['169.254.169.254'],
    });
    expect(metadata.error).toContain('link-local or a cloud metadata service');
    expect(seen.length).toBe(before);
  });

  it('caps fetch: other schemes, the number of calls, and an answer too long', async () => {
    const scheme = await sandbox().run({
      code: `async function render() { await fetch('file:///etc/passwd'); }`,
      fn: 'render',
      arg: {},
      hosts: [],
    });
    expect(scheme.error).toContain('only http and https are allowed');
    const many = await sandbox().run({
      code: `async function render() { for (let i = 0; i < 6; i++) await fetch('${base}/n' + i); }`,
      fn: 'render',
      arg: {},
      hosts: ['127.0.0.1'],
    });
    expect(many.error).toContain('a run may fetch at most 5 times');
    const big = await sandbox().run({
      code: `async function render() { await fetch('${base}/big'); }`,
      fn: 'render',
      arg: {},
      hosts: ['127.0.0.1'],
    });
    expect(big.error).toContain('the answer is larger than 1024 bytes');
  });
});

describe('what a script returns', () => {
  it('goes through JSON: a function or undefined is null, a BigInt is an error', async () => {
    const fn = await sandbox().run({ code: 'function render() { return () => 1; }', fn: 'render', arg: {}, hosts: [] });
    expect(fn).toMatchObject({ ok: true, value: null });
    const none = await sandbox().run({ code: 'function render() {}', fn: 'render', arg: {}, hosts: [] });
    expect(none).toMatchObject({ ok: true, value: null });
    const big = await sandbox().run({
      code: 'function render() { return { n: 1n }; }',
      fn: 'render',
      arg: {},
      hosts: [],
    });
    expect(big).toMatchObject({ ok: false, error: expect.stringMatching(/^TypeError/) });
  });
});
