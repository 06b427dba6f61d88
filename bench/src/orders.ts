/**
 * Order benchmark (issue 6 item 11, issue 19 item 4), against one PostgreSQL in one run:
 *   1. pgbench -N (TPC-B without the branch/teller hot rows) with 32 clients: the database's own rate;
 *   2. signed order creation through the HTTP merchant API with 32 concurrent clients;
 *   3. the full cycle: create -> staff confirm -> merchant callback delivered (jobs on, a local receiver).
 * Each phase runs a warm-up first (its results dropped), then its measured window. The clients of
 * phases 2 and 3 run in a worker thread (load.ts). It prints, per phase, the rate and its ratio to
 * pgbench, latency percentiles, CPU per unit by who spent it, the machine's busy share, round trips
 * and lock waits per unit (probes.ts), and the targets, as Markdown (report.ts).
 *
 *   npm run bench                      # 10 s warm-up + 20 s per phase on postgres://postgres@127.0.0.1:5432
 *   BENCH_SECONDS=60 BENCH_DATABASE_URL=postgres://... npm run bench
 *   BENCH_WRITE=1 npm run bench        # also writes the report into bench/README.md
 */
import { execFile, execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { endpoints } from '@paydesk/contract';
import { eq, sql } from 'drizzle-orm';
import { buildApp, buildServices } from '../../apps/server/src/app.js';
import { type Config, defaultConfig } from '../../apps/server/src/config.js';
import { createScratchDatabase, type Db, openDatabase } from '../../apps/server/src/db/client.js';
import { merchants, partyProducts, suppliers, users } from '../../apps/server/src/db/schema.js';
import { accountCode } from '../../apps/server/src/modules/ledger/accounts.js';
import { SYSTEM_ACTOR } from '../../apps/server/src/platform/audit.js';
import { totpCode } from '../../apps/server/src/platform/totp.js';
import { DEMO_MERCHANT_API } from '../../apps/server/src/seed/demo-merchants.js';
import { DEMO_PASSWORD, seedIfEmpty } from '../../apps/server/src/seed/seed.js';
import { type CpuSample, cpuPerUnit, cpuSample } from './cpu.js';
import type { LoadJob, LoadResult, Measuring, PayoutStep } from './load.js';
import { PAYOUT_STEPS, post } from './load.js';
import { busyShare, countQueries, type LockSampler, lockSampler, machineSample } from './probes.js';
import { notRun, type PhaseResult, percentiles, report, writeReadme } from './report.js';

const BASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
/** Load before each phase's measured window, dropped: a cold V8 and cold caches cost more per unit. */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 32);
const SUPPLIERS = Number(process.env.BENCH_SUPPLIERS ?? 16);
const ACCOUNTS_PER_SUPPLIER = Number(process.env.BENCH_ACCOUNTS ?? 8);
/** Merchants sending the orders (the demo merchant1 first): one is the worst case for its hot rows. */
const MERCHANTS = Number(process.env.BENCH_MERCHANTS ?? 1);
/** Which phases to run (all by default): e.g. BENCH_PHASES=create to profile order creation alone. */
const PHASES = new Set((process.env.BENCH_PHASES ?? 'pgbench,create,cycle,payout').split(',').map((p) => p.trim()));
const README = fileURLToPath(new URL('../README.md', import.meta.url));

const queries = countQueries();
const run = promisify(execFile);

/** What a measured window saw, from its opening to its close. */
interface Window {
  cpu: [CpuSample, CpuSample];
  busy: number | null;
  cores: number;
  /** Queries this process sent in the window. */
  queries: number;
  ms: number;
  lockMs: number;
  busyBackendMs: number;
  byEvent: Map<string, number>;
  byStatement: Map<string, number>;
}

/** Opens a measured window now: CPU, /proc/stat and the query count sampled, lock sampling started. */
function openWindow(sampler: LockSampler): { close(): Promise<Window> } {
  const cpu = cpuSample();
  const machine = machineSample();
  const sent = queries.sent();
  const started = performance.now();
  const locks = sampler.start();
  return {
    close: async () => {
      const ms = performance.now() - started;
      const cpuAfter = cpuSample();
      const machineAfter = machineSample();
      const sentAfter = queries.sent();
      const waits = await locks.stop();
      return {
        cpu: [cpu, cpuAfter],
        busy: busyShare(machine, machineAfter),
        cores: machineAfter?.cores ?? 1,
        queries: sentAfter - sent,
        ms,
        lockMs: waits.lockMs,
        busyBackendMs: waits.busyMs,
        byEvent: waits.byEvent,
        byStatement: waits.byStatement,
      };
    },
  };
}

