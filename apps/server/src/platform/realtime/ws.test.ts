import { randomBytes } from 'node:crypto';
import {
  Code,
  endpoints,
  isWsEvent,
  SETTINGS_TOPIC,
  setSettingEndpoint,
  WS_CLOSE_CODES,
  WS_MAX_MESSAGE_BYTES,
  WS_PATH,
  type WsCommand,
  type WsEvent,
  type WsResponse,
  type WsServerFrame,
  wsServerFrameSchema,
} from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Database, openDatabase } from '../../db/client.js';
import { sessions, users } from '../../db/schema.js';
import { type Auth, startTestApp, type TestApp } from '../../testing/harness.js';
import { sha256 } from '../secrets.js';
import { SessionStore } from '../sessions.js';
import { SettingsStore } from '../settings.js';
import { connectionStringOf, MAX_EVENT_BYTES, type RealtimeConnection, RealtimeHub } from './hub.js';
import { pushSettingChanges } from './settings-push.js';

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await startTestApp();
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `${address.replace('http', 'ws')}${WS_PATH}`;
});
afterAll(() => t.close());

/** A console-like client: records every frame and matches responses to commands by requestId. */
class Client {
  readonly frames: WsServerFrame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private listeners: Array<() => void> = [];
  private seq = 0;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => {
      this.frames.push(wsServerFrameSchema.parse(JSON.parse(String(raw))));
      for (const l of this.listeners) l();
    });
    this.closed = new Promise((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  }

  static async open(): Promise<Client> {
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => {
      ws.once('open', resolve);
      ws.once('error', reject);
    });
    return new Client(ws);
  }

  get events(): WsEvent[] {
    return this.frames.filter(isWsEvent);
  }

  /** Resolves with the first frame (already received or to come) that matches. */
  waitFor<F extends WsServerFrame>(match: (f: WsServerFrame) => f is F, timeoutMs = 5_000): Promise<F> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const found = this.frames.find(match);
        if (!found) return false;
        clearTimeout(timer);
        this.listeners = this.listeners.filter((l) => l !== listener);
        resolve(found);
        return true;
      };
      const listener = () => void check();
      const timer = setTimeout(
        () => reject(new Error(`no matching frame in ${JSON.stringify(this.frames)}`)),
        timeoutMs,
      );
      if (!check()) this.listeners.push(listener);
    });
  }

  responseTo(requestId: string | null): Promise<WsResponse> {
    return this.waitFor((f): f is WsResponse => !isWsEvent(f) && f.requestId === requestId);
  }

  /** Sends a command (a fresh requestId unless given) and waits for its response. */
  command(cmd: Omit<WsCommand, 'requestId'> & { requestId?: string }): Promise<WsResponse> {
    this.seq += 1;
    const requestId = cmd.requestId ?? `r${this.seq}`;
    this.ws.send(JSON.stringify({ ...cmd, requestId }));
    return this.responseTo(requestId);
  }

  raw(text: string | Buffer) {
    this.ws.send(text);
  }

  close() {
    this.ws.close();
  }
}

const heartbeat = (c: Client, auth: Auth) => c.command({ commandType: 'heartbeat', token: auth.token });
const subscribe = (c: Client, auth: Auth, topic: string) =>
  c.command({ commandType: 'subscribe', data: { topic }, token: auth.token });

async function userIdOf(account: string): Promise<number> {
  const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.account, account));
  if (!row) throw new Error(`no user ${account}`);
  return row.id;
}

