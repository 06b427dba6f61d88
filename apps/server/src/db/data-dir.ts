import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The embedded database (PGlite) allows one process per folder: two servers on one folder would both
 * write its files. The server writes its process id here while it runs; a second `npm start` on the
 * folder refuses to start, and `npm run otp` reads a copy instead.
 */
export const pidFileOf = (dataDir: string) => join(dataDir, 'server.pid');

/** The id of another live process holding the folder, or null (no file, or its process is gone). */
export function embeddedOwner(dataDir: string): number | null {
  const pidFile = pidFileOf(dataDir);
  if (!existsSync(pidFile)) return null;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  // A leftover file naming this very process (a container's pid reused after a crash) is stale.
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}
