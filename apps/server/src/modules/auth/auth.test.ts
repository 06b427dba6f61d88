import { Code, endpoints } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions, users } from '../../db/schema.js';
import { nextIp, startTestApp, type TestApp } from '../../testing/harness.js';

const { auth } = endpoints;
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const login = (userName: string, password: string, googleCode?: string, ip = nextIp()) =>
  t.call(auth.login, { userName, password, ...(googleCode === undefined ? {} : { googleCode }) }, { ip });

describe('login', () => {
  it('signs in with trimmed account and code, sets the token cookie, and getInfo tells the role', async () => {
    const res = await login('  superadmin ', 'demo1234', ` ${t.code('superadmin')} `);
    expect(res.body.code).toBe(200);
    expect(res.body.data).toMatchObject({ access: 'superAdmin', confirmBind: true });
    expect(String(res.headers['set-cookie'])).toMatch(/token=.+Max-Age=86400/);
    const info = await t.call(auth.getInfo, undefined, { token: res.body.data.token });
    expect(info.body.data).toMatchObject({ userName: 'superadmin', access: 'superAdmin', confirmBind: true });
    expect(info.body.data).not.toHaveProperty('googleSecret');
  });

  it('refuses a wrong password, an unknown account, a wrong code and a missing code with clear texts', async () => {
    expect((await login('admin', 'wrong-pass1', t.code('admin'))).body).toMatchObject({
      code: Code.wrongCredentials,
      msg: 'account or password is incorrect',
    });
    expect((await login('nobody', 'demo1234', '123456')).body.code).toBe(Code.wrongCredentials);
    const wrongCode = t.code('admin') === '000000' ? '111111' : '000000';
    expect((await login('admin', 'demo1234', wrongCode)).body).toMatchObject({
      code: Code.wrongAuthCode,
      msg: 'authenticator code is incorrect',
    });
    expect((await login('admin', 'demo1234')).body).toMatchObject({
      code: Code.wrongAuthCode,
      msg: 'authenticator code is required',
    });
  });

  it('refuses a code used once already, even within its window', async () => {
    const code = t.code('service');
    expect((await login('service', 'demo1234', code)).body.code).toBe(200);
    const again = await login('service', 'demo1234', code);
    expect(again.body).toMatchObject({ code: Code.wrongAuthCode, data: { reason: 'codeReused' } });
  });

  it('locks an account after 5 failures in a row, even for the right password, and shows it to admins', async () => {
    for (let i = 0; i < 5; i++) await login('support', `wrong-${i}x`, t.code('support'));
    const locked = await login('support', 'demo1234', t.code('support'));
    expect(locked.status).toBe(423);
    expect(locked.body).toMatchObject({ code: Code.accountLocked, data: { reason: 'accountLocked' } });
    const admin = await t.login('admin');
    const list = await t.call(endpoints.users.getUserList, { pageIndex: 1, pageSize: 50, account: 'support' }, admin);
    expect(list.body.data.list[0]).toMatchObject({ account: 'support', failedLoginCount: 5 });
    expect(list.body.data.list[0].lockedUntil).not.toBeNull();
    t.clock.advance(16 * 60_000);
    expect((await login('support', 'demo1234', t.code('support'))).body.code).toBe(200);
  });

  it('limits sign-in attempts per client address', async () => {
    const ip = '192.0.2.77';
    const codes: number[] = [];
    for (let i = 0; i < 21; i++) codes.push((await login('nobody', 'x1234567', '123456', ip)).body.code);
    expect(codes.slice(0, 20).every((c) => c === Code.wrongCredentials)).toBe(true);
    expect(codes[20]).toBe(Code.tooManyRequests);
  });
});

