import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { productById, type SignType } from '@paydesk/contract';

/** A supplier account the simulator signs in as, to confirm the payments its accounts receive. */
export interface SupplierLogin {
  account: string;
  password: string;
  /** The account's authenticator secret (base32). */
  secret: string;
}

export interface SimulatorOptions {
  /** The server: http://localhost:8080 by default. */
  url: string;
  /** Orders created per second. */
  rate: number;
  /** Seconds to run; 0: until Ctrl-C. */
  duration: number;
  /** After --duration: seconds to wait for payments and callbacks still under way. */
  drain: number;
  /** Products and their weights, e.g. [[1001, 8], [1002, 1]]. */
  products: Array<[number, number]>;
  /** Order amounts in major units (rupees, USDT), drawn between these. */
  minAmount: number;
  maxAmount: number;
  /** The share of payers who pay; the others never do and their orders time out. */
  payRate: number;
  /** Seconds from the order to the payer submitting the UTR, and from that to the supplier's confirmation. */
  payDelay: [number, number];
  confirmDelay: [number, number];
  /** Orders being created at once at most (the rate waits when the server is slower). */
  concurrency: number;
  merchant: { mchId: string; secret: string; signType: SignType };
  suppliers: SupplierLogin[];
  /** Payouts created per second (bank payout 2001), and their amounts in major units. */
  payoutRate: number;
  payoutAmount: [number, number];
  /** Seconds from a payout to the supplier's claim, from the claim to its UTR, and to the staff's confirmation. */
  payoutDelay: [number, number];
  /** The staff account that confirms submitted payouts (with its second-level password); null: none. */
  confirmer: SupplierLogin | null;
  /** The merchant's callback receiver: where it listens, and the address the server is given to reach it. */
  callbackPort: number;
  callbackBind: string;
  callbackHost: string;
  /** The share of callbacks answered with a failure (the server retries them on its schedule). */
  callbackFailRate: number;
  /** Seconds between progress lines. */
  reportEvery: number;
  /** Where the supplier logins came from (for messages). */
  accountsFile: string | null;
}

interface Flag {
  name: string;
  env: string;
  value: string;
  help: string;
}

const FLAGS: Flag[] = [
  { name: 'url', env: 'SIM_URL', value: 'http://localhost:8080', help: 'the PayDesk server' },
  { name: 'rate', env: 'SIM_RATE', value: '1', help: 'orders created per second' },
  { name: 'duration', env: 'SIM_DURATION', value: '0', help: 'seconds to run (0: until Ctrl-C)' },
  {
    name: 'drain',
    env: 'SIM_DRAIN',
    value: '',
    help: 'after --duration, seconds to wait for payments and callbacks (default: the longest pay and confirm delays + 10)',
  },
  {
    name: 'products',
    env: 'SIM_PRODUCTS',
    value: '1001',
    help: 'products and weights, e.g. 1001:8,1002:1,3015:1 (merchant and accounts must have them)',
  },
  { name: 'min-amount', env: 'SIM_MIN_AMOUNT', value: '100', help: 'smallest order, in major units (rupees)' },
  { name: 'max-amount', env: 'SIM_MAX_AMOUNT', value: '2000', help: 'largest order, in major units' },
  { name: 'pay-rate', env: 'SIM_PAY_RATE', value: '0.85', help: 'share of payers who pay (the rest time out)' },
  { name: 'pay-delay', env: 'SIM_PAY_DELAY', value: '2-20', help: 'seconds until a payer submits the UTR (min-max)' },
  {
    name: 'confirm-delay',
    env: 'SIM_CONFIRM_DELAY',
    value: '1-5',
    help: 'seconds until the supplier confirms a paid order (min-max)',
  },
  { name: 'concurrency', env: 'SIM_CONCURRENCY', value: '32', help: 'order creations in flight at most' },
  { name: 'mch-id', env: 'SIM_MCH_ID', value: '', help: 'merchant number (default: the demo merchant1, 10001)' },
  { name: 'secret', env: 'SIM_SECRET', value: '', help: 'merchant API secret (default: the demo secret)' },
  { name: 'sign-type', env: 'SIM_SIGN_TYPE', value: '', help: 'HMAC-SHA256 (default) or MD5' },
  {
    name: 'accounts-file',
    env: 'SIM_ACCOUNTS_FILE',
    value: '',
    help: 'demo accounts written at first start (default: <DATA_DIR or ./data>/demo-accounts.json)',
  },
  {
    name: 'supplier',
    env: 'SIM_SUPPLIERS',
    value: '',
    help: 'account:authenticatorSecret[:password], comma-separated; instead of the accounts file',
  },
  {
    name: 'payout-rate',
    env: 'SIM_PAYOUT_RATE',
    value: '0.2',
    help: 'bank payouts (2001) created per second (0: none)',
  },
  {
    name: 'payout-amount',
    env: 'SIM_PAYOUT_AMOUNT',
    value: '100-500',
    help: 'payout amounts in major units (min-max); a payout holds its amount plus fee from the merchant',
  },
  {
    name: 'payout-delay',
    env: 'SIM_PAYOUT_DELAY',
    value: '1-5',
    help: 'seconds until the supplier claims a payout, until it submits the UTR, and until staff confirm (min-max)',
  },
  {
    name: 'confirmer',
    env: 'SIM_CONFIRMER',
    value: '',
    help: 'staff account:authenticatorSecret[:password] that confirms payouts (default: admin from the accounts file)',
  },
  { name: 'password', env: 'SIM_PASSWORD', value: 'demo1234', help: 'suppliers’ password when --supplier omits it' },
  { name: 'callback-port', env: 'SIM_CALLBACK_PORT', value: '8081', help: 'port of the merchant callback receiver' },
  { name: 'callback-bind', env: 'SIM_CALLBACK_BIND', value: '127.0.0.1', help: 'address the receiver listens on' },
  {
    name: 'callback-host',
    env: 'SIM_CALLBACK_HOST',
    value: '127.0.0.1',
    help: 'host in the notifyUrl the server calls (the receiver as the server sees it)',
  },
  {
    name: 'callback-fail-rate',
    env: 'SIM_CALLBACK_FAIL_RATE',
    value: '0.1',
    help: 'share of callbacks answered with a failure (retried by the server)',
  },
  { name: 'report-every', env: 'SIM_REPORT_EVERY', value: '5', help: 'seconds between progress lines' },
];

