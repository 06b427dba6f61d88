/**
 * The order bench's printed report (Markdown), the targets it is read against, and the writing of
 * the same text into bench/README.md (`BENCH_WRITE=1`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import type { CpuPerUnit } from './cpu.js';

export interface Percentiles {
  p50: number;
  p95: number;
  p99: number;
}

export interface PhaseResult extends Percentiles {
  name: string;
  /** False: the phase was not run (BENCH_PHASES); every figure is NaN. */
  ran: boolean;
  ok: number;
  failed: number;
  seconds: number;
  rate: number;
  /** The cycle's steps, each with its own percentiles. */
  parts?: Array<Percentiles & { name: string; count: number }>;
  /** CPU ms per unit done: the server, the clients (worker thread), pgbench's client, PostgreSQL. */
  cpu?: CpuPerUnit;
  /** The machine's busy share of all its cores during the window (0..1), whoever used them. */
  machineBusy?: number | null;
  /** The share of all cores this run's processes used (this process, pgbench, every postgres process). */
  runBusy?: number | null;
  /** Queries this process sent per unit (null: not counted, pgbench's client is not ours). */
  roundTrips?: number | null;
  /** Backend ms spent waiting for locks per unit, and its share of the backends' busy time. */
  lockMsPerUnit?: number;
  lockShare?: number | null;
  /** Backends in a statement or a transaction, on average over the window. */
  backendsBusy?: number;
  /** Where the lock waits were: by wait event and by statement, shares of the lock wait (0..1). */
  lockEvents?: Array<[string, number]>;
  lockStatements?: Array<[string, number]>;
}

export function percentiles(values: number[]): Percentiles {
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) =>
    sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
  return { p50: at(50), p95: at(95), p99: at(99) };
}

export const notRun = (name: string): PhaseResult => ({
  name: `${name} (not run)`,
  ran: false,
  ok: 0,
  failed: 0,
  seconds: 0,
  rate: Number.NaN,
  p50: Number.NaN,
  p95: Number.NaN,
  p99: Number.NaN,
});

export interface RunInfo {
  clients: number;
  seconds: number;
  warmupSeconds: number;
  merchants: number;
  suppliers: number;
  accountsPerSupplier: number;
  /** os.loadavg() before the run. */
  loadBefore: number[];
  cores: number;
  postgres: string;
  node: string;
}

/** Issue 19's targets, at 32 clients. */
export const TARGETS = { createRatio: 0.35, createP99Ms: 50, cycleRatio: 0.1, confirmP99Ms: 100, clients: 32 };

const fixed = (n: number | null | undefined, digits: number) =>
  n === null || n === undefined || Number.isNaN(n) ? '—' : n.toFixed(digits);
const pct = (n: number | null | undefined) =>
  n === null || n === undefined || Number.isNaN(n) ? '—' : `${Math.round(n * 100)} %`;

/** A ratio to pgbench: two decimals, three under 0.1 (the cycle's ratio is small). */
const ratioText = (n: number) => (Number.isNaN(n) ? '—' : n.toFixed(n < 0.1 ? 3 : 2));

function cpuTotal(c: CpuPerUnit | undefined): number | null {
  return c === undefined || c.postgres === null
    ? null
    : (c.node ?? 0) + (c.clients ?? 0) + (c.children ?? 0) + c.postgres;
}

function targetRows(pg: PhaseResult, create: PhaseResult, cycle: PhaseResult, clients: number): string[] {
  const ratio = (r: PhaseResult) => (r.ran && pg.ran && pg.rate > 0 ? r.rate / pg.rate : Number.NaN);
  const judged = (value: number, met: boolean, atClients = false) => {
    if (Number.isNaN(value)) return 'not measured';
    if (atClients && clients !== TARGETS.clients) return `— (run at ${clients} clients)`;
    return met ? 'yes' : '**no**';
  };
  const createRatio = ratio(create);
  const cycleRatio = ratio(cycle);
  const confirm = cycle.parts?.find((p) => p.name === 'confirmation')?.p99 ?? Number.NaN;
  return [
    '| target (issue 19) | measured | met |',
    '| --- | --- | --- |',
    `| signed create >= ${TARGETS.createRatio.toFixed(2)}x pgbench -N | ${ratioText(createRatio)}x | ${judged(createRatio, createRatio >= TARGETS.createRatio)} |`,
    `| signed create p99 < ${TARGETS.createP99Ms} ms at ${TARGETS.clients} clients | ${fixed(create.p99, 1)} ms | ${judged(create.p99, create.p99 < TARGETS.createP99Ms, true)} |`,
    `| full cycle >= ${TARGETS.cycleRatio.toFixed(2)}x pgbench -N | ${ratioText(cycleRatio)}x | ${judged(cycleRatio, cycleRatio >= TARGETS.cycleRatio)} |`,
    `| full cycle's confirmation p99 < ${TARGETS.confirmP99Ms} ms | ${fixed(confirm, 1)} ms | ${judged(confirm, confirm < TARGETS.confirmP99Ms)} |`,
  ];
}

