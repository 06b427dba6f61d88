/**
 * The scale bench (issue 22 item 5): 10 million collection orders and 2 million payouts in PostgreSQL,
 * with their ledger (scale-load.ts), then the latency of the reads that must stay fast at that size:
 * the order and payout lists with their totals for staff, a merchant and a supplier, a 30-day
 * statistics query, the home page's calls, and a CSV export of about a million rows (its time and
 * the server's memory). The server runs in this process (as `npm start` runs it), queried over HTTP.
 *
 *   npm run bench:scale                              # 10 M orders on a scratch database, then measured
 *   BENCH_SCALE_ORDERS=1000000 npm run bench:scale   # a smaller load
 *   BENCH_KEEP=1 npm run bench:scale                 # keep the loaded database (its URL is printed)
 *   BENCH_SCALE_DATABASE_URL=postgres://.../db npm run bench:scale   # measure a kept database again
 *
 * Options: BENCH_SCALE_PAYOUTS (orders / 5), BENCH_SCALE_DAYS (180), BENCH_SCALE_MERCHANTS (50),
 * BENCH_SCALE_SUPPLIERS (200), BENCH_SCALE_CHUNK (500000 rows a statement), BENCH_SCALE_RUNS (30
 * measured calls per read, after 3 dropped), BENCH_SCALE_EXPORT_DAYS (the export's range: 19 days,
 * just over a million orders at the default shape: the issue's million-row export).
 */
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { endpoints } from '@paydesk/contract';
import { eq, sql } from 'drizzle-orm';
import { request } from 'undici';
import { buildApp, buildServices, type Services } from '../../apps/server/src/app.js';
import { type Config, defaultConfig } from '../../apps/server/src/config.js';
import { createScratchDatabase, type Db, openDatabase } from '../../apps/server/src/db/client.js';
import { users } from '../../apps/server/src/db/schema.js';
import { formatPlatformTime } from '../../apps/server/src/platform/time.js';
import { seedIfEmpty } from '../../apps/server/src/seed/seed.js';
import { percentiles } from './report.js';
import { loadScale, makeParties } from './scale-load.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ORDERS = env('BENCH_SCALE_ORDERS', 10_000_000);
const PAYOUTS = env('BENCH_SCALE_PAYOUTS', Math.round(ORDERS / 5));
const DAYS = env('BENCH_SCALE_DAYS', 180);
const MERCHANTS = env('BENCH_SCALE_MERCHANTS', 50);
const SUPPLIERS = env('BENCH_SCALE_SUPPLIERS', 200);
const CHUNK = env('BENCH_SCALE_CHUNK', 500_000);
const RUNS = env('BENCH_SCALE_RUNS', 30);
const WARMUP_RUNS = 3;
const EXPORT_DAYS = env('BENCH_SCALE_EXPORT_DAYS', 19);
const TARGET_P95_MS = 50;
const DAY_MS = 86_400_000;

const log = (line: string) => console.error(`scale: ${line}`);

interface Read {
  name: string;
  who: 'staff' | 'merchant' | 'supplier';
  path: string;
  /** The query of the n-th call (calls vary their parameters, as users do). */
  query: (n: number) => Record<string, string>;
}

interface Measured {
  name: string;
  p50: number;
  p95: number;
  p99: number;
  calls: number;
  failed: number;
}

async function call(base: string, path: string, query: Record<string, string>, token: string) {
  const res = await request(`${base}${path}?${new URLSearchParams(query)}`, { headers: { token } });
  const body = (await res.body.json()) as { code: number; msg: string };
  return body.code === 200;
}

async function measure(base: string, read: Read, tokens: Record<Read['who'], string>): Promise<Measured> {
  const times: number[] = [];
  let failed = 0;
  for (let n = 0; n < WARMUP_RUNS + RUNS; n += 1) {
    const started = performance.now();
    const ok = await call(base, read.path, read.query(n), tokens[read.who]);
    const ms = performance.now() - started;
    if (n < WARMUP_RUNS) continue;
    if (ok) times.push(ms);
    else failed += 1;
  }
  return { name: `${read.name} (${read.who})`, ...percentiles(times), calls: times.length, failed };
}

