import { parseArgs } from 'node:util';
import { FAKE_OUTCOMES, type FakeOutcome, startFakeGateway } from './fake-gateway.js';

/**
 * `npm run fake-gateway -w @paydesk/tools -- [options]`: the fake payout gateway on its own, until
 * Ctrl-C. Each option also reads an environment variable; the defaults are the demo's credentials.
 */
const FLAGS = {
  port: { env: 'FAKE_GATEWAY_PORT', value: '4010', help: 'port to listen on' },
  host: { env: 'FAKE_GATEWAY_HOST', value: '127.0.0.1', help: 'address to listen on' },
  'key-id': { env: 'FAKE_GATEWAY_KEY_ID', value: 'rzp_test_paydeskfake', help: 'API key id (basic auth user)' },
  'key-secret': { env: 'FAKE_GATEWAY_KEY_SECRET', value: 'fake-key-secret-0001', help: 'API key secret' },
  'webhook-secret': { env: 'FAKE_GATEWAY_WEBHOOK_SECRET', value: 'fake-webhook-secret-0001', help: 'webhook secret' },
  'webhook-url': { env: 'FAKE_GATEWAY_WEBHOOK_URL', value: '', help: 'where to POST webhooks (none when empty)' },
  outcome: {
    env: 'FAKE_GATEWAY_OUTCOME',
    value: 'succeed',
    help: `outcome of payouts that name none: ${FAKE_OUTCOMES.join(', ')}`,
  },
  'step-ms': { env: 'FAKE_GATEWAY_STEP_MS', value: '2000', help: 'ms per move (queued -> processing -> final)' },
  'slow-ms': { env: 'FAKE_GATEWAY_SLOW_MS', value: '15000', help: "ms a slow payout's create waits to answer" },
} as const;
type FlagName = keyof typeof FLAGS;

class UsageError extends Error {}

function helpText(): string {
  const lines = Object.entries(FLAGS).map(
    ([name, f]) => `  --${name.padEnd(15)} ${f.help} (${f.env}; default ${f.value || 'none'})`,
  );
  return ['Usage: npm run fake-gateway -w @paydesk/tools -- [options]', '', ...lines, '  --help'].join('\n');
}

function integer(name: FlagName, text: string, min: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new UsageError(`--${name} must be an integer of at least ${min}`);
  return value;
}

async function main() {
  const { values } = parseArgs({
    options: {
      ...Object.fromEntries(Object.keys(FLAGS).map((name) => [name, { type: 'string' as const }])),
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(helpText());
    return;
  }
  const option = (name: FlagName): string =>
    ((values as Record<string, unknown>)[name] as string | undefined) ??
    process.env[FLAGS[name].env] ??
    FLAGS[name].value;
  const outcome = option('outcome');
  if (!(FAKE_OUTCOMES as readonly string[]).includes(outcome))
    throw new UsageError(`--outcome must be one of ${FAKE_OUTCOMES.join(', ')}`);
  const credentials = {
    keyId: option('key-id'),
    keySecret: option('key-secret'),
    webhookSecret: option('webhook-secret'),
  };
  const gateway = await startFakeGateway({
    port: integer('port', option('port'), 0),
    host: option('host'),
    ...credentials,
    webhookUrl: option('webhook-url') || undefined,
    behaviour: {
      outcome: outcome as FakeOutcome,
      stepMs: integer('step-ms', option('step-ms'), 0),
      slowMs: integer('slow-ms', option('slow-ms'), 0),
    },
    log: (line) => console.log(`${new Date().toISOString()} ${line}`),
  });
  // These are the fake's own demo credentials, printed so a payout account can be set up with them.
  console.log(`Fake payout gateway at ${gateway.url}`);
  console.log(`  key id ${credentials.keyId}, key secret ${credentials.keySecret}`);
  console.log(`  webhook secret ${credentials.webhookSecret}, webhooks to ${option('webhook-url') || '(none)'}`);
  console.log('  a payee name or narration with the word fail, reverse, refuse, slow or error picks that outcome');
  const stop = () => void gateway.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`fake-gateway: ${(error as Error).message}`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