/** The largest shares of a map of ms, highest first, leaving out those under 1 %. */
function top(map: Map<string, number>, total: number, n: number): Array<[string, number]> {
  return [...map.entries()]
    .map(([k, v]): [string, number] => [k, v / total])
    .filter(([, share]) => share >= 0.01)
    .sort((x, y) => y[1] - x[1])
    .slice(0, n);
}

/** A phase's figures from its window: `units` done, `clientsMs` the load generator's CPU (null: pgbench's own client). */
function measured(
  base: Omit<PhaseResult, 'ran'>,
  w: Window,
  units: number,
  clientsMs: number | null,
  countsQueries: boolean,
): PhaseResult {
  const cpu = cpuPerUnit(w.cpu[0], w.cpu[1], units, clientsMs);
  const [before, after] = w.cpu;
  const spent =
    before.postgres === null || after.postgres === null
      ? null
      : after.node - before.node + (after.children - before.children) + (after.postgres - before.postgres);
  return {
    ...base,
    ran: true,
    cpu,
    machineBusy: w.busy,
    runBusy: spent === null || w.ms === 0 ? null : spent / (w.cores * w.ms),
    roundTrips: countsQueries && units > 0 ? w.queries / units : null,
    lockMsPerUnit: units > 0 ? w.lockMs / units : Number.NaN,
    lockShare: w.busyBackendMs > 0 ? w.lockMs / w.busyBackendMs : null,
    backendsBusy: w.ms > 0 ? w.busyBackendMs / w.ms : Number.NaN,
    lockEvents: w.lockMs > 0 ? top(w.byEvent, w.lockMs, 4) : [],
    lockStatements: w.lockMs > 0 ? top(w.byStatement, w.lockMs, 3) : [],
  };
}

/**
 * pgbench -N on the scratch database, after a warm-up run of its own: tps (excluding connection
 * time), and latency percentiles from its per-transaction log.
 */
async function pgbench(url: string, sampler: LockSampler): Promise<PhaseResult> {
  execFileSync('pgbench', ['-i', '-q', '-s', '10', url], { stdio: 'ignore' });
  const args = ['-N', '-c', String(CLIENTS), '-j', '2'];
  if (WARMUP_SECONDS > 0) await run('pgbench', [...args, '-T', String(WARMUP_SECONDS), url]);
  const logs = mkdtempSync(join(tmpdir(), 'bench-pgbench-'));
  try {
    const window = openWindow(sampler);
    const { stdout } = await run('pgbench', [
      ...args,
      '-T',
      String(SECONDS),
      '-l',
      `--log-prefix=${join(logs, 'tx')}`,
      url,
    ]);
    const w = await window.close();
    const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? 0);
    const count = Number(/number of transactions actually processed: (\d+)/.exec(stdout)?.[1] ?? 0);
    // Each line: client, transaction number, latency in us, script, epoch s, us (pgbench(1), "Per-Transaction Logging").
    const latencies: number[] = [];
    for (const file of readdirSync(logs)) {
      for (const line of readFileSync(join(logs, file), 'utf8').split('\n')) {
        const us = Number(line.split(' ')[2]);
        if (line && Number.isFinite(us)) latencies.push(us / 1000);
      }
    }
    return measured(
      { name: 'pgbench -N', ok: count, failed: 0, seconds: SECONDS, rate: tps, ...percentiles(latencies) },
      w,
      count,
      null,
      false,
    );
  } finally {
    rmSync(logs, { recursive: true, force: true });
  }
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

/**
 * Runs one load phase in a worker thread (see load.ts): the warm-up, then the measured window,
 * which this thread's probes open when the worker says it has begun.
 */
function loadInWorker(job: LoadJob, sampler: LockSampler): Promise<{ result: LoadResult; window: Window }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), { workerData: job });
    let window: ReturnType<typeof openWindow> | undefined;
    worker.on('message', (message: LoadResult | Measuring | { error: string }) => {
      if ('measuring' in message) {
        window = openWindow(sampler);
        return;
      }
      void worker.terminate();
      if ('error' in message) reject(new Error(message.error));
      else if (!window) reject(new Error('the measured window never opened'));
      else window.close().then((w) => resolve({ result: message, window: w }), reject);
    });
    worker.once('error', reject);
  });
}