describe('commands', () => {
  it('answers a heartbeat with a fresh key each time', async () => {
    const auth = await t.login('service');
    const c = await Client.open();
    const first = await c.command({ requestId: 'hb-1', commandType: 'heartbeat', token: auth.token });
    expect(first).toEqual({ code: 200, requestId: 'hb-1', data: { key: expect.any(String) }, msg: 'success' });
    const second = await heartbeat(c, auth);
    const keys = [first, second].map((r) => (r.data as { key: string }).key);
    expect(keys[0]).toMatch(/^[\w-]{16,}$/);
    expect(keys[1]).not.toBe(keys[0]);
    c.close();
  });

  it.each([
    ['no token', undefined],
    ['an empty token', ''],
    ['an unknown token', 'not-a-token'],
  ])('answers 1003 and closes the socket for %s', async (_what, token) => {
    const c = await Client.open();
    const res = await c.command({ commandType: 'heartbeat', ...(token === undefined ? {} : { token }) });
    expect(res).toMatchObject({ code: Code.sessionExpired, msg: 'session expired, please sign in again' });
    expect((await c.closed).code).toBe(WS_CLOSE_CODES.sessionExpired);
  });

  it('answers 1003 once the session is logged out, and closes the socket', async () => {
    const auth = await t.login('merchant1');
    const c = await Client.open();
    expect((await subscribe(c, auth, 'orders')).code).toBe(200);
    const held = t.app.realtime.connectionCount;
    expect((await t.call(endpoints.auth.logout, undefined, auth)).body.code).toBe(200);
    expect((await heartbeat(c, auth)).code).toBe(Code.sessionExpired);
    // The hub forgot it before answering, not only once the socket is closed.
    expect(t.app.realtime.connectionCount).toBeLessThan(held);
    expect((await c.closed).code).toBe(WS_CLOSE_CODES.sessionExpired);
  });

  it('refuses a session whose authenticator is not confirmed yet with 403', async () => {
    const auth = await t.login('support');
    await t.database.db
      .update(sessions)
      .set({ pendingBind: true })
      .where(eq(sessions.tokenHash, sha256(auth.token ?? '')));
    const c = await Client.open();
    expect(await heartbeat(c, auth)).toMatchObject({ code: Code.forbidden, data: { reason: 'bindRequired' } });
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.close();
  });

  it('answers malformed frames with 400 and keeps the socket open', async () => {
    const auth = await t.login('admin');
    const c = await Client.open();
    c.raw('{not json');
    expect(await c.responseTo(null)).toMatchObject({ code: 400, requestId: null, data: { issues: [{ path: '' }] } });
    c.frames.length = 0;
    c.raw(Buffer.from([1, 2, 3]));
    expect((await c.responseTo(null)).code).toBe(400);

    const wrongType = await c.command({ commandType: 'dance' as 'heartbeat', token: auth.token });
    expect(wrongType).toMatchObject({ code: 400, data: { issues: [{ path: 'commandType' }] } });
    c.raw(JSON.stringify({ requestId: 'extra', commandType: 'heartbeat', token: auth.token, extra: 1 }));
    expect(await c.responseTo('extra')).toMatchObject({ code: 400, requestId: 'extra' });
    const noTopic = await c.command({ commandType: 'subscribe', data: { topic: '' }, token: auth.token });
    expect(noTopic).toMatchObject({ code: 400, msg: expect.stringMatching(/^data\.topic: /) });
    const badTopic = await c.command({ commandType: 'subscribe', data: { topic: 'a b' }, token: auth.token });
    expect(badTopic.code).toBe(400);
    c.raw(JSON.stringify([1, 2]));
    c.raw('null');

    expect((await heartbeat(c, auth)).code).toBe(200);
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    c.close();
  });

  it('answers 429 above 20 commands a second', async () => {
    const c = await Client.open();
    for (let i = 0; i < 30; i++) c.raw(JSON.stringify({ requestId: `x${i}`, commandType: 'nope' }));
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => c.responseTo(`x${i}`)));
    const codes = answers.map((a) => a.code);
    expect(codes.slice(0, 20)).toEqual(Array(20).fill(400));
    expect(codes.filter((code) => code === Code.tooManyRequests).length).toBeGreaterThanOrEqual(8);
    c.close();
  });

  it('closes the socket on a frame over the size limit', async () => {
    const c = await Client.open();
    c.raw('x'.repeat(WS_MAX_MESSAGE_BYTES + 1));
    expect((await c.closed).code).toBe(1009);
  });

  it('refuses a handshake from a page of another site, and takes one from its own', async () => {
    const foreign = new WebSocket(url, { origin: 'https://evil.example' });
    foreign.on('error', () => undefined);
    const refused = await new Promise<number>((resolve) => {
      foreign.once('unexpected-response', (req, res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      foreign.once('open', () => resolve(101));
    });
    expect(refused).toBe(403);
    const own = new WebSocket(url, { origin: url.replace('ws://', 'http://').replace(WS_PATH, '') });
    await new Promise((resolve, reject) => {
      own.once('open', resolve);
      own.once('error', reject);
    });
    own.close();
  });

  it('answers a plain GET without upgrade with the 400 envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: WS_PATH });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 400, msg: 'websocket upgrade required' });
  });
});

