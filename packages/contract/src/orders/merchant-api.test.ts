import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CALLBACK_SCHEDULE_MS, DEFAULT_CALLBACK_WINDOW_HOURS } from '../callbacks/endpoints.js';
import { type CodeValue, codeCatalogue } from '../common/codes.js';
import { PRODUCTS } from '../products/catalogue.js';
import { code, GUIDE, has, paramsOf, rows, run as runIn, signingPart } from '../testing/merchant-guide.js';
import { ordersEndpoints } from './endpoints.js';
import { createOrderRequest, escapeSigned, MERCHANT_API_TEXTS, signingString } from './merchant-api.js';
import { queryBalanceAnswer, queryBalanceRequest, queryOrderAnswer, queryOrderRequest } from './merchant-queries.js';
import { ORDER_STATE } from './states.js';

/**
 * docs/merchant-api.md against the contract: every signature the guide writes down is what the
 * contract's signingString and HMAC-SHA256 (or MD5) compute for the same parameters, the examples in
 * Node, Python, Java and curl print it when run (PHP's parameters and expected value are checked, and
 * it runs too where php is installed), and its tables (parameters, products, error codes, callback
 * schedule) say what the contract says.
 */

const DOC = GUIDE;
const SECRET = 'demo-secret-merchant1';
const API = 'https://pay.example.com';
const work = mkdtempSync(join(tmpdir(), 'merchant-api-doc-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const hmac = (text: string) => createHmac('sha256', SECRET).update(text, 'utf8').digest('hex').toUpperCase();
const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex').toUpperCase();
const run = (cmd: string, args: string[], input?: string) => runIn(work, cmd, args, input);

const createParams = paramsOf('create-params');
const createSign = code('create-sign');
const createBody = { ...createParams, sign: createSign };
const escapedParams = paramsOf('escaped-params');
const escapedSign = code('escaped-sign');
const queryParams = paramsOf('query-params');
const querySign = code('query-sign');
const queryBody = { ...queryParams, sign: querySign };
const queryAnswer = JSON.parse(code('query-answer')) as { code: number; msg: string; data: Record<string, unknown> };

describe('the worked example of the signature', () => {
  it('its signing string and signatures are what the contract computes', () => {
    expect(Object.keys(createParams)).toEqual([
      'mchId',
      'productId',
      'mchOrderNo',
      'amount',
      'notifyUrl',
      'returnUrl',
      'subject',
    ]);
    expect(createParams.mchId).toBe('10001');
    const text = signingString(createParams, SECRET);
    expect(code('create-signing-string')).toBe(text);
    expect(createSign).toBe(hmac(text));
    expect(createSign).toMatch(/^[0-9A-F]{64}$/);
    expect(code('create-sign-md5')).toBe(md5(text));
  });

  it('its JSON and form bodies carry the same parameters and signature, and pass the API’s checks', () => {
    const json = JSON.parse(code('create-json')) as Record<string, string>;
    expect(json).toEqual(createBody);
    expect(createOrderRequest.safeParse(json).success).toBe(true);
    const form = Object.fromEntries(new URLSearchParams(code('create-form')));
    expect(form).toEqual(createBody);
    expect(createOrderRequest.safeParse(form).success).toBe(true);
  });
});

/**
 * Issue 17: a value holding '&' or '=' made two parameter sets share one signing string. Also the
 * known answer of a legacy MD5 merchant's ordinary request, computed before the escaping existed
 * (main at bf5b304): it must verify exactly as before.
 */
describe('the signing string is unambiguous', () => {
  /** The signing string as it was before issue 17: values joined raw. */
  const rawJoin = (params: Record<string, string>) =>
    [
      ...Object.keys(params)
        .sort()
        .map((k) => `${k}=${params[k]}`),
      `key=${SECRET}`,
    ].join('&');
  /** Reads a signing string back into its parameters (what a verifier could have meant). */
  const readBack = (text: string) =>
    Object.fromEntries(
      text
        .split('&')
        .slice(0, -1)
        .map((pair) => {
          const at = pair.indexOf('=');
          const decode = (v: string) =>
            v.replace(/%(25|26|3D)/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
          return [decode(pair.slice(0, at)), decode(pair.slice(at + 1))];
        }),
    );

  const base = { mchId: '10001', productId: '1001', mchOrderNo: 'A1', amount: '50000' };

  it('two parameter sets that shared a signing string (and so a signature) now sign differently', () => {
    const oneValue = { ...base, subject: 'Top-up&userName=Eve' };
    const twoValues = { ...base, subject: 'Top-up', userName: 'Eve' };
    expect(rawJoin(oneValue)).toBe(rawJoin(twoValues));
    expect(signingString(oneValue, SECRET)).not.toBe(signingString(twoValues, SECRET));
    expect(hmac(signingString(oneValue, SECRET))).not.toBe(hmac(signingString(twoValues, SECRET)));
    // An amount smuggled in a notify URL's query string.
    const smuggled = { ...base, notifyUrl: 'https://m.example/n?x=1&amount=1' };
    const { amount: _a, ...rest } = base;
    const honest = { ...rest, amount: '1', notifyUrl: 'https://m.example/n?x=1' };
    expect(signingString(smuggled, SECRET)).not.toBe(signingString(honest, SECRET));
    // An escape written literally is not the character it escapes.
    expect(signingString({ ...base, subject: 'a%26b' }, SECRET)).not.toBe(
      signingString({ ...base, subject: 'a&b' }, SECRET),
    );
  });

  it('every signing string reads back to exactly the parameters signed', () => {
    const tricky = [
      'a&b',
      'a=b',
      '%',
      '%26',
      '100% & more',
      '==&&',
      'k=v&key=x',
      '中文=&',
      'https://m.example/n?a=1&b=%20',
    ];
    for (const value of tricky) {
      const params = { ...base, subject: value, extra: `{"v":"${value}"}` };
      expect(readBack(signingString(params, SECRET)), value).toEqual(params);
    }
    expect(escapeSigned('a%b&c=d')).toBe('a%25b%26c%3Dd');
  });

  it('a legacy MD5 merchant’s ordinary request signs exactly as before (known answer from before the change)', () => {
    const ordinary = {
      mchId: '10001',
      productId: '1001',
      mchOrderNo: 'LEGACY-MD5-0001',
      amount: '54321',
      notifyUrl: 'https://shop.example/pay/notify',
      returnUrl: 'https://shop.example/thanks',
      subject: 'Order 42: 2 items',
      clientIp: '203.0.113.7',
      extra: '{"cart":"42","channel":"web"}',
      userName: 'Asha Rao',
    };
    const text = signingString(ordinary, SECRET);
    expect(text).toBe(rawJoin(ordinary));
    expect(md5(text)).toBe('258087264E65E377551ACBBD402EA37E');
    expect(hmac(text)).toBe('7843FD2E54BE18E826ECDEF8D2731D4F29D55847C686AC85E4B4B214AEE14B50');
  });

  it('signType is signed like any other parameter', () => {
    const without = signingString(base, SECRET);
    const withType = signingString({ ...base, signType: 'MD5' }, SECRET);
    expect(withType).toBe(
      'amount=50000&mchId=10001&mchOrderNo=A1&productId=1001&signType=MD5&key=demo-secret-merchant1',
    );
    expect(withType).not.toBe(without);
    expect(createOrderRequest.safeParse({ ...base, signType: 'MD5', sign: md5(withType) }).success).toBe(true);
    const other = createOrderRequest.safeParse({ ...base, signType: 'SHA1', sign: md5(withType) });
    expect(other.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['signType', MERCHANT_API_TEXTS.signType],
    ]);
  });
});

describe('clientIp', () => {
  const request = (clientIp: unknown) =>
    createOrderRequest.safeParse({
      mchId: '10001',
      productId: '1001',
      mchOrderNo: 'A1',
      amount: '1',
      clientIp,
      sign: 'A'.repeat(64),
    });
  it('takes IPv4 and IPv6 addresses', () => {
    for (const ip of ['203.0.113.7', '::1', '2001:db8::7', '::ffff:198.51.100.1', '0.0.0.0', '255.255.255.255'])
      expect([ip, request(ip).success]).toEqual([ip, true]);
  });
  it('refuses what is not an address, with the field’s message', () => {
    for (const ip of [
      '999.999.1.1',
      '256.1.1.1',
      '1.2.3',
      '1.2.3.4.5',
      '01.2.3.4',
      '1.2.3.4/24',
      'fe80::1%eth0',
      ':::1',
      'localhost',
      ' 1.2.3.4',
      16909060,
    ]) {
      const res = request(ip);
      expect([ip, res.success]).toEqual([ip, false]);
      expect(res.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
        ['clientIp', MERCHANT_API_TEXTS.clientIp],
      ]);
    }
  });
});

describe('the worked example with signType and a query string', () => {
  it('escapes the notify URL’s = and & in the signing string, signs signType, and its form passes the API’s checks', () => {
    expect(escapedParams.notifyUrl).toBe('https://merchant.example/notify?shop=7&lang=en');
    expect(escapedParams.signType).toBe('HMAC-SHA256');
    const text = signingString(escapedParams, SECRET);
    expect(code('escaped-signing-string')).toBe(text);
    expect(text).toContain('notifyUrl=https://merchant.example/notify?shop%3D7%26lang%3Den&');
    expect(text).toContain('&signType=HMAC-SHA256&');
    expect(escapedSign).toBe(hmac(text));
    const form = Object.fromEntries(new URLSearchParams(code('escaped-form')));
    expect(form).toEqual({ ...escapedParams, sign: escapedSign });
    expect(createOrderRequest.safeParse(form).success).toBe(true);
  });
});

describe('the examples, run', () => {
  it('Node: prints the signature and posts the JSON body', () => {
    const snippet = code('snippet-node');
    // fetch answers here instead of a server, and tells what it was asked.
    const prelude = `globalThis.fetch = async (url, init) => {
  console.error(JSON.stringify({ url: String(url), body: init.body }));
  return new Response(JSON.stringify({ code: 200, msg: 'success', data: { payUrl: '${API}/pay/C1' } }));
};\n`;
    // Then its signing function over the second worked example (escaping and signType).
    const more = `\nconsole.log(sign(${JSON.stringify(escapedParams)}, SECRET));\n`;
    writeFileSync(join(work, 'sign.mjs'), prelude + snippet + more);
    const { stdout, stderr } = run(process.execPath, ['sign.mjs']);
    const out = stdout.trim().split('\n');
    expect(out[0]).toBe(createSign);
    expect(out.at(-1)).toBe(escapedSign);
    const sent = JSON.parse(stderr) as { url: string; body: string };
    expect(sent.url).toBe(`${API}/v1.0/api/order/create`);
    expect(JSON.parse(sent.body)).toEqual(createBody);
  });

  it.runIf(has('python3'))('Python: prints the signature and posts the JSON body', () => {
    const prelude = `import io, json as _json, sys, urllib.request as _request
class _Answer(io.BytesIO):
    def __enter__(self): return self
    def __exit__(self, *args): return False
def _urlopen(req, *args, **kwargs):
    sys.stderr.write(_json.dumps({"url": req.full_url, "body": req.data.decode("utf-8")}))
    return _Answer(b'{"code": 200, "msg": "success", "data": {"payUrl": "${API}/pay/C1"}}')
_request.urlopen = _urlopen
`;
    const more = `\nprint(sign(json.loads(${JSON.stringify(JSON.stringify(escapedParams))}), SECRET))\n`;
    writeFileSync(join(work, 'sign.py'), prelude + code('snippet-python') + more);
    const { stdout, stderr } = run('python3', ['sign.py']);
    const out = stdout.trim().split('\n');
    expect(out[0]).toBe(createSign);
    expect(out.at(-1)).toBe(escapedSign);
    const sent = JSON.parse(stderr) as { url: string; body: string };
    expect(sent.url).toBe(`${API}/v1.0/api/order/create`);
    expect(JSON.parse(sent.body)).toEqual(createBody);
  });

  it.runIf(has('java'))('Java: prints the signature', () => {
    // Before main's early return: the same signing function over the second worked example.
    const puts = Object.entries(escapedParams)
      .map(([k, v]) => `more.put(${JSON.stringify(k)}, ${JSON.stringify(v)});`)
      .join(' ');
    const more = `Map<String, String> more = new LinkedHashMap<>(); ${puts} System.out.println(sign(more, SECRET));\n`;
    const snippet = code('snippet-java');
    expect(snippet).toContain('        if (args.length == 0) return;');
    writeFileSync(
      join(work, 'SignExample.java'),
      snippet.replace('        if (args.length == 0) return;', `        ${more}        if (args.length == 0) return;`),
    );
    const { stdout } = run('java', ['SignExample.java']);
    expect(stdout.trim().split('\n')).toEqual([createSign, escapedSign]);
  });

  it.runIf(has('openssl') && has('bash'))('curl with openssl: signs, then sends the JSON body and the form', () => {
    // curl prints its arguments (NUL-separated, one call a line) instead of calling a server.
    const prelude = `curl() { printf '%s\\0' "$@" >&2; printf '\\n' >&2; }\n`;
    const script = `${prelude}${code('snippet-curl')}\n${code('snippet-curl-form')}\n`;
    const { stdout, stderr } = run('bash', ['-s'], script);
    expect(stdout.trim()).toBe(createSign);
    const calls = stderr
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\0').filter(Boolean));
    expect(calls).toHaveLength(2);
    const [jsonCall, formCall] = calls as [string[], string[]];
    expect(jsonCall).toContain(`${API}/v1.0/api/order/create`);
    expect(JSON.parse(jsonCall[jsonCall.indexOf('-d') + 1]!)).toEqual(createBody);
    expect(formCall).toContain(`${API}/v1.0/api/order/create`);
    const form = formCall
      .map((arg, i) => (formCall[i - 1] === '--data-urlencode' ? arg : null))
      .filter((a): a is string => a !== null)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]);
    expect(Object.fromEntries(form)).toEqual(createBody);
  });

  it('PHP: the same parameters and expected signature (and the signature itself where php is installed)', () => {
    const snippet = code('snippet-php');
    for (const [k, v] of Object.entries(createParams)) expect(snippet).toContain(`'${k}' => '${v}'`);
    expect(snippet).toContain(`$secret = '${SECRET}';`);
    expect(snippet).toContain(`// ${createSign}`);
    expect(snippet).toContain("hash_hmac('sha256', signing_string($params, $secret), $secret)");
    expect(snippet).toContain('ksort($params, SORT_STRING)');
    expect(snippet).toContain("str_replace(['%', '&', '='], ['%25', '%26', '%3D'], $text)");
    if (has('php')) {
      // Up to the request: the signing part prints the signature.
      writeFileSync(join(work, 'sign.php'), snippet.slice(0, snippet.indexOf('$ch = curl_init')));
      expect(run('php', ['sign.php']).stdout.trim()).toBe(createSign);
    }
  });

  it('every example writes the expected signature and the demo parameters', () => {
    for (const name of ['snippet-curl', 'snippet-node', 'snippet-python', 'snippet-php', 'snippet-java']) {
      const snippet = code(name);
      expect(snippet, name).toContain(createSign);
      expect(snippet, name).toContain(SECRET);
      for (const [k, v] of Object.entries(createParams)) {
        expect(snippet, `${name} ${k}`).toContain(k);
        expect(snippet, `${name} ${k}`).toContain(v);
      }
    }
  });
});

