import { Code, endpoints } from '@paydesk/contract';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, sessions, signInThrottles, users } from '../../db/schema.js';
import { type Auth, downloadCsv, nextIp, startTestApp, type TestApp } from '../../testing/harness.js';
import { counted } from '../../testing/statement-count.js';

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
    // The console shows times and computes "today" in the platform's zone, the one its filters are read in.
    expect(info.body.data.timeZone).toBe(t.config.timeZone);
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

  it('limits sign-in attempts per client address', async () => {
    const ip = '192.0.2.77';
    const codes: number[] = [];
    // A different name each time: the per-address limit of the endpoint bites, not an account's lock.
    for (let i = 0; i < 21; i++) codes.push((await login(`nobody${i}`, 'x1234567', '123456', ip)).body.code);
    expect(codes.slice(0, 20).every((c) => c === Code.wrongCredentials)).toBe(true);
    expect(codes[20]).toBe(Code.tooManyRequests);
  });
});

describe('getInfo: what the console shows from the global config', () => {
  it('tells every signed-in user the system flag and logo, whether the service runs, and the support contact', async () => {
    const superadmin = await t.loginWithToken2('superadmin');
    const service = await t.loginWithToken2('service');
    const merchant = await t.login('merchant1');
    const info = async (who: Auth) => (await t.call(auth.getInfo, undefined, who)).body.data;
    expect(await info(merchant)).toMatchObject({
      showLogo: true,
      systemFlag: 'PayDesk',
      serviceEnabled: true,
      contactInfo: '',
    });

    const { systemConfig } = endpoints;
    try {
      expect((await t.call(systemConfig.setenableService, { enable: false }, superadmin)).body.code).toBe(200);
      const contact = 'Telegram @paydesk_help, 09:00-21:00 IST';
      expect((await t.call(systemConfig.setContactInfo, { value: contact }, service)).body.code).toBe(200);
      await t.call(systemConfig.setSysFlag, { value: 'Desk Two' }, superadmin);
      await t.call(systemConfig.setShowLogo, { enable: false }, service);
      // The next getInfo of any session answers the new values; staff still sign in while it is paused.
      const admin = await login('admin', 'demo1234', t.code('admin'));
      expect(admin.body.code).toBe(200);
      for (const who of [merchant, { token: admin.body.data.token as string }]) {
        expect(await info(who)).toMatchObject({
          showLogo: false,
          systemFlag: 'Desk Two',
          serviceEnabled: false,
          contactInfo: contact,
        });
      }
      // An emptied contact (the console sends it as null) shows none.
      expect((await t.call(systemConfig.setContactInfo, { value: null as never }, service)).body.data).toEqual({
        value: '',
      });
      expect((await info(merchant)).contactInfo).toBe('');
    } finally {
      for (const key of ['enableService', 'ContactInfo', 'SysFlag', 'ShowLogo'] as const) {
        await t.setSetting(key, undefined);
      }
    }
    expect(await info(merchant)).toMatchObject({ showLogo: true, systemFlag: 'PayDesk', serviceEnabled: true });
  });
});

