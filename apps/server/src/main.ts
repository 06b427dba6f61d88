import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
// The demo's payout gateway: the fake of tools/ (Node only), run beside the server with the demo data (seed/demo-gateway.ts).
import type { FakeGateway } from '../../../tools/fake-gateway/fake-gateway.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { embeddedOwner, pidFileOf } from './db/data-dir.js';
import { autovacuumOff, upkeep } from './db/upkeep.js';
import { settleDemoHistory } from './modules/system/demo-history.js';
import { demoGatewayWebhookUrls, goLive, startDemoGateway } from './seed/demo-gateway.js';
import { type DemoHistoryRun, makeDemoHistory } from './seed/demo-history.js';
import { announceDemoHistory, describeDemoOrders, describeSeed, seedOnFirstStart } from './seed/seed.js';

/** `npm start`: one process serving the console, the API, the docs and the metrics. */
async function main() {
  const config = loadConfig();
  const embedded = !config.databaseUrl;
  // The embedded database allows one process per folder: a second server would write the same files.
  if (embedded && config.dataDir) {
    const owner = embeddedOwner(config.dataDir);
    if (owner !== null) {
      console.error(
        `PayDesk is already running on ${config.dataDir} (process ${owner}), and its embedded database ` +
          'allows one process. Stop that one first, or give this one its own DATA_DIR (or a DATABASE_URL). ' +
          `If process ${owner} is not PayDesk (a machine restart reused its number), delete ${pidFileOf(config.dataDir)}.`,
      );
      process.exit(1);
    }
    mkdirSync(config.dataDir, { recursive: true });
    const pidFile = pidFileOf(config.dataDir);
    writeFileSync(pidFile, String(process.pid));
    // Also when the start fails: the folder is free again once this process ends.
    process.on('exit', () => rmSync(pidFile, { force: true }));
  }
  const database = await openDatabase({ url: config.databaseUrl, dataDir: embedded ? config.dataDir : undefined });

  // An empty database gets the demo or one superadmin, in seconds; the demo's 30 days of orders (unless
  // DEMO_ORDERS=0) are made once the server listens, so the console answers a newcomer at once.
  const seeded = await seedOnFirstStart({ config, database });
  const history = seeded.history;
  if (seeded.kind === 'none') {
    const cut = await settleDemoHistory(database.db, { onlyProcess: embedded });
    if (cut) {
      console.warn(
        `The demo's order history was cut short by a stop after ${cut.made.toLocaleString('en-US')} of about ` +
          `${cut.planned.toLocaleString('en-US')} orders: what was made stays and the rest is skipped ` +
          '(its unpaid orders time out and its undelivered callbacks fail like any others). ' +
          'For the whole history, start on an empty DATA_DIR.',
      );
    }
  }
  // With the demo data, the fake payout gateway that the demo's gateway payout accounts (2002, 2003) point at
  // runs in this process on 127.0.0.1:DEMO_GATEWAY_PORT, quiet while the history uses it (seed/demo-gateway.ts).
  let gateway: FakeGateway | null = null;
  if (config.demo) {
    try {
      gateway = await startDemoGateway(config.demoGatewayPort);
    } catch (error) {
      console.warn(
        `The demo's fake payout gateway could not listen on 127.0.0.1:${config.demoGatewayPort} ` +
          `(${(error as NodeJS.ErrnoException).code ?? (error as Error).message}): the server runs without it, and the ` +
          "demo's gateway payouts (products 2002, 2003) are not paid until something answers there (free the port and restart).",
      );
    }
  }
  // The embedded database is vacuumed and analyzed by this process (db/upkeep.ts): catch up at start
  // (whatever changed since the last run), then every minute.
  if (embedded) await upkeep(database);
  else if (await autovacuumOff(database)) {
    console.warn(
      '[db] autovacuum is off on this PostgreSQL: nothing keeps its statistics or removes dead rows; ' +
        'run VACUUM (ANALYZE) regularly, or turn autovacuum on.',
    );
  }
  // While the history is made, the background jobs wait: their timeouts and callback deliveries run on
  // the real clock and would overtake the history's own, which moves through the past 30 days.
  const app = await buildApp({ config, database, holdJobs: history !== undefined });
  // A promise rejected where nobody awaits it must not end the service for everyone (Node's default):
  // it is logged and counted in /metrics (paydesk_unexpected_errors_total), and the process goes on.
  process.on('unhandledRejection', (reason) => {
    app.log.error({ err: reason }, 'unhandled promise rejection');
    app.countUnexpected('rejection');
  });
  await app.listen({ port: config.port, host: config.host });

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
  let making: DemoHistoryRun | null = null;
  /** Once no history uses it: the fake calls this server's webhook route and moves payouts at a watchable pace. */
  const gatewayGoesLive = async () => {
    if (!gateway || stopping) return;
    const hooks = await demoGatewayWebhookUrls(database.db, config);
    goLive(gateway, hooks);
    const to = hooks.length > 0 ? hooks.map((h) => h.url).join(', ') : '(none: no demo gateway account)';
    console.log(
      `Fake payout gateway (demo) on ${gateway.url}, webhooks to ${to}; ` +
        "the demo's gateway payout accounts (supplier1, products 2002 and 2003) pay through it.\n",
    );
  };

  if (history) {
    console.log(announceDemoHistory(history.count));
    making = makeDemoHistory({ ...history, gateway }, (line) => console.log(line));
    making.finished
      .then((summary) => {
        if (summary) console.log(`${describeDemoOrders(summary)}\n`);
      })
      .catch((error: unknown) => {
        app.log.error({ err: error }, 'the demo order history failed');
        console.error('The demo order history failed; the console works without it.');
      })
      .then(async () => {
        await gatewayGoesLive();
        if (config.jobs && !stopping) await app.services.jobs.start(app.log);
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'background jobs failed to start'));
  } else {
    await gatewayGoesLive();
  }

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping');
    // A history being made ends after its step in hand: every step is a whole transaction.
    await making?.stop();
    await app.close();
    await gateway?.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
