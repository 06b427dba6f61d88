import type { Endpoint, EndpointInput, Envelope, Role, SettingKey, SettingValue } from '@paydesk/contract';
import { endpoints, SETTINGS } from '@paydesk/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp, buildServices, type JobTuning } from '../app.js';
import { type Config, defaultConfig } from '../config.js';
import { type Database, openDatabase } from '../db/client.js';
import { LEVEL_KEY, levelRowsText, ROLLUP_FIGURES, ROLLUP_KEY } from '../modules/statistics/rollups.js';
import { ManualClock } from '../platform/clock.js';
import type { SettingsStore } from '../platform/settings.js';
import { totpCode } from '../platform/totp.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, type SeedResult, seedIfEmpty } from '../seed/seed.js';
import { openTestDatabase } from './test-databases.js';

export interface Auth {
  token?: string | undefined;
  token2?: string | undefined;
  /** The client address the server sees (rate limits are per address). */
  ip?: string | undefined;
}

export interface CallResult<T = unknown> {
  status: number;
  body: Envelope<T>;
  headers: Record<string, unknown>;
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  clock: ManualClock;
  config: Config;
  seed: SeedResult;
  /** Calls an endpoint the way the console does: query for GET, JSON body for POST, token headers. */
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers of every shape, malformed ones included
  call<E extends Endpoint>(endpoint: E, input?: EndpointInput<E> | unknown, auth?: Auth): Promise<CallResult<any>>;
  /** The current code of a seeded account's authenticator, in a time step no earlier sign-in used. */
  code(account: string): string;
  /** Signs in a seeded account through the login endpoint. */
  login(account: string, password?: string): Promise<Auth>;
  /** Signs in and enters the second-level password. */
  loginWithToken2(account: string): Promise<Auth>;
  /** Writes a system setting as setX does, without the audit (undefined: its default), read at once. */
  setSetting<K extends SettingKey>(key: K, value: SettingValue<K> | undefined): Promise<void>;
  close(): Promise<void>;
}

let ipCounter = 0;
/** A fresh client address per sign-in, so per-address limits only bite where a test wants them to. */
/** Each demo account's role, by account name (the seed's DEMO_ACCOUNTS): tests that walk every role. */
export const DEMO_ROLE: Readonly<Record<string, Role>> = Object.fromEntries(
  DEMO_ACCOUNTS.map((a) => [a.account, a.role]),
);

export const nextIp = () => {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
};

/**
 * The database of this test run: PGlite in memory, or a scratch PostgreSQL database when
 * TEST_DB=postgres; a copy of the run's migrated one (test-databases.ts).
 */
export async function testDatabase(): Promise<{ database: Database; url?: string; drop: () => Promise<void> }> {
  if (process.env.TEST_DB !== 'postgres') return openTestDatabase(undefined);
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  return openTestDatabase(base);
}

/** Periods of the background jobs in tests that run them: half-second polls, maintenance every second. */
export const TEST_JOB_TUNING: JobTuning = { pollingIntervalSeconds: 0.5, maintenanceEverySeconds: 1 };

/** An existing database to open (a restart): a PostgreSQL URL, or a PGlite folder. Kept on close. */
export type TestDatabaseAt = { url: string } | { dataDir: string };