describe('sign-in protection', () => {
  const answer = (res: { status: number; body: { code: number; msg: string; data: unknown } }) => ({
    status: res.status,
    code: res.body.code,
    msg: res.body.msg,
    data: res.body.data,
  });
  const idOf = async (account: string) => {
    const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.account, account));
    return row!.id;
  };

  it('an attacker’s failures from one address lock that address out, not the owner signing in from another', async () => {
    const attacker = nextIp();
    for (let i = 0; i < 5; i++) {
      expect((await login('support', `wrong-${i}x`, '123456', attacker)).body.code).toBe(Code.wrongCredentials);
    }
    // Each failure on an existing account is audited, with the address it came from.
    const failures = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.loginFailed'), eq(auditLog.ip, attacker)));
    expect(failures).toHaveLength(5);
    expect(failures.every((f) => f.account === 'support')).toBe(true);
    // Even the right password and code are refused from the attacker's address now:
    const locked = await login('support', 'demo1234', t.code('support'), attacker);
    expect(locked.status).toBe(423);
    expect(locked.body).toMatchObject({ code: Code.accountLocked, data: { reason: 'accountLocked' } });
    // The owner, elsewhere, is not locked out.
    expect((await login('support', 'demo1234', t.code('support'), nextIp())).body.code).toBe(200);
    // The address's lock ends after 15 minutes.
    t.clock.advance(16 * 60_000);
    expect((await login('support', 'demo1234', t.code('support'), attacker)).body.code).toBe(200);
  });

  it('forgets throttle rows that hold nothing any more, and keeps locks, recent failures and known addresses', async () => {
    const [stale, locked, owner] = [nextIp(), nextIp(), nextIp()];
    await login('stale-name', 'wrong-pass1', '123456', stale);
    expect((await login('service', 'demo1234', t.code('service'), owner)).body.code).toBe(200);
    t.clock.advance(16 * 60_000);
    for (let i = 0; i < 5; i++) await login('locked-name', 'wrong-pass1', '123456', locked);
    const rowsOf = (account: string) =>
      t.database.db.select().from(signInThrottles).where(eq(signInThrottles.account, account));
    expect(await rowsOf('stale-name')).toHaveLength(2); // its address and every address

    const purged = await t.app.services.auth.purgeStaleThrottles();
    expect(purged).toBeGreaterThanOrEqual(2);
    expect(await rowsOf('stale-name')).toEqual([]);
    expect((await rowsOf('locked-name')).find((r) => r.ip === locked)?.lockedUntil).toBeTruthy();
    expect((await rowsOf('service')).some((r) => r.ip === owner && r.lastSuccessAt)).toBe(true);
    // The lock still holds after the purge.
    expect((await login('locked-name', 'wrong-pass1', '123456', locked)).status).toBe(423);
  });

  it('answers an unknown account exactly like an existing one, before, during and after throttling', async () => {
    const [ghostIp, realIp] = [nextIp(), nextIp()];
    const both = async (ips: [string, string] = [ghostIp, realIp]) => [
      answer(await login('ghost-account', 'wrong-pass1', '123456', ips[0])),
      answer(await login('maintenance', 'wrong-pass1', '123456', ips[1])),
    ];
    const seen: unknown[] = [];
    for (let i = 0; i < 7; i++) {
      const [ghost, real] = await both();
      expect(ghost).toEqual(real);
      seen.push(ghost);
    }
    expect(seen[0]).toMatchObject({ status: 401, code: Code.wrongCredentials });
    expect(seen[5]).toMatchObject({ status: 423, code: Code.accountLocked, data: { reason: 'accountLocked' } });
    // From many addresses: past 10 failures each further attempt waits, the same for both.
    for (let i = 0; i < 6; i++) {
      const [ghost, real] = await both([nextIp(), nextIp()]);
      expect(ghost).toEqual(real);
    }
    const [ghostDelayed, realDelayed] = await both([nextIp(), nextIp()]);
    expect(ghostDelayed).toEqual(realDelayed);
    expect(ghostDelayed).toMatchObject({ status: 423, code: Code.accountLocked, data: { reason: 'signInDelayed' } });
    // After the window both are plain wrong answers again.
    t.clock.advance(16 * 60_000);
    const [ghostAfter, realAfter] = await both();
    expect(ghostAfter).toEqual(realAfter);
    expect(ghostAfter).toMatchObject({ status: 401, code: Code.wrongCredentials });
  });

  it('failures from many addresses slow the account down, never lock it; a known address is not slowed', async () => {
    const home = nextIp();
    expect((await login('merchant1', 'demo1234', t.code('merchant1'), home)).body.code).toBe(200);
    const code = t.code('merchant1'); // taken first: t.code moves the clock on
    for (let i = 0; i < 14; i++) await login('merchant1', `guess-${i}x`, '123456', nextIp());
    const elsewhere = nextIp();
    const delayed = await login('merchant1', 'demo1234', code, elsewhere);
    expect(delayed.body).toMatchObject({ code: Code.accountLocked, data: { reason: 'signInDelayed' } });
    const wait = delayed.body.data.retryAfterSeconds as number;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    // The owner's usual address signs in at once; a new one after the short wait.
    expect((await login('merchant1', 'demo1234', code, home)).body.code).toBe(200);
    t.clock.advance(wait * 1000);
    expect((await login('merchant1', 'demo1234', t.code('merchant1'), elsewhere)).body.code).toBe(200);
  });

  it('authenticator code failures and replays count under the same policy', async () => {
    const ip = nextIp();
    const wrong = () => (t.code('service') === '000000' ? '111111' : '000000');
    for (let i = 0; i < 5; i++) {
      expect((await login('service', 'demo1234', wrong(), ip)).body.code).toBe(Code.wrongAuthCode);
    }
    expect((await login('service', 'demo1234', t.code('service'), ip)).body.code).toBe(Code.accountLocked);

    const replayer = nextIp();
    const code = t.code('service');
    expect((await login('service', 'demo1234', code, nextIp())).body.code).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await login('service', 'demo1234', code, replayer)).body).toMatchObject({
        code: Code.wrongAuthCode,
        data: { reason: 'codeReused' },
      });
    }
    expect((await login('service', 'demo1234', t.code('service'), replayer)).body.code).toBe(Code.accountLocked);
  });

  it('second-level password failures count under the same policy, with sign-in failures from that address', async () => {
    const ip = nextIp();
    const me = await t.login('support');
    const session = { ...me, ip };
    for (let i = 0; i < 3; i++) {
      const res = await t.call(auth.login2, { password: `wrong-${i}x`, logInReason: 'test' }, session);
      expect(res.body.code).toBe(Code.wrongCredentials);
    }
    for (let i = 0; i < 2; i++) await login('support', `wrong-${i}y`, '123456', ip);
    const refused = await t.call(auth.login2, { password: 'demo1234', logInReason: 'test' }, session);
    expect(refused.body).toMatchObject({ code: Code.accountLocked, data: { reason: 'accountLocked' } });
    // The same session from another address is not affected.
    const other = await t.call(auth.login2, { password: 'demo1234', logInReason: 'test' }, { ...me, ip: nextIp() });
    expect(other.body.code).toBe(200);
  });

  it('an admin sees a lock and clears it (audited); roles that may not get 403; an admin may not clear a superAdmin', async () => {
    const ip = nextIp();
    for (let i = 0; i < 5; i++) await login('agent1', `wrong-${i}x`, '123456', ip);
    const admin = await t.login('admin');
    const list = await t.call(endpoints.users.getUserList, { pageIndex: 1, pageSize: 50, account: 'agent1' }, admin);
    const row = list.body.data.list.find((u: { account: string }) => u.account === 'agent1');
    expect(row.failedLoginCount).toBeGreaterThanOrEqual(5);
    expect(Date.parse(row.lockedUntil)).toBeGreaterThan(t.clock.now().getTime());

    const agentId = await idOf('agent1');
    for (const account of ['service', 'maintenance', 'support', 'supplier1', 'merchant1']) {
      const res = await t.call(auth.clearSignInLock, { userId: agentId }, await t.login(account));
      expect(res.status, account).toBe(403);
    }
    expect((await login('agent1', 'demo1234', t.code('agent1'), ip)).body.code).toBe(Code.accountLocked);

    const cleared = await t.call(auth.clearSignInLock, { userId: agentId }, admin);
    expect(cleared.body.code).toBe(200);
    const after = await t.call(endpoints.users.getUserList, { pageIndex: 1, pageSize: 50, account: 'agent1' }, admin);
    expect(after.body.data.list.find((u: { account: string }) => u.account === 'agent1')).toMatchObject({
      failedLoginCount: 0,
      lockedUntil: null,
    });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'auth.clearSignInLock'))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit).toMatchObject({ account: 'admin', target: `user:${agentId}` });
    expect(JSON.stringify(audit?.before)).toContain(ip);
    expect((await login('agent1', 'demo1234', t.code('agent1'), ip)).body.code).toBe(200);

    const boss = await t.call(auth.clearSignInLock, { userId: await idOf('superadmin') }, admin);
    expect(boss.status).toBe(403);
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