export function helpText(): string {
  const rows = FLAGS.map((f) => {
    const left = `  --${f.name} <value>`.padEnd(34);
    return `${left}${f.help}${f.value ? ` [${f.value}]` : ''}  (env ${f.env})`;
  });
  return [
    'npm run simulate -- [options]: traffic against a running PayDesk server',
    '',
    'The demo merchant creates orders through the signed merchant API; payers open the payer page and',
    'submit a UTR, or never pay (their orders time out); the supplier owning the receiving account signs',
    'in to the console API and confirms; a merchant callback receiver answers SUCCESS or fails. The',
    'merchant also creates bank payouts: the supplier claims each, pays and submits a UTR, and an admin',
    'confirms it; their callbacks reach the same receiver. A line',
    'of progress every few seconds; Ctrl-C stops.',
    '',
    'Options (flags win over environment variables):',
    ...rows,
    '  --help                            this text',
    '',
    'Example: npm run simulate -- --rate 5 --duration 60 --callback-fail-rate 0.2',
  ].join('\n');
}

export class UsageError extends Error {}

function parseArgs(argv: readonly string[]): Map<string, string> {
  const known = new Set(FLAGS.map((f) => f.name));
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      values.set('help', '1');
      continue;
    }
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match || !known.has(match[1]!)) throw new UsageError(`unknown option ${arg} (see --help)`);
    const value = match[2] ?? argv[i + 1];
    if (value === undefined) throw new UsageError(`--${match[1]} needs a value`);
    if (match[2] === undefined) i += 1;
    values.set(match[1]!, value);
  }
  return values;
}

const numberOf = (name: string, text: string, min: number, max = Number.POSITIVE_INFINITY) => {
  const n = Number(text);
  if (!Number.isFinite(n) || n < min || n > max) {
    throw new UsageError(`--${name} must be a number from ${min}${Number.isFinite(max) ? ` to ${max}` : ''}`);
  }
  return n;
};

const rangeOf = (name: string, text: string): [number, number] => {
  const [a = '', b = a] = text.split('-');
  const min = numberOf(name, a, 0);
  const max = numberOf(name, b, min);
  return [min, max];
};

/** The demo accounts file as the server's first start writes it (apps/server/src/seed/seed.ts). */
interface AccountsFile {
  accounts?: Array<{ account: string; role: string; password: string; googleSecret: string | null }>;
  merchantApi?: { mchId: string; secret: string; signType: SignType };
}

