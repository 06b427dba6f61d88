import { Code, endpoints, listEndpoints } from '@paydesk/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuditChain } from '../platform/audit.js';
import { AUDIT_SEAL_STALE_MS, sealAuditRows } from '../platform/audit-sealer.js';
import { fuzzCases } from './fuzz.js';
import { type FuzzReport, mintSessions, runFuzz } from './fuzz-runner.js';
import { changeMark, startTestApp, type TestApp } from './harness.js';

/**
 * The short fuzz run of `npm test` (the long one: `npm run fuzz -- --requests 100000`): every endpoint
 * of the contract, enumerated from it, with generated malformed and hostile values in each of its
 * fields and raw bodies and queries no field can make, each sent with a session of a role that may call
 * it. No answer may be a 500 or leave the envelope, no refused request may change the database, and
 * afterwards the ledger and the audit chain must still check out.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 17);
let t: TestApp;
let report: FuzzReport;

beforeAll(async () => {
  t = await startTestApp({ config: { rateLimitFactor: 1000 } });
  report = await runFuzz(t, { seed: SEED, randomCount: 2, perField: 4 });
}, 600_000);
afterAll(() => t.close());

describe(`fuzzing every endpoint (seed ${SEED})`, () => {
  it('answers no 500 and nothing outside the envelope, and no refused request changes anything', () => {
    const lines = report.failures.map((f) => `${f.endpointId} ${f.label}: ${f.problem}`);
    expect(lines).toEqual([]);
    // Enough was sent, and most of it was compared with the database (FUZZ_SEED=<seed> sends it again).
    expect(report.requests).toBeGreaterThan(2000);
    expect(report.checkedGroups).toBeGreaterThan(200);
    expect(report.byStatus[400]).toBeGreaterThan(report.requests / 2);
  });

  it('reaches every endpoint of the contract past its guards', () => {
    const ids = new Set(
      fuzzCases({ seed: SEED, randomCount: 0, perField: 1, foreign: { ids: [], codes: [] } }).map((c) => c.endpointId),
    );
    expect([...ids].sort()).toEqual(
      listEndpoints()
        .map((e) => e.id)
        .sort(),
    );
    // Sessions of every role were in play: a case refused by the role guard would be a 403 for a role
    // the endpoint allows, which the runner never sends.
    expect(report.byStatus[403] ?? 0).toBeLessThan(report.requests / 20);
  });

  it('compares with a mark that sees every committed change and nothing else', async () => {
    const auths = await mintSessions(t);
    const admin = auths.get('admin')!;
    const before = await changeMark(t.database);
    await t.call(endpoints.users.getUserList, { pageIndex: 1 }, admin);
    expect(await changeMark(t.database)).toBe(before);
    // A rolled-back write leaves no mark.
    await t.database.db
      .transaction(async (tx) => {
        await tx.execute(sql`update users set nickname = nickname || 'x'`);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await changeMark(t.database)).toBe(before);
    // An update that writes the same values, and a delete, are changes.
    await t.database.db.execute(sql`update users set nickname = nickname where account = 'admin'`);
    const updated = await changeMark(t.database);
    expect(updated).not.toBe(before);
    await t.database.db.execute(sql`delete from error_logs`);
    await t.call(endpoints.errorLog.save, { page: '/x', message: 'y', userAgent: '' }, admin);
    const inserted = await changeMark(t.database);
    await t.database.db.execute(sql`delete from error_logs`);
    expect(await changeMark(t.database)).not.toBe(inserted);
  });

  it('leaves the ledger balanced and the audit chain intact, and the server answering', async () => {
    const auths = await mintSessions(t);
    const superadmin = auths.get('superAdmin')!;
    const ledger = await t.call(endpoints.ledger.ledgerCheck, {}, superadmin);
    expect(ledger.body.data).toEqual({ ok: true, violations: [] });
    await sealAuditRows(t.database.db, { wait: true });
    const chain = await verifyAuditChain(t.database.db, new Date(), AUDIT_SEAL_STALE_MS);
    expect(chain).toMatchObject({ ok: true, firstBrokenId: null, unsealed: 0 });
    const info = await t.call(endpoints.auth.getInfo, undefined, superadmin);
    expect(info.body.code).toBe(Code.success);
  });
});
