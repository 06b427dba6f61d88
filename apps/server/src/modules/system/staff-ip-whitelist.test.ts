import { Code, endpoints } from '@paydesk/contract';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema.js';
import { DEMO_PASSWORD } from '../../seed/seed.js';
import { type Auth, snapshot, startTestApp, type TestApp } from '../../testing/harness.js';

/**
 * The staff sign-in whitelist (issue 21 item 6): with StaffIpWhitelist on, staff sign in only from
 * listed addresses; merchants and suppliers are not limited; nobody shuts their own address out.
 */
const { ipWhitelist, systemConfig, auth: authApi } = endpoints;
const OFFICE = '203.0.113.7';
const ELSEWHERE = '198.51.100.9';
let t: TestApp;
let superAdmin: Auth;

beforeAll(async () => {
  t = await startTestApp();
  superAdmin = { ...(await t.loginWithToken2('superadmin')), ip: OFFICE };
});
afterAll(() => t.close());

const signIn = (account: string, ip: string) =>
  t.call(authApi.login, { userName: account, password: DEMO_PASSWORD, googleCode: t.code(account) }, { ip });
const turn = (on: boolean, who: Auth) => t.call(systemConfig.setStaffIpWhitelist, { enable: on }, who);

describe('staff sign-in whitelist', () => {
  it('takes addresses and ranges, refusing bad, too wide and repeated ones', async () => {
    const before = await snapshot(t.database);
    for (const entry of ['not-an-ip', '10.0.0.0/8', '203.0.113.0/33']) {
      const res = await t.call(ipWhitelist.addStaffIp, { entry }, superAdmin);
      expect(res.status, entry).toBe(400);
      expect(res.body.code).toBe(Code.invalidInput);
    }
    expect(await snapshot(t.database)).toBe(before);
    const added = await t.call(ipWhitelist.addStaffIp, { entry: ' 192.0.2.0/24 ', remark: 'branch' }, superAdmin);
    expect(added.body).toMatchObject({ code: 200, data: { entry: '192.0.2.0/24', createdBy: 'superadmin' } });
    expect((await t.call(ipWhitelist.addStaffIp, { entry: '192.0.2.0/24' }, superAdmin)).status).toBe(409);
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'ipWhitelist.add')))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit).toMatchObject({ account: 'superadmin', target: 'ip:192.0.2.0/24' });
  });

  it('cannot be turned on from an address the list does not hold', async () => {
    const res = await turn(true, superAdmin);
    expect(res.status).toBe(422);
    expect(res.body.data.reason).toBe('ipWhitelistLockout');
    expect(await t.app.services.settings.get('StaffIpWhitelist')).toBe(false);
  });

  it('when on, staff sign in only from the list; merchants and suppliers anywhere', async () => {
    const office = await t.call(ipWhitelist.addStaffIp, { entry: OFFICE, remark: 'office' }, superAdmin);
    expect(office.body.code).toBe(200);
    const list = await t.call(ipWhitelist.getStaffIpList, { pageIndex: 1 }, superAdmin);
    expect(list.body.data).toMatchObject({ callerIp: OFFICE, callerCovered: true, total: 2 });
    expect((await turn(true, superAdmin)).body).toMatchObject({ code: 200, data: { enable: true } });
    try {
      const refused = await signIn('admin', ELSEWHERE);
      expect(refused.body.code).toBe(Code.businessRule);
      expect(refused.body.data.reason).toBe('staffIpNotAllowed');
      const [failed] = await t.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'auth.loginFailed'))
        .orderBy(desc(auditLog.id))
        .limit(1);
      expect(failed).toMatchObject({ account: 'admin', after: { what: 'staffIpNotAllowed' } });
      expect((await signIn('admin', OFFICE)).body.code).toBe(200);
      expect((await signIn('service', '192.0.2.44')).body.code).toBe(200);
      expect((await signIn('merchant1', ELSEWHERE)).body.code).toBe(200);
      expect((await signIn('supplier1', ELSEWHERE)).body.code).toBe(200);

      // The entry that holds the caller's own address stays while the list is on.
      const own = list.body.data.list.find((r: { entry: string }) => r.entry === OFFICE);
      expect(own.coversCaller).toBe(true);
      const kept = await t.call(ipWhitelist.deleteStaffIp, { id: own.id }, superAdmin);
      expect(kept.body.data.reason).toBe('ipWhitelistLockout');
      // From another listed address it may go.
      expect(
        (await t.call(ipWhitelist.deleteStaffIp, { id: own.id }, { ...superAdmin, ip: '192.0.2.1' })).body.code,
      ).toBe(200);
      expect((await signIn('admin', OFFICE)).body.data.reason).toBe('staffIpNotAllowed');
    } finally {
      expect((await turn(false, { ...superAdmin, ip: '192.0.2.1' })).body.code).toBe(200);
    }
    expect((await signIn('admin', ELSEWHERE)).body.code).toBe(200);
  });

  it('is read by technical maintenance and changed by superAdmin only', async () => {
    const maintenance = await t.loginWithToken2('maintenance');
    expect((await t.call(ipWhitelist.getStaffIpList, { pageIndex: 1 }, maintenance)).body.code).toBe(200);
    expect((await t.call(ipWhitelist.addStaffIp, { entry: '192.0.2.9' }, maintenance)).status).toBe(403);
    const admin = await t.loginWithToken2('admin');
    expect((await t.call(ipWhitelist.addStaffIp, { entry: '192.0.2.9' }, admin)).status).toBe(403);
    expect((await t.call(ipWhitelist.getStaffIpList, { pageIndex: 1 }, await t.login('merchant1'))).status).toBe(403);
  });
});