/** A load phase's figures: units are the steps started in the window, done or failed. */
function loadPhase(name: string, { result, window }: { result: LoadResult; window: Window }): PhaseResult {
  for (const error of result.firstErrors ?? []) console.error(`${name}: ${error}`);
  return measured(
    {
      name,
      ok: result.latencies.length,
      failed: result.failed,
      seconds: result.seconds,
      rate: result.latencies.length / result.seconds,
      ...percentiles(result.latencies),
      ...(result.payoutSteps
        ? {
            parts: PAYOUT_STEPS.map((step) => ({
              name: PAYOUT_STEP_NAMES[step],
              ...percentiles(result.payoutSteps![step]),
              count: result.payoutSteps![step].length,
            })),
          }
        : {}),
      ...(result.steps
        ? {
            parts: [
              { name: 'create', ...percentiles(result.steps.create), count: result.steps.create.length },
              { name: 'confirmation', ...percentiles(result.steps.confirm), count: result.steps.confirm.length },
              {
                name: 'callback after the confirmation',
                ...percentiles(result.steps.callback),
                count: result.steps.callback.length,
              },
            ],
          }
        : {}),
    },
    window,
    result.latencies.length + result.failed,
    result.clientsCpuMs,
    true,
  );
}

const PAYOUT_STEP_NAMES: Record<PayoutStep, string> = {
  create: 'create',
  claim: 'find and claim (supplier)',
  submit: 'UTR submitted',
  confirm: 'confirmation (staff)',
  callback: 'callback after the confirmation',
};

/** The commit measured, and whether the tree differs from it; null outside a git checkout. */
function commit(): string {
  try {
    const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
    const head = git('rev-parse', '--short', 'HEAD');
    return git('status', '--porcelain', '--untracked-files=no') ? `${head} + uncommitted changes` : head;
  } catch {
    return 'unknown';
  }
}

