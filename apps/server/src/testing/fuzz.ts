import { type Endpoint, listEndpoints, type Role } from '@paydesk/contract';
import fc from 'fast-check';
import { z } from 'zod';

/**
 * Malformed and hostile requests for every endpoint of the contract, generated from its schemas: a new
 * endpoint or field is fuzzed without new test code. The cases are deterministic for a seed, so a
 * failure names a case that can be sent again.
 */

/** One request to send: a field's value replaced in the endpoint's valid example, or a raw body. */
export interface FuzzCase {
  endpointId: string;
  endpoint: Endpoint;
  label: string;
  /** The input (query for GET, JSON body for POST) when the case is a value; absent for raw cases. */
  input?: Record<string, unknown>;
  /** A raw request: the payload as sent, with its content type (POST), or a raw query string (GET). */
  raw?: { payload?: Buffer | string; contentType?: string; query?: string };
}

/** What a field's schema is once its wrappers (optional, nullable, default, preprocess) are peeled. */
export type FieldKind = 'string' | 'number' | 'boolean' | 'array' | 'object' | 'enum' | 'other';

function peel(schema: z.ZodType): z.ZodType {
  let s: z.ZodType = schema;
  for (let i = 0; i < 20; i += 1) {
    const def = (s as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
    if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default' || def.type === 'catch') {
      s = def.innerType as z.ZodType;
    } else if (def.type === 'pipe') {
      // A preprocess is a pipe from a transform to the real schema; a transform after a schema, the other way.
      const into = def.in as z.ZodType;
      s =
        (into as unknown as { _zod: { def: { type: string } } })._zod.def.type === 'transform'
          ? (def.out as z.ZodType)
          : into;
    } else {
      return s;
    }
  }
  return s;
}

export function kindOf(schema: z.ZodType): FieldKind {
  const type = (peel(schema) as unknown as { _zod: { def: { type: string } } })._zod.def.type;
  if (type === 'string' || type === 'number' || type === 'boolean' || type === 'array' || type === 'object')
    return type;
  if (type === 'enum' || type === 'literal') return 'enum';
  if (type === 'int' || type === 'bigint') return 'number';
  return 'other';
}

/** The object schema of an endpoint's input, inside its wrappers. */
export function objectOf(schema: z.ZodType): z.ZodObject | undefined {
  const s = peel(schema);
  return s instanceof z.ZodObject ? s : undefined;
}

/** The longest text a string field accepts (undefined when it says none). */
export function maxLengthOf(schema: z.ZodType): number | undefined {
  const s = peel(schema) as unknown as { maxLength?: number | null };
  return typeof s.maxLength === 'number' ? s.maxLength : undefined;
}

const LONG = 'x'.repeat(70_000);

/** Values aimed at what a database or a parser cannot hold, for any field. */
const HOSTILE_TEXT = [
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\uffff\ufffe',
  '\u202egnp.exe',
  "' or '1'='1' --",
  "%'; drop table users; --",
  '_%\\',
  "=cmd|' /C calc'!A0",
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as plain text
  '${7*7}{{7*7}}',
  '../../etc/passwd',
  '   ',
  '１２３',
  '😀'.repeat(40),
  LONG,
];
const HOSTILE_NUMBERS = [
  -1,
  0,
  0.5,
  -0.000001,
  2_147_483_647,
  2_147_483_648,
  -2_147_483_649,
  2 ** 53 + 2,
  2 ** 63,
  1e308,
  -1e308,
];
const WRONG_TYPES: unknown[] = [null, true, [], [1, 'a'], { $gt: '' }, { nested: { deeper: [null] } }];
/** Query strings arrive as text: numbers and words a parser may choke on. */
const HOSTILE_QUERY = [
  'NaN',
  'Infinity',
  '-Infinity',
  '1e400',
  '0x10',
  '2147483648',
  '-9223372036854775809',
  '99999999999999999999999',
  '1.5',
  'true',
  '2026-02-30 25:61:61',
  '0000-00-00 00:00:00',
  '9999-12-31 23:59:59',
];

