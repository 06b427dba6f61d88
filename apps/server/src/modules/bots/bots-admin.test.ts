import { Code, endpoints } from '@paydesk/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Auth, downloadCsv, startTestApp, type TestApp } from '../../testing/harness.js';

/**
 * The Telegram whitelist and bot groups (issue 21 item 5): the system managers add, change and remove
 * them with the second-level password, audited; technical maintenance only reads; other roles neither.
 */
const { bots } = endpoints;
let t: TestApp;
let admin: Auth;
let service: Auth;
let maintenance: Auth;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.loginWithToken2('admin');
  service = await t.loginWithToken2('service');
  maintenance = await t.loginWithToken2('maintenance');
});
afterAll(() => t.close());

const auditRows = async (action: string) =>
  (
    (await t.database.db.execute(
      sql`select action, target, before, after, account from audit_log where action = ${action} order by id`,
    )) as unknown as { rows: Array<Record<string, unknown>> }
  ).rows;

describe('Telegram whitelist', () => {
  it('adds, lists, changes and removes a user, each change audited; a second entry of the same user is refused', async () => {
    const added = await t.call(
      bots.whitelistAdd,
      { telegramUserId: ' 777000111 ', name: 'Ravi', remark: null },
      service,
    );
    expect(added.body.code).toBe(200);
    expect(added.body.data).toMatchObject({ telegramUserId: '777000111', name: 'Ravi', enabled: true, remark: '' });
    const id = added.body.data.id as number;

    const again = await t.call(bots.whitelistAdd, { telegramUserId: '777000111', name: 'Other' }, admin);
    expect(again.body).toMatchObject({ code: Code.conflict, data: { reason: 'telegramUserListed' } });

    const list = await t.call(bots.whitelistList, { pageIndex: 1, keyword: '7770' }, maintenance);
    expect(list.body.data).toMatchObject({ total: 1, list: [{ id, name: 'Ravi' }] });

    const changed = await t.call(
      bots.whitelistUpdate,
      { id, telegramUserId: '777000111', name: 'Ravi K', enabled: false, remark: 'on leave' },
      admin,
    );
    expect(changed.body.data).toMatchObject({ name: 'Ravi K', enabled: false, remark: 'on leave' });
    expect(await t.app.services.botsAdmin.whitelisted('777000111')).toBe(false);

    expect((await t.call(bots.whitelistDelete, { id }, admin)).body.code).toBe(200);
    expect((await t.call(bots.whitelistDelete, { id }, admin)).body.code).toBe(Code.notFound);
    expect((await t.call(bots.whitelistList, { pageIndex: 1 }, admin)).body.data.total).toBe(0);

    expect(await auditRows('bots.whitelistAdd')).toMatchObject([{ account: 'service', after: { name: 'Ravi' } }]);
    expect(await auditRows('bots.whitelistUpdate')).toMatchObject([
      {
        target: `telegramUser:${id}`,
        before: { name: 'Ravi', enabled: true },
        after: { name: 'Ravi K', enabled: false },
      },
    ]);
    expect(await auditRows('bots.whitelistDelete')).toMatchObject([{ before: { name: 'Ravi K' } }]);
  });

  it('refuses malformed ids, and changes without token2, from technical maintenance or other roles', async () => {
    const bad = await t.call(bots.whitelistAdd, { telegramUserId: '12ab', name: 'x' }, admin);
    expect(bad.body.code).toBe(Code.invalidInput);
    const noToken2 = await t.login('admin');
    expect((await t.call(bots.whitelistAdd, { telegramUserId: '5', name: 'x' }, noToken2)).body.code).toBe(1024);
    expect((await t.call(bots.whitelistAdd, { telegramUserId: '5', name: 'x' }, maintenance)).body.code).toBe(
      Code.forbidden,
    );
    const merchant = await t.loginWithToken2('merchant1');
    expect((await t.call(bots.whitelistList, { pageIndex: 1 }, merchant)).body.code).toBe(Code.forbidden);
    const support = await t.loginWithToken2('support');
    expect((await t.call(bots.groupList, { pageIndex: 1 }, support)).body.code).toBe(Code.forbidden);
    expect((await t.call(bots.whitelistList, { pageIndex: 1 }, admin)).body.data.total).toBe(0);
  });
});