async function main() {
  const loadBefore = loadavg();
  const scratch = await createScratchDatabase(BASE_URL);
  const sampler = await lockSampler(scratch.url);
  try {
    console.error(
      `bench: ${CLIENTS} clients, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per phase, database ${scratch.url}`,
    );
    const pg = PHASES.has('pgbench') ? await pgbench(scratch.url, sampler) : notRun('pgbench -N');
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
    const postgresVersion = String(
      ((await database.db.execute(sql`show server_version`)) as unknown as { rows: Array<{ server_version: string }> })
        .rows[0]?.server_version,
    );
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
    const job = { base, clients: CLIENTS, seconds: SECONDS, warmupSeconds: WARMUP_SECONDS, merchants };

    // Phase 2: order creation alone.
    const creation = PHASES.has('create')
      ? loadPhase('signed order create', await profiled(() => loadInWorker({ ...job, kind: 'create' }, sampler)))
      : notRun('signed order create');
    console.error(`create: ${creation.rate.toFixed(0)}/s`);

    // Phase 3: the full cycle, timed from create until the merchant's receiver has the notification.
    const secret = seed.accounts.find((a) => a.account === 'superadmin')!.googleSecret!;
    const login = await post(base, endpoints.auth.login.path, {
      userName: 'superadmin',
      password: DEMO_PASSWORD,
      googleCode: totpCode(secret, new Date()),
    });
    if (login.code !== 200) throw new Error(`superadmin's sign-in: ${login.code} ${login.msg}`);
    const token = String(login.data?.token);
    const full = PHASES.has('cycle')
      ? loadPhase(
          'full cycle (create, confirm, callback)',
          await profiled(() => loadInWorker({ ...job, kind: 'cycle', token }, sampler), '.cycle'),
        )
      : notRun('full cycle (create, confirm, callback)');
    console.error(`full cycle: ${full.rate.toFixed(0)}/s`);

    // Phase 4: payouts, from the merchant's create until its receiver has the payout's callback.
    let payout = notRun('payout (create, claim, UTR, confirm, callback)');
    if (PHASES.has('payout')) {
      const payoutJob = await preparePayouts(services, database.db, base, token, merchants);
      payout = loadPhase(
        'payout (create, claim, UTR, confirm, callback)',
        await profiled(() => loadInWorker({ ...job, kind: 'payout', token, ...payoutJob }, sampler), '.payout'),
      );
    }
    console.error(`payout: ${payout.rate.toFixed(0)}/s`);

    await app.close();
    await database.close();
    const text = report(
      {
        clients: CLIENTS,
        seconds: SECONDS,
        warmupSeconds: WARMUP_SECONDS,
        merchants: MERCHANTS,
        suppliers: SUPPLIERS,
        accountsPerSupplier: ACCOUNTS_PER_SUPPLIER,
        loadBefore,
        cores: machineSample()?.cores ?? 1,
        postgres: postgresVersion,
        node: process.version,
      },
      pg,
      creation,
      full,
      payout,
    );
    console.log(text);
    if (process.env.BENCH_WRITE) {
      writeReadme(README, text, {
        date: new Date().toISOString().slice(0, 10),
        commit: commit(),
        load: loadBefore[0]!,
      });
      console.error(`written into ${README}`);
    }
  } finally {
    await sampler.close();
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

/**
 * What the payout phase needs: each bench supplier with bank payout (2001) enabled, one payout account
 * and a console session (made directly: the bench does not sign in through the authenticator); the
 * merchants with 2001 enabled and money to pay out; no limit on payouts in progress; the staff
 * session's second-level token for the confirmations.
 */
async function preparePayouts(
  services: ReturnType<typeof buildServices>,
  db: Db,
  base: string,
  token: string,
  benchMerchants: Array<{ mchId: string }>,
): Promise<{ token2: string; supplierTokens: string[] }> {
  const now = new Date();
  // Written as setX does (every server process hears it), at the registry's most.
  await db.transaction((tx) => services.settings.write(tx, 'PayoutMaxInProgress', 10_000, null));
  const benchSuppliers = await db
    .select({ id: suppliers.id, userId: suppliers.userId })
    .from(suppliers)
    .innerJoin(users, eq(users.id, suppliers.userId))
    .where(sql`${users.account} like 'bench%' and ${users.role} = 'supplier'`);
  const supplierTokens: string[] = [];
  for (const s of benchSuppliers) {
    await db
      .insert(partyProducts)
      .values({ userId: s.userId, productId: 2001, enabled: true, commissionRate: 100, updatedAt: now });
    const r = await services.resources.create(
      { all: true },
      {
        supplierId: s.id,
        productId: 2001,
        name: `Bench payout ${s.id}`,
        details: {
          accountName: `Bench ${s.id}`,
          bankName: 'Bench Bank',
          accountNumber: `9${s.id}000`,
          ifsc: 'BNCH0001234',
        },
      },
      SYSTEM_ACTOR,
    );
    await services.resources.enable({ all: true }, { resourceId: r.id, productId: 2001, enable: true }, SYSTEM_ACTOR);
    const session = await services.sessions.create(db, s.userId, {
      pendingBind: false,
      ip: '127.0.0.1',
      userAgent: 'bench',
    });
    supplierTokens.push(session.token);
  }
  for (const m of benchMerchants) {
    const [merchant] = await db.select().from(merchants).where(eq(merchants.merchantNo, m.mchId));
    await db
      .insert(partyProducts)
      .values({
        userId: merchant!.userId,
        productId: 2001,
        enabled: true,
        feeRate: 150,
        perTransactionFee: 500,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [partyProducts.userId, partyProducts.productId],
        set: { enabled: true, dailyLimit: null, maxAmount: null },
      });
    await db.transaction((tx) =>
      services.ledger.transfer(tx, {
        idempotencyKey: `bench:payout-funds:${merchant!.id}`,
        type: 'adjustment',
        note: 'bench payout funds',
        postings: [
          { account: accountCode('platform', 'adjustments'), amount: -10_000_000_000_000 },
          { account: accountCode('merchant', merchant!.id, 'available'), amount: 10_000_000_000_000 },
        ],
      }),
    );
  }
  const granted = await post(
    base,
    endpoints.auth.login2.path,
    { password: DEMO_PASSWORD, logInReason: 'bench confirms payouts' },
    { token },
  );
  if (granted.code !== 200)
    throw new Error(`the staff session's second-level password: ${granted.code} ${granted.msg}`);
  return { token2: String(granted.data?.token2), supplierTokens };
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

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