describe('sessions: each acts on its own; account managers on the roles they manage', () => {
  const sessionsOf = async (caller: { token?: string }, account: string) => {
    const res = await t.call(auth.getSessions, { pageIndex: 1, pageSize: 100, account }, caller);
    expect(res.body.code).toBe(200);
    return res.body.data.list as Array<{ sessionId: string; account: string; current: boolean }>;
  };

  it('a supplier cannot list, export or end its agent’s sessions', async () => {
    const agent = await t.login('agent1');
    const supplier = await t.login('supplier1');
    const admin = await t.login('admin');
    const agentSession = (await sessionsOf(agent, 'agent1')).find((s) => s.current)!;

    const listed = await t.call(auth.getSessions, { pageIndex: 1, pageSize: 100 }, supplier);
    expect(listed.body.data.list.length).toBeGreaterThan(0);
    expect(listed.body.data.list.every((s: { account: string }) => s.account === 'supplier1')).toBe(true);
    const csv = await downloadCsv(t, auth.exportSessions, {}, supplier);
    expect(csv.rows.length).toBeGreaterThan(0);
    expect(csv.rows.every((r) => r.includes(',supplier1,'))).toBe(true);
    expect(csv.rows.join('\n')).not.toContain('agent1');

    const ended = await t.call(auth.forceLogout, { token: agentSession.sessionId }, supplier);
    expect(ended.body.code).toBe(Code.notFound);
    expect((await t.call(auth.getInfo, undefined, agent)).body.code).toBe(200);
    // The supplier still ends its own; staff still see the agent's.
    expect((await sessionsOf(admin, 'agent1')).some((s) => s.sessionId === agentSession.sessionId)).toBe(true);
  });

  it('an admin cannot end a superAdmin’s session; a superAdmin can end an admin’s', async () => {
    const boss = await t.login('superadmin');
    const admin = await t.login('admin');
    const bossSession = (await sessionsOf(boss, 'superadmin')).find((s) => s.current)!;
    const refused = await t.call(auth.forceLogout, { token: bossSession.sessionId }, admin);
    expect(refused.status).toBe(403);
    expect((await t.call(auth.getInfo, undefined, boss)).body.code).toBe(200);

    const adminSession = (await sessionsOf(admin, 'admin')).find((s) => s.current)!;
    expect((await t.call(auth.forceLogout, { token: adminSession.sessionId }, boss)).body.code).toBe(200);
    expect((await t.call(auth.getInfo, undefined, admin)).body.code).toBe(Code.sessionExpired);
  });

  it('staff who manage users end a merchant’s session; other staff may not; anyone ends its own others', async () => {
    for (const manager of ['admin', 'superadmin']) {
      const merchant = await t.login('merchant1');
      const target = (await sessionsOf(merchant, 'merchant1')).find((s) => s.current)!;
      const service = await t.login('service');
      expect((await t.call(auth.forceLogout, { token: target.sessionId }, service)).body.code).toBe(Code.notFound);
      expect((await t.call(auth.getInfo, undefined, merchant)).body.code).toBe(200);
      const res = await t.call(auth.forceLogout, { token: target.sessionId }, await t.login(manager));
      expect(res.body.code, manager).toBe(200);
      expect((await t.call(auth.getInfo, undefined, merchant)).body.code).toBe(Code.sessionExpired);
    }
    const other = await t.login('supplier1');
    const otherId = (await sessionsOf(other, 'supplier1')).find((s) => s.current)!.sessionId;
    const supplier = await t.login('supplier1');
    const own = (await sessionsOf(supplier, 'supplier1')).find((s) => s.current)!;
    expect((await t.call(auth.forceLogout, { token: otherId }, supplier)).body.code).toBe(200);
    expect((await t.call(auth.getInfo, undefined, other)).body.code).toBe(Code.sessionExpired);
    // The session in use ends by signing out.
    const current = await t.call(auth.forceLogout, { token: own.sessionId }, supplier);
    expect(current.body).toMatchObject({ code: Code.businessRule, data: { reason: 'currentSession' } });
    expect((await t.call(auth.getInfo, undefined, supplier)).body.code).toBe(200);
  });
});

