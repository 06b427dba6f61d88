import { Code, defineEndpoint, endpoints } from '@paydesk/contract';
import { parse } from 'csv-parse/sync';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Auth, startTestApp, type TestApp } from '../testing/harness.js';
import { neutraliseCell, sendCsv } from './csv.js';

describe('neutraliseCell', () => {
  it('puts an apostrophe before what a spreadsheet would run as a formula', () => {
    for (const formula of [
      '=1+1',
      '+1+1',
      '-1+1',
      '@SUM(A1)',
      '\t=1',
      '\r=1',
      '=HYPERLINK("http://x","y")',
      '-',
      '+',
    ]) {
      expect(neutraliseCell(formula), JSON.stringify(formula)).toBe(`'${formula}`);
    }
  });

  it('leaves plain text and plain numbers as they are', () => {
    for (const plain of ['', 'abc', '12.50', '-12.50', '+3', '-7', 'a=b', ' =1', '中文']) {
      expect(neutraliseCell(plain), JSON.stringify(plain)).toBe(plain);
    }
  });
});

describe('exports', () => {
  let t: TestApp;
  let merchant: Auth;
  let staff: Auth;
  beforeAll(async () => {
    t = await startTestApp();
    merchant = await t.login('merchant1');
    staff = await t.login('maintenance');
  });
  afterAll(() => t.close());

  it('neutralise formulas a client sent, and read back as the text that was sent', async () => {
    const hostile = ['=HYPERLINK("http://evil.example","open")', '+1+cmd|calc', '-2+3', '@SUM(1+1)', '\t=1', '\r=1'];
    for (const message of hostile) {
      const saved = await t.call(endpoints.errorLog.save, { page: '/formula', message, userAgent: '=ua()' }, merchant);
      expect(saved.body.code).toBe(Code.success);
    }
    const res = await t.app.inject({
      url: endpoints.errorLog.export.path,
      query: { page: '/formula' },
      cookies: { token: staff.token! },
    });
    expect(res.statusCode).toBe(200);
    const rows = parse(res.body, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => r.message).sort()).toEqual(hostile.map((m) => `'${m}`).sort());
    expect(rows.every((r) => r.userAgent === "'=ua()")).toBe(true);
  });

  it('a NUL character in an export filter is a 400, and the server keeps answering', async () => {
    const res = await t.app.inject({
      url: `${endpoints.orders.exportList.path}?mchOrderNo=a%00b`,
      cookies: { token: merchant.token! },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: Code.invalidInput, data: { issues: [{ path: 'mchOrderNo' }] } });
    const after = await t.call(endpoints.auth.getInfo, undefined, merchant);
    expect(after.body.code).toBe(Code.success);
  });
});

describe('an export that fails', () => {
  const rowEndpoint = defineEndpoint({
    method: 'GET',
    path: '/export-test',
    summary: 'test',
    input: z.object({}),
    output: z.object({ n: z.number() }),
    example: {},
    access: 'public',
    token2: false,
    scope: 'none',
    produces: 'csv',
  });

  async function appWith(rows: () => AsyncGenerator<{ n: number }>) {
    const logged: string[] = [];
    const app = Fastify({ logger: { level: 'error', stream: { write: (line: string) => logged.push(line) } } });
    app.get('/export-test', (_req, reply) => sendCsv(reply, rowEndpoint, rows()));
    await app.ready();
    return { app, logged };
  }

  it('before its first row answers an error, not a broken download', async () => {
    const { app } = await appWith(async function* () {
      yield* [];
      throw new Error('database refused the filter');
    });
    const res = await app.inject({ url: '/export-test' });
    expect(res.statusCode).toBe(500);
    expect(res.headers['content-type']).not.toContain('text/csv');
    await app.close();
  });

  it('midway ends that download and is logged, and the process lives on', async () => {
    const { app, logged } = await appWith(async function* () {
      yield { n: 1 };
      yield { n: 2 };
      throw new Error('connection lost midway');
    });
    const res = await app.inject({ url: '/export-test' }).catch((error: unknown) => error);
    // The client gets either a cut-off body or a broken connection, never a complete-looking file.
    if (!(res instanceof Error)) expect((res as { body: string }).body).not.toMatch(/\n2\n[\s\S]*\n/);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logged.some((line) => line.includes('connection lost midway'))).toBe(true);
    const again = await app.inject({ url: '/export-test' }).catch((error: unknown) => error);
    expect(again).toBeDefined();
    await app.close();
  });
});
