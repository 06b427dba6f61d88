/**
 * What a phase's measured window is checked with, besides CPU per unit (cpu.ts): the machine's busy
 * share of its cores (/proc/stat), the database round trips this process sent (node-postgres's
 * `query` wrapped from here, so the server's code stays as shipped), and the time the phase's
 * backends spent waiting for locks (pg_stat_activity sampled every ~50 ms and integrated).
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';

/** Jiffies of the machine's `cpu` line of /proc/stat: busy (all but idle and iowait) and total. */
export interface MachineSample {
  busy: number;
  total: number;
  cores: number;
}

export function machineSample(): MachineSample | null {
  try {
    const stat = readFileSync('/proc/stat', 'utf8');
    const line = stat.split('\n', 1)[0]!;
    // user nice system idle iowait irq softirq steal (guest and guest_nice are already in user and nice).
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number);
    const total = user! + nice! + system! + idle! + iowait! + irq! + softirq! + steal!;
    return { busy: total - idle! - iowait!, total, cores: stat.match(/^cpu\d+ /gm)?.length ?? 1 };
  } catch {
    return null;
  }
}

/** The machine's busy share (0..1) of all its cores between two samples; null without /proc. */
export function busyShare(before: MachineSample | null, after: MachineSample | null): number | null {
  if (!before || !after || after.total === before.total) return null;
  return (after.busy - before.busy) / (after.total - before.total);
}

/**
 * Every `query` call of a node-postgres client in this process: the server's pool (drizzle), the
 * job queue's pool and the realtime listener. One call is one round trip (node-postgres sends a
 * statement's parse, bind and execute together and waits for the answer). The load generator runs
 * in a worker thread with modules of its own and sends no SQL; the bench's own probe clients are
 * left out.
 */
const uncounted = new WeakSet<object>();
let sent = 0;
let installed = false;

export function countQueries(): { sent(): number } {
  if (!installed) {
    installed = true;
    const original = pg.Client.prototype.query;
    // biome-ignore lint/suspicious/noExplicitAny: the wrapper passes every overload of query through.
    pg.Client.prototype.query = function (this: pg.Client, ...args: any[]) {
      if (!uncounted.has(this)) sent += 1;
      // biome-ignore lint/suspicious/noExplicitAny: as above.
      return (original as any).apply(this, args);
    } as typeof original;
  }
  return { sent: () => sent };
}

export interface LockWaits {
  /** Backend ms spent waiting for a heavyweight lock (wait_event_type 'Lock': rows, transactions, tables). */
  lockMs: number;
  /** Backend ms in a statement or a transaction (state not 'idle'): the phase's backend time. */
  busyMs: number;
  /** Samples taken. */
  samples: number;
  /** Lock waits by wait_event (transactionid, tuple, relation, advisory...), backend ms. */
  byEvent: Map<string, number>;
  /** Lock waits by the waiting statement's text (its start, whitespace folded), backend ms. */
  byStatement: Map<string, number>;
}

/**
 * A client of the bench's own on this database, left out of the round-trip count, that samples the
 * database's client backends every `everyMs` while started and integrates the counts over the time
 * between samples (taken one after the other: under load the interval stretches and each sample
 * counts for the time it stood for).
 */
export async function lockSampler(url: string, everyMs = 50) {
  const client = new pg.Client({ connectionString: url, application_name: 'bench lock sampler' });
  uncounted.add(client);
  await client.connect();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  return {
    start(): { stop(): Promise<LockWaits> } {
      const waits: LockWaits = { lockMs: 0, busyMs: 0, samples: 0, byEvent: new Map(), byStatement: new Map() };
      let running = true;
      let last = performance.now();
      const loop = (async () => {
        while (running) {
          const { rows } = await client.query<{
            busy: number;
            waiting: Array<{ event: string; query: string }> | null;
          }>(
            `select count(*) filter (where state <> 'idle')::int as busy,
                    json_agg(json_build_object('event', wait_event, 'query', left(query, 200)))
                      filter (where wait_event_type = 'Lock') as waiting
               from pg_stat_activity
              where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
          );
          const now = performance.now();
          const dt = now - last;
          last = now;
          const row = rows[0]!;
          waits.samples += 1;
          waits.busyMs += row.busy * dt;
          for (const w of row.waiting ?? []) {
            waits.lockMs += dt;
            add(waits.byEvent, w.event, dt);
            add(waits.byStatement, statementStart(w.query), dt);
          }
          await new Promise((resolve) => setTimeout(resolve, everyMs));
        }
      })();
      return {
        stop: async () => {
          running = false;
          await loop;
          return waits;
        },
      };
    },
    close: () => client.end(),
  };
}

/**
 * A statement's first 80 characters, whitespace folded and number literals as `?` (pgbench sends its
 * values inline): enough to tell the hot statements apart.
 */
function statementStart(query: string): string {
  const folded = query
    .replace(/\s+/g, ' ')
    .replace(/(?<![$\w.])\d+(\.\d+)?\b/g, '?')
    .trim();
  return folded.length > 80 ? `${folded.slice(0, 80)}…` : folded;
}

export type LockSampler = Awaited<ReturnType<typeof lockSampler>>;
