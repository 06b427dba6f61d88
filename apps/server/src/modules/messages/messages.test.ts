import { Code, endpoints, note } from '@paydesk/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageRecipients, messages as messagesTable } from '../../db/schema.js';
import { type Auth, nextIp, startTestApp, type TestApp } from '../../testing/harness.js';
import { MessagesService } from './messages.service.js';

const { messages } = endpoints;
let t: TestApp;
let superAdmin: Auth;
let merchant: Auth;
let supplier: Auth;
let merchantId: number;

beforeAll(async () => {
  t = await startTestApp();
  superAdmin = await t.loginWithToken2('superadmin');
  merchant = await t.login('merchant1');
  supplier = await t.login('supplier1');
  merchantId = await idOf('merchant1');
});
afterAll(() => t.close());

async function idOf(account: string): Promise<number> {
  const list = await t.call(endpoints.users.getUserList, { pageIndex: 1, pageSize: 100, account }, superAdmin);
  return (list.body.data.list as Array<{ id: number; account: string }>).find((u) => u.account === account)!.id;
}

const unreadCount = async (auth: Auth) => (await t.call(messages.unreadCount, {}, auth)).body.data.count as number;
const inbox = async (auth: Auth) => (await t.call(messages.init, {}, auth)).body.data;
const idsIn = (rows: Array<{ msg_id: number }>) => rows.map((r) => r.msg_id);

async function recipientState(msgId: number, userId: number) {
  const [row] = await t.database.db
    .select({ state: messageRecipients.state })
    .from(messageRecipients)
    .where(and(eq(messageRecipients.messageId, msgId), eq(messageRecipients.userId, userId)));
  return row?.state;
}

describe('the inbox life cycle', () => {
  it('unread -> readed (count decreases) -> trash -> restore -> readed', async () => {
    const before = await unreadCount(merchant);
    const sent = await t.call(
      messages.send,
      { title: 'Payout rules', content: 'Payouts above 5,000 are reviewed.', userIds: [merchantId] },
      superAdmin,
    );
    expect(sent.body).toMatchObject({ code: 200, data: { recipients: 1 } });
    const msgId = sent.body.data.msg_id as number;
    expect(await unreadCount(merchant)).toBe(before + 1);

    const first = await inbox(merchant);
    expect(first.unread[0]).toEqual({
      msg_id: msgId,
      title: 'Payout rules',
      title_template: null, // a broadcast is shown as its sender wrote it
      title_texts: {},
      create_time: expect.any(String),
    });
    expect(first.unread[0]).not.toHaveProperty('content');
    expect(Number.isNaN(Date.parse(first.unread[0].create_time))).toBe(false);

    const content = await t.call(messages.content, { msg_id: msgId }, merchant);
    expect(content.body.data).toMatchObject({ msg_id: msgId, content: 'Payouts above 5,000 are reviewed.' });
    expect(await unreadCount(merchant)).toBe(before + 1); // reading the content does not mark it read

    expect((await t.call(messages.hasRead, { msg_id: msgId }, merchant)).body.code).toBe(200);
    expect(await unreadCount(merchant)).toBe(before);
    const afterRead = await inbox(merchant);
    expect(idsIn(afterRead.unread)).not.toContain(msgId);
    expect(idsIn(afterRead.readed)).toContain(msgId);

    expect((await t.call(messages.removeReaded, { msg_id: msgId }, merchant)).body.code).toBe(200);
    const trashed = await inbox(merchant);
    expect(idsIn(trashed.readed)).not.toContain(msgId);
    expect(idsIn(trashed.trash)).toContain(msgId);

    expect((await t.call(messages.restore, { msg_id: msgId }, merchant)).body.code).toBe(200);
    const restored = await inbox(merchant);
    expect(idsIn(restored.trash)).not.toContain(msgId);
    expect(idsIn(restored.readed)).toContain(msgId);
    expect(await recipientState(msgId, merchantId)).toBe('readed');
  });

  it('a repeated or out-of-order move is a 409 and changes nothing', async () => {
    const sent = await t.call(messages.send, { title: 'Twice', content: 'x', userIds: [merchantId] }, superAdmin);
    const msgId = sent.body.data.msg_id as number;
    expect((await t.call(messages.hasRead, { msg_id: msgId }, merchant)).body.code).toBe(200);
    const again = await t.call(messages.hasRead, { msg_id: msgId }, merchant);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: Code.conflict, msg: 'the message changed meanwhile' });
    expect((await t.call(messages.restore, { msg_id: msgId }, merchant)).body.code).toBe(Code.conflict);
    expect(await recipientState(msgId, merchantId)).toBe('readed');
  });

  it('another account’s message is not found, and stays as it was', async () => {
    const sent = await t.call(
      messages.send,
      { title: 'Private', content: 'for m1', userIds: [merchantId] },
      superAdmin,
    );
    const msgId = sent.body.data.msg_id as number;
    for (const call of [messages.hasRead, messages.removeReaded, messages.restore]) {
      const res = await t.call(call, { msg_id: msgId }, supplier);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(Code.notFound);
    }
    expect((await t.call(messages.content, { msg_id: msgId }, supplier)).body.code).toBe(Code.notFound);
    expect(idsIn((await inbox(supplier)).unread)).not.toContain(msgId);
    expect(await recipientState(msgId, merchantId)).toBe('unread');
    expect((await t.call(messages.content, { msg_id: 999_999 }, merchant)).body.code).toBe(Code.notFound);
  });
});

