import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { embeddedOwner } from '../db/data-dir.js';
import { Rollups } from '../modules/statistics/rollups.js';

/**
 * `npm run rollups -- check` says whether the statistics rollups agree with a recomputation from the
 * orders and payouts (exit 1 and the first differences when not); `npm run rollups -- rebuild`
 * recomputes them (order and payout changes wait meanwhile). On the database `npm start` uses
 * (DATA_DIR or DATABASE_URL); the embedded database must be stopped first. docs/operations.md.
 */
async function main() {
  const [command] = process.argv.slice(2);
  if (command !== 'check' && command !== 'rebuild') throw new Error('usage: npm run rollups -- check|rebuild');
  const config = loadConfig();
  const dataDir = config.databaseUrl ? undefined : config.dataDir;
  if (dataDir) {
    const owner = embeddedOwner(dataDir);
    if (owner !== null) throw new Error(`the server (process ${owner}) holds ${dataDir}: stop it first`);
  }
  const database = await openDatabase({ url: config.databaseUrl, dataDir });
  try {
    const rollups = new Rollups(database.db);
    if (command === 'rebuild') {
      await rollups.useTimeZone(config.timeZone);
      console.log(`rebuilt: ${await rollups.rebuild()} buckets`);
      return;
    }
    const check = await rollups.check();
    if (check.agree) {
      console.log(`the rollups agree with the orders and payouts (${check.buckets} buckets)`);
      return;
    }
    console.log(`the rollups differ from the orders and payouts in ${check.differing} of ${check.buckets} buckets:`);
    for (const d of check.differences) console.log(JSON.stringify(d));
    console.log('npm run rollups -- rebuild recomputes them.');
    process.exitCode = 1;
  } finally {
    await database.close();
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