describe('bot groups', () => {
  it("names the chat of a merchant, a supplier and the staff, with the party's name; one group per chat", async () => {
    const parties = await t.call(bots.groupParties, {}, maintenance);
    const merchant = parties.body.data.merchants[0] as { id: number; name: string };
    const supplier = parties.body.data.suppliers[0] as { id: number; name: string };
    expect(merchant && supplier).toBeTruthy();

    const m = await t.call(
      bots.groupAdd,
      { chatId: '-1001', name: 'Merchant ops', partyKind: 'merchant', partyId: merchant.id },
      admin,
    );
    expect(m.body.data).toMatchObject({ chatId: '-1001', partyKind: 'merchant', partyName: merchant.name });
    const s = await t.call(
      bots.groupAdd,
      { chatId: '-1002', name: 'Supplier ops', partyKind: 'supplier', partyId: supplier.id },
      service,
    );
    expect(s.body.data.partyName).toBe(supplier.name);
    const staff = await t.call(bots.groupAdd, { chatId: '-1003', name: 'Staff', partyKind: 'staff' }, admin);
    expect(staff.body.data).toMatchObject({ partyKind: 'staff', partyId: null, partyName: null });

    const taken = await t.call(bots.groupAdd, { chatId: '-1001', name: 'Again', partyKind: 'staff' }, admin);
    expect(taken.body).toMatchObject({ code: Code.conflict, data: { reason: 'telegramChatTaken' } });
    const noParty = await t.call(bots.groupAdd, { chatId: '-1004', name: 'x', partyKind: 'merchant' }, admin);
    expect(noParty.body.code).toBe(Code.invalidInput);
    const missing = await t.call(
      bots.groupAdd,
      { chatId: '-1004', name: 'x', partyKind: 'supplier', partyId: 999_999 },
      admin,
    );
    expect(missing.body).toMatchObject({ code: Code.invalidInput, data: { reason: 'telegramPartyMissing' } });

    const list = await t.call(bots.groupList, { pageIndex: 1, partyKind: 'merchant' }, maintenance);
    expect(list.body.data.list.map((g: { chatId: string }) => g.chatId)).toEqual(['-1001']);
    expect((await t.call(bots.groupList, { pageIndex: 1 }, maintenance)).body.data.total).toBe(3);

    const moved = await t.call(
      bots.groupUpdate,
      { id: m.body.data.id, chatId: '-1001', name: 'Now staff', partyKind: 'staff', partyId: null, enabled: true },
      admin,
    );
    expect(moved.body.data).toMatchObject({ partyKind: 'staff', partyName: null });
    expect((await t.call(bots.groupDelete, { id: staff.body.data.id }, maintenance)).body.code).toBe(Code.forbidden);
    expect((await t.call(bots.groupDelete, { id: staff.body.data.id }, admin)).body.code).toBe(200);
    expect((await t.app.services.botsAdmin.groupsOf('staff', null)).map((g) => g.chatId)).toEqual(['-1001']);
    expect(await auditRows('bots.groupUpdate')).toMatchObject([
      { before: { partyKind: 'merchant', partyName: merchant.name }, after: { partyKind: 'staff' } },
    ]);
  });
});

describe('the lists as CSV', () => {
  it('export the filtered whitelist and bot groups, newest first, to their readers alone', async () => {
    for (const [id, name] of [
      ['880000001', 'Export Asha'],
      ['880000002', 'Export Bala'],
      ['880000003', 'Someone else'],
    ]) {
      expect((await t.call(bots.whitelistAdd, { telegramUserId: id, name }, admin)).body.code).toBe(200);
    }
    const users = await downloadCsv(t, bots.whitelistExport, { keyword: 'export' }, maintenance);
    expect(users.status).toBe(200);
    expect(users.header.split(',')).toEqual(
      expect.arrayContaining(['telegramUserId', 'name', 'enabled', 'remark', 'updatedAt']),
    );
    expect(users.rows).toHaveLength(2);
    expect(users.rows[0]).toContain('Export Bala');
    expect(users.rows[1]).toContain('Export Asha');

    expect(
      (await t.call(bots.groupAdd, { chatId: '-3001', name: 'Export staff', partyKind: 'staff' }, admin)).body.code,
    ).toBe(200);
    const merchantId = (await t.call(bots.groupParties, {}, admin)).body.data.merchants[0].id as number;
    expect(
      (
        await t.call(
          bots.groupAdd,
          { chatId: '-3002', name: 'Export merchant', partyKind: 'merchant', partyId: merchantId },
          admin,
        )
      ).body.code,
    ).toBe(200);
    const groups = await downloadCsv(t, bots.groupExport, { keyword: 'export', partyKind: 'merchant' }, service);
    expect(groups.status).toBe(200);
    expect(groups.header.split(',')).toEqual(expect.arrayContaining(['chatId', 'partyKind', 'partyName', 'language']));
    expect(groups.rows).toHaveLength(1);
    expect(groups.rows[0]).toContain('-3002');
    expect((await downloadCsv(t, bots.groupExport, { keyword: 'export' }, admin)).rows).toHaveLength(2);

    const merchant = await t.loginWithToken2('merchant1');
    const support = await t.loginWithToken2('support');
    for (const who of [merchant, support]) {
      expect((await downloadCsv(t, bots.whitelistExport, {}, who)).status).toBe(403);
      expect((await downloadCsv(t, bots.groupExport, {}, who)).status).toBe(403);
    }
  });
});