describe('events', () => {
  it('reach the subscribers of the topic in the audience, and no one else', async () => {
    // One after another: each sign-in moves the test clock to a fresh authenticator step.
    const merchant = await t.login('merchant1');
    const supplier = await t.login('supplier1');
    const admin = await t.login('superadmin');
    const [m, s, a, idle] = await Promise.all([Client.open(), Client.open(), Client.open(), Client.open()]);
    expect(await subscribe(m, merchant, 'messages')).toMatchObject({ code: 200, data: { topics: ['messages'] } });
    expect((await subscribe(s, supplier, 'messages')).code).toBe(200);
    expect((await subscribe(a, admin, 'messages')).code).toBe(200);
    expect((await heartbeat(idle, admin)).code).toBe(200); // signed in, not subscribed
    const merchantId = await userIdOf('merchant1');

    await t.app.realtime.publish('messages', { msgId: 1 }, { userIds: [merchantId] });
    await t.app.realtime.publish('messages', { msgId: 2 }, { roles: ['superAdmin'] });
    await t.app.realtime.publish('messages', { msgId: 3 });
    await t.app.realtime.publish('orders', { orderCode: 'X' });
    await m.waitFor((f): f is WsEvent => isWsEvent(f) && (f.data as { msgId: number }).msgId === 3);
    await s.waitFor((f): f is WsEvent => isWsEvent(f) && (f.data as { msgId: number }).msgId === 3);
    await a.waitFor((f): f is WsEvent => isWsEvent(f) && (f.data as { msgId: number }).msgId === 3);
    // Events of one publisher arrive in order, so nothing else is on its way once the last one is here.
    expect(m.events).toEqual([
      { type: 'event', topic: 'messages', data: { msgId: 1 } },
      { type: 'event', topic: 'messages', data: { msgId: 3 } },
    ]);
    expect(s.events.map((e) => e.data)).toEqual([{ msgId: 3 }]);
    expect(a.events.map((e) => e.data)).toEqual([{ msgId: 2 }, { msgId: 3 }]);
    expect((await heartbeat(idle, admin)).code).toBe(200);
    expect(idle.events).toEqual([]);

    expect(await m.command({ commandType: 'unsubscribe', data: { topic: 'messages' }, token: merchant.token })).toEqual(
      {
        code: 200,
        requestId: expect.any(String),
        data: { topics: [] },
        msg: 'success',
      },
    );
    await t.app.realtime.publish('messages', { msgId: 4 });
    await s.waitFor((f): f is WsEvent => isWsEvent(f) && (f.data as { msgId: number }).msgId === 4);
    expect((await heartbeat(m, merchant)).code).toBe(200);
    expect(m.events.map((e) => e.data)).toEqual([{ msgId: 1 }, { msgId: 3 }]);
    for (const c of [m, s, a, idle]) c.close();
  });

  it('refuses an event too big for NOTIFY, and an invalid topic', async () => {
    await expect(t.app.realtime.publish('orders', { blob: 'x'.repeat(MAX_EVENT_BYTES) })).rejects.toThrow(
      /over the 7999-byte limit/,
    );
    await expect(t.app.realtime.publish('bad topic', {})).rejects.toThrow(/topic/);
  });
});

