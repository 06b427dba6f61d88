import { Code, endpoints } from '@paydesk/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/client.js';
import { sessions, users } from '../db/schema.js';
import { startTestApp, type TestApp } from '../testing/harness.js';
import { sha256 } from './secrets.js';
import { SessionStore } from './sessions.js';

const onPostgres = process.env.TEST_DB === 'postgres';
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/**
 * A session store of its own over the test database, counting its session reads; its time limit is
 * long, so only an invalidation can explain a change it sees.
 */
async function countingStore(ttlMs = 10 * 60_000) {
  let reads = 0;
  const db = new Proxy(t.database.db, {
    get(target, prop) {
      if (prop === 'select') reads += 1;
      return Reflect.get(target, prop);
    },
  }) as Db;
  const store = new SessionStore(db, t.config, t.clock, { database: t.database, cache: { ttlMs } });
  await store.start();
  await expect.poll(() => store.caching, { timeout: 10_000 }).toBe(true);
  return { store, reads: () => reads };
}

const userIdOf = async (account: string) => {
  const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.account, account));
  if (!row) throw new Error(`no user ${account}`);
  return row.id;
};

describe('the session lookup cache', () => {
  it('serves repeated lookups of a session from memory, with the idle timeout still counted', async () => {
    const { store, reads } = await countingStore();
    const { token = '' } = await t.login('merchant1');
    const first = await store.resolve(token);
    expect(first).toMatchObject({ account: 'merchant1', role: 'merchant' });
    for (let i = 0; i < 5; i += 1) expect(await store.resolve(token)).toEqual(first);
    expect(reads()).toBe(1);

    // The last use is still written about once a minute, from the cached copy, without a read.
    const [before] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(token)));
    t.clock.advance(61_000);
    expect(await store.resolve(token)).toEqual(first);
    const [after] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, sha256(token)));
    expect(after!.lastSeenAt.getTime()).toBe(t.clock.now().getTime());
    expect(after!.lastSeenAt.getTime()).toBeGreaterThan(before!.lastSeenAt.getTime());
    expect(reads()).toBe(1);

    // Unused for the idle timeout: refused, though still in the cache's time limit.
    t.clock.advance(t.config.sessionIdleMinutes * 60_000 + 1_000);
    expect(await store.resolve(token)).toBeNull();
    await store.stop();
  });

  it('sees a change made by any code at once: a role, names, a revocation, token2, a deletion', async () => {
    const { store } = await countingStore();
    const { token = '' } = await t.login('support');
    const supportId = await userIdOf('support');
    const [original] = await t.database.db
      .select({ nickname: users.nickname })
      .from(users)
      .where(eq(users.id, supportId));
    const hash = sha256(token);
    expect(await store.resolve(token)).toMatchObject({ role: 'technicalSupport', nickname: expect.any(String) });

    // Straight SQL, no service: only the triggers' notifications can tell the cache. The very next
    // lookup sees each change: on PostgreSQL its round trip on the listening connection (PgListener.sync)
    // makes sure the notification, which crosses a connection of its own, has arrived.
    await t.database.db.update(users).set({ nickname: 'Renamed' }).where(eq(users.id, supportId));
    expect((await store.resolve(token))?.nickname).toEqual('Renamed');
    await t.database.db.update(users).set({ role: 'customerService' }).where(eq(users.id, supportId));
    expect((await store.resolve(token))?.role).toEqual('customerService');
    await t.database.db.execute(
      sql`update sessions set token2_hash = 'x', token2_expires_at = now() where token_hash = ${hash}`,
    );
    expect((await store.resolve(token))?.token2Hash).toEqual('x');
    await t.database.db.update(sessions).set({ pendingBind: true }).where(eq(sessions.tokenHash, hash));
    expect((await store.resolve(token))?.pendingBind).toEqual(true);
    await t.database.db.update(sessions).set({ revokedAt: t.clock.now() }).where(eq(sessions.tokenHash, hash));
    expect(await store.resolve(token)).toBeNull();

    const other = await t.login('service');
    expect(await store.resolve(other.token ?? '')).not.toBeNull();
    const serviceId = await userIdOf('service');
    await t.database.db.update(users).set({ deletedAt: t.clock.now() }).where(eq(users.id, serviceId));
    expect(await store.resolve(other.token ?? '')).toBeNull();
    await t.database.db.update(users).set({ deletedAt: null }).where(eq(users.id, serviceId));
    await t.database.db
      .update(users)
      .set({ nickname: original!.nickname, role: 'technicalSupport' })
      .where(eq(users.id, supportId));
    await store.stop();
  });

  it('does not store a lookup that read the session before a change this process then committed', async () => {
    const { store, reads } = await countingStore();
    const { token = '' } = await t.login('merchant1');
    const sessionId = (await store.resolve(token))!.sessionId;
    store.forget({ sessionIds: [sessionId] });
    // The read is in flight when the change is forgotten (what a revocation does after its commit).
    const inFlight = store.resolve(token);
    store.forget({ sessionIds: [sessionId] });
    expect(await inFlight).not.toBeNull();
    const readsBefore = reads();
    await store.resolve(token);
    expect(reads()).toBe(readsBefore + 1);
    // That read was not raced: it is served from memory from now on.
    await store.resolve(token);
    expect(reads()).toBe(readsBefore + 1);
    await store.stop();
  });

  it('the app forgets what its own services change before answering: logout, login2, a role change', async () => {
    const { auth, users: usersApi } = endpoints;
    const merchant = await t.login('merchant1');
    expect((await t.call(auth.getInfo, undefined, merchant)).body.code).toBe(200);
    const withToken2 = await t.call(auth.login2, { password: 'demo1234', logInReason: 'cache test' }, merchant);
    expect(withToken2.body.code).toBe(200);
    const info = await t.call(auth.getInfo, undefined, { ...merchant, token2: withToken2.body.data.token2 });
    expect(info.body.data.token2Valid).toBe(true);
    expect((await t.call(auth.logout, undefined, merchant)).body.code).toBe(200);
    const refused = await t.call(auth.getInfo, undefined, merchant);
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 401, code: Code.sessionExpired });

    const admin = await t.loginWithToken2('admin');
    await t.call(
      usersApi.addUser,
      { nickname: 'C', account: 'cache1', password: 'first1234', access: 'merchant' },
      admin,
    );
    const id = await userIdOf('cache1');
    const session = await t.call(auth.login, { userName: 'cache1', password: 'first1234' }, { ip: '10.9.9.9' });
    const mine = { token: session.body.data.token as string };
    expect((await t.call(auth.getInfo, undefined, mine)).body.data.access).toBe('merchant');
    const changed = await t.call(
      usersApi.updateUser,
      { id, nickname: 'C', account: 'cache1', role: 'customerService' },
      admin,
    );
    expect(changed.body.code).toBe(200);
    expect((await t.call(auth.getInfo, undefined, mine)).body.code).toBe(Code.sessionExpired);
  });

  it.runIf(onPostgres)(
    'stops serving from memory while its listener is lost, and resumes once it is back',
    async () => {
      const { store, reads } = await countingStore();
      const { token = '' } = await t.login('merchant1');
      await store.resolve(token);
      await store.resolve(token);
      expect(reads()).toBe(1);
      await t.database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity
           where datname = current_database() and application_name = 'paydesk listen paydesk_sessions'`,
      );
      await expect.poll(() => store.caching, { timeout: 5_000 }).toBe(false);
      // Whatever changes while nobody listens is unknown: every lookup reads the database meanwhile.
      const during = reads();
      await store.resolve(token);
      await store.resolve(token);
      expect(reads()).toBeGreaterThanOrEqual(during + 2);
      await expect.poll(() => store.caching, { timeout: 10_000 }).toBe(true);
      const back = reads();
      await store.resolve(token);
      await store.resolve(token);
      expect(reads()).toBe(back + 1);
      await store.stop();
    },
  );
});

describe.runIf(onPostgres)('two server processes on one database (PostgreSQL)', () => {
  let b: TestApp;
  beforeAll(async () => {
    if (!t.database.url) throw new Error('the test database has no URL');
    b = await startTestApp({ at: { url: t.database.url } });
  });
  afterAll(() => b?.close());

  const { auth } = endpoints;
  const getInfoOn = async (app: TestApp, token: string) => {
    const res = await app.call(auth.getInfo, undefined, { token });
    return { status: res.status, code: res.body.code };
  };
  const ok = { status: 200, code: 200 };
  const refused = { status: 401, code: Code.sessionExpired };

  it('a revoked session is refused on another process within one request (logout)', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { token = '' } = await t.login('merchant1');
      expect(await getInfoOn(b, token)).toEqual(ok);
      expect(await getInfoOn(b, token)).toEqual(ok); // from B's cache
      expect((await t.call(auth.logout, undefined, { token })).body.code).toBe(200);
      expect(await getInfoOn(b, token)).toEqual(refused);
    }
  });

  it('a revoked session is refused on another process within one request (forceLogout)', async () => {
    const admin = await t.login('admin');
    for (let round = 0; round < 5; round += 1) {
      const { token = '' } = await t.login('merchant1');
      expect(await getInfoOn(b, token)).toEqual(ok);
      expect(await getInfoOn(b, token)).toEqual(ok);
      const listed = await t.call(auth.getSessions, { pageIndex: 1, pageSize: 100, account: 'merchant1' }, admin);
      const publicId = (listed.body.data.list as { sessionId: string }[])[0]!.sessionId;
      expect((await t.call(auth.forceLogout, { token: publicId }, admin)).body.code).toBe(200);
      expect(await getInfoOn(b, token)).toEqual(refused);
    }
  });

  it('and the other way: a logout on B is refused on A at once', async () => {
    const { token = '' } = await t.login('merchant1');
    expect(await getInfoOn(t, token)).toEqual(ok);
    expect(await getInfoOn(t, token)).toEqual(ok);
    expect((await b.call(auth.logout, undefined, { token })).body.code).toBe(200);
    expect(await getInfoOn(t, token)).toEqual(refused);
  });
});