/** The CSV export of `query`: its time, its rows, and the server process's memory while it ran. */
async function measureExport(base: string, path: string, query: Record<string, string>, token: string) {
  global.gc?.();
  const before = process.memoryUsage();
  let peakRss = before.rss;
  let peakHeap = before.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 25);
  const started = performance.now();
  const res = await request(`${base}${path}?${new URLSearchParams(query)}`, { headers: { token } });
  let lines = 0;
  let bytes = 0;
  for await (const chunk of res.body) {
    const buffer = chunk as Buffer;
    bytes += buffer.length;
    for (const byte of buffer) if (byte === 10) lines += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const mb = (n: number) => n / 1_048_576;
  return {
    status: res.statusCode,
    rows: Math.max(0, lines - 1),
    seconds,
    mb: mb(bytes),
    rssBefore: mb(before.rss),
    rssPeak: mb(peakRss),
    heapBefore: mb(before.heapUsed),
    heapPeak: mb(peakHeap),
  };
}

async function main() {
  const loadBefore = loadavg();
  const reuse = process.env.BENCH_SCALE_DATABASE_URL;
  const scratch = reuse ? null : await createScratchDatabase(BASE_URL);
  const url = reuse ?? scratch!.url;
  log(`database ${url}`);
  const database = await openDatabase({ url });
  const config: Config = {
    ...defaultConfig(),
    demo: true,
    databaseUrl: url,
    webDist: '/nonexistent',
    rateLimitFactor: 10_000,
    jobs: false,
  };
  const services = buildServices({ config, database });
  try {
    await seedIfEmpty(database.db, services, config);
    const [loaded] = (
      (await database.db.execute(
        sql`select count(*)::int as n from orders where merchant_order_no like 'SCALE%'`,
      )) as unknown as {
        rows: Array<{ n: number }>;
      }
    ).rows;
    let loadTimings: Record<string, number> = {};
    if (!loaded?.n) {
      const parties = await makeParties(services, database.db, { merchants: MERCHANTS, suppliers: SUPPLIERS });
      log(`loading ${ORDERS} orders and ${PAYOUTS} payouts over ${DAYS} days`);
      const started = performance.now();
      loadTimings = await loadScale(
        database.db,
        parties,
        { orders: ORDERS, payouts: PAYOUTS, days: DAYS, chunk: CHUNK, end: new Date() },
        log,
      );
      const buckets = await services.rollups.rebuild();
      await database.db.execute(sql`analyze order_rollups, order_rollup_levels`);
      loadTimings['rollups rebuilt'] = (performance.now() - started) / 1000 - sum(Object.values(loadTimings));
      log(`rollups rebuilt: ${buckets} buckets`);
      loadTimings.total = (performance.now() - started) / 1000;
    }
    const checks = await consistency(services);
    log(`ledger check ${checks.ledger ? 'ok' : 'FAILED'}; rollups ${checks.rollups ? 'agree' : 'DIFFER'}`);

    const app = await buildApp({ config: { ...config, logLevel: 'silent' }, database, holdJobs: true });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const tokens = await sessionsOf(services, database.db);
    const facts = await factsOf(database.db, config.timeZone);
    const results: Measured[] = [];
    for (const fast of [false, true]) {
      await database.db.transaction((tx) => services.settings.write(tx, 'HighPerfOrderQuery', fast, null));
      services.settings.forget();
      for (const read of listReads(facts)) {
        const m = await measure(base, read, tokens);
        results.push({ ...m, name: `${m.name}, HighPerfOrderQuery ${fast ? 'on' : 'off'}` });
        log(`${results.at(-1)!.name}: p95 ${m.p95.toFixed(1)} ms`);
      }
    }
    for (const read of statisticsReads(facts)) {
      results.push(await measure(base, read, tokens));
      log(`${results.at(-1)!.name}: p95 ${results.at(-1)!.p95.toFixed(1)} ms`);
    }
    // A tenth of the export first: flat memory means the same peak for ten times the rows.
    const exported = [];
    for (const days of [Math.max(1, Math.round(EXPORT_DAYS / 10)), EXPORT_DAYS]) {
      const e = await measureExport(base, endpoints.orders.exportList.path, lastDays(facts, days), tokens.staff);
      exported.push({ days, ...e });
      log(`export of ${days} days: ${e.rows} rows in ${e.seconds.toFixed(1)} s`);
    }
    await app.close();
    console.log(
      report({ loadBefore, postgres: await versionOf(database.db), loadTimings, checks, results, exported, facts }),
    );
  } finally {
    await database.close();
    if (scratch && !process.env.BENCH_KEEP) await scratch.drop();
    else log(`kept ${url}`);
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

async function consistency(services: Services) {
  const [ledger, rollups] = [await services.ledger.check(), await services.rollups.check()];
  for (const v of ledger.violations.slice(0, 5)) log(`ledger: ${v}`);
  return { ledger: ledger.ok, rollups: rollups.agree, buckets: rollups.buckets };
}

/** Console sessions for staff, the merchant with the most orders and a supplier, made directly. */
async function sessionsOf(services: Services, db: Db): Promise<Record<Read['who'], string>> {
  const userId = async (account: string) => {
    const [row] = await db.select({ id: users.id }).from(users).where(eq(users.account, account));
    return row!.id;
  };
  const session = async (account: string) =>
    (
      await services.sessions.create(db, await userId(account), {
        pendingBind: false,
        ip: '127.0.0.1',
        userAgent: 'bench',
      })
    ).token;
  return { staff: await session('superadmin'), merchant: await session('scalem1'), supplier: await session('scales1') };
}

interface Facts {
  timeZone: string;
  orders: number;
  payouts: number;
  merchantIds: number[];
  merchantUserIds: number[];
  /** Order codes to look up, spread over the whole range. */
  codes: string[];
  /** Rows and size on disk (with indexes) of the big tables. */
  tables: Array<{ name: string; rows: number; mb: number }>;
}

async function factsOf(db: Db, timeZone: string): Promise<Facts> {
  const rows = <T>(r: unknown) => (r as { rows: T[] }).rows;
  const [counts] = rows<{ orders: string; payouts: string }>(
    await db.execute(
      sql`select (select count(*) from orders)::text as orders, (select count(*) from payouts)::text as payouts`,
    ),
  );
  const parties = rows<{ id: number; user_id: number }>(
    await db.execute(sql`select id, user_id from merchants where name like 'Scale merchant %' order by id limit 10`),
  );
  const codes = rows<{ order_code: string }>(
    await db.execute(sql`select order_code from orders tablesample system (0.01) limit 50`),
  );
  const tables = rows<{ name: string; rows: string; mb: string }>(
    await db.execute(sql`
      select c.relname as name, c.reltuples::bigint::text as rows,
             (pg_total_relation_size(c.oid) / 1048576)::text as mb
        from pg_class c
       where c.relname in ('orders', 'payouts', 'ledger_transfers', 'ledger_entries', 'order_rollups',
                           'order_rollup_levels')
       order by pg_total_relation_size(c.oid) desc`),
  );
  return {
    timeZone,
    tables: tables.map((t) => ({ name: t.name, rows: Number(t.rows), mb: Number(t.mb) })),
    orders: Number(counts?.orders),
    payouts: Number(counts?.payouts),
    merchantIds: parties.map((p) => p.id),
    merchantUserIds: parties.map((p) => p.user_id),
    codes: codes.map((c) => c.order_code),
  };
}

/**
 * The last `days` days, today included, as the console's date presets send them: whole days of the
 * platform time zone ('YYYY-MM-DD 00:00:00' to 'YYYY-MM-DD 23:59:59').
 */
function lastDays(f: Facts, days: number) {
  const day = (back: number) => formatPlatformTime(new Date(Date.now() - back * DAY_MS), f.timeZone).slice(0, 10);
  return { startTime: `${day(days - 1)} 00:00:00`, endTime: `${day(0)} 23:59:59` };
}

function listReads(f: Facts): Read[] {
  const page = { pageIndex: '1', pageSize: '20' };
  const pick = <T>(list: T[], n: number) => list[n % list.length]!;
  const orders = endpoints.orders.getList.path;
  const payouts = endpoints.payouts.getList.path;
  return [
    { name: 'order list, first page', who: 'staff', path: orders, query: () => page },
    { name: 'order list, page 50', who: 'staff', path: orders, query: () => ({ ...page, pageIndex: '50' }) },
    {
      name: 'order list, one merchant, last 7 days',
      who: 'staff',
      path: orders,
      query: (n) => ({ ...page, merchantId: String(pick(f.merchantIds, n)), ...lastDays(f, 7) }),
    },
    {
      name: 'order list, paid, today',
      who: 'staff',
      path: orders,
      query: () => ({ ...page, orderStatusId: '3', ...lastDays(f, 1) }),
    },
    // A state is a rollup key (migration 0038): these total from the rollups as the lists above do.
    {
      name: 'order list, paid, last 30 days',
      who: 'staff',
      path: orders,
      query: () => ({ ...page, orderStatusId: '3', ...lastDays(f, 30) }),
    },
    { name: 'order list, paid, no range', who: 'staff', path: orders, query: () => ({ ...page, orderStatusId: '3' }) },
    {
      name: 'order list, by order code',
      who: 'staff',
      path: orders,
      query: (n) => ({ ...page, orderCode: pick(f.codes, n) }),
    },
    { name: 'payout list, first page', who: 'staff', path: payouts, query: () => page },
    { name: 'order list, first page', who: 'merchant', path: orders, query: () => page },
    { name: 'order list, last 7 days', who: 'merchant', path: orders, query: () => ({ ...page, ...lastDays(f, 7) }) },
    { name: 'payout list, first page', who: 'merchant', path: payouts, query: () => page },
    { name: 'order list, first page', who: 'supplier', path: orders, query: () => page },
    { name: 'payout list, first page', who: 'supplier', path: payouts, query: () => page },
    {
      name: 'payout list, finished, last 30 days',
      who: 'supplier',
      path: payouts,
      query: () => ({ ...page, processState: '4', ...lastDays(f, 30) }),
    },
    {
      name: 'order list, timed out, last 30 days',
      who: 'merchant',
      path: orders,
      query: () => ({ ...page, orderStatusId: '2', ...lastDays(f, 30) }),
    },
  ];
}

function statisticsReads(f: Facts): Read[] {
  const statistics = endpoints.statistics.statisticsV2.path;
  const month = () => ({ ...lastDays(f, 30), timeFormat: 'day' });
  return [
    {
      name: 'statistics, 30 days, by merchant',
      who: 'staff',
      path: statistics,
      query: () => ({ ...month(), groupByMerchant: 'true' }),
    },
    // The staff's statistics page as it opens: split by supplier.
    { name: 'statistics, 30 days, by supplier', who: 'staff', path: statistics, query: month },
    {
      name: 'statistics, 30 days, payouts',
      who: 'staff',
      path: statistics,
      query: () => ({ ...month(), orderType: 'payout' }),
    },
    { name: 'statistics, 30 days', who: 'merchant', path: statistics, query: month },
    { name: 'statistics, 30 days', who: 'supplier', path: statistics, query: month },
    {
      name: 'home: today, yesterday, 7 days',
      who: 'staff',
      path: endpoints.statistics.simplestatisticsV2.path,
      query: () => ({}),
    },
    {
      name: 'home: today, yesterday, 7 days',
      who: 'merchant',
      path: endpoints.statistics.simplestatisticsV2.path,
      query: () => ({}),
    },
    {
      name: 'home: today, yesterday, 7 days',
      who: 'supplier',
      path: endpoints.statistics.simplestatisticsV2.path,
      query: () => ({}),
    },
    {
      name: 'home: the week by day',
      who: 'staff',
      path: statistics,
      query: () => ({ ...lastDays(f, 7), timeFormat: 'day' }),
    },
    { name: 'home: balances', who: 'staff', path: endpoints.funds.getTotalBalance.path, query: () => ({}) },
    { name: 'home: balances', who: 'merchant', path: endpoints.funds.getTotalBalance.path, query: () => ({}) },
    { name: 'home: work waiting', who: 'staff', path: endpoints.todo.counts.path, query: () => ({}) },
    { name: 'home: work waiting', who: 'supplier', path: endpoints.todo.counts.path, query: () => ({}) },
  ];
}

async function versionOf(db: Db): Promise<string> {
  const result = (await db.execute(sql`show server_version`)) as unknown as { rows: Array<{ server_version: string }> };
  return String(result.rows[0]?.server_version);
}

function report(r: {
  loadBefore: number[];
  postgres: string;
  loadTimings: Record<string, number>;
  checks: { ledger: boolean; rollups: boolean; buckets: number };
  results: Measured[];
  exported: Array<Awaited<ReturnType<typeof measureExport>> & { days: number }>;
  facts: Facts;
}): string {
  const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '—');
  const lines = [
    `${r.facts.orders.toLocaleString('en')} orders and ${r.facts.payouts.toLocaleString('en')} payouts over ${DAYS} days, ${MERCHANTS} merchants, ${SUPPLIERS} suppliers; ` +
      `PostgreSQL ${r.postgres}, Node ${process.version}; load average ${r.loadBefore.map((n) => n.toFixed(1)).join(' / ')} before the run; ` +
      `${RUNS} calls per read after ${WARMUP_RUNS} dropped, one at a time.`,
    '',
    `Ledger check: ${r.checks.ledger ? 'ok' : '**failed**'}; rollups against the orders and payouts: ${r.checks.rollups ? 'agree' : '**differ**'} (${r.checks.buckets} buckets).`,
  ];
  lines.push(
    '',
    `Tables (rows, size with indexes): ${r.facts.tables.map((t) => `${t.name} ${t.rows.toLocaleString('en')}, ${t.mb.toLocaleString('en')} MB`).join('; ')}.`,
  );
  if (r.loadTimings.total) {
    // The chunks of one step ('orders 1-500000', ...) summed under the step's name.
    const steps = new Map<string, number>();
    for (const [k, v] of Object.entries(r.loadTimings)) {
      const step = k.replace(/ \d+-\d+$/, '');
      steps.set(step, (steps.get(step) ?? 0) + v);
    }
    lines.push('', `Load: ${[...steps].map(([k, v]) => `${k} ${v.toFixed(0)} s`).join('; ')}.`);
  }
  lines.push(
    '',
    '| read | p50 ms | p95 ms | p99 ms | calls | failed | p95 < 50 ms |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const m of r.results) {
    lines.push(
      `| ${m.name} | ${ms(m.p50)} | ${ms(m.p95)} | ${ms(m.p99)} | ${m.calls} | ${m.failed} | ${m.p95 < TARGET_P95_MS ? 'yes' : '**no**'} |`,
    );
  }
  lines.push(
    '',
    '| CSV export of the orders (staff) | rows | MB | seconds | rows/s | RSS MB before / peak | JS heap MB before / peak |',
  );
  lines.push('| --- | --- | --- | --- | --- | --- | --- |');
  for (const e of r.exported) {
    lines.push(
      `| last ${e.days} days (HTTP ${e.status}) | ${e.rows.toLocaleString('en')} | ${e.mb.toFixed(0)} | ${e.seconds.toFixed(1)} | ${Math.round(e.rows / e.seconds).toLocaleString('en')} | ${e.rssBefore.toFixed(0)} / ${e.rssPeak.toFixed(0)} | ${e.heapBefore.toFixed(0)} / ${e.heapPeak.toFixed(0)} |`,
    );
  }
  return lines.join('\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
