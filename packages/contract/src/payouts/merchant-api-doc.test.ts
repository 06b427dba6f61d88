import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signingString } from '../orders/merchant-api.js';
import { code, has, rows, run as runIn, signingPart } from '../testing/merchant-guide.js';
import { payoutsEndpoints } from './endpoints.js';
import { createPayoutRequest, payoutAnswer, queryPayoutRequest } from './merchant-api.js';
import { PAYOUT_STATE } from './states.js';

/**
 * docs/merchant-api.md section 8 (payouts) against the contract: its tables list exactly the request's
 * and the answer's fields and every state, its worked signatures are what signingString and
 * HMAC-SHA256 compute, its bodies pass the API's schemas, and the Node, Python, Java and curl examples
 * print the signature and send the worked payout when run (PHP's text is checked; it runs where php is
 * installed). Section 3's signing functions are the ones orders/merchant-api.test.ts runs.
 */
const SECRET = 'demo-secret-merchant1';
const API = 'https://pay.example.com';
const work = mkdtempSync(join(tmpdir(), 'payout-doc-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const hmac = (text: string) => createHmac('sha256', SECRET).update(text, 'utf8').digest('hex').toUpperCase();
const run = (cmd: string, args: string[], input?: string) => runIn(work, cmd, args, input);
/** Running a compiler or an interpreter takes seconds on a loaded 2-core machine. */
const SPAWN_TIMEOUT_MS = 60_000;

const params = Object.fromEntries(rows('payout-params').map(([k, v]) => [k!, v!]));
const payoutSign = code('payout-sign');
const body = { ...params, sign: payoutSign };
const answer = JSON.parse(code('payout-answer')) as { code: number; msg: string; data: Record<string, unknown> };
const printed = `${answer.data.orderCode} ${answer.data.stateName} ${answer.data.fee}`;

describe('docs: payouts (section 8)', () => {
  it('the tables list exactly the request’s and the answer’s fields, and every state with its code', () => {
    expect(rows('payout-request-fields').map(([name]) => name)).toEqual(Object.keys(createPayoutRequest.shape));
    const answerRows = rows('payout-answer-fields');
    expect(answerRows.map(([name]) => name)).toEqual(Object.keys(payoutAnswer.shape));
    const names = answerRows.find(([name]) => name === 'stateName')![1]!.match(/`\w+`|\w+$/g)!;
    expect(names.map((n) => n.replaceAll('`', '')).sort()).toEqual(Object.keys(PAYOUT_STATE).sort());
    const states = Object.entries(PAYOUT_STATE).map(([name, code]) => [code, name]);
    expect(rows('payout-states').map(([code, name]) => [Number(code), name])).toEqual(
      states.sort((a, b) => Number(a[0]) - Number(b[0])),
    );
  });

  it('the worked payout: its signing string, signature and answer are the contract’s', () => {
    const text = signingString(params, SECRET);
    expect(code('payout-signing-string')).toBe(text);
    expect(payoutSign).toBe(hmac(text));
    expect(createPayoutRequest.safeParse(body).success).toBe(true);
    expect(payoutsEndpoints.create.example).toEqual(body);
    expect(answer.code).toBe(200);
    const data = payoutAnswer.strict().parse(answer.data);
    expect(data).toMatchObject({ mchOrderNo: params.mchOrderNo, amount: Number(params.amount), state: 0 });
    // 2001 at merchant1's 1.50 % plus 5.00 (the demo's settings).
    expect(data.fee).toBe((Number(params.amount) * 150) / 10_000 + 500);
    expect(PAYOUT_STATE[data.stateName as keyof typeof PAYOUT_STATE]).toBe(data.state);
  });

  it('the worked payout callback is signed like an order’s callback and names the worked payout', () => {
    const { sign, ...fields } = Object.fromEntries(rows('payout-callback-params').map(([k, v]) => [k!, v!]));
    expect(sign).toBe(hmac(signingString(fields, SECRET)));
    expect(fields).toMatchObject({
      mchId: params.mchId,
      mchOrderNo: params.mchOrderNo,
      orderCode: answer.data.orderCode,
      amount: params.amount,
      fee: String(answer.data.fee),
      orderType: 'payout',
      state: String(PAYOUT_STATE.completed),
      stateName: 'completed',
      notificationId: `N${answer.data.orderCode}`,
    });
    // The field table: the callback's fields in the server's order (payout-callbacks.test.ts checks the server against it).
    expect(rows('payout-callback-fields').map(([name]) => name)).toEqual([
      ...Object.keys(fields).slice(0, 10),
      'utr',
      'rejectReason',
      'completeTime',
      'sign',
    ]);
  });

  it('the worked payout query signs and parses', () => {
    const text = signingString({ mchId: '10001', mchOrderNo: params.mchOrderNo }, SECRET);
    expect(code('payout-query-signing-string')).toBe(text);
    const query = JSON.parse(code('payout-query-json')) as Record<string, string>;
    expect(query).toEqual({ mchId: '10001', mchOrderNo: params.mchOrderNo, sign: hmac(text) });
    expect(queryPayoutRequest.safeParse(query).success).toBe(true);
    expect(payoutsEndpoints.query.example).toEqual(query);
  });

  it(
    'Node: section 3’s signing functions and the payout print its signature and post its body',
    () => {
      const prelude = `globalThis.fetch = async (url, init) => {
  console.error(JSON.stringify({ url: String(url), body: init.body }));
  return new Response(${JSON.stringify(JSON.stringify(answer))});
};\n`;
      writeFileSync(
        join(work, 'payout.mjs'),
        prelude + signingPart('snippet-node', 'const params = {') + code('snippet-node-payout'),
      );
      const { stdout, stderr } = run(process.execPath, ['payout.mjs']);
      expect(stdout.trim().split('\n')).toEqual([payoutSign, printed]);
      const sent = JSON.parse(stderr) as { url: string; body: string };
      expect(sent.url).toBe(`${API}/v1.0/api/payout/create`);
      expect(JSON.parse(sent.body)).toEqual(body);
    },
    SPAWN_TIMEOUT_MS,
  );

  it.runIf(has('python3'))(
    'Python: section 3’s signing functions and the payout print its signature and post its body',
    () => {
      const prelude = `import io, json as _json, sys, urllib.request as _request
class _Answer(io.BytesIO):
    def __enter__(self): return self
    def __exit__(self, *args): return False
def _urlopen(req, *args, **kwargs):
    sys.stderr.write(_json.dumps({"url": req.full_url, "body": req.data.decode("utf-8")}))
    return _Answer(${JSON.stringify(JSON.stringify(answer))}.encode("utf-8"))
_request.urlopen = _urlopen
`;
      writeFileSync(
        join(work, 'payout.py'),
        prelude + signingPart('snippet-python', 'params = {') + code('snippet-python-payout'),
      );
      const { stdout, stderr } = run('python3', ['payout.py']);
      expect(stdout.trim().split('\n')).toEqual([payoutSign, printed]);
      const sent = JSON.parse(stderr) as { url: string; body: string };
      expect(sent.url).toBe(`${API}/v1.0/api/payout/create`);
      expect(JSON.parse(sent.body)).toEqual(body);
    },
  );

  it.runIf(has('javac') && has('java'))(
    'Java: PayoutExample beside SignExample prints the signature',
    () => {
      const dir = mkdtempSync(join(work, 'java-'));
      writeFileSync(join(dir, 'SignExample.java'), code('snippet-java'));
      writeFileSync(join(dir, 'PayoutExample.java'), code('snippet-java-payout'));
      run('javac', ['-d', dir, join(dir, 'SignExample.java'), join(dir, 'PayoutExample.java')]);
      expect(run('java', ['-cp', dir, 'PayoutExample']).stdout.trim()).toBe(payoutSign);
    },
    SPAWN_TIMEOUT_MS,
  );

  it.runIf(has('openssl') && has('bash'))(
    'curl with openssl: signs, then sends the JSON body',
    () => {
      const prelude = `curl() { printf '%s\\0' "$@" >&2; printf '\\n' >&2; }\n`;
      const { stdout, stderr } = run('bash', ['-s'], `${prelude}${code('snippet-curl-payout')}\n`);
      expect(stdout.trim()).toBe(payoutSign);
      const call = stderr.split('\0').filter((a) => a.trim() !== '');
      expect(call).toContain(`${API}/v1.0/api/payout/create`);
      expect(JSON.parse(call[call.indexOf('-d') + 1]!)).toEqual(body);
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    'PHP: section 3’s sign() over the payout’s parameters, to the payout’s address (run where php is installed)',
    () => {
      const snippet = code('snippet-php-payout');
      for (const [k, v] of Object.entries(params)) expect(snippet).toContain(`'${k}' => '${v}'`);
      expect(snippet).toContain(`// ${payoutSign}`);
      expect(snippet).toContain("$payout['sign'] = sign($payout, $secret);");
      expect(snippet).toContain("curl_init($api . '/v1.0/api/payout/create')");
      if (has('php')) {
        writeFileSync(
          join(work, 'payout.php'),
          signingPart('snippet-php', '$params = [') + snippet.slice(0, snippet.indexOf('$ch = curl_init')),
        );
        expect(run('php', ['payout.php']).stdout.trim()).toBe(payoutSign);
      }
    },
    SPAWN_TIMEOUT_MS,
  );

  it(
    'every payout example writes the expected signature and the payout’s parameters',
    () => {
      for (const name of [
        'snippet-curl-payout',
        'snippet-node-payout',
        'snippet-python-payout',
        'snippet-php-payout',
        'snippet-java-payout',
      ]) {
        const snippet = code(name);
        expect(snippet, name).toContain(payoutSign);
        expect(snippet, name).toContain('/v1.0/api/payout/create');
        for (const [k, v] of Object.entries(params)) {
          expect(snippet, `${name} ${k}`).toContain(k);
          expect(snippet, `${name} ${k}`).toContain(v);
        }
      }
    },
    SPAWN_TIMEOUT_MS,
  );
});
