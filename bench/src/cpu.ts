/**
 * CPU time by who spent it, so a phase's cost per unit (a pgbench transaction, an order) can be
 * compared whatever the machine's speed that day: on a machine where the clients, the server and the
 * database share the cores, a phase's rate is about the cores divided by its CPU per unit.
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface CpuSample {
  /** This process, every thread (the server and the load generator's worker), ms. */
  node: number;
  /** Exited children this process waited for (pgbench), ms. */
  children: number;
  /** Every process named postgres on this host, the exited backends included, ms; null without /proc. */
  postgres: number | null;
}

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux, whatever the kernel's HZ). */
const TICK_MS = 10;

/** utime, stime, cutime, cstime of a /proc/<pid>/stat line (the name may hold spaces and parentheses). */
function times(stat: string): [number, number, number, number] {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // fields[0] is the state (field 3 of proc(5)): utime is field 14, so index 11.
  return [Number(fields[11]), Number(fields[12]), Number(fields[13]), Number(fields[14])];
}

function postgresMs(): number | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  let ticks = 0;
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      // Live processes' own time, and the exited backends' time their parent (the postmaster) collected.
      const [utime, stime, cutime, cstime] = times(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      ticks += utime + stime + cutime + cstime;
    } catch {
      // The process ended between the listing and the read: its time is in its parent's now.
    }
  }
  return ticks * TICK_MS;
}

/** CPU ms of the calling thread (utime + stime of /proc/thread-self); null without /proc. */
export function threadCpuMs(): number | null {
  try {
    const [utime, stime] = times(readFileSync('/proc/thread-self/stat', 'utf8'));
    return (utime + stime) * TICK_MS;
  } catch {
    return null;
  }
}

export function cpuSample(): CpuSample {
  const usage = process.cpuUsage();
  let children = 0;
  try {
    const [, , cutime, cstime] = times(readFileSync('/proc/self/stat', 'utf8'));
    children = (cutime + cstime) * TICK_MS;
  } catch {
    // No /proc: the children's time is not known.
  }
  return { node: (usage.user + usage.system) / 1000, children, postgres: postgresMs() };
}

/**
 * CPU ms per unit between two samples (`units`: transactions or orders done). `clientsMs`: what the
 * load generator's thread spent in between (null: not known); `node` is then the server's part alone.
 */
export function cpuPerUnit(before: CpuSample, after: CpuSample, units: number, clientsMs: number | null = null) {
  const per = (a: number | null, b: number | null) =>
    a === null || b === null || units === 0 ? null : (b - a) / units;
  return {
    node: per(before.node, after.node - (clientsMs ?? 0)),
    clients: clientsMs === null ? null : per(0, clientsMs),
    children: per(before.children, after.children),
    postgres: per(before.postgres, after.postgres),
  };
}

export type CpuPerUnit = ReturnType<typeof cpuPerUnit>;
