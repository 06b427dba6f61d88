import { Code, endpoints, PROFILE_TEXTS, USER_TEXTS } from '@paydesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Auth, nextIp, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';

const { profile, auth } = endpoints;
let t: TestApp;
let admin: Auth;

beforeAll(async () => {
  t = await startTestApp();
  admin = await t.loginWithToken2('admin');
});
afterAll(() => t.close());

/** A fresh merchant account that signs in with its password alone (no authenticator), so tests stay apart. */
async function newAccount(account: string, password = 'start1234'): Promise<number> {
  const added = await t.call(
    endpoints.users.addUser,
    { nickname: account, account, password, access: 'merchant' },
    admin,
  );
  expect(added.body.code).toBe(200);
  const id = added.body.data.id as number;
  await t.call(auth.enableGoogleVerify, { userId: id, enableGoogleVerify: false }, admin);
  return id;
}
const signIn = (account: string, password: string) =>
  t.call(auth.login, { userName: account, password }, { ip: nextIp() });
async function session(account: string, password = 'start1234'): Promise<Auth> {
  const res = await signIn(account, password);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return { token: res.body.data.token };
}
async function withToken2(s: Auth, password: string): Promise<Auth> {
  const res = await t.call(auth.login2, { password, logInReason: 'profile test' }, s);
  expect(res.body.code, JSON.stringify(res.body)).toBe(200);
  return { ...s, token2: res.body.data.token2 };
}
const info = async (s: Auth) => t.call(auth.getInfo, undefined, s);
const auditOf = async (action: string) =>
  (await t.call(endpoints.audit.getList, { pageIndex: 1, action }, await t.login('superadmin'))).body.data.list;

describe('updateNickname', () => {
  it('changes the nickname while allowModify is on, and is audited', async () => {
    await newAccount('nick1');
    const me = await session('nick1');
    expect((await t.call(profile.updateNickname, { nickname: '  Night owl ' }, me)).body.code).toBe(200);
    expect((await info(me)).body.data.name).toBe('Night owl');
    const [row] = await auditOf('profile.updateNickname');
    expect(row).toMatchObject({ account: 'nick1', before: { nickname: 'nick1' }, after: { nickname: 'Night owl' } });
  });

  it('is refused with 403 when allowModify is off; nothing changes', async () => {
    const id = await newAccount('nick2');
    await t.call(auth.setAllowModify, { userId: id, allowModify: false }, admin);
    const me = await session('nick2');
    await info(me);
    const before = await snapshot(t.database);
    const res = await t.call(profile.updateNickname, { nickname: 'Renamed' }, me);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: Code.forbidden, msg: PROFILE_TEXTS.modifyNotAllowed });
    expect(await snapshot(t.database)).toBe(before);
    expect((await info(me)).body.data.name).toBe('nick2');
  });
});

describe('changePassword', () => {
  it('refuses a wrong old password with 1001 and changes nothing', async () => {
    await newAccount('pw1');
    const me = await session('pw1');
    await info(me);
    const before = await snapshot(t.database);
    const res = await t.call(profile.changePassword, { oldPassword: 'wrong1234', newPassword: 'next12345' }, me);
    expect(res.body).toMatchObject({ code: Code.wrongCredentials, msg: PROFILE_TEXTS.oldPasswordIncorrect });
    expect(await snapshot(t.database)).toBe(before);
    expect((await signIn('pw1', 'start1234')).body.code).toBe(200);
  });

  it('refuses a weak new password with the spec’s text', async () => {
    const me = await session('pw1');
    const res = await t.call(profile.changePassword, { oldPassword: 'start1234', newPassword: 'lettersonly' }, me);
    expect(res.body.code).toBe(Code.invalidInput);
    expect(res.body.data.issues[0].message).toBe(USER_TEXTS.passwordStrength);
  });

  it('sets the new password, ends the other sessions and keeps this one (even without allowModify)', async () => {
    const id = await newAccount('pw2');
    await t.call(auth.setAllowModify, { userId: id, allowModify: false }, admin);
    const current = await session('pw2');
    const other = await session('pw2');
    const res = await t.call(profile.changePassword, { oldPassword: 'start1234', newPassword: 'fresh2024' }, current);
    expect(res.body.code).toBe(200);
    expect((await info(other)).body.code).toBe(Code.sessionExpired);
    expect((await info(current)).body.code).toBe(200);
    expect((await signIn('pw2', 'start1234')).body.code).toBe(Code.wrongCredentials);
    expect((await signIn('pw2', 'fresh2024')).body.code).toBe(200);
    const [row] = await auditOf('profile.changePassword');
    expect(row).toMatchObject({ account: 'pw2', target: `user:${id}` });
    expect(JSON.stringify(row)).not.toMatch(/fresh2024|start1234|argon2/);
  });
});

