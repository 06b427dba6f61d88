import { Code, endpoints } from '@paydesk/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServices } from '../../app.js';
import { rowsOf } from '../../db/raw-rows.js';
import { SYSTEM_ACTOR } from '../../platform/audit.js';
import { type Auth, startTestApp, type TestApp } from '../../testing/harness.js';
import { waitFor } from '../../testing/wait.js';
import { SYSTEM_CHECK_REPEAT_MS } from './system-check.js';

/**
 * EnableSystemCheck (issue 21 item 2): a round runs the ledger check and the resource pool's counter
 * check; when either finds differences every live superAdmin gets one in-app message naming them, the
 * same findings again only after a day; nothing when everything agrees or the switch is off; two
 * processes in one round write one message; the background job runs the rounds on its own.
 */
const api = endpoints.messages;
let t: TestApp;
const auth: Record<string, Auth> = {};
let superAdmins: number[] = [];
let resource: { id: number; name: string };
let today = '';

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf<T>(await t.database.db.execute(query));
}

/** The system check's messages and their recipients, oldest first. */
async function checkMessages() {
  return rows<{ id: number; title: string; content: string; recipients: number[] }>(sql`
    select m.id, m.title, m.content,
           array(select r.user_id from message_recipients r where r.message_id = m.id order by r.user_id) as recipients
      from messages m where m.content_template->>'key' = 'systemCheck' order by m.id`);
}

/** Adds `count` orders and `amount` to the account's counter of today, as a hand edit or a bug would. */
async function corruptCounter(count: number, amount: number) {
  await t.database.db.execute(sql`
    insert into resource_daily (resource_id, day, count, amount) values (${resource.id}, ${today}, ${count}, ${amount})
    on conflict (resource_id, day) do update set count = resource_daily.count + ${count}, amount = resource_daily.amount + ${amount}`);
}

beforeAll(async () => {
  t = await startTestApp();
  auth.superadmin = await t.login('superadmin');
  auth.admin = await t.login('admin');
  // A second live superAdmin, and a deleted one who gets nothing.
  await t.database.db.execute(sql`
    insert into users (account, nickname, role, password_hash, deleted_at)
    values ('superadmin2', 'Second super admin', 'superAdmin', 'x', null),
           ('superadmin3', 'Deleted super admin', 'superAdmin', 'x', now())`);
  superAdmins = (
    await rows<{ id: number }>(sql`select id from users where role = 'superAdmin' and deleted_at is null order by id`)
  ).map((r) => Number(r.id));
  expect(superAdmins).toHaveLength(2);
  const [r] = await rows<{ id: number; name: string }>(sql`select id, name from resources order by id limit 1`);
  resource = { id: Number(r!.id), name: r!.name };
  today = t.app.services.orders.today();
});
afterAll(() => t.close());

