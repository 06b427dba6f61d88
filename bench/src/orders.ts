/**
 * Order benchmark (issue 6 item 11), against one PostgreSQL in one run:
 *   1. pgbench -N (TPC-B without the branch/teller hot rows) with 32 clients: the database's own rate;
 *   2. signed order creation through the HTTP merchant API with 32 concurrent clients;
 *   3. the full cycle: create -> staff confirm -> merchant callback delivered (jobs on, a local receiver).
 * The clients of phases 2 and 3 run in a worker thread (load.ts). It prints the rates, their ratios to
 * pgbench and the latency percentiles as a Markdown table.
 *
 *   npm run bench                      # 20 s per phase on postgres://postgres@127.0.0.1:5432
 *   BENCH_SECONDS=60 BENCH_DATABASE_URL=postgres://... npm run bench
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { endpoints } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import { buildApp, buildServices } from '../../apps/server/src/app.js';
import { type Config, defaultConfig } from '../../apps/server/src/config.js';
import { createScratchDatabase, type Db, openDatabase } from '../../apps/server/src/db/client.js';
import { merchants, partyProducts, users } from '../../apps/server/src/db/schema.js';
import { accountCode } from '../../apps/server/src/modules/ledger/accounts.js';
import { SYSTEM_ACTOR } from '../../apps/server/src/platform/audit.js';
import { totpCode } from '../../apps/server/src/platform/totp.js';
import { DEMO_MERCHANT_API } from '../../apps/server/src/seed/demo-merchants.js';
import { DEMO_PASSWORD, seedIfEmpty } from '../../apps/server/src/seed/seed.js';
import { type CpuPerUnit, cpuPerUnit, cpuSample } from './cpu.js';
import { type LoadJob, type LoadResult, post } from './load.js';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32);
const SUPPLIERS = Number(process.env.BENCH_SUPPLIERS ?? 16);
const ACCOUNTS_PER_SUPPLIER = Number(process.env.BENCH_ACCOUNTS ?? 8);
/** Merchants sending the orders (the demo merchant1 first): one is the worst case for its hot rows. */
const MERCHANTS = Number(process.env.BENCH_MERCHANTS ?? 1);
/** Which phases to run (all by default): e.g. BENCH_PHASES=create to profile order creation alone. */
const PHASES = new Set((process.env.BENCH_PHASES ?? 'pgbench,create,cycle').split(',').map((p) => p.trim()));
const skipped = (name: string): PhaseResult => ({
  name: `${name} (not run)`,
  ok: 0,
  failed: 0,
  seconds: 0,
  rate: Number.NaN,
  p50: Number.NaN,
  p95: Number.NaN,
  p99: Number.NaN,
});

interface PhaseResult {
  name: string;
  ok: number;
  failed: number;
  seconds: number;
  rate: number;
  p50: number;
  p95: number;
  p99: number;
  /** CPU ms per unit done: the server, the clients (worker thread), pgbench's client, PostgreSQL. */
  cpu?: CpuPerUnit;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

function summarise(name: string, latencies: number[], failed: number, seconds: number): PhaseResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    name,
    ok: latencies.length,
    failed,
    seconds,
    rate: latencies.length / seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  };
}

/** pgbench -N on the scratch database: tps (excluding connection time) and its latency average. */
function pgbench(url: string): PhaseResult {
  execFileSync('pgbench', ['-i', '-q', '-s', '10', url], { stdio: 'ignore' });
  const before = cpuSample();
  const out = execFileSync('pgbench', ['-N', '-c', String(CLIENTS), '-j', '2', '-T', String(SECONDS), '-r', url], {
    encoding: 'utf8',
  });
  const tps = Number(/tps = ([\d.]+)/.exec(out)?.[1] ?? 0);
  const avg = Number(/latency average = ([\d.]+) ms/.exec(out)?.[1] ?? 0);
  const count = Number(/number of transactions actually processed: (\d+)/.exec(out)?.[1] ?? 0);
  return {
    name: 'pgbench -N',
    ok: count,
    failed: 0,
    seconds: SECONDS,
    rate: tps,
    p50: avg,
    p95: Number.NaN,
    p99: Number.NaN,
    cpu: cpuPerUnit(before, cpuSample(), count),
  };
}

/**
 * With BENCH_PROFILE=<file>, a CPU profile of the server's thread during a phase: the create phase's
 * in <file>, the cycle's in <file>.cycle (open them in Chrome's DevTools, Performance tab). Under a
 * saturated machine a thread that waits for a core inside a system call is sampled there: read the
 * native `writev` of the database driver's sends as that, not as the send's own cost.
 */
async function profiled<T>(run: () => Promise<T>, suffix = ''): Promise<T> {
  const file = process.env.BENCH_PROFILE ? `${process.env.BENCH_PROFILE}${suffix}` : undefined;
  if (!file) return run();
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  }
}

