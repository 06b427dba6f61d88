import { randomBytes } from 'node:crypto';
import { Code, endpoints } from '@paydesk/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp, buildServices } from '../app.js';
import { type Config, defaultConfig } from '../config.js';
import { payGateways, users } from '../db/schema.js';
import { totpCode } from '../platform/totp.js';
import { nextIp, startTestApp, testDatabase } from '../testing/harness.js';
import { DEMO_GATEWAY, demoGatewayUrl } from './demo-gateway.js';
import { DEMO_BLACKLIST, DEMO_PAY_GATEWAY_NAME, DEMO_STAFF_IP, DEMO_TELEGRAM } from './demo-system.js';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedIfEmpty, seedOnFirstStart } from './seed.js';

describe('first start', () => {
  it('DEMO=0: only a superadmin, with ADMIN_PASSWORD, whose first sign-in binds an authenticator', async () => {
    const t = await startTestApp({ demo: false, config: { adminPassword: 'first-admin-2026' } });
    try {
      const all = await t.database.db.select().from(users);
      expect(all.map((u) => [u.account, u.role])).toEqual([['superadmin', 'superAdmin']]);
      expect(all[0]!.googleSecret).toBeNull();
      const res = await t.call(
        endpoints.auth.login,
        { userName: 'superadmin', password: 'first-admin-2026' },
        { ip: nextIp() },
      );
      expect(res.body.data).toMatchObject({ access: 'superAdmin', confirmBind: false });
      const token = res.body.data.token as string;
      const info = await t.call(endpoints.auth.getInfo, undefined, { token });
      expect(info.body.data.googleSecret).toBeTruthy();
      const blocked = await t.call(endpoints.users.getUserList, { pageIndex: 1 }, { token });
      expect(blocked.body.code).toBe(Code.forbidden);
    } finally {
      await t.close();
    }
  });

  it('the demo: one account per role, agent1 under supplier1, bound authenticators; never seeded twice', async () => {
    const t = await startTestApp({ demo: true });
    try {
      const all = await t.database.db.select().from(users);
      expect(all.map((u) => u.account).sort()).toEqual(DEMO_ACCOUNTS.map((a) => a.account).sort());
      const supplier1 = all.find((u) => u.account === 'supplier1')!;
      expect(all.find((u) => u.account === 'agent1')!.parentId).toBe(supplier1.id);
      expect(all.every((u) => u.googleConfirmed && u.googleSecret)).toBe(true);
      for (const demo of DEMO_ACCOUNTS) {
        // The console leaves the team pages out of an agent's menu: only agent1 is one.
        const info = await t.call(endpoints.auth.getInfo, undefined, await t.login(demo.account));
        expect(info.body.data.agent, demo.account).toBe(demo.account === 'agent1');
      }

      // The test apps' seed leaves the system pages' lists empty (only `npm start` fills them: below).
      const admin = await t.login('admin');
      expect((await t.call(endpoints.bots.whitelistList, { pageIndex: 1 }, admin)).body.data.total).toBe(0);
      expect((await t.call(endpoints.nameBlacklist.getBlacklist, { pageIndex: 1 }, admin)).body.data.total).toBe(0);

      const again = await seedIfEmpty(
        t.database.db,
        buildServices({ config: t.config, database: t.database }),
        t.config,
      );
      expect(again.kind).toBe('none');
      expect(await t.database.db.select().from(users)).toHaveLength(DEMO_ACCOUNTS.length);
    } finally {
      await t.close();
    }
  });

  it("npm start's demo, even without its history: every system page has rows, read by the read-only twin", async () => {
    const { database, drop } = await testDatabase();
    const config: Config = {
      ...defaultConfig(),
      demo: true,
      demoOrders: false,
      webDist: '/nonexistent',
      secretKey: randomBytes(32),
    };
    const seeded = await seedOnFirstStart({ config, database });
    const app = await buildApp({ config, database });
    try {
      await app.ready();
      const call = async (
        endpoint: { path: string },
        token: string,
        query: Record<string, string> = { pageIndex: '1' },
      ) => (await app.inject({ method: 'GET', url: endpoint.path, query, headers: { token } })).json();
      // Signed in from an address outside the staff IP whitelist: its switch is off, nobody is shut out.
      const secret = seeded.accounts.find((a) => a.account === 'maintenance')!.googleSecret!;
      const login = await app.inject({
        method: 'POST',
        url: endpoints.auth.login.path,
        payload: { userName: 'maintenance', password: DEMO_PASSWORD, googleCode: totpCode(secret, new Date()) },
        remoteAddress: '198.51.100.7',
      });
      expect(login.json().code).toBe(200);
      const token = login.json().data.token as string;

      const whitelist = (await call(endpoints.bots.whitelistList, token)).data.list;
      expect(whitelist.map((w: { telegramUserId: string }) => w.telegramUserId).sort()).toEqual(
        DEMO_TELEGRAM.whitelist.map((w) => w.telegramUserId).sort(),
      );
      const groups = (await call(endpoints.bots.groupList, token)).data.list;
      expect(
        groups.map((g: { chatId: string; partyKind: string; partyName: string | null; transferNotices: boolean }) => [
          g.chatId,
          g.partyKind,
          g.partyName,
          g.transferNotices,
        ]),
      ).toEqual([
        ['-1002', 'supplier', 'Supplier One', true],
        ['-1001', 'merchant', 'Merchant One', true],
        ['-1000', 'staff', null, true],
      ]);
      const blacklist = (await call(endpoints.nameBlacklist.getBlacklist, token)).data.list;
      expect(blacklist.map((b: { name: string; kind: string }) => [b.name, b.kind]).reverse()).toEqual(
        DEMO_BLACKLIST.map((b) => [b.name, b.kind]),
      );
      // The blacklist acts: the demo's payer names are refused at order create.
      const services = buildServices({ config, database });
      expect(await services.nameBlacklist.blocks(' deepak  MALHOTRA ', 'payer')).toBe(true);
      expect(await services.nameBlacklist.blocks('Karan Mehta', 'payer')).toBe(false);

      const ips = await call(endpoints.ipWhitelist.getStaffIpList, token);
      expect(ips.data.list).toMatchObject([{ entry: DEMO_STAFF_IP.entry, createdBy: 'superadmin' }]);
      expect((await call(endpoints.systemConfig.getStaffIpWhitelist, token, {})).data).toEqual({ enable: false });

      const gateways = (await call(endpoints.payGateways.getPayGateways, token)).data.list;
      expect(gateways).toMatchObject([
        {
          name: DEMO_PAY_GATEWAY_NAME,
          kind: 'payoutApi',
          baseUrl: demoGatewayUrl(config.demoGatewayPort),
          keyId: DEMO_GATEWAY.keyId,
          hasKeySecret: true,
          hasWebhookSecret: true,
          enabled: true,
        },
      ]);
      // Sealed at rest, like every secret; the adapters open it.
      const [stored] = await database.db.select().from(payGateways).where(eq(payGateways.id, gateways[0].id));
      expect(stored!.keySecretSealed).not.toContain(DEMO_GATEWAY.keySecret);
      expect((await services.payGateways.open(database.db, gateways[0].id))?.keySecret).toBe(DEMO_GATEWAY.keySecret);
    } finally {
      await app.close();
      await database.close();
      await drop();
    }
  });
});