describe('the callback', () => {
  it('the worked callback’s signature is what the contract computes, and the Node check accepts it', () => {
    const fields = paramsOf('callback-params');
    expect(Object.keys(fields).sort()).toEqual(
      ['amount', 'mchId', 'mchOrderNo', 'notificationId', 'orderCode', 'paidTime', 'productId', 'state', 'utr'].sort(),
    );
    const sign = code('callback-sign');
    expect(sign).toBe(hmac(signingString(fields, SECRET)));
    const snippet = code('snippet-node-verify');
    expect(snippet).toContain(`sign: '${sign}'`);
    for (const [k, v] of Object.entries(fields)) expect(snippet).toContain(`${k}: '${v}'`);
    writeFileSync(join(work, 'verify.mjs'), snippet);
    expect(run(process.execPath, ['verify.mjs']).stdout.split('\n').slice(0, 2)).toEqual(['true', 'false']);
  });

  it('the retry schedule is the contract’s', () => {
    const m = /Retries: attempts at ([^.]*?) after the first, as long as they fall within (\d+) hours/s.exec(DOC);
    expect(m).not.toBeNull();
    const unit: Record<string, number> = { s: 1000, min: 60_000, h: 3_600_000 };
    const listed = m![1]!
      .replace(/\s+/g, ' ')
      .replace(' and ', ', ')
      .split(', ')
      .map((item) => {
        const [n, u] = item.trim().split(' ');
        return Number(n) * unit[u!]!;
      });
    expect(listed).toEqual([...CALLBACK_SCHEDULE_MS]);
    expect(Number(m![2])).toBe(DEFAULT_CALLBACK_WINDOW_HOURS);
  });
});