describe('the system check (EnableSystemCheck)', () => {
  it('on (the default) and everything agrees: the checks run and nobody is told anything', async () => {
    expect(await t.app.services.settings.get('EnableSystemCheck')).toBe(true);
    expect(await t.app.services.systemCheck.round()).toEqual({ ran: true, ledger: 0, counters: 0, msgId: null });
    expect(await checkMessages()).toEqual([]);
  });

  it('off: a corrupted counter is not checked and nobody is told', async () => {
    await corruptCounter(1, 10_000);
    await t.setSetting('EnableSystemCheck', false);
    expect(await t.app.services.systemCheck.round()).toEqual({ ran: false, ledger: 0, counters: 0, msgId: null });
    expect(await checkMessages()).toEqual([]);
    await t.setSetting('EnableSystemCheck', undefined);
  });

  it('on: the corrupted counter gives each live superAdmin exactly one message naming it', async () => {
    const round = await t.app.services.systemCheck.round();
    expect(round).toMatchObject({ ran: true, ledger: 0, counters: 1 });
    const [message, ...more] = await checkMessages();
    expect(more).toEqual([]);
    expect(message!.id).toBe(round.msgId);
    expect(message!.recipients.map(Number)).toEqual(superAdmins);
    expect(message!.title).toBe('System check: 1 difference(s) found');
    expect(message!.content).toContain('found 0 ledger problem(s) and 1 resource pool counter(s)');
    expect(message!.content).toContain('Ledger: -.');
    expect(message!.content).toMatch(
      new RegExp(`resource_daily #${resource.id} ${resource.name} ${today}: (\\d+) / [\\d.]+ -> \\d+ / [\\d.]+`),
    );
    expect(message!.content).toContain('/system/maintenance');

    // In the superAdmin's inbox, with its templates (the console renders them in its language).
    const inbox = await t.call(api.init, {}, auth.superadmin);
    const row = inbox.body.data.unread.find((m: { msg_id: number }) => m.msg_id === round.msgId);
    expect(row.title_template).toEqual({ key: 'systemCheckTitle', values: { count: 1 } });
    const content = await t.call(api.content, { msg_id: round.msgId }, auth.superadmin);
    expect(content.body.code, JSON.stringify(content.body)).toBe(Code.success);
    expect(content.body.data.content_template).toMatchObject({
      key: 'systemCheck',
      values: { ledgerCount: 0, counterCount: 1, ledger: '-' },
    });
    // An admin is not told.
    const admin = await t.call(api.init, {}, auth.admin);
    expect(admin.body.data.unread.some((m: { msg_id: number }) => m.msg_id === round.msgId)).toBe(false);
  });

  it('the same findings are not told again within a day; after a day they are, once', async () => {
    expect((await t.app.services.systemCheck.round()).msgId).toBeNull();
    expect(await checkMessages()).toHaveLength(1);
    t.clock.advance(SYSTEM_CHECK_REPEAT_MS + 60_000);
    // Yesterday's counter is still in the window.
    expect((await t.app.services.systemCheck.round()).msgId).not.toBeNull();
    expect((await t.app.services.systemCheck.round()).msgId).toBeNull();
    expect(await checkMessages()).toHaveLength(2);
  });

  it('changed findings are told at once: a ledger balance that differs from its entries is named', async () => {
    const [account] = await rows<{ code: string }>(
      sql`select code from ledger_accounts where code like 'merchant:%:available' order by code limit 1`,
    );
    await t.database.db.execute(sql`update ledger_accounts set balance = balance + 500 where code = ${account!.code}`);
    try {
      const round = await t.app.services.systemCheck.round();
      // The sum of balances is off too: two ledger problems.
      expect(round).toMatchObject({ ran: true, ledger: 2, counters: 1 });
      const last = (await checkMessages()).at(-1)!;
      expect(last.id).toBe(round.msgId);
      expect(last.recipients.map(Number)).toEqual(superAdmins);
      expect(last.title).toBe('System check: 3 difference(s) found');
      expect(last.content).toContain('found 2 ledger problem(s) and 1 resource pool counter(s)');
      expect(last.content).toContain('the balances sum to 500, not 0');
      expect(last.content).toMatch(new RegExp(`${account!.code}: balance \\d+, entries sum to \\d+`));
    } finally {
      await t.database.db.execute(
        sql`update ledger_accounts set balance = balance - 500 where code = ${account!.code}`,
      );
    }
  });

  it('two processes running a round together write one message', async () => {
    await corruptCounter(2, 20_000);
    const before = (await checkMessages()).length;
    const other = buildServices({ config: t.config, database: t.database, clock: t.clock });
    const rounds = await Promise.all([t.app.services.systemCheck.round(), other.systemCheck.round()]);
    expect(rounds.filter((r) => r.msgId !== null)).toHaveLength(1);
    expect(await checkMessages()).toHaveLength(before + 1);
  });

  it('agreement again (the counters fixed): no message', async () => {
    await t.app.services.maintenance.fix({ days: 3 }, SYSTEM_ACTOR);
    const before = (await checkMessages()).length;
    expect(await t.app.services.systemCheck.round()).toEqual({ ran: true, ledger: 0, counters: 0, msgId: null });
    expect(await checkMessages()).toHaveLength(before);
  });
});

describe('the system check as a background job', () => {
  let j: TestApp;
  beforeAll(async () => {
    j = await startTestApp({ jobs: { systemCheckEverySeconds: 1 } });
  });
  afterAll(() => j.close());

  it('runs on its schedule: a corrupted counter reaches the superAdmin without anyone asking', async () => {
    const [r] = rowsOf<{ id: number }>(await j.database.db.execute(sql`select id from resources order by id limit 1`));
    await j.database.db.execute(sql`
      insert into resource_daily (resource_id, day, count, amount) values (${r!.id}, ${j.app.services.orders.today()}, 1, 100)
      on conflict (resource_id, day) do update set count = resource_daily.count + 1, amount = resource_daily.amount + 100`);
    const superadmin = await j.login('superadmin');
    const unread = await waitFor(
      'the system check message',
      async () => (await j.call(api.init, {}, superadmin)).body.data.unread as Array<{ title: string }>,
      (list) => list.some((m) => m.title === 'System check: 1 difference(s) found'),
    );
    expect(unread.filter((m) => m.title.startsWith('System check')).length).toBe(1);
  });
});
