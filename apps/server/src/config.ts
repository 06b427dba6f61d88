import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { parseSecretKey } from './platform/crypto.js';
import { DEFAULT_TELEGRAM_API_ROOT } from './platform/telegram.js';

/**
 * Orders in the demo's history by default ("a few thousand over 30 days", issue 6): under two minutes
 * of the order engine's work on the embedded database of a 2-core machine at the first start (each
 * order's life is a few dozen statements). DEMO_ORDERS=<n> asks for another number, 0 for none.
 */
export const DEMO_ORDER_COUNT = 2_500;

/**
 * The global per-address limit, requests per minute (GLOBAL_RATE_LIMIT): generous, above the
 * merchant API's own create limit (6,000 a minute) with room for the queries and page loads beside it,
 * so only a flood from one address meets it.
 */
export const DEFAULT_GLOBAL_RATE_LIMIT = 12_000;

/**
 * The port of the demo's fake payout gateway (DEMO_GATEWAY_PORT): the fake's own default
 * (tools/fake-gateway), where the demo's gateway payout account points.
 */
export const DEFAULT_DEMO_GATEWAY_PORT = 4010;

/** Fastify's trustProxy: none, a number of hops, or the proxies' addresses. */
export type TrustProxy = false | number | string;

const bool = z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DEMO: bool.default(true),
  /** 1/true: the demo's order history of DEMO_ORDER_COUNT orders; 0/false: none; a larger number: that many. */
  DEMO_ORDERS: z
    .string()
    .regex(/^(?:true|false|\d{1,6})$/, 'DEMO_ORDERS is 0, 1 or a number of orders')
    .default('1')
    .transform((v) => (v === 'true' ? 1 : v === 'false' ? 0 : Number(v))),
  /** With the demo data: the port on 127.0.0.1 of the fake payout gateway that `npm start` runs beside the server. */
  DEMO_GATEWAY_PORT: z.coerce.number().int().min(1).max(65535).default(DEFAULT_DEMO_GATEWAY_PORT),
  ADMIN_PASSWORD: z.string().min(8).optional(),
  SESSION_IDLE_MINUTES: z.coerce.number().int().positive().default(120),
  /**
   * Which proxies' X-Forwarded-* headers to believe: 0/false none; 1/true the one proxy in front of
   * the server; a number N, N proxies in a row; or their addresses and ranges, comma-separated. Never
   * "every hop": a client would then choose its own address by writing the header's first entry.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('0')
    .transform((v, ctx): TrustProxy => {
      if (v === '' || v === '0' || v === 'false') return false;
      if (v === 'true') return 1;
      if (/^\d{1,2}$/.test(v)) return Number(v);
      const entries = v.split(',').map((e) => e.trim());
      if (entries.every((e) => isIP(e.split('/')[0] ?? '') !== 0)) return entries.join(',');
      ctx.addIssue({
        code: 'custom',
        message: 'TRUST_PROXY is 0, 1, a number of proxies, or their addresses (comma-separated)',
      });
      return z.NEVER;
    }),
  WEB_DIST: z.string().optional(),
  TIME_ZONE: z.string().default('Asia/Kolkata'),
  JOBS: bool.default(true),
  CALLBACK_PRIVATE_NETWORKS: bool.optional(),
  GATEWAY_PRIVATE_NETWORKS: bool.optional(),
  /** Requests per minute from one address across the whole server; 0 turns the limit off. */
  /** The Telegram Bot API root (platform/telegram.ts); tests and the demo point it at tools/fake-telegram. */
  TELEGRAM_API_ROOT: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//.test(v), 'TELEGRAM_API_ROOT is an http(s) URL')
    .default(DEFAULT_TELEGRAM_API_ROOT),
  GLOBAL_RATE_LIMIT: z.coerce.number().int().min(0).default(DEFAULT_GLOBAL_RATE_LIMIT),
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v.trim() === '' ? undefined : v))
    .refine((v) => v === undefined || v.length >= 16, 'METRICS_TOKEN needs at least 16 characters'),
  SECRET_KEY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v.trim() === '') return undefined;
      try {
        return parseSecretKey(v);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    }),
});

