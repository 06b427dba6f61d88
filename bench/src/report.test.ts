import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { notRun, type PhaseResult, percentiles, report, writeReadme } from './report.js';

const run = {
  clients: 32,
  seconds: 20,
  warmupSeconds: 10,
  merchants: 1,
  suppliers: 16,
  accountsPerSupplier: 8,
  loadBefore: [1.5, 2, 2.5],
  cores: 2,
  postgres: '15.20',
  node: 'v20.20.2',
};

const phase = (name: string, rate: number, p99: number, extra: Partial<PhaseResult> = {}): PhaseResult => ({
  name,
  ran: true,
  ok: rate * 20,
  failed: 0,
  seconds: 20,
  rate,
  p50: p99 / 3,
  p95: p99 / 2,
  p99,
  ...extra,
});

const confirmation = (p99: number) => ({
  parts: [
    { name: 'create', p50: 1, p95: 2, p99: 3, count: 10 },
    { name: 'confirmation', p50: p99 / 3, p95: p99 / 2, p99, count: 10 },
  ],
});

const targetLine = (text: string, start: string) => text.split('\n').find((l) => l.startsWith(`| ${start}`));

describe('the order bench report', () => {
  it('judges each of issue 19 targets against the same run’s pgbench', () => {
    const pg = phase('pgbench -N', 6000, 20);
    const met = report(
      run,
      pg,
      phase('signed order create', 2100, 49.9),
      phase('full cycle', 600, 300, confirmation(99)),
    );
    expect(targetLine(met, 'signed create >= 0.35x')).toBe('| signed create >= 0.35x pgbench -N | 0.35x | yes |');
    expect(targetLine(met, 'signed create p99')).toBe('| signed create p99 < 50 ms at 32 clients | 49.9 ms | yes |');
    expect(targetLine(met, 'full cycle >=')).toBe('| full cycle >= 0.10x pgbench -N | 0.10x | yes |');
    expect(targetLine(met, "full cycle's confirmation")).toBe(
      "| full cycle's confirmation p99 < 100 ms | 99.0 ms | yes |",
    );

    const missed = report(
      run,
      pg,
      phase('signed order create', 2000, 50),
      phase('full cycle', 120, 900, confirmation(100)),
    );
    expect(targetLine(missed, 'signed create >= 0.35x')).toMatch(/0\.33x \| \*\*no\*\* \|$/);
    expect(targetLine(missed, 'signed create p99')).toMatch(/50\.0 ms \| \*\*no\*\* \|$/);
    expect(targetLine(missed, 'full cycle >=')).toMatch(/0\.020x \| \*\*no\*\* \|$/);
    expect(targetLine(missed, "full cycle's confirmation")).toMatch(/100\.0 ms \| \*\*no\*\* \|$/);
  });

  it('does not judge the p99 target at another number of clients, nor ratios without pgbench', () => {
    const text = report(
      { ...run, clients: 8 },
      notRun('pgbench -N'),
      phase('signed order create', 2000, 10),
      notRun('full cycle'),
    );
    expect(targetLine(text, 'signed create p99')).toBe(
      '| signed create p99 < 50 ms at 32 clients | 10.0 ms | — (run at 8 clients) |',
    );
    expect(targetLine(text, 'signed create >= 0.35x')).toMatch(/\| not measured \|$/);
    expect(targetLine(text, "full cycle's confirmation")).toMatch(/\| not measured \|$/);
  });

  it('prints the cycle’s steps, the utilisation, round trips and lock waits of each phase', () => {
    const cycle = phase('full cycle', 100, 300, {
      ...confirmation(150),
      machineBusy: 0.97,
      runBusy: 0.6,
      roundTrips: 31.25,
      lockMsPerUnit: 12.5,
      lockShare: 0.4,
      backendsBusy: 9.6,
      lockEvents: [['transactionid', 0.9]],
      lockStatements: [['update party_daily set …', 0.75]],
    });
    const text = report(run, phase('pgbench -N', 6000, 20), notRun('signed order create'), cycle);
    expect(text).toContain('| — its confirmation | | | 50.0 | 75.0 | 150.0 | 10 | |');
    expect(text).toContain('| full cycle | 31.3 | 12.50 | 40 % | 9.6 |');
    expect(text).toContain(
      '- full cycle: by wait event transactionid 90 %; by statement `update party_daily set …` 75 %',
    );
    expect(text).not.toMatch(/^#/m);
  });

  it('takes percentiles by rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentiles(values)).toEqual({ p50: 51, p95: 96, p99: 100 });
    expect(Number.isNaN(percentiles([]).p99)).toBe(true);
  });
});

describe('writing the report into the README', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const readme = [
    '# Benchmarks',
    '## Pages',
    '### Measured (pages)',
    'pages figures',
    '## Orders (`npm run bench`)',
    'what it does',
    '### Measured (2026-11-25, older)',
    'old figures',
    '',
  ].join('\n');

  it('puts the newest section first in the Orders section, keeps older ones, and replaces a rerun of the same commit and day', () => {
    dir = mkdtempSync(join(tmpdir(), 'bench-readme-'));
    const path = join(dir, 'README.md');
    writeFileSync(path, readme);
    writeReadme(path, 'run one\n\n| a |', { date: '2026-11-27', commit: 'abc1234', load: 3.14 });
    writeReadme(path, 'run two', { date: '2026-11-27', commit: 'def5678', load: 2 });
    writeReadme(path, 'run one again', { date: '2026-11-27', commit: 'abc1234', load: 4 });
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.slice(lines.indexOf('what it does'))).toEqual([
      'what it does',
      '<!-- bench:orders 2026-11-27 def5678 -->',
      '### Measured (2026-11-27, commit def5678, load average 2.0 before the run, written by `BENCH_WRITE=1 npm run bench`)',
      '',
      'run two',
      '',
      '<!-- bench:orders 2026-11-27 abc1234 -->',
      '### Measured (2026-11-27, commit abc1234, load average 4.0 before the run, written by `BENCH_WRITE=1 npm run bench`)',
      '',
      'run one again',
      '',
      '### Measured (2026-11-25, older)',
      'old figures',
      '',
    ]);
    expect(lines.slice(0, 4)).toEqual(['# Benchmarks', '## Pages', '### Measured (pages)', 'pages figures']);
  });
});