/** Runs one load phase in a worker thread (see load.ts) and answers its latencies. */
function loadInWorker(job: LoadJob): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), { workerData: job });
    worker.once('message', (message: LoadResult | { error: string }) => {
      void worker.terminate();
      if ('error' in message) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
  });
}

async function main() {
  const scratch = await createScratchDatabase(BASE_URL);
  try {
    console.error(`bench: ${CLIENTS} clients, ${SECONDS} s per phase, database ${scratch.url}`);
    const pg = PHASES.has('pgbench') ? pgbench(scratch.url) : skipped('pgbench -N');
    console.error(`pgbench -N: ${pg.rate.toFixed(0)} tps`);

    const database = await openDatabase({ url: scratch.url });
    const config: Config = {
      ...defaultConfig(),
      demo: true,
      databaseUrl: scratch.url,
      webDist: '/nonexistent',
      rateLimitFactor: 10_000,
      jobs: true,
    };
    const services = buildServices({ config, database });
    const seed = await seedIfEmpty(database.db, services, config);
    await addSuppliers(services, database.db);
    const merchants = [DEMO_MERCHANT_API, ...(await addMerchants(services, database.db))];
    // The server logs as `npm start` does (a line per request at info), into /dev/null: the
    // serialising and the writes are part of what a request costs. BENCH_LOG=silent leaves them out.
    const logLevel = process.env.BENCH_LOG ?? 'info';
    const app = await buildApp({
      config: { ...config, logLevel },
      database,
      jobTuning: { pollingIntervalSeconds: 0.5 },
      ...(logLevel === 'silent' ? {} : { logStream: createWriteStream('/dev/null') }),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

    // Phase 2: order creation alone.
    const createStart = cpuSample();
    const create = PHASES.has('create')
      ? await profiled(() => loadInWorker({ kind: 'create', base, clients: CLIENTS, seconds: SECONDS, merchants }))
      : null;
    const creation = create
      ? {
          ...summarise('signed order create', create.latencies, create.failed, create.seconds),
          cpu: cpuPerUnit(createStart, cpuSample(), create.latencies.length + create.failed, create.clientsCpuMs),
        }
      : skipped('signed order create');
    console.error(`create: ${creation.rate.toFixed(0)}/s`);

    // Phase 3: the full cycle, timed from create until the merchant's receiver has the notification.
    const secret = seed.accounts.find((a) => a.account === 'superadmin')!.googleSecret!;
    const login = await post(base, endpoints.auth.login.path, {
      userName: 'superadmin',
      password: DEMO_PASSWORD,
      googleCode: totpCode(secret, new Date()),
    });
    const token = String(login.data?.token);
    const cycleStart = cpuSample();
    const cycle = PHASES.has('cycle')
      ? await profiled(
          () => loadInWorker({ kind: 'cycle', base, clients: CLIENTS, seconds: SECONDS, token, merchants }),
          '.cycle',
        )
      : null;
    const full = cycle
      ? {
          ...summarise('full cycle (create, confirm, callback)', cycle.latencies, cycle.failed, cycle.seconds),
          cpu: cpuPerUnit(cycleStart, cpuSample(), cycle.latencies.length + cycle.failed, cycle.clientsCpuMs),
        }
      : skipped('full cycle (create, confirm, callback)');
    console.error(`full cycle: ${full.rate.toFixed(0)}/s`);
    if (cycle?.steps) {
      for (const [step, ms] of Object.entries(cycle.steps)) {
        const part = summarise(step, ms, 0, cycle.seconds);
        console.error(
          `  cycle ${step}: p50 ${part.p50.toFixed(1)} ms, p95 ${part.p95.toFixed(1)}, p99 ${part.p99.toFixed(1)}`,
        );
      }
    }

    await app.close();
    await database.close();
    printReport(pg, creation, full);
  } finally {
    if (process.env.BENCH_KEEP) console.error(`kept ${scratch.url}`);
    else await scratch.drop();
  }
}

/** Suppliers with UPI accounts and deposits, so allocation spreads over accounts and never runs dry. */
async function addSuppliers(services: ReturnType<typeof buildServices>, db: Db) {
  for (let s = 1; s <= SUPPLIERS; s += 1) {
    const { id, userId } = await services.suppliers.create(
      'superAdmin',
      { name: `Bench supplier ${s}`, mode: 'newAccount', account: `bench${s}`, password: 'bench1234a', remark: '' },
      SYSTEM_ACTOR,
    );
    await db
      .insert(partyProducts)
      .values({ userId, productId: 1001, enabled: true, commissionRate: 100, updatedAt: new Date() });
    await db.transaction((tx) =>
      services.ledger.transfer(tx, {
        idempotencyKey: `bench:deposit:${id}`,
        type: 'adjustment',
        note: 'bench deposit',
        postings: [
          { account: accountCode('platform', 'adjustments'), amount: -10_000_000_000_000 },
          { account: accountCode('supplier', id, 'available'), amount: 10_000_000_000_000 },
        ],
      }),
    );
    for (let a = 1; a <= ACCOUNTS_PER_SUPPLIER; a += 1) {
      const r = await services.resources.create(
        { all: true },
        {
          supplierId: id,
          productId: 1001,
          name: `Bench UPI ${s}-${a}`,
          details: {
            accountName: `Bench ${s}`,
            bankName: 'Bench Bank',
            cardNumber: `${s}00${a}`,
            ifsc: 'BNCH0001234',
            vpa: `bench${s}.${a}@upi`,
          },
        },
        SYSTEM_ACTOR,
      );
      await services.resources.enable({ all: true }, { resourceId: r.id, productId: 1001, enable: true }, SYSTEM_ACTOR);
    }
  }
  // The demo merchant has no daily limit; this makes sure of it for the run.
  const [merchant] = await db.select().from(users).where(eq(users.account, 'merchant1'));
  await db.update(partyProducts).set({ dailyLimit: null }).where(eq(partyProducts.userId, merchant!.id));
}

/** Merchants 2..BENCH_MERCHANTS with their API credentials and the demo merchant's UPI fee. */
async function addMerchants(services: ReturnType<typeof buildServices>, db: Db) {
  const added: Array<{ mchId: string; secret: string }> = [];
  for (let m = 2; m <= MERCHANTS; m += 1) {
    const created = await services.merchants.create(
      'superAdmin',
      {
        name: `Bench merchant ${m}`,
        mode: 'newAccount',
        account: `benchm${m}`,
        password: 'bench1234a',
        signType: 'HMAC-SHA256',
        ipWhitelist: [],
        notifyUrl: null,
        callbackEnabled: true,
        remark: '',
      },
      SYSTEM_ACTOR,
    );
    const [merchant] = await db.select().from(merchants).where(eq(merchants.id, created.id));
    await db
      .insert(partyProducts)
      .values({ userId: merchant!.userId, productId: 1001, enabled: true, feeRate: 350, updatedAt: new Date() });
    added.push({ mchId: created.merchantNo, secret: created.secret });
  }
  return added;
}

function cpuRow(r: PhaseResult, pg: PhaseResult) {
  const ms = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toFixed(2));
  const total = (c: CpuPerUnit | undefined) =>
    c?.postgres === null || c === undefined ? null : (c.node ?? 0) + (c.clients ?? 0) + (c.children ?? 0) + c.postgres;
  const mine = total(r.cpu);
  const base = total(pg.cpu);
  const times = mine === null || base === null || base === 0 ? '—' : (mine / base).toFixed(1);
  const client = r === pg ? ms(r.cpu?.children) : ms(r.cpu?.clients);
  const node = r === pg ? '—' : ms(r.cpu?.node);
  return `| ${r.name} | ${client} | ${node} | ${ms(r.cpu?.postgres)} | ${ms(mine)} | ${times} |`;
}

function printReport(pg: PhaseResult, creation: PhaseResult, full: PhaseResult) {
  const ms = (n: number) => (Number.isNaN(n) ? '—' : n.toFixed(1));
  const ratio = (n: number) => (Number.isNaN(n) || Number.isNaN(pg.rate) ? '—' : (n / pg.rate).toFixed(2));
  const rows = [pg, creation, full].map(
    (r) =>
      `| ${r.name} | ${Number.isNaN(r.rate) ? '—' : r.rate.toFixed(0)} | ${ratio(r.rate)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${r.ok} | ${r.failed} |`,
  );
  console.log(
    [
      `${CLIENTS} clients, ${SECONDS} s per phase, ${MERCHANTS} merchant(s), ${SUPPLIERS} suppliers x ${ACCOUNTS_PER_SUPPLIER} UPI accounts`,
      '',
      '| phase | per second | x pgbench -N | p50 ms | p95 ms | p99 ms | done | failed |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows,
      '',
      '(pgbench reports its latency average in the p50 column.)',
      '',
      'CPU per unit done (a transaction, an order or a cycle), ms: what each phase costs the machine. Where the',
      'clients, the server and PostgreSQL share the cores, a rate is about the cores over the total, so the ratio',
      "of two totals bounds the ratio of their rates. 'Clients': pgbench's client, or the load generator's worker",
      "thread (HTTP client, signing, the cycle's callback receiver); 'Node server': the rest of this process.",
      '',
      '| phase | clients | Node server | PostgreSQL | total | total x pgbench -N |',
      '| --- | --- | --- | --- | --- | --- |',
      ...[pg, creation, full].filter((r) => r.cpu).map((r) => cpuRow(r, pg)),
    ].join('\n'),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
