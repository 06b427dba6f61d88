import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
// The demo's payout gateway is the fake of tools/ (it depends on Node only), run in-process by `npm start`
// with the demo data and by the demo's history: demo code only, kept to main.ts and seed/. The platform's
// own gateway adapter (modules/payouts/gateway/) knows nothing of it.
import { type FakeGateway, startFakeGateway } from '../../../../tools/fake-gateway/fake-gateway.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { resources } from '../db/schema.js';
import { gatewayWebhookPath } from '../modules/payouts/gateway-webhook.routes.js';

/**
 * The demo's gateway payout account of product 2003 (supplier1) and the fake gateway it points at. The
 * credentials are the fake's own defaults (tools/fake-gateway/main.ts), so `npm run fake-gateway` alone
 * also pays the demo accounts' payouts. Demo data only: printed nowhere as a secret of anything real.
 */
export const DEMO_GATEWAY = {
  name: 'Demo gateway (local fake)',
  keyId: 'rzp_test_paydeskfake',
  keySecret: 'fake-key-secret-0001',
  webhookSecret: 'fake-webhook-secret-0001',
  /** The business account the payouts are paid from (any account number suits the fake). */
  accountNumber: '2323230041626905',
} as const;

/**
 * supplier1's demo gateway accounts, one per gateway product (an account serves one product), at the
 * same fake with the same key. Each pays from its own business account, so the fake sends each one's
 * webhooks to that account's own route (a webhook moves only the payouts of the account it names).
 */
export const DEMO_GATEWAY_ACCOUNTS = [
  { productId: 2003, name: DEMO_GATEWAY.name, accountNumber: DEMO_GATEWAY.accountNumber },
  { productId: 2002, name: 'Demo India auto payout (local fake)', accountNumber: '2323230041626906' },
] as const;

/** The fake's address on this machine for DEMO_GATEWAY_PORT: the demo account's base URL. */
export const demoGatewayUrl = (port: number) => `http://127.0.0.1:${port}`;

/** Each move of a payout at the live fake (queued -> processing -> processed), as the fake's command line does. */
export const DEMO_GATEWAY_STEP_MS = 2_000;

/**
 * Starts the fake gateway of `npm start` on 127.0.0.1:`port`, quiet until `goLive`: no webhooks and
 * quick moves, for the demo's history, whose rounds run on its own clock in the past (a webhook would
 * reach the live server's routes on the real clock). Rejects when the port cannot be had.
 */
export function startDemoGateway(port: number): Promise<FakeGateway> {
  const { keyId, keySecret, webhookSecret } = DEMO_GATEWAY;
  return startFakeGateway({ port, host: '127.0.0.1', keyId, keySecret, webhookSecret, behaviour: { stepMs: 1 } });
}

/** A business account's webhook receiver at the fake: the server's route of the account paying from it. */
export interface DemoGatewayHook {
  accountNumber: string;
  url: string;
}

/** After the history: the fake moves payouts at a pace one can watch, and calls each account's webhook route. */
export function goLive(gateway: FakeGateway, hooks: readonly DemoGatewayHook[]): void {
  gateway.setBehaviour({ stepMs: DEMO_GATEWAY_STEP_MS });
  for (const hook of hooks) gateway.setWebhookUrl(hook.url, hook.accountNumber);
}

/** The live gateway accounts of `productIds` whose base URL is `baseUrl`, oldest first. */
export async function demoGatewayAccounts(db: Db, baseUrl: string, productIds: readonly number[] = [2002, 2003]) {
  return db
    .select()
    .from(resources)
    .where(
      and(
        inArray(resources.productId, [...productIds]),
        eq(resources.kind, 'gatewayPayout'),
        isNull(resources.deletedAt),
        sql`${resources.details}->>'baseUrl' = ${baseUrl}`,
      ),
    )
    .orderBy(asc(resources.id));
}

/** The demo's gateway payout account of `productId` (2003 by default): the oldest live one at `baseUrl`. */
export async function demoGatewayAccount(db: Db, baseUrl: string, productId = 2003) {
  const [account] = await demoGatewayAccounts(db, baseUrl, [productId]);
  return account;
}

/**
 * Where the fake posts its webhooks: for each demo gateway account, this server's webhook route of it
 * for its business account, on the address the server listens on (loopback when it listens on every
 * address); none without the accounts.
 */
export async function demoGatewayWebhookUrls(
  db: Db,
  config: Pick<Config, 'host' | 'port' | 'demoGatewayPort'>,
): Promise<DemoGatewayHook[]> {
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
  const hooks = new Map<string, DemoGatewayHook>();
  for (const account of await demoGatewayAccounts(db, demoGatewayUrl(config.demoGatewayPort))) {
    const accountNumber = account.details.accountNumber;
    // Two accounts paying from one business account: the oldest receives its webhooks (the other's payouts are polled).
    if (accountNumber && !hooks.has(accountNumber)) {
      hooks.set(accountNumber, { accountNumber, url: `${origin}${gatewayWebhookPath(account.id)}` });
    }
  }
  return [...hooks.values()];
}
