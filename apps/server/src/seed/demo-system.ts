import type { OrderClearRun } from '@paydesk/contract';
import { eq, inArray } from 'drizzle-orm';
import type { Services } from '../app.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { merchants, suppliers, users } from '../db/schema.js';
import type { Actor } from '../platform/audit.js';
import { DEMO_GATEWAY, demoGatewayUrl } from './demo-gateway.js';
import { DEMO_ORDER_DAYS } from './demo-orders.js';

/**
 * The demo's Telegram users and chats. No real Telegram is reached: the demo sets no BotToken, so the
 * bots send nothing; with `TELEGRAM_API_ROOT` at the fake of tools/fake-telegram and a BotToken set,
 * its README's `--say -1001:42:/balance` is merchant1's contact asking in merchant1's group.
 */
export const DEMO_TELEGRAM = {
  whitelist: [
    { telegramUserId: '7001', name: '@paydesk_admin (Admin)', remark: 'staff: answers reminders in the staff group' },
    { telegramUserId: '7002', name: '@paydesk_service (Customer Service)', remark: 'staff' },
    { telegramUserId: '42', name: '@merchant_one_ops (Merchant One)', remark: "merchant1's contact" },
  ],
  groups: {
    staff: { chatId: '-1000', name: 'PayDesk staff', language: 'en-US' },
    merchant: { chatId: '-1001', name: 'Merchant One ops', language: 'en-US' },
    supplier: { chatId: '-1002', name: 'Supplier One ops', language: 'zh-CN' },
  },
} as const;

/** Names nobody in the demo's history or the simulator uses, so no demo order or payout is refused. */
export const DEMO_BLACKLIST = [
  { name: 'Deepak Malhotra', kind: 'payer', remark: 'chargebacks reported by merchant1 (demo)' },
  { name: 'Sunil Bhatt', kind: 'payer', remark: 'paid with a stolen card (demo)' },
  { name: 'Karan Mehta', kind: 'payee', remark: 'payout account reported as a mule account (demo)' },
] as const;

export const DEMO_STAFF_IP = { entry: '127.0.0.1', remark: 'this machine (demo; the StaffIpWhitelist switch is off)' };

/** The pay gateway config's demo gateway: the fake that `npm start` runs beside the demo (demo-gateway.ts). */
export const DEMO_PAY_GATEWAY_NAME = 'Demo payout gateway (local fake)';

/**
 * The demo's system pages (issue 21), made through each page's own service as the console does
 * (validated, audited, secrets sealed): the Telegram whitelist (two staff users, merchant1's
 * contact), the bot groups (staff, merchant1, supplier1; merchant1's and supplier1's get their
 * balance changes on the transfer bot page), the name blacklist (two payers, one payee), one staff
 * IP whitelist entry with the StaffIpWhitelist switch left off (nobody is shut out), and a pay
 * gateway at the local fake gateway. Only `npm start`'s first start makes them (seedOnFirstStart):
 * the test apps keep these lists empty.
 */
export async function seedDemoSystem(db: Db, services: Services, config: Pick<Config, 'demoGatewayPort'>) {
  const accounts = await db
    .select({ id: users.id, account: users.account })
    .from(users)
    .where(inArray(users.account, ['superadmin', 'admin', 'service', 'merchant1', 'supplier1']));
  const idOf = (account: string) => accounts.find((a) => a.account === account)?.id ?? null;
  const actor = (account: string, role: Actor['role']): Actor => ({ userId: idOf(account), account, role, ip: null });
  const superAdmin = actor('superadmin', 'superAdmin');
  const admin = actor('admin', 'admin');
  const service = actor('service', 'customerService');

  for (const entry of DEMO_TELEGRAM.whitelist) {
    await services.botsAdmin.whitelistAdd({ ...entry, enabled: true }, admin);
  }
  const merchantUser = idOf('merchant1');
  const supplierUser = idOf('supplier1');
  const [merchant] = merchantUser
    ? await db.select({ id: merchants.id }).from(merchants).where(eq(merchants.userId, merchantUser))
    : [];
  const [supplier] = supplierUser
    ? await db.select({ id: suppliers.id }).from(suppliers).where(eq(suppliers.userId, supplierUser))
    : [];
  const { groups } = DEMO_TELEGRAM;
  const group = { enabled: true, remark: 'demo' };
  await services.botsAdmin.groupAdd({ ...groups.staff, ...group, partyKind: 'staff', partyId: null }, admin);
  if (merchant) {
    await services.botsAdmin.groupAdd(
      { ...groups.merchant, ...group, partyKind: 'merchant', partyId: merchant.id },
      admin,
    );
  }
  if (supplier) {
    await services.botsAdmin.groupAdd(
      { ...groups.supplier, ...group, partyKind: 'supplier', partyId: supplier.id },
      admin,
    );
  }

  for (const entry of DEMO_BLACKLIST) await services.nameBlacklist.add(entry, service);
  await services.staffIps.add(DEMO_STAFF_IP, superAdmin);
  await services.payGateways.create(
    {
      kind: 'payoutApi',
      name: DEMO_PAY_GATEWAY_NAME,
      baseUrl: demoGatewayUrl(config.demoGatewayPort),
      keyId: DEMO_GATEWAY.keyId,
      keySecret: DEMO_GATEWAY.keySecret,
      webhookSecret: DEMO_GATEWAY.webhookSecret,
      remark: 'the fake gateway that npm start runs beside the demo (demo data only)',
    },
    superAdmin,
  );
}

/** The cycle of the demo's order clear run: the finished orders and payouts of the history's first two days. */
export const DEMO_CLEAR_CYCLE_DAYS = DEMO_ORDER_DAYS - 2;

/**
 * After the history: one real run of the order clear (the order clear history page), as a superAdmin
 * does it: DataClearCycle set to DEMO_CLEAR_CYCLE_DAYS, a run now, then the cycle set back to what it
 * was (0 by default: keep everything), so no later daily run removes more of the demo's data. The run
 * removes details only (timelines, allocations, callbacks, receipts, personal fields); the ledger, the
 * fund records and the audit log stay (modules/system/order-clear.ts).
 */
export async function runDemoOrderClear(services: Services): Promise<OrderClearRun> {
  const { db } = services.orders.deps;
  const [superAdmin] = await db.select({ id: users.id }).from(users).where(eq(users.account, 'superadmin'));
  const actor: Actor = { userId: superAdmin?.id ?? null, account: 'superadmin', role: 'superAdmin', ip: null };
  const before = await services.settings.get('DataClearCycle');
  await services.systemConfig.set('DataClearCycle', DEMO_CLEAR_CYCLE_DAYS, actor);
  try {
    const started = await services.orderClear.runNow(actor);
    await services.orderClear.settled();
    return await services.orderClear.get(started.id);
  } finally {
    await services.systemConfig.set('DataClearCycle', before, actor);
  }
}