export async function startTestApp(
  opts: {
    demo?: boolean;
    config?: Partial<Config>;
    /** Receives the server's log lines (set `config.logLevel` too: tests default to 'silent'). */
    logStream?: { write(line: string): void };
    /** Run the background jobs (off by default), with TEST_JOB_TUNING and these changes. */
    jobs?: boolean | JobTuning;
    /** Open this database instead of a fresh one (seeded only if empty; not dropped on close). */
    at?: TestDatabaseAt;
    /** The tests cause answers of 500 on purpose; without this, close() fails on any. */
    allowServerErrors?: boolean;
  } = {},
): Promise<TestApp> {
  const { database, url, drop } = opts.at
    ? {
        database: await openDatabase(
          'url' in opts.at ? { url: opts.at.url, onIdleError: () => undefined } : { dataDir: opts.at.dataDir },
        ),
        url: 'url' in opts.at ? opts.at.url : undefined,
        drop: async () => undefined,
      }
    : await testDatabase();
  const jobTuning = opts.jobs ? { ...TEST_JOB_TUNING, ...(opts.jobs === true ? {} : opts.jobs) } : undefined;
  const config: Config = {
    ...defaultConfig(),
    demo: opts.demo ?? true,
    webDist: '/nonexistent',
    databaseUrl: url,
    jobs: Boolean(opts.jobs),
    ...opts.config,
  };
  const clock = new ManualClock();
  const seed = await seedIfEmpty(database.db, buildServices({ config, database, clock }), config);
  const app = await buildApp({
    config,
    database,
    clock,
    ...(opts.logStream ? { logStream: opts.logStream } : {}),
    ...(jobTuning ? { jobTuning } : {}),
  });
  // Hide nothing: an answer of 500 is a defect wherever it happens, so closing the app fails the
  // test file that caused one (a test that means to cause one says so with allowServerErrors).
  const serverErrors: string[] = [];
  app.addHook('onResponse', async (req, reply) => {
    if (reply.statusCode === 500) serverErrors.push(`${req.method} ${req.url.slice(0, 200)} (request ${req.id})`);
  });
  await app.ready();

  const secrets = new Map(seed.accounts.map((a) => [a.account, a.googleSecret]));

  const call: TestApp['call'] = async (endpoint, input, auth = {}) => {
    const headers: Record<string, string> = {};
    if (auth.token) headers.token = auth.token;
    if (auth.token2) headers.token2 = auth.token2;
    const common = { method: endpoint.method, headers, remoteAddress: auth.ip ?? '127.0.0.1' } as const;
    const res =
      endpoint.method === 'GET'
        ? await app.inject({ ...common, url: endpoint.path, query: toQuery(input) })
        : await app.inject({
            ...common,
            url: endpoint.path,
            ...(input === undefined ? {} : { payload: input as object }),
          });
    return { status: res.statusCode, body: res.json(), headers: res.headers };
  };

  const code = (account: string) => {
    const secret = secrets.get(account);
    if (!secret) throw new Error(`no seeded authenticator for ${account}`);
    clock.advance(30_000); // each code once: move to a step no sign-in used yet
    return totpCode(secret, clock.now());
  };

  const login = async (account: string, password = DEMO_PASSWORD): Promise<Auth> => {
    const res = await call(
      endpoints.auth.login,
      { userName: account, password, googleCode: code(account) },
      { ip: nextIp() },
    );
    if (res.body.code !== 200) throw new Error(`login ${account} failed: ${JSON.stringify(res.body)}`);
    return { token: res.body.data.token as string };
  };

  const loginWithToken2 = async (account: string): Promise<Auth> => {
    const auth = await login(account);
    const res = await call(endpoints.auth.login2, { password: DEMO_PASSWORD, logInReason: 'test' }, auth);
    if (res.body.code !== 200) throw new Error(`login2 ${account} failed: ${JSON.stringify(res.body)}`);
    return { ...auth, token2: res.body.data.token2 as string };
  };

  return {
    app,
    database,
    clock,
    config,
    seed,
    call,
    code,
    login,
    loginWithToken2,
    setSetting: async (key, value) => {
      const settings = app.services.settings;
      // The write's notification arrives a moment after the commit and empties the cache once more.
      // Wait for it, so a test's next request does not meet it halfway (a read it did not expect).
      const heard = settings.isHearing() ? hearing(settings, key) : Promise.resolve();
      await database.db.transaction((tx) =>
        settings.write(
          tx,
          key,
          value === undefined ? (SETTINGS[key].default as SettingValue<typeof key>) : value,
          null,
        ),
      );
      await heard;
      settings.forget();
    },
    close: async () => {
      await app.close();
      await database.close();
      await drop();
      if (serverErrors.length > 0 && !opts.allowServerErrors) {
        throw new Error(`the server answered 500 to ${serverErrors.length} request(s): ${serverErrors.join('; ')}`);
      }
    },
  };
}

/** Resolves when `settings` hears a change of `key` (or of everything), or after two seconds. */
function hearing(settings: SettingsStore, key: SettingKey): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop();
      resolve();
    };
    const timer = setTimeout(done, 2_000);
    const stop = settings.onChange((changed) => {
      if (changed === key || changed === null) done();
    });
  });
}

function toQuery(input: unknown): Record<string, string> {
  if (!input || typeof input !== 'object') return {};
  return Object.fromEntries(
    Object.entries(input as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, String(v)]),
  );
}

const rowsOf = async <T>(database: Database, query: SQL) =>
  ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;

const tablesOf = new WeakMap<Database, string[]>();
/**
 * Every table of the schema, so a new area is covered without touching the functions below. Read once
 * per database: the schema does not change after its migrations.
 */
async function publicTables(database: Database): Promise<string[]> {
  let tables = tablesOf.get(database);
  if (!tables) {
    const rows = await rowsOf<{ name: string }>(
      database,
      sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    );
    tables = rows.map((r) => r.name);
    tablesOf.set(database, tables);
  }
  return tables;
}

