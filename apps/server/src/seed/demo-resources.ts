import { eq } from 'drizzle-orm';
import type { Services } from '../app.js';
import type { Db } from '../db/client.js';
import { suppliers } from '../db/schema.js';
import { SYSTEM_ACTOR } from '../platform/audit.js';
import { DEMO_GATEWAY, DEMO_GATEWAY_ACCOUNTS, demoGatewayUrl } from './demo-gateway.js';

/**
 * Demo data: receiving accounts made by the console's own code path (validated, audited), then
 * switched on. supplier1: a card-to-card account (1002), a USDT collection wallet (3015), a bank payout
 * account (2001), a gateway payout account of each gateway product (2003 gateway payout, 2002 India auto
 * payout) and two UPI accounts (1001); agent1: a UPI account (1001) and a bank payout account (2001). The
 * account numbers and addresses are made up. The gateway accounts point at the fake gateway that `npm start` runs with the demo on 127.0.0.1:`gatewayPort`
 * (DEMO_GATEWAY_PORT; seed/demo-gateway.ts).
 */
export async function seedDemoResources(
  db: Db,
  services: Services,
  ids: ReadonlyMap<string, number>,
  gatewayPort: number,
): Promise<void> {
  const supplierIdOf = async (account: string) => {
    const userId = ids.get(account);
    if (userId === undefined) return undefined;
    const [row] = await db.select({ id: suppliers.id }).from(suppliers).where(eq(suppliers.userId, userId));
    return row?.id;
  };
  const staff = { all: true } as const;
  const add = async (supplierId: number, productId: number, name: string, details: Record<string, string>) => {
    const created = await services.resources.create(staff, { supplierId, productId, name, details }, SYSTEM_ACTOR);
    await services.resources.enable(staff, { resourceId: created.id, productId, enable: true }, SYSTEM_ACTOR);
  };
  const supplierOne = await supplierIdOf('supplier1');
  if (supplierOne !== undefined) {
    await add(supplierOne, 1002, 'Demo HDFC card', {
      accountName: 'Demo Account One',
      bankName: 'HDFC Bank',
      cardNumber: '4000001234567899',
      ifsc: 'HDFC0001234',
    });
    await add(supplierOne, 3015, 'Demo USDT wallet', { address: 'TDemo111111111111111111111111111Ab' });
    await add(supplierOne, 2001, 'Demo payout HDFC', {
      accountName: 'Demo Account One',
      bankName: 'HDFC Bank',
      accountNumber: '50100098765432',
      ifsc: 'HDFC0001234',
    });
    for (const account of DEMO_GATEWAY_ACCOUNTS) {
      await add(supplierOne, account.productId, account.name, {
        baseUrl: demoGatewayUrl(gatewayPort),
        keyId: DEMO_GATEWAY.keyId,
        keySecret: DEMO_GATEWAY.keySecret,
        webhookSecret: DEMO_GATEWAY.webhookSecret,
        accountNumber: account.accountNumber,
      });
    }
    await add(supplierOne, 1001, 'Demo UPI ICICI', {
      accountName: 'Demo Account One',
      bankName: 'ICICI Bank',
      cardNumber: '10001234567',
      ifsc: 'ICIC0001234',
      vpa: 'demo.one@icici',
    });
    await add(supplierOne, 1001, 'Demo UPI Axis', {
      accountName: 'Demo Account One',
      bankName: 'Axis Bank',
      cardNumber: '20001234567',
      ifsc: 'UTIB0001234',
      vpa: 'demo.one@axis',
    });
  }
  const agentOne = await supplierIdOf('agent1');
  if (agentOne !== undefined) {
    await add(agentOne, 1001, 'Demo UPI account', {
      accountName: 'Demo Agent One',
      bankName: 'State Bank of India',
      cardNumber: '30001234567',
      ifsc: 'SBIN0004321',
      vpa: 'demo.agent1@sbi',
    });
    await add(agentOne, 2001, 'Demo payout SBI', {
      accountName: 'Demo Agent One',
      bankName: 'State Bank of India',
      accountNumber: '38001234567',
      ifsc: 'SBIN0004321',
    });
  }
}