/** Other parties' ids and codes, filled in by the runner from the seeded database. */
export interface ForeignIds {
  ids: number[];
  codes: string[];
}

/** A small seeded sample of random values from fast-check, so each run also tries what no list names. */
function randomValues(seed: number, count: number): unknown[] {
  return fc.sample(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ unit: 'grapheme', maxLength: 20 }),
      fc.integer(),
      fc.double(),
      fc.bigInt().map(String),
      fc.jsonValue({ maxDepth: 3 }),
    ),
    { seed, numRuns: count },
  );
}

const isIdField = (key: string) => /(^id$|Id$|Ids$|^ids$)/.test(key);
const isCodeField = (key: string) => /(orderCode|OrderCode|Code$)/.test(key) && !/googleCode|authCode/i.test(key);

/** The values tried for one field of an endpoint. */
export function valuesFor(
  key: string,
  schema: z.ZodType,
  opts: { isGet: boolean; seed: number; randomCount: number; foreign: ForeignIds },
): unknown[] {
  const kind = kindOf(schema);
  const max = maxLengthOf(schema);
  const values: unknown[] = [...HOSTILE_TEXT, ...HOSTILE_NUMBERS];
  if (max !== undefined) values.push('y'.repeat(max + 1));
  if (kind === 'array')
    values.push(
      Array.from({ length: 5000 }, (_, i) => i),
      [LONG],
      ['\u0000'],
    );
  if (kind === 'object')
    values.push({ a: '\u0000' }, Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k${i}`, i])));
  if (isIdField(key)) values.push(...opts.foreign.ids, ...opts.foreign.ids.map((id) => [id]));
  if (isCodeField(key)) values.push(...opts.foreign.codes);
  values.push(...randomValues(opts.seed, opts.randomCount));
  if (opts.isGet) {
    // A query holds text, or a repeated key (an array).
    return [...values.filter((v) => typeof v === 'string' || typeof v === 'number'), ...HOSTILE_QUERY, ['1', '2']];
  }
  return [...values, ...WRONG_TYPES];
}

/** Raw requests that no value of a field can make: broken bodies, broken encodings, hostile JSON. */
export function rawCasesFor(endpointId: string, endpoint: Endpoint): FuzzCase[] {
  const c = (label: string, raw: FuzzCase['raw']): FuzzCase => ({ endpointId, endpoint, label, raw });
  if (endpoint.method === 'GET') {
    return [
      c('query with %00', { query: 'a=%00&pageIndex=%00' }),
      c('query with invalid UTF-8', { query: 'x=%FF%FE&pageIndex=%C3%28' }),
      c('query with an encoded surrogate', { query: 'x=%ED%A0%80' }),
      c('query with a bad escape', { query: 'x=%&pageIndex=%zz' }),
      c('query with __proto__', { query: '__proto__[x]=1&constructor[prototype][x]=1' }),
    ];
  }
  const json = 'application/json';
  return [
    c('empty JSON body', { payload: '', contentType: json }),
    c('broken JSON', { payload: '{"a":', contentType: json }),
    c('JSON with a NUL escape', { payload: '{"x":"\\u0000"}', contentType: json }),
    c('JSON with a lone surrogate', { payload: '{"x":"\\ud800"}', contentType: json }),
    c('invalid UTF-8 in JSON', {
      payload: Buffer.from([0x7b, 0x22, 0x78, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      contentType: json,
    }),
    c('__proto__ in JSON', { payload: '{"__proto__":{"polluted":1}}', contentType: json }),
    c('constructor.prototype in JSON', { payload: '{"constructor":{"prototype":{"polluted":1}}}', contentType: json }),
    c('deeply nested JSON', { payload: `${'['.repeat(5000)}${']'.repeat(5000)}`, contentType: json }),
    c('a JSON array', { payload: '[1,2]', contentType: json }),
    c('text body', { payload: 'a=1', contentType: 'text/plain' }),
    c('form body with NUL', { payload: 'a=%00&b=%FF', contentType: 'application/x-www-form-urlencoded' }),
    c('unknown content type', { payload: '<x/>', contentType: 'application/xml' }),
    c('multipart without a boundary', { payload: 'x', contentType: 'multipart/form-data' }),
    c('truncated multipart', {
      payload: '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nmchOrderNo,amount\r\n1,',
      contentType: 'multipart/form-data; boundary=XX',
    }),
    c('multipart with a NUL field', {
      payload: '--XX\r\nContent-Disposition: form-data; name="key"\r\n\r\na\u0000b\r\n--XX--\r\n',
      contentType: 'multipart/form-data; boundary=XX',
    }),
    c('body over the limit', { payload: `{"x":"${'z'.repeat(1_100_000)}"}`, contentType: json }),
  ];
}

/** Every case of every endpoint, in a fixed order for a seed. */
export function fuzzCases(opts: {
  seed: number;
  randomCount: number;
  foreign: ForeignIds;
  /** Values tried per field, picked by the seed from the field's list (every value when absent). */
  perField?: number;
}): FuzzCase[] {
  const cases: FuzzCase[] = [];
  for (const { id, endpoint } of listEndpoints()) {
    const example = (endpoint.example ?? {}) as Record<string, unknown>;
    const obj = objectOf(endpoint.input);
    const isGet = endpoint.method === 'GET';
    cases.push({ endpointId: id, endpoint, label: 'unknown field', input: { ...example, unexpectedField: '\u0000' } });
    if (obj) {
      let fieldSeed = opts.seed;
      for (const [key, schema] of Object.entries(obj.shape) as Array<[string, z.ZodType]>) {
        fieldSeed += 1;
        const all = valuesFor(key, schema, {
          isGet,
          seed: fieldSeed,
          randomCount: opts.randomCount,
          foreign: opts.foreign,
        });
        const values = opts.perField === undefined ? all : pick(all, opts.perField, fieldSeed);
        values.forEach((value, i) => {
          cases.push({
            endpointId: id,
            endpoint,
            label: `${key}#${i}=${preview(value)}`,
            input: { ...example, [key]: value },
          });
        });
        const { [key]: _dropped, ...without } = example;
        cases.push({ endpointId: id, endpoint, label: `without ${key}`, input: without });
      }
    }
    cases.push(...rawCasesFor(id, endpoint));
  }
  return cases;
}

/** `count` values of a list, chosen by the seed (a different seed, other values): a run of seeds covers the list. */
function pick<T>(values: T[], count: number, seed: number): T[] {
  if (count >= values.length) return values;
  const start = (seed * 7919) % values.length;
  const step = coprimeStep(values.length, seed);
  return Array.from({ length: count }, (_, i) => values[(start + i * step) % values.length]!);
}

function coprimeStep(n: number, seed: number): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  for (let step = 1 + (seed % Math.max(1, n - 1)); ; step += 1) if (gcd(step, n) === 1) return step;
}

function preview(v: unknown): string {
  const text = JSON.stringify(v) ?? String(v);
  return text.length > 40 ? `${text.slice(0, 37)}...(${text.length})` : text;
}

/** The role a case is sent with: the narrowest role the endpoint allows (a party before staff). */
export function callerRoleOf(endpoint: Endpoint): Role | null {
  if (endpoint.access === 'public') return null;
  const preference: Role[] = [
    'merchant',
    'supplier',
    'technicalSupport',
    'technicalMaintenance',
    'customerService',
    'admin',
    'superAdmin',
  ];
  return preference.find((r) => (endpoint.access as readonly Role[]).includes(r)) ?? null;
}