export interface Config {
  port: number;
  host: string;
  /** Embedded database folder; unused when databaseUrl is set. Undefined: in memory (tests). */
  dataDir: string | undefined;
  databaseUrl: string | undefined;
  logLevel: string;
  /** Seed the demo data on an empty database. */
  demo: boolean;
  /**
   * With the demo, also make its historical orders (DEMO_ORDERS, default on with `npm start`; off in
   * tests): a few thousand collection orders over the last 30 days, through the order engine.
   */
  demoOrders: boolean;
  /** How many orders that history has, about (DEMO_ORDERS=<number>; DEMO_ORDER_COUNT by default). */
  demoOrderCount: number;
  /**
   * With the demo: the port on 127.0.0.1 of the fake payout gateway that `npm start` runs in-process
   * (DEMO_GATEWAY_PORT, 4010), which the demo's gateway payout account (product 2003) points at.
   */
  demoGatewayPort: number;
  adminPassword: string | undefined;
  /** A session unused this long ends. */
  sessionIdleMinutes: number;
  /** A session ends this long after sign-in whatever happens (spec: token cookie lifetime 1 day). */
  sessionLifetimeMinutes: number;
  /** token2 lifetime after login2. */
  token2Minutes: number;
  /**
   * Sign-in protection (docs/security.md "Sign-in protection"): failures of one account name from one
   * address that lock that address out of it, for lockMinutes (also the window after which counts restart).
   */
  lockAfterFailures: number;
  lockMinutes: number;
  /** Failures of one account name from all addresses after which each attempt waits a growing delay. */
  accountDelayAfterFailures: number;
  /** The longest such delay: never a lock. */
  accountDelayMaxSeconds: number;
  /** An address that signed in to the account successfully within this many days skips that delay. */
  knownAddressDays: number;
  /** Multiplies every per-IP rate limit of the contract, and the global one (tests and the bench raise it). */
  rateLimitFactor: number;
  /**
   * Requests per minute one address may make to any path, on top of the per-endpoint limits
   * (GLOBAL_RATE_LIMIT, scaled by rateLimitFactor); 0: no global limit.
   */
  globalRateLimit: number;
  /**
   * METRICS_TOKEN: /metrics answers a caller sending `Authorization: Bearer <it>`; without it (or
   * unset) only a direct, unproxied call from the machine itself.
   */
  metricsToken: string | undefined;
  /** TRUST_PROXY: which proxies' forwarded headers are believed (false: none). */
  trustProxy: TrustProxy;
  /** The built console; served when it exists. */
  webDist: string;
  /** Filters' 'YYYY-MM-DD HH:mm:ss' and day boundaries are read in this zone. */
  timeZone: string;
  /**
   * SECRET_KEY (32 bytes): seals merchant API secrets. Unset: platform/crypto.ts resolveSecretKey uses
   * `<dataDir>/secret.key`, or a random key per process when there is no data dir (tests).
   */
  secretKey: Buffer | undefined;
  /**
   * Run the background jobs in this process (JOBS, default on with `npm start`; off in tests unless a
   * test asks): merchant callbacks and order timeouts. Several processes may run them on one
   * PostgreSQL; a process with JOBS=0 still enqueues, and the others deliver.
   */
  jobs: boolean;
  /**
   * Whether merchant callbacks (and the order send test) may call loopback and private-network
   * addresses (CALLBACK_PRIVATE_NETWORKS). Unset: allowed with the demo data, whose receivers are
   * local (the simulator's), refused otherwise, so a merchant cannot make the server call internal
   * services.
   */
  callbackPrivateNetworks: boolean | undefined;
  /**
   * Whether a payout gateway account's base URL may be on loopback or a private network
   * (GATEWAY_PRIVATE_NETWORKS). Unset: as for callbacks (allowed with the demo data, whose fake
   * gateway is local, refused otherwise), so a supplier's account cannot make the server call
   * internal services.
   */
  gatewayPrivateNetworks: boolean | undefined;
  /** TELEGRAM_API_ROOT: where the Telegram Bot API is (https://api.telegram.org by default). */
  telegramApiRoot: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  // Relative paths are the user's: npm runs workspace scripts from the workspace folder, but sets
  // INIT_CWD to the folder where `npm start` or `npm run otp` was typed.
  const base = env.INIT_CWD ?? process.cwd();
  return {
    ...defaultConfig(),
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(base, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    demo: e.DEMO,
    demoOrders: e.DEMO_ORDERS > 0,
    demoOrderCount: e.DEMO_ORDERS > 1 ? e.DEMO_ORDERS : DEMO_ORDER_COUNT,
    demoGatewayPort: e.DEMO_GATEWAY_PORT,
    adminPassword: e.ADMIN_PASSWORD,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    trustProxy: e.TRUST_PROXY,
    timeZone: e.TIME_ZONE,
    secretKey: e.SECRET_KEY,
    jobs: e.JOBS,
    callbackPrivateNetworks: e.CALLBACK_PRIVATE_NETWORKS,
    gatewayPrivateNetworks: e.GATEWAY_PRIVATE_NETWORKS,
    telegramApiRoot: e.TELEGRAM_API_ROOT,
    globalRateLimit: e.GLOBAL_RATE_LIMIT,
    metricsToken: e.METRICS_TOKEN,
    webDist: e.WEB_DIST ? resolve(base, e.WEB_DIST) : new URL('../../web/dist', import.meta.url).pathname,
  };
}

export function defaultConfig(): Config {
  return {
    port: 8080,
    host: '0.0.0.0',
    dataDir: undefined,
    databaseUrl: undefined,
    logLevel: 'silent',
    demo: false,
    demoOrders: false,
    demoOrderCount: DEMO_ORDER_COUNT,
    demoGatewayPort: DEFAULT_DEMO_GATEWAY_PORT,
    adminPassword: undefined,
    sessionIdleMinutes: 120,
    sessionLifetimeMinutes: 24 * 60,
    token2Minutes: 15,
    lockAfterFailures: 5,
    lockMinutes: 15,
    accountDelayAfterFailures: 10,
    accountDelayMaxSeconds: 60,
    knownAddressDays: 30,
    rateLimitFactor: 1,
    globalRateLimit: DEFAULT_GLOBAL_RATE_LIMIT,
    metricsToken: undefined,
    trustProxy: false,
    webDist: new URL('../../web/dist', import.meta.url).pathname,
    timeZone: 'Asia/Kolkata',
    secretKey: undefined,
    jobs: false,
    callbackPrivateNetworks: undefined,
    gatewayPrivateNetworks: undefined,
    telegramApiRoot: DEFAULT_TELEGRAM_API_ROOT,
  };
}
