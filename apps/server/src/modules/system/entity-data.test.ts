import { Code, ENTITY_TABLES, endpoints } from '@paydesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Auth, downloadCsv, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';
import { EntityData } from './entity-data.js';

/**
 * The entity data view (issue 21 item 6): superAdmin (and technical maintenance, read-only) pages
 * through the main tables with a filter; secrets never leave the server.
 */
const { entityData } = endpoints;
let t: TestApp;
let superAdmin: Auth;
let maintenance: Auth;

beforeAll(async () => {
  t = await startTestApp();
  superAdmin = await t.loginWithToken2('superadmin');
  maintenance = await t.login('maintenance');
});
afterAll(() => t.close());

describe('entity data view', () => {
  it('exports a table as CSV: its columns, newest first, filtered, secrets only as set', async () => {
    const csv = await downloadCsv(t, entityData.entityExport, { table: 'users' }, superAdmin);
    expect(csv.status).toBe(200);
    const header = csv.header.split(',');
    expect(header).toContain('account');
    expect(header.some((h) => h.startsWith('__key'))).toBe(false);
    const page = await t.call(entityData.entityRows, { table: 'users', pageIndex: 1, pageSize: 500 }, superAdmin);
    expect(csv.rows).toHaveLength(page.body.data.list.length);
    const passwordAt = header.indexOf('password_hash');
    expect(csv.rows.every((line) => line.split(',')[passwordAt] === 'set')).toBe(true);
    const one = await downloadCsv(
      t,
      entityData.entityExport,
      { table: 'users', column: 'account', value: 'merchant1' },
      maintenance,
    );
    expect(one.rows).toHaveLength(1);
    expect(one.rows[0]!.split(',')[header.indexOf('account')]).toBe('merchant1');
  });

  it('reads every table in keyset batches: the same rows as its pages, whatever its key', async () => {
    const data = new EntityData(t.database.db);
    for (const table of ENTITY_TABLES) {
      const exported = [];
      for await (const row of data.export({ table }, 7)) exported.push(row);
      const paged = await data.rows({ table, pageIndex: 1, pageSize: 500 });
      expect(exported.slice(0, 500), table).toEqual(paged.list);
    }
    // Newest first by the key's own order, not its text's ('34' before '9').
    const ids = (await data.rows({ table: 'audit_log', pageIndex: 1, pageSize: 500 })).list.map((r) => Number(r.id));
    expect(ids.length).toBeGreaterThan(10);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('lists every table with its columns, secrets marked', async () => {
    const res = await t.call(entityData.entityTables, {}, superAdmin);
    expect(res.body.code).toBe(200);
    const tables = res.body.data.list as Array<{ table: string; columns: Array<{ name: string; kind: string }> }>;
    expect(tables.map((x) => x.table)).toEqual([...ENTITY_TABLES]);
    const users = tables.find((x) => x.table === 'users')!;
    const kind = (name: string) => users.columns.find((c) => c.name === name)?.kind;
    expect(kind('account')).toBe('value');
    for (const secret of ['password_hash', 'google_secret']) expect(kind(secret)).toBe('secret');
    for (const x of tables) expect(x.columns.length, x.table).toBeGreaterThan(1);
  });

  it('pages a table newest first, filters by a column, and never answers a secret', async () => {
    const page = await t.call(entityData.entityRows, { table: 'users', pageIndex: 1, pageSize: 3 }, superAdmin);
    expect(page.body.code).toBe(200);
    const rows = page.body.data.list as Array<Record<string, string | null>>;
    expect(rows).toHaveLength(3);
    expect(Number(rows[0]!.id)).toBeGreaterThan(Number(rows[1]!.id));
    expect(page.body.data.hasMore).toBe(true);
    expect(rows.every((r) => r.password_hash === 'set')).toBe(true);

    const one = await t.call(
      entityData.entityRows,
      { table: 'users', column: 'account', value: 'merchant1', pageIndex: 1 },
      maintenance,
    );
    expect(one.body.data.list.map((r: Record<string, string>) => r.account)).toEqual(['merchant1']);
    expect(one.body.data.hasMore).toBe(false);

    // The merchants' sealed API secrets and the sessions' token hashes stay on the server.
    const merchants = await t.call(entityData.entityRows, { table: 'merchants', pageIndex: 1 }, superAdmin);
    const sessions = await t.call(entityData.entityRows, { table: 'sessions', pageIndex: 1 }, superAdmin);
    expect(merchants.body.data.list.length).toBeGreaterThan(0);
    expect(sessions.body.data.list.length).toBeGreaterThan(0);
    expect(merchants.body.data.list.every((r: Record<string, string>) => r.secret_sealed === 'set')).toBe(true);
    expect(sessions.body.data.list.every((r: Record<string, string>) => r.token_hash === 'set')).toBe(true);
    expect(JSON.stringify(merchants.body)).not.toContain('v1.');
  });

  it('answers a secret setting only as set', async () => {
    await t.setSetting('BotToken', '123456789:AAHk-abcdefghijklmnopqrstuvwxyz012345');
    try {
      const res = await t.call(
        entityData.entityRows,
        { table: 'system_settings', column: 'key', value: 'BotToken', pageIndex: 1 },
        superAdmin,
      );
      expect(res.body.data.list).toHaveLength(1);
      expect(res.body.data.list[0].value).toBe('set');
    } finally {
      await t.setSetting('BotToken', null);
    }
  });

  it('refuses a filter on a secret or unknown column, and the roles without the page', async () => {
    const admin = await t.login('admin');
    const before = await snapshot(t.database);
    for (const column of ['password_hash', 'nope', 'id; drop table users']) {
      const res = await t.call(entityData.entityRows, { table: 'users', column, value: 'x', pageIndex: 1 }, superAdmin);
      expect(res.status, column).toBe(400);
      expect(res.body.code).toBe(Code.invalidInput);
    }
    expect((await t.call(entityData.entityRows, { table: 'users', pageIndex: 1 }, admin)).status).toBe(403);
    expect(await snapshot(t.database)).toBe(before);
  });
});