export function report(
  run: RunInfo,
  pg: PhaseResult,
  create: PhaseResult,
  cycle: PhaseResult,
  payout?: PhaseResult,
): string {
  const phases = payout ? [pg, create, cycle, payout] : [pg, create, cycle];
  const ratio = (n: number) => (Number.isNaN(n) || !pg.ran ? '—' : ratioText(n / pg.rate));
  const rateRows = phases.flatMap((r) => [
    `| ${r.name} | ${fixed(r.rate, 0)} | ${ratio(r.rate)} | ${fixed(r.p50, 1)} | ${fixed(r.p95, 1)} | ${fixed(r.p99, 1)} | ${r.ok} | ${r.failed} |`,
    ...(r.parts ?? []).map(
      (p) => `| — its ${p.name} | | | ${fixed(p.p50, 1)} | ${fixed(p.p95, 1)} | ${fixed(p.p99, 1)} | ${p.count} | |`,
    ),
  ]);
  const base = cpuTotal(pg.cpu);
  const cpuRows = phases
    .filter((r) => r.cpu)
    .map((r) => {
      const total = cpuTotal(r.cpu);
      const times = total === null || base === null || base === 0 ? '—' : (total / base).toFixed(1);
      const client = r === pg ? fixed(r.cpu?.children, 2) : fixed(r.cpu?.clients, 2);
      const node = r === pg ? '—' : fixed(r.cpu?.node, 2);
      return `| ${r.name} | ${client} | ${node} | ${fixed(r.cpu?.postgres, 2)} | ${fixed(total, 2)} | ${times} | ${pct(r.machineBusy)} | ${pct(r.runBusy)} |`;
    });
  const dbRows = phases
    .filter((r) => r.ran)
    .map(
      (r) =>
        `| ${r.name} | ${fixed(r.roundTrips, 1)} | ${fixed(r.lockMsPerUnit, 2)} | ${pct(r.lockShare)} | ${fixed(r.backendsBusy, 1)} |`,
    );
  const share = (entries: Array<[string, number]> | undefined, code: boolean) =>
    (entries ?? []).map(([k, v]) => `${code ? `\`${k}\`` : k} ${pct(v)}`).join(', ');
  const waitLines = phases
    .filter((r) => r.lockEvents?.length)
    .flatMap((r) => [
      `- ${r.name}: by wait event ${share(r.lockEvents, false)}; by statement ${share(r.lockStatements, true)}`,
    ]);
  const load = run.loadBefore.map((l) => l.toFixed(1)).join(' / ');
  return [
    `${run.clients} clients, ${run.seconds} s per phase after ${run.warmupSeconds} s of warm-up (dropped), ${run.merchants} merchant(s), ${run.suppliers} suppliers x ${run.accountsPerSupplier} UPI accounts; ${run.cores} cores, load average ${load} (1, 5, 15 min) before the run; PostgreSQL ${run.postgres}, Node ${run.node}`,
    '',
    '| phase | per second | x pgbench -N | p50 ms | p95 ms | p99 ms | done | failed |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rateRows,
    '',
    "pgbench's percentiles are from its per-transaction log (`-l`). The cycle's rows below it are its steps:",
    'the create call, the confirmation call, and the wait from the confirmation until the callback arrived.',
    ...(payout
      ? [
          "The payout's rows are its steps: the signed create (funds held), the supplier finding it in its queue",
          'and claiming it, the UTR submitted, the staff confirmation (ledger paid out, callback scheduled), and',
          'the wait until the callback arrived. No target gates the payout phase (issue 20): it is measured.',
        ]
      : []),
    '',
    'CPU ms per unit done (a transaction, an order or a cycle); machine busy: the share of all cores busy',
    "during the phase (/proc/stat, whoever used them); this run: the share this process, pgbench's client",
    'and every postgres process of the host used.',
    '',
    '| phase | clients | Node server | PostgreSQL | total | total x pgbench -N | machine busy | this run |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...cpuRows,
    '',
    'The database per unit: queries the server process sent (round trips; pgbench not counted), backend ms',
    "spent waiting for locks and that wait's share of the backends' busy time (pg_stat_activity every ~50 ms),",
    'and the backends busy (in a statement or a transaction) on average.',
    '',
    '| phase | round trips | lock wait ms | lock wait share | backends busy |',
    '| --- | --- | --- | --- | --- |',
    ...dbRows,
    ...(waitLines.length ? ['', "Where the lock waits were (shares of the phase's lock wait):", '', ...waitLines] : []),
    '',
    ...targetRows(pg, create, cycle, run.clients),
  ].join('\n');
}

/** The section's first line, which also finds it again: same day and same commit is replaced. */
const marker = (date: string, commit: string) => `<!-- bench:orders ${date} ${commit} -->`;

/**
 * Puts the report into bench/README.md as a dated "### Measured" section at the top of the Orders
 * section's measurements (newest first, older ones kept as history). A run of the same commit on
 * the same day replaces the section that run wrote; a tree with uncommitted changes is labelled so.
 */
export function writeReadme(path: string, text: string, meta: { date: string; commit: string; load: number }) {
  const readme = readFileSync(path, 'utf8');
  const lines = readme.split('\n');
  const section = [
    marker(meta.date, meta.commit),
    `### Measured (${meta.date}, commit ${meta.commit}, load average ${meta.load.toFixed(1)} before the run, written by \`BENCH_WRITE=1 npm run bench\`)`,
    '',
    text,
    '',
  ];
  const existing = lines.indexOf(section[0]!);
  if (existing >= 0) {
    // The section ends at the next heading or the next section the bench wrote.
    let end = existing + 1;
    while (end < lines.length && !(end > existing + 1 && /^(#|<!-- bench:orders )/.test(lines[end]!))) end += 1;
    lines.splice(existing, end - existing, ...section);
  } else {
    const orders = lines.findIndex((l) => l.startsWith('## Orders'));
    if (orders < 0) throw new Error(`${path} has no "## Orders" section`);
    let at = lines.findIndex((l, i) => i > orders && (l.startsWith('### ') || l.startsWith('<!-- bench:orders ')));
    const next = lines.findIndex((l, i) => i > orders && l.startsWith('## '));
    if (at < 0 || (next >= 0 && next < at)) at = next >= 0 ? next : lines.length;
    lines.splice(at, 0, ...section);
  }
  writeFileSync(path, lines.join('\n'));
}