describe('sessions', () => {
  it('answers 1003 without a token, with an unknown token and after logout', async () => {
    expect((await t.call(auth.getInfo)).body.code).toBe(Code.sessionExpired);
    expect((await t.call(auth.getInfo, undefined, { token: 'not-a-token' })).status).toBe(401);
    const me = await t.login('merchant1');
    expect((await t.call(auth.logout, undefined, me)).body.code).toBe(200);
    expect((await t.call(auth.getInfo, undefined, me)).body.code).toBe(Code.sessionExpired);
  });

  it('ends a session after the idle timeout and after one day whatever happens', async () => {
    const idle = await t.login('merchant1');
    t.clock.advance(t.config.sessionIdleMinutes * 60_000 + 1000);
    expect((await t.call(auth.getInfo, undefined, idle)).body.code).toBe(Code.sessionExpired);

    const busy = await t.login('merchant1');
    for (let hour = 0; hour < 24; hour++) {
      t.clock.advance(60 * 60_000);
      const res = await t.call(auth.getInfo, undefined, busy);
      if (hour < 23) expect(res.body.code).toBe(200);
      else expect(res.body.code).toBe(Code.sessionExpired);
    }
  });

  it('stores only a hash of the token', async () => {
    const me = await t.login('merchant1');
    const rows = await t.database.db.select({ tokenHash: sessions.tokenHash }).from(sessions);
    expect(rows.some((r) => r.tokenHash === me.token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.tokenHash))).toBe(true);
  });

  it('lists sessions: staff see everyone’s, a merchant only its own; forceLogout ends one at once', async () => {
    const merchant = await t.login('merchant1');
    const admin = await t.login('admin');
    const mine = await t.call(auth.getSessions, { pageIndex: 1, pageSize: 100 }, merchant);
    expect(mine.body.data.list.every((s: { account: string }) => s.account === 'merchant1')).toBe(true);
    const all = await t.call(auth.getSessions, { pageIndex: 1, pageSize: 100 }, admin);
    const accounts = new Set(all.body.data.list.map((s: { account: string }) => s.account));
    expect(accounts.has('merchant1') && accounts.has('admin')).toBe(true);
    expect(all.body.data.list[0]).not.toHaveProperty('token');

    const adminSession = all.body.data.list.find((s: { account: string }) => s.account === 'admin');
    const refused = await t.call(auth.forceLogout, { token: adminSession.sessionId }, merchant);
    expect(refused.body.code).toBe(Code.notFound);

    const target = mine.body.data.list.find((s: { current: boolean }) => s.current);
    expect((await t.call(auth.forceLogout, { token: target.sessionId }, admin)).body.code).toBe(200);
    expect((await t.call(auth.getInfo, undefined, merchant)).body.code).toBe(Code.sessionExpired);
  });
});

describe('second-level password', () => {
  it('answers 1024 without token2, 1025 with a wrong or expired one, and passes with a fresh one', async () => {
    const admin = await t.login('admin');
    const call = (token2?: string) => t.call(endpoints.users.resetPayPassword, { id: 6 }, { ...admin, token2 });
    expect((await call()).body.code).toBe(Code.token2Required);
    expect((await call('forged')).body.code).toBe(Code.token2Expired);

    const wrong = await t.call(auth.login2, { password: 'nope12345', logInReason: 'check' }, admin);
    expect(wrong.body).toMatchObject({ code: Code.wrongCredentials, msg: 'second-level password is incorrect' });

    const granted = await t.call(auth.login2, { password: 'demo1234', logInReason: 'reset pay password' }, admin);
    expect(granted.body.code).toBe(200);
    const token2 = granted.body.data.token2 as string;
    expect((await call(token2)).body.code).toBe(200);
    const info = await t.call(auth.getInfo, undefined, { ...admin, token2 });
    expect(info.body.data.token2Valid).toBe(true);

    t.clock.advance(16 * 60_000);
    expect((await call(token2)).body.code).toBe(Code.token2Expired);
  });

  it('a token2 of one session does not serve another session', async () => {
    const a = await t.loginWithToken2('admin');
    const b = await t.login('admin');
    const res = await t.call(endpoints.users.resetPayPassword, { id: 6 }, { token: b.token, token2: a.token2 });
    expect(res.body.code).toBe(Code.token2Expired);
  });
});