describe('second-level password', () => {
  it('answers 1024 without token2, 1025 with a wrong or expired one, and passes with a fresh one', async () => {
    const admin = await t.login('admin');
    const call = (token2?: string) => t.call(endpoints.users.resetPayPassword, { id: 6 }, { ...admin, token2 });
    expect((await call()).body.code).toBe(Code.token2Required);
    expect((await call('forged')).body.code).toBe(Code.token2Expired);

    const wrong = await t.call(auth.login2, { password: 'nope12345', logInReason: 'check' }, admin);
    expect(wrong.body).toMatchObject({
      code: Code.wrongCredentials,
      msg: 'second-level password is incorrect',
      data: { reason: 'secondLevelIncorrect' },
    });

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

describe('EnableIpChangedCheck', () => {
  const signInFrom = async (account: string, ip: string) => {
    const res = await login(account, 'demo1234', t.code(account), ip);
    expect(res.body.code, JSON.stringify(res.body)).toBe(200);
    return res.body.data.token as string;
  };
  const infoFrom = (token: string, ip: string) => t.call(auth.getInfo, undefined, { token, ip });

  it('off: a session is served from any address', async () => {
    await t.setSetting('EnableIpChangedCheck', false);
    const token = await signInFrom('service', '198.51.100.10');
    expect((await infoFrom(token, '198.51.100.10')).body.code).toBe(200);
    expect((await infoFrom(token, '198.51.100.11')).body.code).toBe(200);
    expect((await infoFrom(token, '198.51.100.10')).body.code).toBe(200);
  });

  it('on: a request from another address ends the session (1003, audited as the system); it must sign in again', async () => {
    await t.setSetting('EnableIpChangedCheck', true);
    try {
      const token = await signInFrom('service', '198.51.100.20');
      expect((await infoFrom(token, '198.51.100.20')).body.code).toBe(200);
      // The same address written as IPv4-mapped IPv6 is the same client.
      expect((await infoFrom(token, '::ffff:198.51.100.20')).body.code).toBe(200);

      const moved = await infoFrom(token, '198.51.100.21');
      expect(moved.status).toBe(401);
      expect(moved.body).toMatchObject({ code: Code.sessionExpired, data: { reason: 'addressChanged' } });
      // Ended, not merely refused there: the sign-in address is not served either.
      expect((await infoFrom(token, '198.51.100.20')).body.code).toBe(Code.sessionExpired);
      const [row] = await t.database.db.select().from(sessions).where(eq(sessions.ip, '198.51.100.20'));
      expect(row).toMatchObject({ revokedReason: 'address changed' });
      expect(row?.revokedAt).not.toBeNull();
      const [audit] = await t.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'auth.addressChanged'))
        .orderBy(desc(auditLog.id))
        .limit(1);
      expect(audit).toMatchObject({
        userId: null,
        account: 'system',
        target: `session:${row!.publicId}`,
        before: { account: 'service', ip: '198.51.100.20' },
        after: { ip: '198.51.100.21' },
      });

      // Signing in again from the new address gives a session that address is served by.
      const again = await signInFrom('service', '198.51.100.21');
      expect((await infoFrom(again, '198.51.100.21')).body.code).toBe(200);
    } finally {
      await t.setSetting('EnableIpChangedCheck', undefined);
    }
  });

  it('on: costs a request from the sign-in address no statement more than off', async () => {
    const token = await signInFrom('maintenance', '198.51.100.30');
    const statementsOf = async (enable: boolean) => {
      await t.setSetting('EnableIpChangedCheck', enable);
      await infoFrom(token, '198.51.100.30'); // the settings and the session read once
      const { result, statements } = await counted(() => infoFrom(token, '198.51.100.30'));
      expect(result.body.code).toBe(200);
      return statements;
    };
    try {
      const off = await statementsOf(false);
      expect(await statementsOf(true)).toEqual(off);
    } finally {
      await t.setSetting('EnableIpChangedCheck', undefined);
    }
  });
});
