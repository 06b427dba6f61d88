import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { embeddedOwner, pidFileOf } from './data-dir.js';

describe('embedded database folder owner', () => {
  const dirs: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'paydesk-owner-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('names a live server holding the folder, and nobody once it is gone or for a stale file', async () => {
    const dir = folder();
    expect(embeddedOwner(dir)).toBeNull();

    const server = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    await new Promise((resolve) => server.once('spawn', resolve));
    writeFileSync(pidFileOf(dir), String(server.pid));
    expect(embeddedOwner(dir)).toBe(server.pid);

    server.kill();
    await new Promise((resolve) => server.once('exit', resolve));
    expect(embeddedOwner(dir)).toBeNull();

    // This process's own id (reused after a crash) and garbage are stale too.
    writeFileSync(pidFileOf(dir), String(process.pid));
    expect(embeddedOwner(dir)).toBeNull();
    writeFileSync(pidFileOf(dir), 'not a pid');
    expect(embeddedOwner(dir)).toBeNull();
  });
});