describe('the query calls', () => {
  it('the worked order query: its signing string, signature and body are what the contract computes', () => {
    expect(queryParams).toEqual({ mchId: '10001', mchOrderNo: 'A20261123001' });
    const text = signingString(queryParams, SECRET);
    expect(code('query-signing-string')).toBe(text);
    expect(querySign).toBe(hmac(text));
    expect(JSON.parse(code('query-json'))).toEqual(queryBody);
    expect(queryOrderRequest.safeParse(queryBody).success).toBe(true);
    // The contract's own example (OpenAPI, the malformed-input and fuzz suites) is this request.
    expect(ordersEndpoints.query.example).toEqual(queryBody);
  });

  it('the worked answer is the contract’s, and is the order of the worked create and callback', () => {
    expect(queryAnswer).toMatchObject({ code: 200, msg: 'success' });
    const data = queryOrderAnswer.strict().parse(queryAnswer.data);
    const callback = paramsOf('callback-params');
    expect(data).toMatchObject({
      orderCode: callback.orderCode,
      mchOrderNo: createParams.mchOrderNo,
      productId: Number(createParams.productId),
      amount: Number(createParams.amount),
      utr: callback.utr,
      paidTime: callback.paidTime,
      notificationId: callback.notificationId,
    });
    expect(ORDER_STATE[data.stateName]).toBe(data.state);
    // 1001 at merchant1's 3.50 %.
    expect(data.fee).toBe((data.amount * 350) / 10_000);
  });

  it('the order query’s tables list exactly the request’s and the answer’s fields, and every state name', () => {
    expect(rows('query-request-fields').map(([name]) => name)).toEqual(Object.keys(queryOrderRequest.shape));
    const answerRows = rows('query-answer-fields');
    expect(answerRows.map(([name]) => name)).toEqual(Object.keys(queryOrderAnswer.shape));
    const names = answerRows.find(([name]) => name === 'stateName')![1]!.match(/`\w+`|\w+$/g)!;
    expect(names.map((n) => n.replaceAll('`', '')).sort()).toEqual(Object.keys(ORDER_STATE).sort());
  });

  it('the worked balance query: signature, body and answer are the contract’s', () => {
    const text = signingString({ mchId: '10001' }, SECRET);
    expect(code('balance-signing-string')).toBe(text);
    const body = JSON.parse(code('balance-json')) as Record<string, string>;
    expect(body).toEqual({ mchId: '10001', sign: hmac(text) });
    expect(queryBalanceRequest.safeParse(body).success).toBe(true);
    expect(ordersEndpoints.queryBalance.example).toEqual(body);
    const answer = JSON.parse(code('balance-answer')) as { code: number; data: unknown };
    expect(answer.code).toBe(200);
    expect(queryBalanceAnswer.strict().parse(answer.data)).toMatchObject({ currency: 'INR' });
  });

  it('Node: section 3’s signing functions and the query print its signature and post its body', () => {
    const prelude = `globalThis.fetch = async (url, init) => {
  console.error(JSON.stringify({ url: String(url), body: init.body }));
  return new Response(${JSON.stringify(JSON.stringify(queryAnswer))});
};\n`;
    const script = prelude + signingPart('snippet-node', 'const params = {') + code('snippet-node-query');
    writeFileSync(join(work, 'query.mjs'), script);
    const { stdout, stderr } = run(process.execPath, ['query.mjs']);
    expect(stdout.trim().split('\n')).toEqual([querySign, '3 callbackSucceeded 412345678901']);
    const sent = JSON.parse(stderr) as { url: string; body: string };
    expect(sent.url).toBe(`${API}/v1.0/api/order/query`);
    expect(JSON.parse(sent.body)).toEqual(queryBody);
  });

  it.runIf(has('python3'))(
    'Python: section 3’s signing functions and the query print its signature and post its body',
    () => {
      const prelude = `import io, json as _json, sys, urllib.request as _request
class _Answer(io.BytesIO):
    def __enter__(self): return self
    def __exit__(self, *args): return False
def _urlopen(req, *args, **kwargs):
    sys.stderr.write(_json.dumps({"url": req.full_url, "body": req.data.decode("utf-8")}))
    return _Answer(${JSON.stringify(JSON.stringify(queryAnswer))}.encode("utf-8"))
_request.urlopen = _urlopen
`;
      const script = prelude + signingPart('snippet-python', 'params = {') + code('snippet-python-query');
      writeFileSync(join(work, 'query.py'), script);
      const { stdout, stderr } = run('python3', ['query.py']);
      expect(stdout.trim().split('\n')).toEqual([querySign, '3 callbackSucceeded 412345678901']);
      const sent = JSON.parse(stderr) as { url: string; body: string };
      expect(sent.url).toBe(`${API}/v1.0/api/order/query`);
      expect(JSON.parse(sent.body)).toEqual(queryBody);
    },
  );

  it.runIf(has('javac') && has('java'))('Java: QueryExample beside SignExample prints the signature', () => {
    const dir = mkdtempSync(join(work, 'java-'));
    writeFileSync(join(dir, 'SignExample.java'), code('snippet-java'));
    writeFileSync(join(dir, 'QueryExample.java'), code('snippet-java-query'));
    run('javac', ['-d', dir, join(dir, 'SignExample.java'), join(dir, 'QueryExample.java')]);
    expect(run('java', ['-cp', dir, 'QueryExample']).stdout.trim()).toBe(querySign);
  });

  it.runIf(has('openssl') && has('bash'))('curl with openssl: signs, then sends the JSON body', () => {
    const prelude = `curl() { printf '%s\\0' "$@" >&2; printf '\\n' >&2; }\n`;
    const { stdout, stderr } = run('bash', ['-s'], `${prelude}${code('snippet-curl-query')}\n`);
    expect(stdout.trim()).toBe(querySign);
    const call = stderr.split('\0').filter((a) => a.trim() !== '');
    expect(call).toContain(`${API}/v1.0/api/order/query`);
    expect(JSON.parse(call[call.indexOf('-d') + 1]!)).toEqual(queryBody);
  });

  it('PHP: section 3’s sign() over the query’s parameters, to the query’s address (run where php is installed)', () => {
    const snippet = code('snippet-php-query');
    for (const [k, v] of Object.entries(queryParams)) expect(snippet).toContain(`'${k}' => '${v}'`);
    expect(snippet).toContain(`// ${querySign}`);
    expect(snippet).toContain("$query['sign'] = sign($query, $secret);");
    expect(snippet).toContain("curl_init($api . '/v1.0/api/order/query')");
    if (has('php')) {
      const signing = signingPart('snippet-php', '$params = [');
      writeFileSync(join(work, 'query.php'), signing + snippet.slice(0, snippet.indexOf('$ch = curl_init')));
      expect(run('php', ['query.php']).stdout.trim()).toBe(querySign);
    }
  });

  it('every query example writes the expected signature and the query’s parameters', () => {
    for (const name of [
      'snippet-curl-query',
      'snippet-node-query',
      'snippet-python-query',
      'snippet-php-query',
      'snippet-java-query',
    ]) {
      const snippet = code(name);
      expect(snippet, name).toContain(querySign);
      expect(snippet, name).toContain('/v1.0/api/order/query');
      for (const [k, v] of Object.entries(queryParams)) {
        expect(snippet, `${name} ${k}`).toContain(k);
        expect(snippet, `${name} ${k}`).toContain(v);
      }
    }
  });
});