/**
 * What a table's rows are compared by: the whole row, except the audit log's seal (its place and hash),
 * which the sealer gives committed rows in the background and is no change of what happened.
 */
const AUDIT_CONTENT = '(t.id, t.at, t.user_id, t.account, t.role, t.action, t.target, t.before, t.after, t.ip)';
const rowText = (name: string) => (name === 'audit_log' ? `${AUDIT_CONTENT}::text` : 't::text');

/**
 * Totals kept as a folded table plus deltas a folder moves into it in the background (the merchants'
 * and suppliers' daily totals; the statistics rollups), compared as readers see them: each key's folded
 * row plus its deltas not folded yet. A fold is no change of what happened, so the folded table stands
 * for both and the deltas table is not compared.
 */
const FIGURES = ROLLUP_FIGURES.join(', ');
const SUMMED = ROLLUP_FIGURES.map((f) => `sum(${f}) as ${f}`).join(', ');
const FOLDED: Readonly<Record<string, { deltas: string; readers: string }>> = {
  party_daily: {
    deltas: 'party_daily_deltas',
    readers: `(select user_id, product_id, day, sum(count) as count, sum(amount) as amount
      from (select user_id, product_id, day, count, amount from party_daily
            union all select user_id, product_id, day, count, amount from party_daily_deltas) u
     group by user_id, product_id, day)`,
  },
  order_rollups: {
    deltas: 'order_rollup_deltas',
    readers: `(select ${ROLLUP_KEY}, ${SUMMED}
      from (select ${ROLLUP_KEY}, ${FIGURES} from order_rollups
            union all select ${ROLLUP_KEY}, ${FIGURES} from order_rollup_deltas) u
     group by ${ROLLUP_KEY})`,
  },
  // The levels are folded from the same deltas, in the same statement.
  order_rollup_levels: {
    deltas: 'order_rollup_deltas',
    readers: `(select ${LEVEL_KEY}, ${SUMMED}
      from (select ${LEVEL_KEY}, ${FIGURES} from order_rollup_levels
            union all ${levelRowsText('order_rollup_deltas')}) u
     group by ${LEVEL_KEY})`,
  },
};
const FOLDED_AWAY = new Set(Object.values(FOLDED).map((f) => f.deltas));
const compared = (name: string) => FOLDED[name]?.readers ?? `"${name}"`;

/** A fingerprint of every table's content: equal before and after means nothing changed. */
export async function snapshot(database: Database): Promise<string> {
  const parts: string[] = [];
  for (const name of await publicTables(database)) {
    if (FOLDED_AWAY.has(name)) continue;
    const text = rowText(name);
    const [row] = await rowsOf<{ h: string }>(
      database,
      sql.raw(`select coalesce(md5(string_agg(${text}, '|' order by ${text})), '') as h from ${compared(name)} t`),
    );
    parts.push(`${name}:${row?.h}`);
  }
  return parts.join(' ');
}

/**
 * A cheap mark of every committed change: per table, its row count and the newest transaction that
 * wrote a visible row (xmin). An insert or update raises the latter, a delete lowers the count, a
 * rolled-back write leaves both. Unlike `snapshot` it never reads row contents, so it stays fast on
 * tables full of large values (the long fuzz run). The audit log is marked by its newest id instead:
 * the sealer's updates are no change, and the table takes no other; the folded totals (daily totals,
 * rollups) by their content as readers see them (few rows; the folders' moves are no change).
 */
export async function changeMark(database: Database): Promise<string> {
  const parts = (await publicTables(database))
    .filter((name) => !FOLDED_AWAY.has(name))
    .map((name) =>
      FOLDED[name]
        ? `select '${name}:' || coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as m from ${compared(name)} t`
        : `select '${name}' || ':' || count(*) || ':' || coalesce(max(${name === 'audit_log' ? 'id' : 'xmin::text::bigint'}), 0) as m from "${name}"`,
    );
  const rows = await rowsOf<{ m: string }>(database, sql.raw(parts.join(' union all ')));
  return rows.map((r) => r.m).join(' ');
}

/** Downloads an export the way the console's link does (session cookie) and splits its CSV lines. */
export async function downloadCsv(
  t: TestApp,
  endpoint: Endpoint,
  query: Record<string, string>,
  auth: Auth,
): Promise<{ status: number; header: string; rows: string[] }> {
  const res = await t.app.inject({ url: endpoint.path, query, cookies: { token: auth.token ?? '' } });
  const lines = res.body
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\n');
  return { status: res.statusCode, header: lines[0] ?? '', rows: lines.slice(1).filter((l) => l !== '') };
}