describe.runIf(process.env.TEST_DB === 'postgres')('between server processes (PostgreSQL)', () => {
  let other: Database;
  let hubB: RealtimeHub;

  beforeAll(async () => {
    // Another process: its own pool and its own listener on the same database.
    const databaseUrl = connectionStringOf(t.database);
    if (!databaseUrl) throw new Error('the test database has no connection string');
    other = await openDatabase({ url: databaseUrl });
    hubB = new RealtimeHub({ database: other, url: databaseUrl });
    await hubB.start();
  });
  afterAll(async () => {
    await hubB.close();
    await other.close();
  });

  it('an event published by one process reaches the sockets of the other, both ways', async () => {
    const auth = await t.login('service');
    const c = await Client.open();
    expect((await subscribe(c, auth, 'orders')).code).toBe(200);
    const serviceId = await userIdOf('service');

    await hubB.publish('orders', { orderCode: 'P1' }, { roles: ['customerService'] });
    // NOTIFY crosses a real database connection: give it time under a loaded CI machine.
    expect(await c.waitFor(isWsEvent, 15_000)).toEqual({ type: 'event', topic: 'orders', data: { orderCode: 'P1' } });

    // And back: a socket held by process B receives what app A publishes.
    const received: string[] = [];
    const conn: RealtimeConnection = { send: (text) => received.push(text) };
    const user = await new SessionStore(other.db, t.config, t.clock).resolve(auth.token ?? '');
    if (!user) throw new Error('no session');
    hubB.identify(conn, user);
    hubB.subscribe(conn, 'orders');
    await t.app.realtime.publish('orders', { orderCode: 'P2' }, { userIds: [serviceId] });
    // B's own NOTIFY of P1 may reach B after this connection subscribed (the service user may see it
    // too); what matters is that A's P2 arrives.
    await expect
      .poll(() => received, { timeout: 15_000 })
      .toContain(JSON.stringify({ type: 'event', topic: 'orders', data: { orderCode: 'P2' } }));
    c.close();
  });

  it('a setting changed by one process is pushed once to the sockets of the other', async () => {
    const settingsB = new SettingsStore({ db: other.db, clock: t.clock, secretKey: randomBytes(32), database: other });
    const stopPush = pushSettingChanges(settingsB, hubB);
    await settingsB.start();
    const received: string[] = [];
    const conn: RealtimeConnection = { send: (text) => received.push(text) };
    try {
      const auth = await t.login('merchant1');
      const user = await new SessionStore(other.db, t.config, t.clock).resolve(auth.token ?? '');
      if (!user) throw new Error('no session');
      hubB.identify(conn, user);
      hubB.subscribe(conn, SETTINGS_TOPIC);
      await t.setSetting('SysFlag', 'PayDesk B');
      await expect
        .poll(() => received, { timeout: 15_000 })
        .toEqual([JSON.stringify({ type: 'event', topic: SETTINGS_TOPIC, data: {} })]);
      expect(await settingsB.get('SysFlag')).toBe('PayDesk B');
    } finally {
      hubB.remove(conn);
      stopPush();
      await settingsB.stop();
      await t.setSetting('SysFlag', undefined);
    }
  });

  it('events published at once travel in batches and arrive all, in order, in the other process', async () => {
    const received: string[] = [];
    const conn: RealtimeConnection = { send: (text) => received.push(text) };
    const auth = await t.login('service');
    const user = await new SessionStore(other.db, t.config, t.clock).resolve(auth.token ?? '');
    if (!user) throw new Error('no session');
    hubB.identify(conn, user);
    hubB.subscribe(conn, 'test:batches');
    // 60 events of about 300 bytes: more than one NOTIFY's 7999 bytes, so several batches.
    const codes = Array.from({ length: 60 }, (_, i) => `B${String(i).padStart(3, '0')}${'x'.repeat(260)}`);
    await Promise.all(
      codes.map((code) => t.app.realtime.publish('test:batches', { code }, { roles: ['customerService'] })),
    );
    await expect.poll(() => received.length, { timeout: 15_000 }).toBe(codes.length);
    expect(received.map((text) => (JSON.parse(text) as { data: { code: string } }).data.code)).toEqual(codes);
  });
});

