import { type AuditAction, Code, endpoints } from '@paydesk/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyAuditChain, writeAudit } from '../../platform/audit.js';
import { AUDIT_SEAL_STALE_MS, SEALER_LOCK, sealAuditRows } from '../../platform/audit-sealer.js';
import { type Auth, startTestApp, type TestApp } from '../../testing/harness.js';

let t: TestApp;
let superAdmin: Auth;

beforeAll(async () => {
  t = await startTestApp();
  superAdmin = await t.loginWithToken2('superadmin');
});
afterAll(() => t.close());

describe('audit log', () => {
  it('records who changed what, without secrets, readable with filters', async () => {
    const add = await t.call(
      endpoints.users.addUser,
      { nickname: 'Audited', account: 'audited1', password: 'audit1234', access: 'merchant' },
      superAdmin,
    );
    expect(add.body.code).toBe(200);
    const res = await t.call(
      endpoints.audit.getList,
      { pageIndex: 1, action: 'users.addUser', account: 'superadmin' },
      superAdmin,
    );
    expect(res.body.data.total).toBe(1);
    expect(res.body.data.list[0]).toMatchObject({
      account: 'superadmin',
      role: 'superAdmin',
      action: 'users.addUser',
      target: `user:${add.body.data.id}`,
      after: { account: 'audited1', nickname: 'Audited', role: 'merchant' },
    });
    const everything = await t.call(endpoints.audit.getList, { pageIndex: 1, pageSize: 500 }, superAdmin);
    expect(JSON.stringify(everything.body.data)).not.toMatch(/audit1234|demo1234/);
    const actions = new Set(everything.body.data.list.map((r: { action: string }) => r.action));
    // Besides the seed's own actions (accounts, parties, resources, approved deposits), audited like the
    // console's: this test's sign-ins and the account it added.
    expect([...actions]).toEqual(expect.arrayContaining(['users.addUser', 'auth.login', 'auth.login2']));
    // `<area>.<call>`, both camelCase (payScripts.create, the demo's pay script).
    expect([...actions].every((a) => /^[a-z][a-zA-Z]*\.[a-zA-Z0-9]+$/.test(a as string))).toBe(true);
  });

  it('names who and what by name: accounts, sessions by their account, parties by name, orders by code', async () => {
    const rowsOf = async (action: string) =>
      (await t.call(endpoints.audit.getList, { pageIndex: 1, pageSize: 100, action }, superAdmin)).body.data
        .list as Array<{ target: string; targetName: string | null; after: { account?: string; name?: string } }>;
    // Each account added by the seed is named by its account, not its id.
    const added = await rowsOf('users.addUser');
    expect(added.length).toBeGreaterThan(0);
    for (const row of added) expect(row.targetName, row.target).toBe(row.after.account);
    // A sign-in's session reads as the account that signed in.
    const logins = await rowsOf('auth.login');
    expect(logins.find((r) => r.target.startsWith('session:'))?.targetName).toBe('superadmin');
    expect((await rowsOf('merchants.create'))[0]?.targetName).toBe('Merchant One');
    expect((await rowsOf('suppliers.')).map((r) => r.targetName).sort()).toEqual(
      expect.arrayContaining(['Agent One', 'Supplier One']),
    );
    // A deposit proposal names its party.
    expect(
      (await rowsOf('funds.')).every((r) => ['Merchant One', 'Supplier One', 'Agent One'].includes(r.targetName!)),
    ).toBe(true);

    // An order by its code; a target whose row does not exist keeps no name (the raw target stays).
    await t.database.db.transaction(async (tx) => {
      const actor = { userId: null, account: 'system', role: null, ip: null };
      await writeAudit(
        tx,
        actor,
        { action: 'test.names' as AuditAction, target: 'order:C2026112400001' },
        t.clock.now(),
      );
      await writeAudit(tx, actor, { action: 'test.names' as AuditAction, target: 'merchant:999999' }, t.clock.now());
      await writeAudit(tx, actor, { action: 'test.names' as AuditAction, target: 'user:99999999999' }, t.clock.now());
    });
    const tests = await rowsOf('test.names');
    expect(tests.map((r) => [r.target, r.targetName])).toEqual([
      ['user:99999999999', null],
      ['merchant:999999', null],
      ['order:C2026112400001', 'C2026112400001'],
    ]);
  });

  it('filters by time in the platform time zone', async () => {
    const now = t.clock.now();
    const future = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
    const res = await t.call(endpoints.audit.getList, { pageIndex: 1, startTime: `${future} 23:59:59` }, superAdmin);
    expect(res.body.data.total).toBe(0);
  });

  it('exports the filtered set as CSV matching the list, downloadable with the session cookie', async () => {
    const list = await t.call(endpoints.audit.getList, { pageIndex: 1, action: 'auth.login' }, superAdmin);
    const res = await t.app.inject({
      url: '/v1.0/audit/export?action=auth.login',
      cookies: { token: superAdmin.token! },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="audit-export-\d{8}T\d{6}\.csv"$/);
    expect(res.body.charCodeAt(0)).toBe(0xfeff);
    const lines = res.body.slice(1).trim().split('\n');
    expect(lines[0]).toBe('id,at,account,role,action,target,before,after,ip');
    expect(lines).toHaveLength(list.body.data.total + 1);
    // The action filter matches a part of the name, like the list's (auth.login and auth.login2).
    expect(lines.slice(1).every((l) => /,auth\.login2?,/.test(l))).toBe(true);
    // A POST-only credential rule: the cookie alone never authenticates a POST.
    const post = await t.app.inject({
      method: 'POST',
      url: '/v1.0/user/getInfo',
      cookies: { token: superAdmin.token! },
    });
    expect(post.json().code).toBe(Code.sessionExpired);
  });

  it('is append-only: the database refuses to update or delete a row', async () => {
    await expect(t.database.db.execute(sql`update audit_log set action = 'x'`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from audit_log`)).rejects.toThrow();
  });

  const SYSTEM = { userId: null, account: 'system', role: null, ip: null };
  const chainRows = async () =>
    (
      (await t.database.db.execute(
        sql`select id, seq, prev_hash, hash from audit_log where seq is not null order by seq`,
      )) as unknown as { rows: Array<{ id: number | string; seq: number | string; prev_hash: string; hash: string }> }
    ).rows;
  const verify = () => verifyAuditChain(t.database.db, t.clock.now(), AUDIT_SEAL_STALE_MS);

  it('writes a row unsealed, without a lock, and the sealer links it shortly after commit', async () => {
    await t.database.db.transaction((tx) =>
      writeAudit(tx, SYSTEM, { action: 'test.soon' as AuditAction, target: 'n:1' }, t.clock.now()),
    );
    // The app's sealer seals this process's rows shortly after they are written.
    await vi.waitFor(
      async () => {
        const got = (await t.database.db.execute(
          sql`select seq, hash from audit_log where action = 'test.soon'`,
        )) as unknown as { rows: Array<{ seq: string | null; hash: string | null }> };
        expect(got.rows[0]?.seq).not.toBeNull();
        expect(got.rows[0]?.hash).toMatch(/^[0-9a-f]{64}$/);
      },
      { timeout: 5_000, interval: 20 },
    );
  });

  it('seals rows written at once, with any text, in one gapless chain as the verifier recomputes it', async () => {
    // Writers commit concurrently, and rolled-back ones leave no row; sealers race one another.
    const at = new Date('2026-11-24T10:00:00.123Z');
    const write = (i: number) =>
      t.database.db.transaction(async (tx) => {
        await writeAudit(
          tx,
          SYSTEM,
          // An action of its own (no real one is written this way), so the query below finds these rows alone.
          { action: 'test.chain' as AuditAction, target: `n:${i}`, after: { note: `备注 ${i} — ünïcode ✓ 🚀`, n: i } },
          at,
        );
        if (i % 3 === 0) tx.rollback();
      });
    await Promise.all([
      ...Array.from({ length: 30 }, (_, i) => write(i).catch(() => undefined)),
      sealAuditRows(t.database.db, { batch: 4 }),
      sealAuditRows(t.database.db, { batch: 7 }),
    ]);
    await sealAuditRows(t.database.db, { wait: true });
    const rows = await chainRows();
    expect(rows.map((r) => Number(r.seq))).toEqual(rows.map((_, i) => i + 1));
    for (let i = 1; i < rows.length; i += 1) expect(rows[i]!.prev_hash).toBe(rows[i - 1]!.hash);
    const written = (
      (await t.database.db.execute(
        sql`select count(*)::int as n from audit_log where action = 'test.chain'`,
      )) as unknown as { rows: Array<{ n: number }> }
    ).rows[0]!.n;
    expect(written).toBe(20);
    expect(await verify()).toEqual({
      ok: true,
      checked: rows.length,
      firstBrokenId: null,
      unsealed: 0,
      staleUnsealed: 0,
    });
  });

  it('reports rows left unsealed too long', async () => {
    // Seen from inside the writer's transaction, before the sealer can see the rows.
    await t.database.db
      .transaction(async (tx) => {
        const now = t.clock.now();
        await writeAudit(tx, SYSTEM, { action: 'test.stale' as AuditAction }, new Date(now.getTime() - 60_000));
        await writeAudit(tx, SYSTEM, { action: 'test.stale' as AuditAction }, now);
        expect(await verifyAuditChain(tx, now, AUDIT_SEAL_STALE_MS)).toMatchObject({
          ok: false,
          firstBrokenId: null,
          unsealed: 2,
          staleUnsealed: 1,
        });
        tx.rollback();
      })
      .catch(() => undefined);
  });

  it('lets the sealer seal a row once, with its content unchanged, and nothing else', async () => {
    await t.database.db.transaction((tx) =>
      writeAudit(tx, SYSTEM, { action: 'test.seal' as AuditAction, target: 'n:1' }, t.clock.now()),
    );
    await sealAuditRows(t.database.db, { wait: true });
    // Re-sealing a sealed row, or sealing with other content, is refused.
    await expect(
      t.database.db.execute(sql`update audit_log set seq = seq + 1000000 where action = 'test.seal'`),
    ).rejects.toThrow();
    // Under the sealers' lock: the app's own sealer, reading the last seal before this commits and the
    // unsealed rows after, would otherwise seal the row after itself (PostgreSQL, read committed).
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${SEALER_LOCK})`);
      await tx.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
      await tx.execute(sql`update audit_log set seq = null, prev_hash = null, hash = null where action = 'test.seal'`);
      await tx.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
    });
    await expect(
      t.database.db.execute(
        sql`update audit_log set seq = 9999999, prev_hash = 'x', hash = 'y', target = 'n:2' where action = 'test.seal'`,
      ),
    ).rejects.toThrow();
    await sealAuditRows(t.database.db, { wait: true });
    expect((await verify()).ok).toBe(true);
  });

  it('verifyChain detects an edited sealed row, even one edited around the trigger', async () => {
    await sealAuditRows(t.database.db, { wait: true });
    expect((await t.call(endpoints.audit.verifyChain, {}, superAdmin)).body.data).toMatchObject({
      ok: true,
      firstBrokenId: null,
    });
    const second = (await chainRows())[1]!;
    await t.database.db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
    await t.database.db.execute(
      sql`update audit_log set after = '{"account":"someone-else"}'::jsonb where id = ${Number(second.id)}`,
    );
    await t.database.db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
    const res = await t.call(endpoints.audit.verifyChain, {}, superAdmin);
    expect(res.body.data).toMatchObject({ ok: false, firstBrokenId: Number(second.id) });
  });

  it('verifyChain detects a deleted sealed row: removing the edited row leaves the next one out of place', async () => {
    const [, edited, next] = await chainRows();
    await t.database.db.execute(sql`alter table audit_log disable trigger audit_log_append_only`);
    await t.database.db.execute(sql`delete from audit_log where id = ${Number(edited!.id)}`);
    await t.database.db.execute(sql`alter table audit_log enable trigger audit_log_append_only`);
    const res = await t.call(endpoints.audit.verifyChain, {}, superAdmin);
    expect(res.body.data).toMatchObject({ ok: false, checked: 1, firstBrokenId: Number(next!.id) });
  });

  it('is for superAdmin and admin only', async () => {
    const service = await t.login('service');
    expect((await t.call(endpoints.audit.getList, { pageIndex: 1 }, service)).body.code).toBe(Code.forbidden);
  });
});
