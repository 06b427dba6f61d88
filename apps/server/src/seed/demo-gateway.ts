import { and, asc, eq, isNull, sql } from 'drizzle-orm';
// The demo's payout gateway is the fake of tools/ (it depends on Node only), run in-process by `npm start`
// with the demo data and by the demo's history: demo code only, kept to main.ts and seed/. The platform's
// own gateway adapter (modules/payouts/gateway/) knows nothing of it.
import { type FakeGateway, startFakeGateway } from '../../../../tools/fake-gateway/fake-gateway.js';
import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { resources } from '../db/schema.js';
import { gatewayWebhookPath } from '../modules/payouts/gateway-webhook.routes.js';

/**
 * The demo's gateway payout account (product 2003, supplier1) and the fake gateway it points at. The
 * credentials are the fake's own defaults (tools/fake-gateway/main.ts), so `npm run fake-gateway` alone
 * also pays the demo account's payouts. Demo data only: printed nowhere as a secret of anything real.
 */
export const DEMO_GATEWAY = {
  name: 'Demo gateway (local fake)',
  keyId: 'rzp_test_paydeskfake',
  keySecret: 'fake-key-secret-0001',
  webhookSecret: 'fake-webhook-secret-0001',
  /** The business account the payouts are paid from (any account number suits the fake). */
  accountNumber: '2323230041626905',
} as const;

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
  return startFakeGateway({ port, host: '127.0.0.1', ...DEMO_GATEWAY, behaviour: { stepMs: 1 } });
}

/** After the history: the fake moves payouts at a pace one can watch, and calls the server's webhook. */
export function goLive(gateway: FakeGateway, webhookUrl: string | undefined): void {
  gateway.setBehaviour({ stepMs: DEMO_GATEWAY_STEP_MS });
  gateway.setWebhookUrl(webhookUrl);
}

/** The demo's gateway payout account: the oldest live 2003 account whose base URL is `baseUrl`. */
export async function demoGatewayAccount(db: Db, baseUrl: string) {
  const [account] = await db
    .select()
    .from(resources)
    .where(
      and(
        eq(resources.productId, 2003),
        eq(resources.kind, 'gatewayPayout'),
        isNull(resources.deletedAt),
        sql`${resources.details}->>'baseUrl' = ${baseUrl}`,
      ),
    )
    .orderBy(asc(resources.id))
    .limit(1);
  return account;
}

/**
 * Where the fake posts its webhooks: this server's webhook route of the demo account, on the address
 * the server listens on (loopback when it listens on every address); none without the account.
 */
export async function demoGatewayWebhookUrl(db: Db, config: Pick<Config, 'host' | 'port' | 'demoGatewayPort'>) {
  const account = await demoGatewayAccount(db, demoGatewayUrl(config.demoGatewayPort));
  if (!account) return undefined;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
  return `${origin}${gatewayWebhookPath(account.id)}`;
}