describe('authenticator binding', () => {
  it('an account without an authenticator signs in with its password, may only confirm, then works', async () => {
    const admin = await t.loginWithToken2('admin');
    const add = await t.call(
      endpoints.users.addUser,
      { nickname: 'New Agent', account: 'newstaff', password: 'newstaff1', access: 'customerService' },
      admin,
    );
    expect(add.body.code).toBe(200);

    const first = await login('newstaff', 'newstaff1');
    expect(first.body.data).toMatchObject({ access: 'customerService', confirmBind: false });
    const token = first.body.data.token as string;
    const info = await t.call(auth.getInfo, undefined, { token });
    expect(info.body.data.confirmBind).toBe(false);
    expect(info.body.data.googleSecret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(info.body.data.googleAuthUrl).toMatch(/^otpauth:\/\/totp\//);

    const blocked = await t.call(endpoints.users.getUserList, { pageIndex: 1 }, { token });
    expect(blocked.body).toMatchObject({ code: Code.forbidden, data: { reason: 'bindRequired' } });

    const { totpCode } = await import('../../platform/totp.js');
    t.clock.advance(30_000);
    const code = totpCode(info.body.data.googleSecret, t.clock.now());
    const wrongAccount = await t.call(auth.confirmBind, { userAccount: 'admin', googleCode: code }, { token });
    expect(wrongAccount.body.code).toBe(Code.forbidden);
    expect((await t.call(auth.confirmBind, { userAccount: 'newstaff', googleCode: code }, { token })).body.code).toBe(
      200,
    );
    expect((await t.call(endpoints.users.getUserList, { pageIndex: 1 }, { token })).body.code).toBe(200);
    const after = await t.call(auth.getInfo, undefined, { token });
    expect(after.body.data.confirmBind).toBe(true);
    expect(after.body.data).not.toHaveProperty('googleSecret');

    // From now on the code is required at sign-in.
    expect((await login('newstaff', 'newstaff1')).body.code).toBe(Code.wrongAuthCode);
  });

  it('bindUser with needToLogout ends the account’s sessions and makes it bind again', async () => {
    const admin = await t.login('admin');
    const victim = await t.login('agent1');
    const res = await t.call(auth.bindUser, { userAccount: 'agent1', needToLogout: true }, admin);
    expect(res.body.code).toBe(200);
    expect((await t.call(auth.getInfo, undefined, victim)).body.code).toBe(Code.sessionExpired);
    const again = await login('agent1', 'demo1234');
    expect(again.body.data.confirmBind).toBe(false);
  });

  it('an admin may not reset a superAdmin’s authenticator', async () => {
    const admin = await t.login('admin');
    const res = await t.call(auth.bindUser, { userAccount: 'superadmin', needToLogout: false }, admin);
    expect(res.body.code).toBe(Code.forbidden);
  });

  it('rebinding from the profile keeps the old authenticator until the new one is confirmed', async () => {
    const me = await t.loginWithToken2('supplier1');
    const started = await t.call(auth.bindUserForProfile, { userAccount: 'supplier1', needToLogout: false }, me);
    expect(started.body.code).toBe(200);
    const newSecret = started.body.data.googleSecret as string;
    // Still the old one at sign-in:
    expect((await login('supplier1', 'demo1234', t.code('supplier1'))).body.code).toBe(200);
    const { totpCode } = await import('../../platform/totp.js');
    const confirm = await t.call(
      auth.confirmBindForProfile,
      { userAccount: 'supplier1', googleCode: totpCode(newSecret, t.clock.now()) },
      me,
    );
    expect(confirm.body.code).toBe(200);
    t.clock.advance(30_000);
    const withNew = await login('supplier1', 'demo1234', totpCode(newSecret, t.clock.now()));
    expect(withNew.body.code).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.account, 'supplier1'));
    expect(row?.googleSecret).toBe(newSecret);
    expect(row?.pendingGoogleSecret).toBeNull();
  });

  it('setAllowModify off forbids changing one’s own authenticator; enableGoogleVerify off drops the code', async () => {
    const admin = await t.login('admin');
    const [merchant] = await t.database.db.select().from(users).where(eq(users.account, 'merchant1'));
    await t.call(auth.setAllowModify, { userId: merchant!.id, allowModify: false }, admin);
    const me = await t.loginWithToken2('merchant1');
    const res = await t.call(auth.unbindForProfile, { userAccount: 'merchant1' }, me);
    expect(res.body.code).toBe(Code.forbidden);

    await t.call(auth.enableGoogleVerify, { userId: merchant!.id, enableGoogleVerify: false }, admin);
    expect((await login('merchant1', 'demo1234')).body.code).toBe(200);
    await t.call(auth.enableGoogleVerify, { userId: merchant!.id, enableGoogleVerify: true }, admin);
    expect((await login('merchant1', 'demo1234')).body.code).toBe(Code.wrongAuthCode);
  });
});