describe('the tables say what the contract says', () => {
  it('error codes 2001..2015: each with its HTTP status and message from the catalogue', () => {
    const listed = rows('error-codes').map(([code, http, msg]) => [Number(code), Number(http), msg]);
    const catalogue = Object.entries(codeCatalogue)
      .filter(([code]) => Number(code) >= 2000 && Number(code) < 2100)
      .map(([code, info]) => [Number(code), info.http, info.message]);
    expect(listed).toEqual(catalogue);
    expect(listed.map(([c]) => c)).toEqual([
      2001, 2002, 2003, 2004, 2005, 2006, 2007, 2008, 2009, 2010, 2011, 2012, 2013, 2014, 2015, 2016, 2017,
    ]);
    expect(codeCatalogue[2001 as CodeValue].message).toBe('signature does not match');
  });

  it('the parameter table lists exactly the request’s fields', () => {
    const start = DOC.indexOf('| Parameter | Required | Format | Meaning |');
    const table = DOC.slice(start).split('\n\n')[0]!.split('\n').slice(2);
    const names = table.map((l) => /^\| `(\w+)` \|/.exec(l)?.[1]);
    expect(names.sort()).toEqual(Object.keys(createOrderRequest.shape).sort());
  });

  it('the product table lists the collection products with the API amount of 500.00', () => {
    const start = DOC.indexOf('| productId | Channel | `amount` for 500.00 |');
    const table = DOC.slice(start).split('\n\n')[0]!.split('\n').slice(2);
    const listed = table.map((l) => {
      const cells = l.slice(1, -1).split(' | ');
      return [Number(cells[0]), cells[2]!.trim().replaceAll('`', '')];
    });
    const collection = PRODUCTS.filter((p) => p.direction === 'collection').map((p) => [
      p.id,
      String(50_000 * p.apiUnitsPerMinor),
    ]);
    expect(listed).toEqual(collection);
  });
});
