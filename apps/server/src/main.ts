import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { describeSeed, seedOnFirstStart } from './seed/seed.js';

/** `npm start`: one process serving the console, the API, the docs and the metrics. */
async function main() {
  const config = loadConfig();
  const embedded = !config.databaseUrl;
  if (embedded && config.dataDir) mkdirSync(config.dataDir, { recursive: true });
  const database = await openDatabase({ url: config.databaseUrl, dataDir: embedded ? config.dataDir : undefined });

  // An empty database gets the demo (with its 30 days of orders unless DEMO_ORDERS=0) or one superadmin.
  const seeded = await seedOnFirstStart({ config, database });
  const app = await buildApp({ config, database });
  await app.listen({ port: config.port, host: config.host });

  // The embedded database allows one process: `npm run otp` reads this to know the folder is in use.
  const pidFile = embedded && config.dataDir ? join(config.dataDir, 'server.pid') : undefined;
  if (pidFile) writeFileSync(pidFile, String(process.pid));

  const where = embedded ? `embedded database in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)';
  console.log(`\nPayDesk is running on http://localhost:${config.port} with the ${where}`);
  console.log(`API docs: http://localhost:${config.port}/docs   metrics: /metrics   health: /healthz /readyz`);
  console.log(
    config.jobs
      ? 'Background jobs (merchant callbacks, order timeouts) run in this process (JOBS=0 turns them off).\n'
      : 'Background jobs are off in this process (JOBS=0): another process must run them.\n',
  );
  if (seeded.kind !== 'none') console.log(`${describeSeed(seeded)}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping');
    await app.close();
    await database.close();
    if (pidFile) rmSync(pidFile, { force: true });
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