describe('changePayPassword', () => {
  it('sets the first one with the sign-in password alone; replacing it needs token2 (1024, 1025)', async () => {
    await newAccount('pay0');
    const me = await session('pay0');
    const first = await t.call(profile.changePayPassword, { password: 'start1234', newPayPassword: 'first2024' }, me);
    expect(first.body.code).toBe(200);
    const input = { password: 'start1234', newPayPassword: 'second2024' };
    expect((await t.call(profile.changePayPassword, input, me)).body.code).toBe(Code.token2Required);
    expect((await t.call(profile.changePayPassword, input, { ...me, token2: 'forged' })).body.code).toBe(
      Code.token2Expired,
    );
    const replaced = await t.call(profile.changePayPassword, input, await withToken2(me, 'first2024'));
    expect(replaced.body.code).toBe(200);
    await withToken2(await session('pay0'), 'second2024');
    const rows = await auditOf('profile.changePayPassword');
    expect(
      rows.filter((r: { account: string }) => r.account === 'pay0').map((r: { after: unknown }) => r.after),
    ).toEqual([{ replacedExisting: true }, { replacedExisting: false }]);
  });

  it('refuses a wrong sign-in password and changes nothing', async () => {
    await newAccount('pay1');
    const me = await withToken2(await session('pay1'), 'start1234');
    await info(me);
    const before = await snapshot(t.database);
    const res = await t.call(profile.changePayPassword, { password: 'wrong1234', newPayPassword: 'payit2024' }, me);
    expect(res.body.code).toBe(Code.wrongCredentials);
    expect(await snapshot(t.database)).toBe(before);
  });

  it('sets the second-level password: login2 then needs it; other sessions lose their token2', async () => {
    const current = await withToken2(await session('pay1'), 'start1234');
    const other = await withToken2(await session('pay1'), 'start1234');
    const res = await t.call(
      profile.changePayPassword,
      { password: 'start1234', newPayPassword: 'payit2024' },
      current,
    );
    expect(res.body.code).toBe(200);
    expect((await info(current)).body.data.token2Valid).toBe(true);
    expect((await info(other)).body.data.token2Valid).toBe(false);
    const again = await t.call(profile.changePayPassword, { password: 'start1234', newPayPassword: 'x1234567' }, other);
    expect(again.body.code).toBe(Code.token2Expired);

    const fresh = await session('pay1');
    const withOld = await t.call(auth.login2, { password: 'start1234', logInReason: 'old one' }, fresh);
    expect(withOld.body.code).toBe(Code.wrongCredentials);
    await withToken2(fresh, 'payit2024');
    // The sign-in password itself is unchanged.
    expect((await signIn('pay1', 'start1234')).body.code).toBe(200);
    const [row] = await auditOf('profile.changePayPassword');
    expect(row).toMatchObject({ account: 'pay1', after: { replacedExisting: false } });
  });

  it('refuses a second-level password equal to the sign-in password', async () => {
    const me = await withToken2(await session('pay1'), 'payit2024');
    const res = await t.call(profile.changePayPassword, { password: 'start1234', newPayPassword: 'start1234' }, me);
    expect(res.body).toMatchObject({ code: Code.businessRule, msg: PROFILE_TEXTS.payPasswordSameAsSignIn });
  });
});

describe('EnablePayPassword', () => {
  const login2 = (s: Auth, password: string) => t.call(auth.login2, { password, logInReason: 'pay password test' }, s);

  it('off: an account without a second-level password passes login2 with its sign-in password', async () => {
    await t.setSetting('EnablePayPassword', false);
    await newAccount('req0');
    const me = await session('req0');
    expect((await info(me)).body.data).toMatchObject({ payPasswordRequired: false, hasPayPassword: false });
    expect((await login2(me, 'start1234')).body.code).toBe(200);
  });

  it('on: login2 takes only a second-level password set for it; without one it must set one first', async () => {
    await t.setSetting('EnablePayPassword', true);
    try {
      const id = await newAccount('req1');
      const me = await session('req1');
      expect((await info(me)).body.data).toMatchObject({ payPasswordRequired: true, hasPayPassword: false });
      const before = await snapshot(t.database);
      const refused = await login2(me, 'start1234');
      expect(refused.body).toMatchObject({ code: Code.businessRule, data: { reason: 'payPasswordNotSet' } });
      // Nothing granted, nothing counted as a failure.
      expect(await snapshot(t.database)).toBe(before);
      expect((await info(me)).body.data.token2Valid).toBe(false);

      // It sets one with its sign-in password (no token2 to get), and then only that one serves.
      const set = await t.call(profile.changePayPassword, { password: 'start1234', newPayPassword: 'mine2024x' }, me);
      expect(set.body.code).toBe(200);
      expect((await info(me)).body.data).toMatchObject({ payPasswordRequired: true, hasPayPassword: true });
      expect((await login2(me, 'start1234')).body).toMatchObject({
        code: Code.wrongCredentials,
        data: { reason: 'secondLevelIncorrect' },
      });
      expect((await login2(me, 'mine2024x')).body.code).toBe(200);

      // Reset by an administrator: with the key on, the sign-in password does not serve again.
      expect((await t.call(endpoints.users.resetPayPassword, { id }, admin)).body.code).toBe(200);
      expect((await login2(me, 'start1234')).body.data).toMatchObject({ reason: 'payPasswordNotSet' });
      await t.setSetting('EnablePayPassword', false);
      expect((await login2(me, 'start1234')).body.code).toBe(200);
    } finally {
      await t.setSetting('EnablePayPassword', undefined);
    }
  });
});