describe('settings pushed to open consoles', () => {
  const settingsEvent = (f: WsServerFrame): f is WsEvent => isWsEvent(f) && f.topic === SETTINGS_TOPIC;

  it('a changed setting reaches every signed-in console following the topic, its key only to its readers', async () => {
    const merchant = await t.login('merchant1');
    const admin = await t.login('admin');
    const [m, a] = [await Client.open(), await Client.open()];
    try {
      expect((await subscribe(m, merchant, SETTINGS_TOPIC)).code).toBe(200);
      expect((await subscribe(a, admin, SETTINGS_TOPIC)).code).toBe(200);
      const superadmin = await t.loginWithToken2('superadmin');
      const paused = await t.call(setSettingEndpoint('enableService'), { enable: false }, superadmin);
      expect(paused.body.code).toBe(200);
      // The admin reads the config page: it is told which key changed; the merchant only that one did.
      expect((await a.waitFor(settingsEvent)).data).toEqual({ key: 'enableService' });
      expect((await m.waitFor(settingsEvent)).data).toEqual({});
      // And the console's refetch of getInfo sees the change at once.
      expect((await t.call(endpoints.auth.getInfo, undefined, merchant)).body.data.serviceEnabled).toBe(false);
      // One event per change, however many times the process hears of it.
      await heartbeat(a, admin);
      expect(a.events.filter((e) => e.topic === SETTINGS_TOPIC)).toHaveLength(1);
    } finally {
      await t.setSetting('enableService', true);
      m.close();
      a.close();
    }
  });

  it('a change written outside a request (the setting command, the harness) is pushed too', async () => {
    const service = await t.login('service');
    const c = await Client.open();
    try {
      expect((await subscribe(c, service, SETTINGS_TOPIC)).code).toBe(200);
      await t.setSetting('ContactInfo', 'Telegram @paydesk_help');
      expect((await c.waitFor(settingsEvent, 15_000)).data).toEqual({ key: 'ContactInfo' });
    } finally {
      await t.setSetting('ContactInfo', undefined);
      c.close();
    }
  });
});

describe('live inbox', () => {
  it('a staff broadcast reaches the recipients’ open consoles, and nobody else’s', async () => {
    const merchant = await t.login('merchant1');
    const supplier = await t.login('supplier1');
    const admin = await t.login('admin');
    const [m, s] = [await Client.open(), await Client.open()];
    try {
      expect((await subscribe(m, merchant, 'messages')).code).toBe(200);
      expect((await subscribe(s, supplier, 'messages')).code).toBe(200);
      const sent = await t.call(
        endpoints.messages.send,
        { title: 'Settlement window', content: 'Settlements run at 18:00 today.', roles: ['merchant'] },
        admin,
      );
      expect(sent.body.code).toBe(200);
      const event = await m.waitFor((f): f is WsEvent => isWsEvent(f) && f.topic === 'messages');
      expect(event.data).toEqual({ msg_id: sent.body.data.msg_id });
      await heartbeat(s, supplier); // a round trip: anything meant for s would have arrived before its answer
      expect(s.events.filter((e) => e.topic === 'messages')).toHaveLength(0);
    } finally {
      m.close();
      s.close();
    }
  });
});