describe('broadcast', () => {
  it('reaches exactly the live accounts of a role, and is audited', async () => {
    const admin = await t.loginWithToken2('admin');
    for (const account of ['bcast1', 'bcast2']) {
      const added = await t.call(
        endpoints.users.addUser,
        { nickname: account, account, password: 'bcast1234', access: 'merchant' },
        admin,
      );
      expect(added.body.code).toBe(200);
    }
    const deletedId = await idOf('bcast2');
    expect((await t.call(endpoints.users.deleteUser, { id: deletedId }, admin)).body.code).toBe(200);
    const liveMerchants = await t.call(endpoints.users.getUserList, { pageIndex: 1, role: 'merchant' }, admin);
    const expected = (liveMerchants.body.data.list as Array<{ id: number }>).map((u) => u.id).sort();

    const sent = await t.call(
      messages.send,
      { title: 'Maintenance', content: 'Tonight 02:00', roles: ['merchant'] },
      await t.login('service'),
    );
    expect(sent.body.code).toBe(200);
    expect(sent.body.data.recipients).toBe(expected.length);
    const rows = await t.database.db
      .select({ userId: messageRecipients.userId })
      .from(messageRecipients)
      .where(eq(messageRecipients.messageId, sent.body.data.msg_id));
    expect(rows.map((r) => r.userId).sort()).toEqual(expected);
    expect(expected).not.toContain(deletedId);
    expect(idsIn((await inbox(merchant)).unread)).toContain(sent.body.data.msg_id);
    expect(idsIn((await inbox(supplier)).unread)).not.toContain(sent.body.data.msg_id);

    const [message] = await t.database.db
      .select()
      .from(messagesTable)
      .where(eq(messagesTable.id, sent.body.data.msg_id));
    expect(message!.senderId).toBe(await idOf('service'));
    const audit = await t.call(endpoints.audit.getList, { pageIndex: 1, action: 'messages.send' }, superAdmin);
    expect(audit.body.data.list[0]).toMatchObject({
      account: 'service',
      target: `message:${sent.body.data.msg_id}`,
      after: { title: 'Maintenance', roles: ['merchant'], recipients: expected.length },
    });
  });

  it('roles and accounts together reach each account once', async () => {
    const sent = await t.call(
      messages.send,
      { title: 'Both', content: 'x', roles: ['merchant', 'merchant'], userIds: [merchantId, merchantId] },
      superAdmin,
    );
    expect(sent.body.code).toBe(200);
    expect(idsIn((await inbox(merchant)).unread).filter((id) => id === sent.body.data.msg_id)).toHaveLength(1);
  });

  it('refuses no target (400), an unknown account (404) and a merchant (403), sending nothing', async () => {
    const count = async () => (await t.database.db.select().from(messagesTable)).length;
    const n = await count();
    const none = await t.call(messages.send, { title: 'x', content: 'y', roles: [], userIds: [] }, superAdmin);
    expect(none.body.code).toBe(Code.invalidInput);
    expect(none.body.data.issues[0].message).toBe('choose at least one role or account');
    const unknown = await t.call(messages.send, { title: 'x', content: 'y', userIds: [987_654] }, superAdmin);
    expect(unknown.body.code).toBe(Code.notFound);
    const byMerchant = await t.call(messages.send, { title: 'x', content: 'y', roles: ['admin'] }, merchant);
    expect(byMerchant.status).toBe(403);
    expect(await count()).toBe(n);
  });
});

describe('system messages (notify)', () => {
  it('are written inside the caller’s transaction: kept on commit, gone on rollback', async () => {
    const service = new MessagesService({ db: t.database.db, clock: t.clock });
    const before = await unreadCount(merchant);
    const title = note('proposalRejectedTitle', { id: 7 });
    const content = note('proposalRejected', {
      id: 7,
      proposalKind: 'deposit',
      partyKind: 'merchant',
      party: 'Merchant One',
      account: 'admin',
      reason: 'wrong amount',
    });
    const sent = await t.database.db.transaction((tx) => service.notify(tx, { title, content, userIds: [merchantId] }));
    expect(sent).toEqual({ msgId: expect.any(Number), recipients: 1 });
    expect(await unreadCount(merchant)).toBe(before + 1);
    const [message] = await t.database.db.select().from(messagesTable).where(eq(messagesTable.id, sent!.msgId));
    expect(message!.senderId).toBeNull();
    // The inbox answers the English text and the templates the console renders in its language.
    const read = await t.call(messages.content, { msg_id: sent!.msgId }, merchant);
    expect(read.body.data).toMatchObject({
      title: 'Balance proposal #7 rejected',
      title_template: title,
      content:
        'Your proposal #7 (deposit, merchant Merchant One) was rejected by admin; nothing was posted. Reason: wrong amount',
      content_template: content,
    });
    const inbox = await t.call(messages.init, {}, merchant);
    expect(inbox.body.data.unread[0]).toMatchObject({ msg_id: sent!.msgId, title_template: title });

    await expect(
      t.database.db.transaction(async (tx) => {
        await service.notify(tx, { title, content, userIds: [merchantId] });
        throw new Error('the calling service failed');
      }),
    ).rejects.toThrow('the calling service failed');
    expect(await unreadCount(merchant)).toBe(before + 1);
    expect(await t.database.db.transaction((tx) => service.notify(tx, { title, content, userIds: [] }))).toBe(null);
  });
});

it('the inbox calls need a session', async () => {
  const res = await t.call(messages.init, {}, { ip: nextIp() });
  expect(res.body.code).toBe(Code.sessionExpired);
});
