import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** Vitest global setup: build the console once per run, so the browser never tests a stale build. */
export default function buildConsole() {
  execFileSync('npm', ['run', 'build', '-w', '@paydesk/web'], {
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    stdio: ['ignore', 'ignore', 'inherit'],
    // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
