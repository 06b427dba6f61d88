import { Code, endpoints } from '@paydesk/contract';
import { describe, expect, it } from 'vitest';
import { buildServices } from '../app.js';
import { users } from '../db/schema.js';
import { nextIp, startTestApp } from '../testing/harness.js';
import { DEMO_ACCOUNTS, seedIfEmpty } from './seed.js';

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
});