function readAccountsFile(path: string): AccountsFile {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as AccountsFile;
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as Error).message}`);
  }
}

/**
 * The options from command-line flags, then environment variables, then defaults. `cwd` is where the
 * user typed the command (npm's INIT_CWD), for relative paths.
 */
export function resolveOptions(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = env.INIT_CWD ?? process.cwd(),
): SimulatorOptions | 'help' {
  const args = parseArgs(argv);
  if (args.has('help')) return 'help';
  const get = (name: string) => {
    const flag = FLAGS.find((f) => f.name === name)!;
    return args.get(name) ?? env[flag.env] ?? flag.value;
  };

  const products = get('products')
    .split(',')
    .filter((p) => p.trim() !== '')
    .map((entry): [number, number] => {
      const [id = '', weight = '1'] = entry.trim().split(':');
      const def = productById(Number(id));
      if (def?.direction !== 'collection') throw new UsageError(`--products: ${id} is not a collection product`);
      return [def.id, numberOf('products', weight, 0)];
    });
  if (products.length === 0) throw new UsageError('--products names no product');

  const minAmount = numberOf('min-amount', get('min-amount'), 1);
  const maxAmount = numberOf('max-amount', get('max-amount'), minAmount);

  let accountsFile: string | null = null;
  let file: AccountsFile = {};
  const named = get('accounts-file');
  // Relative paths from where the command was typed, as the server resolves DATA_DIR: `npm start` and
  // `npm run simulate` typed in the same folder find the same file (npm runs each in its workspace).
  const path = named ? resolve(cwd, named) : resolve(cwd, env.DATA_DIR ?? './data', 'demo-accounts.json');
  if (named || existsSync(path)) {
    file = readAccountsFile(path);
    accountsFile = path;
  }

  const signType = (get('sign-type') || file.merchantApi?.signType || 'HMAC-SHA256') as SignType;
  if (signType !== 'HMAC-SHA256' && signType !== 'MD5') throw new UsageError('--sign-type is HMAC-SHA256 or MD5');
  const merchant = {
    mchId: get('mch-id') || file.merchantApi?.mchId || '10001',
    secret: get('secret') || file.merchantApi?.secret || 'demo-secret-merchant1',
    signType,
  };

  const password = get('password');
  let suppliers: SupplierLogin[];
  if (get('supplier')) {
    suppliers = get('supplier')
      .split(',')
      .filter((s) => s.trim() !== '')
      .map((entry) => {
        const [account = '', secret = '', ...rest] = entry.trim().split(':');
        if (!account || !secret) throw new UsageError('--supplier is account:authenticatorSecret[:password]');
        return { account, secret, password: rest.length > 0 ? rest.join(':') : password };
      });
  } else {
    suppliers = (file.accounts ?? [])
      .filter((a) => a.role === 'supplier' && a.googleSecret)
      .map((a) => ({ account: a.account, secret: a.googleSecret!, password: a.password || password }));
  }
  if (suppliers.length === 0) {
    throw new UsageError(
      `no supplier to confirm payments: ${path} is missing or lists none (it is written when the server first starts with the demo; with an older data folder pass --supplier supplier1:<authenticator secret from the first start>)`,
    );
  }

  let confirmer: SupplierLogin | null = null;
  if (get('confirmer')) {
    const [account = '', secret = '', ...rest] = get('confirmer').split(':');
    if (!account || !secret) throw new UsageError('--confirmer is account:authenticatorSecret[:password]');
    confirmer = { account, secret, password: rest.length > 0 ? rest.join(':') : password };
  } else {
    const admin = (file.accounts ?? []).find((a) => a.role === 'admin' && a.googleSecret);
    if (admin)
      confirmer = { account: admin.account, secret: admin.googleSecret!, password: admin.password || password };
  }

  const payDelay = rangeOf('pay-delay', get('pay-delay'));
  const payoutRate = numberOf('payout-rate', get('payout-rate'), 0, 1_000);
  const payoutDelay = rangeOf('payout-delay', get('payout-delay'));
  const confirmDelay = rangeOf('confirm-delay', get('confirm-delay'));
  return {
    url: get('url').replace(/\/+$/, ''),
    rate: numberOf('rate', get('rate'), 0.01, 1_000),
    duration: numberOf('duration', get('duration'), 0),
    // The last order's payer may pay at the end of --pay-delay and its supplier confirm at the end of
    // --confirm-delay: by default the run waits for both, and 10 s more for its callback.
    // A payout's three steps (claim, UTR, confirmation) each wait up to --payout-delay.
    drain:
      get('drain') === ''
        ? Math.max(payDelay[1] + confirmDelay[1], payoutRate > 0 ? 3 * payoutDelay[1] : 0) + 10
        : numberOf('drain', get('drain'), 0),
    products,
    minAmount,
    maxAmount,
    payRate: numberOf('pay-rate', get('pay-rate'), 0, 1),
    payDelay,
    confirmDelay,
    concurrency: Math.round(numberOf('concurrency', get('concurrency'), 1, 1_000)),
    merchant,
    suppliers,
    payoutRate,
    payoutAmount: rangeOf('payout-amount', get('payout-amount')),
    payoutDelay,
    confirmer,
    callbackPort: Math.round(numberOf('callback-port', get('callback-port'), 0, 65_535)),
    callbackBind: get('callback-bind'),
    callbackHost: get('callback-host'),
    callbackFailRate: numberOf('callback-fail-rate', get('callback-fail-rate'), 0, 1),
    reportEvery: numberOf('report-every', get('report-every'), 0.5),
    accountsFile,
  };
}

/** An amount in the product's API units (1/100; 1/10000 for 1045), between the bounds in major units. */
export function apiAmountOf(productId: number, minor: number): string {
  return String(minor * (productById(productId)?.apiUnitsPerMinor ?? 1));
}
