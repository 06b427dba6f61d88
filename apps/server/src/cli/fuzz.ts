/**
 * The long fuzz run: `npm run fuzz -- --requests 100000 [--seed 1] [--postgres]`. It sends the same
 * kinds of cases as the short run of `npm test` (testing/fuzz.ts), every value of every field and more
 * random ones, seed after seed until the count is reached, to an app on a fresh embedded database (or
 * a scratch PostgreSQL database with --postgres and TEST_DATABASE_URL), then checks the ledger and the
 * audit chain. It prints its figures and exits 1 on any failure.
 */
import { parseArgs } from 'node:util';
import { verifyAuditChain } from '../platform/audit.js';
import { AUDIT_SEAL_STALE_MS, sealAuditRows } from '../platform/audit-sealer.js';
import { type FuzzReport, runFuzz } from '../testing/fuzz-runner.js';
import { startTestApp } from '../testing/harness.js';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '100000' },
    seed: { type: 'string', default: '1' },
    postgres: { type: 'boolean', default: false },
  },
});
const wanted = Number(values.requests);
const firstSeed = Number(values.seed);
if (!Number.isInteger(wanted) || wanted < 1 || !Number.isInteger(firstSeed)) {
  console.error('usage: npm run fuzz -- --requests <count> [--seed <n>] [--postgres]');
  process.exit(2);
}
if (values.postgres) process.env.TEST_DB = 'postgres';

const t = await startTestApp({ config: { rateLimitFactor: 10_000 } });
const total: FuzzReport = { requests: 0, byStatus: {}, failures: [], checkedGroups: 0, uncheckedRefusals: 0, ms: 0 };
const started = Date.now();
let seed = firstSeed;
while (total.requests < wanted) {
  const run = await runFuzz(t, { seed, randomCount: 12, maxRequests: wanted - total.requests });
  total.requests += run.requests;
  total.checkedGroups += run.checkedGroups;
  total.uncheckedRefusals += run.uncheckedRefusals;
  total.failures.push(...run.failures);
  for (const f of run.failures) console.log(`FAILURE ${f.endpointId} ${f.label}: ${f.problem}`);
  for (const [status, n] of Object.entries(run.byStatus)) {
    total.byStatus[Number(status)] = (total.byStatus[Number(status)] ?? 0) + n;
  }
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `seed ${seed}: ${total.requests} requests in ${seconds.toFixed(0)} s (${(total.requests / seconds).toFixed(0)}/s), ${total.failures.length} failures`,
  );
  seed += 1;
}
const ledger = await t.app.services.ledger.check();
await sealAuditRows(t.database.db, { wait: true });
const chain = await verifyAuditChain(t.database.db, new Date(), AUDIT_SEAL_STALE_MS);
const memory = process.memoryUsage();
await t.close();

const seconds = (Date.now() - started) / 1000;
console.log(
  JSON.stringify(
    {
      database: values.postgres ? 'postgres' : 'pglite',
      seeds: `${firstSeed}..${seed - 1}`,
      requests: total.requests,
      seconds: Math.round(seconds),
      perSecond: Math.round(total.requests / seconds),
      byStatus: total.byStatus,
      comparedRuns: total.checkedGroups,
      uncheckedRefusals: total.uncheckedRefusals,
      failures: total.failures.length,
      ledgerOk: ledger.ok,
      auditChainOk: chain.ok,
      rssMiB: Math.round(memory.rss / 1_048_576),
    },
    null,
    2,
  ),
);
process.exit(total.failures.length === 0 && ledger.ok && chain.ok ? 0 : 1);
