import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Code, endpoints, PAY_SCRIPT_LIMITS } from '@paydesk/contract';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { createJsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { scheduleUpkeep, UPKEEP_EVERY_MS } from './db/upkeep.js';
import { auditHandlers } from './modules/audit/audit.routes.js';
import { AuditService } from './modules/audit/audit.service.js';
import { authHandlers } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { BotQuestions } from './modules/bots/bot-questions.js';
import { BotSender } from './modules/bots/bot-sender.js';
import { botsHandlers } from './modules/bots/bots.routes.js';
import { BotsAdminService } from './modules/bots/bots-admin.service.js';
import { FundNotices } from './modules/bots/fund-notices.js';
import { DEFAULT_REMINDER_EVERY_MINUTES, Reminders } from './modules/bots/reminders.js';
import { MessageTemplates } from './modules/bots/templates.js';
import { TransferBot } from './modules/bots/transfer-bot.js';
import { CallbackQueries } from './modules/callbacks/callbacks.query.js';
import { callbacksHandlers } from './modules/callbacks/callbacks.routes.js';
import { CallbacksService, RETIRED_CALLBACK_QUEUE } from './modules/callbacks/callbacks.service.js';
import { CallbackDispatcher } from './modules/callbacks/dispatcher.js';
import { errorLogHandlers } from './modules/errorlog/errorlog.routes.js';
import { ErrorLogService } from './modules/errorlog/errorlog.service.js';
import { financeHandlers } from './modules/finance/finance.routes.js';
import { FinanceService } from './modules/finance/finance.service.js';
import { fundsHandlers } from './modules/funds/funds.routes.js';
import { FundsService } from './modules/funds/funds.service.js';
import { ledgerHandlers } from './modules/ledger/ledger.routes.js';
import { LedgerService } from './modules/ledger/ledger.service.js';
import { merchantsHandlers } from './modules/merchants/merchants.routes.js';
import { MerchantsService } from './modules/merchants/merchants.service.js';
import { messagesHandlers } from './modules/messages/messages.routes.js';
import { MessagesService } from './modules/messages/messages.service.js';
import { orderProfileHandlers } from './modules/orderprofile/orderprofile.routes.js';
import { OrderProfileService } from './modules/orderprofile/orderprofile.service.js';
import { foldDaily } from './modules/orders/daily-folder.js';
import { OrderQueries } from './modules/orders/orders.query.js';
import { ordersHandlers } from './modules/orders/orders.routes.js';
import { OrdersService } from './modules/orders/orders.service.js';
import { OrderUploadService } from './modules/orders/orders.upload.js';
import { PictureQuery } from './modules/orders/picture-query.js';
import { readUploadForm, UPLOAD_FORM_LIMITS } from './modules/orders/upload-form.js';
import { PayGateways } from './modules/paygateways/pay-gateways.js';
import { payGatewaysHandlers } from './modules/paygateways/pay-gateways.routes.js';
import { PayNotify } from './modules/paygateways/pay-notify.js';
import { installPayNotify } from './modules/paygateways/pay-notify.routes.js';
import { payoutBatchHandlers } from './modules/payouts/batches.routes.js';
import { PayoutBatchesService } from './modules/payouts/batches.service.js';
import { GatewayDispatcher, GatewayPayouts } from './modules/payouts/gateway-payouts.js';
import { installGatewayWebhook } from './modules/payouts/gateway-webhook.routes.js';
import { PayoutQueries } from './modules/payouts/payouts.query.js';
import { payoutsHandlers } from './modules/payouts/payouts.routes.js';
import { PayoutsService } from './modules/payouts/payouts.service.js';
import { SignedPayouts } from './modules/payouts/signed-payouts.js';
import { payerScriptHandlers, payScriptsHandlers } from './modules/payscripts/payscripts.routes.js';
import { PayScriptsService } from './modules/payscripts/payscripts.service.js';
import { PayScriptSandbox } from './modules/payscripts/sandbox.js';
import { scriptFetcher } from './modules/payscripts/script-fetch.js';
import { productsHandlers } from './modules/products/products.routes.js';
import { ProductsService } from './modules/products/products.service.js';
import { profileHandlers } from './modules/profile/profile.routes.js';
import { ProfileService } from './modules/profile/profile.service.js';
import { resourcesHandlers } from './modules/resources/resources.routes.js';
import { ResourcesService } from './modules/resources/resources.service.js';
import { systemConfigHandlers } from './modules/settings/system-config.routes.js';
import { SystemConfigService } from './modules/settings/system-config.service.js';
import { Rollups } from './modules/statistics/rollups.js';
import { statisticsHandlers } from './modules/statistics/statistics.routes.js';
import { StatisticsService } from './modules/statistics/statistics.service.js';
import { suppliersHandlers } from './modules/suppliers/suppliers.routes.js';
import { SuppliersService } from './modules/suppliers/suppliers.service.js';
import { EntityData } from './modules/system/entity-data.js';
import { SystemMaintenance } from './modules/system/maintenance.js';
import { NameBlacklist } from './modules/system/name-blacklist.js';
import { OrderClear } from './modules/system/order-clear.js';
import { StaffIpWhitelist } from './modules/system/staff-ip-whitelist.js';
import {
  entityDataHandlers,
  ipWhitelistHandlers,
  nameBlacklistHandlers,
  orderClearHandlers,
  systemHandlers,
  systemMaintenanceHandlers,
} from './modules/system/system.routes.js';
import { DEFAULT_SYSTEM_CHECK_EVERY_MINUTES, SystemCheck } from './modules/system/system-check.js';
import { todoHandlers } from './modules/todo/todo.routes.js';
import { TodoService } from './modules/todo/todo.service.js';
import { usersHandlers } from './modules/users/users.routes.js';
import { UsersService } from './modules/users/users.service.js';
import { viewsHandlers } from './modules/views/views.routes.js';
import { SavedViewsService } from './modules/views/views.service.js';
import { AuditSealer } from './platform/audit-sealer.js';
import { type Clock, systemClock } from './platform/clock.js';
import { installConsole } from './platform/console-files.js';
import { resolveSecretKey } from './platform/crypto.js';
import { registerEndpoints } from './platform/endpoints.js';
import { installGuides } from './platform/guides.js';
import { installErrorHandling } from './platform/http.js';
import { installGlobalRateLimit, installSecurityHeaders } from './platform/http-security.js';
import { Jobs, type JobsTuning } from './platform/jobs.js';
import { REDACT_PATHS, serializeError, serializeRequest } from './platform/log-redaction.js';
import { installMetrics } from './platform/metrics.js';
import { Periodic } from './platform/periodic.js';
import { PictureReader } from './platform/picture-reader.js';
import { RealtimeHub } from './platform/realtime/hub.js';
import { pushSettingChanges } from './platform/realtime/settings-push.js';
import { installRealtime } from './platform/realtime/ws.js';
import { SessionStore } from './platform/sessions.js';
import { SettingsStore } from './platform/settings.js';
import { TelegramClient } from './platform/telegram.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's services (jobs and tests reach the engine through them). */
    services: Services;
  }
}

export interface AppDeps {
  config: Config;
  database: Database;
  clock?: Clock;
  /** Where the log lines go (one JSON line per write); standard output when absent. Tests read them. */
  logStream?: { write(line: string): void };
  /** Periods of the background jobs (whether they run is `config.jobs`): tests shorten them. */
  jobTuning?: JobTuning;
  /**
   * The caller starts the background jobs itself (`app.services.jobs.start`), later than the app's
   * ready: the first start makes the demo's history first, on a clock of its own.
   */
  holdJobs?: boolean;
}

export interface JobTuning extends Partial<JobsTuning> {
  /** How often order timeouts and the callback sweep run, across all processes (whole seconds; 10). */
  maintenanceEverySeconds?: number;
  /** When callback attempts are made, in ms after the callback was created (DESIGN section 6 by default). */
  callbackScheduleMs?: readonly number[];
  /** Per-attempt HTTP timeout of a callback (10 s). */
  callbackTimeoutMs?: number;
  /** Callback attempts in flight at once per process (32), and at most per claim (50). */
  callbackConcurrency?: number;
  callbackBatchSize?: number;
  /** How long a dispatcher's claim holds an attempt (the HTTP timeout + 30 s). */
  callbackLeaseMs?: number;
  /** One exchange with a payout gateway (10 s). */
  gatewayTimeoutMs?: number;
  /** How long after a send, or a status still under way, a gateway payout is polled (60 s). */
  gatewayPollMs?: number;
  /** Delays of a gateway send after unanswered ones (5 s, 15 s, 1 min, 5 min, the last repeating). */
  gatewayRetryMs?: readonly number[];
  /** How often the bots look for balance changes to send (whole seconds; 2). */
  telegramScanEverySeconds?: number;
  /** How old a ledger entry must be before the bots send it (fund-notices.ts; 5 s). */
  telegramSettleMs?: number;
  /** The first retry's delay of a failed bot message, doubling (5 s). */
  telegramRetryDelaySeconds?: number;
  /** How often BotConstantReminder's reminders go out (seconds; 30 minutes). */
  telegramReminderEverySeconds?: number;
  /** How often the bots read what users asked them (getUpdates; whole seconds, 3). */
  telegramPollEverySeconds?: number;
  /** How often the order clear (DataClearCycle) runs across processes (whole seconds; a day). */
  orderClearEverySeconds?: number;
  /** How often the system check (EnableSystemCheck) runs across processes (whole seconds; 30 minutes). */
  systemCheckEverySeconds?: number;
}

/** The queue of the bots' periodic scan (balance changes to send), one at a time across processes. */
export const TELEGRAM_SCAN_QUEUE = 'telegram-scan';
/** The queue of BotConstantReminder's rounds: one per period across processes. */
export const TELEGRAM_REMINDER_QUEUE = 'telegram-reminder';
/** The queue of the bots' getUpdates polls: one at a time across processes (Telegram allows one). */
export const TELEGRAM_POLL_QUEUE = 'telegram-poll';

/** The queue of the daily order clear (DataClearCycle): one run a day across processes. */
export const ORDER_CLEAR_QUEUE = 'order-clear';

/** The queue of the system check's rounds (EnableSystemCheck): one per period across processes. */
export const SYSTEM_CHECK_QUEUE = 'system-check';

/** The queue of the periodic work: order timeouts, sign-in throttle purges. */
export const MAINTENANCE_QUEUE = 'order-maintenance';

/** Services of every area, built once per app; routes and the seed use the same ones. */
export interface Services {
  sessions: SessionStore;
  /** The system settings of the registry, as every module reads them (changes heard from every process). */
  settings: SettingsStore;
  systemConfig: SystemConfigService;
  /** The staff sign-in whitelist (auth checks it at sign-in). */
  staffIps: StaffIpWhitelist;
  /** Payer and payee names refused at create. */
  nameBlacklist: NameBlacklist;
  /** Upstream gateways' addresses and sealed credentials (pay gateway config). */
  payGateways: PayGateways;
  /** Seals audit rows shortly after they commit: started with the app in every process. */
  auditSealer: AuditSealer;
  /** Folds the merchants' and suppliers' daily-total deltas: started with the app in every process. */
  dailyFolder: Periodic;
  /** The order and payout rollups of the statistics, and their folder (started in every process). */
  rollups: Rollups;
  rollupFolder: Periodic;
  statistics: StatisticsService;
  /** The work waiting for each role (the home page's and the to-do page's counts). */
  todo: TodoService;
  finance: FinanceService;
  auth: AuthService;
  users: UsersService;
  audit: AuditService;
  /** Other services take it to write system messages inside their transactions (notify). */
  messages: MessagesService;
  errorLog: ErrorLogService;
  profile: ProfileService;
  /** The double-entry ledger: other services post transfers with it inside their transactions. */
  ledger: LedgerService;
  products: ProductsService;
  merchants: MerchantsService;
  suppliers: SuppliersService;
  funds: FundsService;
  views: SavedViewsService;
  /** Receiving and payout accounts (resources) of every channel. */
  resources: ResourcesService;
  /** Pushes events to subscribed consoles, across processes (platform/realtime/hub.ts). */
  realtime: RealtimeHub;
  /** Background jobs (pg-boss): started by buildApp when `config.jobs` is on. */
  jobs: Jobs;
  /** Merchant notifications of paid orders: recording, delivery, replay, send test. */
  callbacks: CallbacksService;
  /** Drains the callback outbox in this process while the jobs run (callbacks/dispatcher.ts). */
  callbackDispatcher: CallbackDispatcher;
  callbackQueries: CallbackQueries;
  /** Payout orders: creation, the claim queue and every transition (issue 20). */
  payouts: PayoutsService;
  payoutQueries: PayoutQueries;
  /** The merchant API's signed payout calls. */
  signedPayouts: SignedPayouts;
  /** Batch payouts: maker-checker batches, bank file export and result upload. */
  payoutBatches: PayoutBatchesService;
  /** Payouts of gateway products: assignment, sends, polls and webhooks (gateway-payouts.ts). */
  gatewayPayouts: GatewayPayouts;
  /** Sends and polls gateway payouts in this process while the jobs run. */
  gatewayDispatcher: GatewayDispatcher;
  /** The collection order engine (merchant API, allocation, actions, timeouts) and its reads. */
  orders: OrdersService;
  orderQueries: OrderQueries;
  /** Finding orders by a receipt's picture (AllowPictureQueryOrder), and the reader it uses. */
  pictureQuery: PictureQuery;
  pictureReader: PictureReader;
  /** Batch upload of orders (CSV) through the same engine. */
  orderUploads: OrderUploadService;
  /** The Telegram whitelist and bot groups (modules/bots). */
  botsAdmin: BotsAdminService;
  /** The Telegram Bot API adapter (TELEGRAM_API_ROOT). */
  telegram: TelegramClient;
  /** The bots' outgoing messages, on a retried job queue. */
  botSender: BotSender;
  /** BotAutoSendFundRecord: parties' balance changes to their bot groups. */
  fundNotices: FundNotices;
  /** BotConstantReminder: the staff groups' reminders of waiting work. */
  reminders: Reminders;
  /** Whitelisted users' /balance and /order questions, read by a getUpdates poll. */
  botQuestions: BotQuestions;
  /** The bots' message templates (/system/messageTemplate). */
  messageTemplates: MessageTemplates;
  /** The transfer bot page: which bot posts the fund notices, and its test message. */
  transferBot: TransferBot;
  /** Dynamic pay scripts: versions, sandboxed runs (tests and payer pages) and their call records. */
  payScripts: PayScriptsService;
  /** The DataClearCycle retention job: order details older than the cycle, and its runs (modules/system/order-clear.ts). */
  orderClear: OrderClear;
  /** Fix and reset of the resource pool's counters (/system/maintenance). */
  maintenance: SystemMaintenance;
  /** EnableSystemCheck: the periodic ledger and counter check, told to the superAdmins. */
  systemCheck: SystemCheck;
}

export function buildServices(deps: AppDeps): Services {
  const clock = deps.clock ?? systemClock;
  const db = deps.database.db;
  const secretKey = resolveSecretKey(deps.config);
  const settings = new SettingsStore({ db, clock, secretKey, database: deps.database });
  const sessions = new SessionStore(db, deps.config, clock, { database: deps.database, settings });
  const staffIps = new StaffIpWhitelist({ db, clock, settings });
  const nameBlacklist = new NameBlacklist({ db, clock });
  const payGateways = new PayGateways({ db, clock, secretKey });
  const users = new UsersService({ db, clock, sessions });
  const realtime = new RealtimeHub({ database: deps.database, url: deps.config.databaseUrl });
  // The in-app system messages use the staff's edited texts (/system/messageTemplate, in-app).
  const messageTemplates = new MessageTemplates({ db, clock });
  const messages = new MessagesService({ db, clock, realtime, templates: messageTemplates });
  const ledger = new LedgerService({ db, clock });
  const rollups = new Rollups(db);
  const products = new ProductsService({ db, clock });
  const merchants = new MerchantsService({ db, clock, users, secretKey, settings });
  const suppliers = new SuppliersService({ db, clock, users, products, settings });
  const jobs = new Jobs({ database: deps.database, tuning: deps.jobTuning });
  const callbacks = new CallbacksService({
    db,
    clock,
    merchants,
    settings,
    realtime,
    scheduleMs: deps.jobTuning?.callbackScheduleMs,
    httpTimeoutMs: deps.jobTuning?.callbackTimeoutMs,
    privateNetworks: deps.config.callbackPrivateNetworks ?? deps.config.demo,
  });
  const callbackDispatcher = new CallbackDispatcher(callbacks, {
    pollMs: (jobs.tuning.pollingIntervalSeconds ?? 2) * 1000,
    concurrency: deps.jobTuning?.callbackConcurrency ?? 32,
    batchSize: deps.jobTuning?.callbackBatchSize ?? 50,
    leaseMs: deps.jobTuning?.callbackLeaseMs ?? callbacks.httpTimeoutMs + 30_000,
    stopGraceMs: Math.min(callbacks.httpTimeoutMs, 2_000),
  });
  // A callback scheduled and committed in this process is claimed at once, not at the next poll.
  callbacks.onCommitted(() => callbackDispatcher.poke());
  const orders = new OrdersService({
    db,
    clock,
    ledger,
    merchants,
    suppliers,
    callbacks,
    realtime,
    timeZone: deps.config.timeZone,
    settings,
    nameBlacklist,
  });
  const payouts = new PayoutsService({
    db,
    clock,
    ledger,
    timeZone: deps.config.timeZone,
    settings,
    nameBlacklist,
    realtime,
    afterCommit: () => callbacks.payoutCommitted(),
  });
  const gatewayPayouts = new GatewayPayouts({
    db,
    clock,
    payouts,
    secretKey,
    payGateways,
    privateNetworks: deps.config.gatewayPrivateNetworks ?? deps.config.callbackPrivateNetworks ?? deps.config.demo,
    timeoutMs: deps.jobTuning?.gatewayTimeoutMs,
    pollMs: deps.jobTuning?.gatewayPollMs,
    retryMs: deps.jobTuning?.gatewayRetryMs,
  });
  const telegram = new TelegramClient({ apiRoot: deps.config.telegramApiRoot });
  const botSender = new BotSender({
    jobs,
    telegram,
    settings,
    retryDelaySeconds: deps.jobTuning?.telegramRetryDelaySeconds,
  });
  const botsAdmin = new BotsAdminService({ db, clock });
  const orderQueries = new OrderQueries({ db, clock, timeZone: deps.config.timeZone, orders, settings });
  // One per process: its worker thread starts on the first picture and stops with the app.
  const pictureReader = new PictureReader();
  const maintenance = new SystemMaintenance({ db, clock, timeZone: deps.config.timeZone });
  const payoutQueries = new PayoutQueries({ db, clock, timeZone: deps.config.timeZone, payouts, settings });
  return {
    sessions,
    settings,
    pictureReader,
    pictureQuery: new PictureQuery({ clock, settings, reader: pictureReader, queries: orderQueries }),
    orderClear: new OrderClear({ db, clock, settings, timeZone: deps.config.timeZone }),
    maintenance,
    systemCheck: new SystemCheck({ db, clock, settings, ledger, maintenance, messages }),
    systemConfig: new SystemConfigService({
      db,
      clock,
      settings,
      guards: { StaffIpWhitelist: (on, actor, tx) => staffIps.checkTurnOn(on, actor, tx) },
    }),
    staffIps,
    nameBlacklist,
    payGateways,
    payouts,
    payoutQueries,
    gatewayPayouts,
    gatewayDispatcher: new GatewayDispatcher(gatewayPayouts, {
      pollMs: (jobs.tuning.pollingIntervalSeconds ?? 2) * 1000,
      batchSize: 20,
    }),
    signedPayouts: new SignedPayouts({ db, merchants, intake: payouts.intake }),
    payoutBatches: new PayoutBatchesService({ db, clock, timeZone: deps.config.timeZone, payouts, realtime }),
    auditSealer: new AuditSealer(db),
    // Without a folder the totals stay exact; each read sums more deltas.
    dailyFolder: new Periodic('daily totals fold', () => foldDaily(db)),
    rollups,
    rollupFolder: new Periodic('rollups fold', () => rollups.fold()),
    statistics: new StatisticsService({ db, clock, timeZone: deps.config.timeZone, settings }),
    todo: new TodoService({ db, payoutQueries }),
    finance: new FinanceService({ db, clock, timeZone: deps.config.timeZone }),
    auth: new AuthService({ db, config: deps.config, clock, sessions, settings, staffIps }),
    users,
    audit: new AuditService(db, clock, deps.config.timeZone),
    messages,
    errorLog: new ErrorLogService({ db, clock, timeZone: deps.config.timeZone }),
    profile: new ProfileService({ db, clock, sessions }),
    ledger,
    products,
    merchants,
    suppliers,
    funds: new FundsService({ db, clock, ledger, messages, timeZone: deps.config.timeZone, settings }),
    views: new SavedViewsService({ db, clock }),
    resources: new ResourcesService({
      db,
      clock,
      secretKey,
      timeZone: deps.config.timeZone,
      payGateways,
      settings,
    }),
    realtime,
    jobs,
    callbacks,
    callbackDispatcher,
    callbackQueries: new CallbackQueries({ db, timeZone: deps.config.timeZone }),
    orders,
    orderQueries,
    // Payout rows go through the payout intake, as the payout API and the console form do.
    orderUploads: new OrderUploadService({ db, clock, orders, payouts: payouts.intake }),
    botsAdmin,
    messageTemplates,
    botQuestions: new BotQuestions({
      db,
      clock,
      settings,
      telegram,
      sender: botSender,
      templates: messageTemplates,
      admin: botsAdmin,
      ledger,
      timeZone: deps.config.timeZone,
    }),
    reminders: new Reminders({
      db,
      clock,
      settings,
      sender: botSender,
      templates: messageTemplates,
      admin: botsAdmin,
      timeZone: deps.config.timeZone,
    }),
    telegram,
    botSender,
    transferBot: new TransferBot({ db, clock, settings, telegram, botsAdmin }),
    fundNotices: new FundNotices({
      db,
      clock,
      settings,
      sender: botSender,
      templates: messageTemplates,
      timeZone: deps.config.timeZone,
      settleMs: deps.jobTuning?.telegramSettleMs,
    }),
    payScripts: new PayScriptsService({
      db,
      clock,
      timeZone: deps.config.timeZone,
      orderQueries,
      // Scripts reach upstream gateways: the gateways' rule on private networks (the callbacks' guard).
      sandbox: new PayScriptSandbox(
        scriptFetcher({
          privateNetworks:
            deps.config.gatewayPrivateNetworks ?? deps.config.callbackPrivateNetworks ?? deps.config.demo,
          limits: {
            timeoutMs: PAY_SCRIPT_LIMITS.fetchTimeoutMs,
            maxResponseBytes: PAY_SCRIPT_LIMITS.fetchResponseBytes,
            maxBodyBytes: PAY_SCRIPT_LIMITS.fetchBodyBytes,
          },
        }),
      ),
    }),
  };
}

/** The whole server: used by `npm start` and, through app.inject or a port, by every server test. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            // Credentials never reach the log: not in URLs, headers or errors (platform/log-redaction.ts).
            redact: REDACT_PATHS,
            serializers: { req: serializeRequest, err: serializeError },
            ...(deps.logStream ? { stream: deps.logStream } : {}),
          },
    // A number of proxies: believe that many hops from the server back, so the client's own first
    // entry of X-Forwarded-For (which it may write itself) is never taken as its address.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    bodyLimit: 1_048_576,
    genReqId: () => crypto.randomUUID(),
    // One line per request, written when it is answered (logRequest), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
  });
  logRequests(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  acceptEmptyJsonBodies(app);

  await app.register(cookie);
  // The merchant API accepts form-encoded bodies as well as JSON.
  await app.register(formbody);
  await installSecurityHeaders(app);
  await app.register(rateLimit, { global: false });
  installGlobalRateLimit(app, config);
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'PayDesk API',
        version: '1.0',
        description:
          'Every answer is {code, msg, data}; code 200 is success. Console calls send the headers token and token2.',
      },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'token' },
          token2: { type: 'apiKey', in: 'header', name: 'token2' },
        },
      },
      security: [{ token: [] }],
    },
    transform: createJsonSchemaTransform({ zodToJsonConfig: { unrepresentable: 'any' } }),
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  installMetrics(app, { token: config.metricsToken });

  const services = buildServices(deps);
  app.decorate('services', services);
  installGuides(app, { apiUrl: () => services.settings.get('ApiUrl') });
  const guardDeps = { config, database, sessions: services.sessions };
  registerEndpoints(app, guardDeps, 'auth', endpoints.auth, authHandlers(services.auth, config.sessionLifetimeMinutes));
  registerEndpoints(app, guardDeps, 'users', endpoints.users, usersHandlers(services.users));
  registerEndpoints(app, guardDeps, 'audit', endpoints.audit, auditHandlers(services.audit));
  registerEndpoints(app, guardDeps, 'messages', endpoints.messages, messagesHandlers(services.messages));
  registerEndpoints(app, guardDeps, 'errorLog', endpoints.errorLog, errorLogHandlers(services.errorLog));
  registerEndpoints(app, guardDeps, 'profile', endpoints.profile, profileHandlers(services.profile));
  registerEndpoints(app, guardDeps, 'ledger', endpoints.ledger, ledgerHandlers(services.ledger));
  registerEndpoints(app, guardDeps, 'products', endpoints.products, productsHandlers(services.products));
  registerEndpoints(app, guardDeps, 'merchants', endpoints.merchants, merchantsHandlers(services.merchants));
  registerEndpoints(app, guardDeps, 'suppliers', endpoints.suppliers, suppliersHandlers(services.suppliers));
  registerEndpoints(app, guardDeps, 'funds', endpoints.funds, fundsHandlers(services.funds));
  registerEndpoints(app, guardDeps, 'views', endpoints.views, viewsHandlers(services.views));
  registerEndpoints(app, guardDeps, 'resources', endpoints.resources, resourcesHandlers(services.resources));
  const { createBatch, ...orderEndpoints } = endpoints.orders;
  const { createBatch: createBatchHandler, ...orderHandlers } = ordersHandlers(
    services.orders,
    services.orderQueries,
    services.orderUploads,
    services.pictureQuery,
  );
  registerEndpoints(app, guardDeps, 'orders', orderEndpoints, orderHandlers);
  // Multipart is parsed only where an upload is declared: in this encapsulated context, so no other
  // endpoint accepts a multipart body. The form is read into the body its contract schema validates
  // (readUploadForm); a malformed form is a 400 there.
  const { uploadResult, ...batchEndpoints } = endpoints.payoutBatches;
  const { uploadResult: uploadResultHandler, ...batchHandlers } = payoutBatchHandlers(services.payoutBatches);
  registerEndpoints(app, guardDeps, 'payoutBatches', batchEndpoints, batchHandlers);
  await app.register(async (uploads) => {
    await uploads.register(multipart, { limits: UPLOAD_FORM_LIMITS });
    uploads.addHook('preValidation', readUploadForm);
    registerEndpoints(uploads, guardDeps, 'orders', { createBatch }, { createBatch: createBatchHandler });
    // The bank's result file of a batch payout (one file of at most 1 MiB, as the order upload).
    registerEndpoints(uploads, guardDeps, 'payoutBatches', { uploadResult }, { uploadResult: uploadResultHandler });
  });
  registerEndpoints(
    app,
    guardDeps,
    'callbacks',
    endpoints.callbacks,
    callbacksHandlers(services.callbacks, services.callbackQueries),
  );
  registerEndpoints(
    app,
    guardDeps,
    'payouts',
    endpoints.payouts,
    payoutsHandlers(services.payouts, services.signedPayouts, services.merchants, services.payoutQueries),
  );
  registerEndpoints(
    app,
    guardDeps,
    'orderProfile',
    endpoints.orderProfile,
    orderProfileHandlers(
      new OrderProfileService({ db: database.db, clock: deps.clock ?? systemClock, timeZone: config.timeZone }),
    ),
  );
  registerEndpoints(app, guardDeps, 'system', endpoints.system, systemHandlers(database.db));
  registerEndpoints(app, guardDeps, 'statistics', endpoints.statistics, statisticsHandlers(services.statistics));
  registerEndpoints(app, guardDeps, 'todo', endpoints.todo, todoHandlers(services.todo));
  registerEndpoints(app, guardDeps, 'finance', endpoints.finance, financeHandlers(services.finance));
  registerEndpoints(
    app,
    guardDeps,
    'systemConfig',
    endpoints.systemConfig,
    systemConfigHandlers(services.systemConfig),
  );
  registerEndpoints(
    app,
    guardDeps,
    'entityData',
    endpoints.entityData,
    entityDataHandlers(new EntityData(database.db)),
  );
  registerEndpoints(app, guardDeps, 'ipWhitelist', endpoints.ipWhitelist, ipWhitelistHandlers(services.staffIps));
  registerEndpoints(
    app,
    guardDeps,
    'nameBlacklist',
    endpoints.nameBlacklist,
    nameBlacklistHandlers(services.nameBlacklist),
  );
  registerEndpoints(
    app,
    guardDeps,
    'bots',
    endpoints.bots,
    botsHandlers(services.botsAdmin, services.messageTemplates, services.transferBot),
  );
  registerEndpoints(app, guardDeps, 'payGateways', endpoints.payGateways, payGatewaysHandlers(services.payGateways));
  registerEndpoints(app, guardDeps, 'payScripts', endpoints.payScripts, payScriptsHandlers(services.payScripts));
  registerEndpoints(
    app,
    guardDeps,
    'systemMaintenance',
    endpoints.systemMaintenance,
    systemMaintenanceHandlers(services.maintenance),
  );
  registerEndpoints(app, guardDeps, 'payerScripts', endpoints.payerScripts, payerScriptHandlers(services.payScripts));
  registerEndpoints(app, guardDeps, 'orderClear', endpoints.orderClear, orderClearHandlers(services.orderClear));
  await installRealtime(app, { sessions: services.sessions, hub: services.realtime });
  // Open consoles learn a changed setting at once (the service banner, the logo, the system flag...).
  const stopSettingsPush = pushSettingChanges(services.settings, services.realtime);
  app.addHook('onClose', async () => stopSettingsPush());
  await installGatewayWebhook(app, services.gatewayPayouts);
  // Collection notifications of pay gateways (collectionNotify), read by the pay script each names.
  await installPayNotify(
    app,
    new PayNotify({
      db: database.db,
      gateways: services.payGateways,
      scripts: services.payScripts,
      orders: services.orders,
    }),
  );

  app.get('/healthz', { schema: { hide: true } }, async () => ({ code: Code.success, msg: 'ok', data: null }));
  app.get('/readyz', { schema: { hide: true } }, async (_req, reply) => {
    // A database that never answers (a stuck embedded one, a hung connection) is unready too: the
    // probe answers 503 in time rather than hang with it.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), READY_TIMEOUT_MS);
    });
    try {
      const outcome = await Promise.race([database.ping(), late]);
      if (outcome === 'late') {
        return reply.status(503).send({ code: Code.internal, msg: 'database not answering', data: null });
      }
      return { code: Code.success, msg: 'ready', data: { database: database.kind } };
    } catch {
      return reply.status(503).send({ code: Code.internal, msg: 'database unavailable', data: null });
    } finally {
      clearTimeout(timer);
    }
  });

  // Session lookups are cached once this process hears the database's session changes.
  app.addHook('onReady', async () => services.sessions.start(app.log));
  app.addHook('onClose', () => services.sessions.stop());
  app.addHook('onReady', async () => services.settings.start(app.log));
  app.addHook('onClose', () => services.settings.stop());
  // Every process seals (one at a time across processes): audit rows do not wait for the jobs.
  app.addHook('onReady', async () => services.auditSealer.start(app.log));
  // Every process folds daily-total deltas too (one at a time across processes).
  app.addHook('onReady', async () => services.dailyFolder.start(app.log));
  // The rollups' hours follow TIME_ZONE (rebuilt when it changed), then every process folds them.
  app.addHook('onReady', async () => {
    await services.rollups.useTimeZone(config.timeZone, app.log);
    services.rollupFolder.start(app.log);
  });
  defineJobs(services, deps.jobTuning, app.log);
  if (config.jobs && !deps.holdJobs) app.addHook('onReady', () => services.jobs.start(app.log));
  // Jobs in hand finish before the database closes (the caller closes it after app.close()).
  app.addHook('onClose', () => services.jobs.stop());
  app.addHook('onClose', () => services.auditSealer.stop());
  app.addHook('onClose', () => services.dailyFolder.stop());
  app.addHook('onClose', () => services.rollupFolder.stop());
  // A clear in progress stops after its batch in hand (the run reads interrupted; the next one goes on).
  app.addHook('onClose', () => services.orderClear.stop());
  // The picture reader's worker thread (if a picture was read) ends with the app.
  app.addHook('onClose', () => services.pictureReader.close());
  // The embedded database has no autovacuum of its own: this process is its only user (db/upkeep.ts).
  if (database.kind === 'pglite') {
    let upkeepTask: { stop(): Promise<void> } | null = null;
    app.addHook('onReady', async () => {
      upkeepTask = scheduleUpkeep(database, UPKEEP_EVERY_MS, {
        done: (result, ms) => app.log.debug({ ...result, ms }, 'database upkeep'),
        failed: (error) => app.log.error({ err: error }, 'database upkeep failed'),
      });
    });
    app.addHook('onClose', async () => {
      await upkeepTask?.stop();
    });
  }

  installConsole(app, config.webDist);
  return app;
}

/**
 * The background jobs (DESIGN sections 2 and 6), in every process whose jobs run: the callback outbox's
 * dispatcher (its own claims on `order_callbacks`, no pg-boss job per attempt), and every
 * `maintenanceEverySeconds` one maintenance job across all processes (a throttled send from each; a
 * pg-boss singleton queue): order timeouts, and now and then the purge of stale sign-in throttles.
 */
function defineJobs(services: Services, tuning: JobTuning | undefined, log: FastifyBaseLogger) {
  const { jobs, callbackDispatcher, gatewayDispatcher, orders } = services;
  const every = Math.max(1, Math.round(tuning?.maintenanceEverySeconds ?? 10));
  let lastThrottlePurge = 0;
  jobs.define({
    name: MAINTENANCE_QUEUE,
    options: { policy: 'singleton', expireInSeconds: 300, retryLimit: 0, deleteAfterSeconds: 3_600 },
    handle: async () => {
      const batch = 200;
      for (let round = 0; round < 25; round += 1) {
        if ((await orders.expireDue(batch)) < batch) break;
      }
      // Sign-in throttle rows that hold nothing any more, once in a while (docs/security.md).
      if (Date.now() - lastThrottlePurge >= THROTTLE_PURGE_EVERY_MS) {
        lastThrottlePurge = Date.now();
        await services.auth.purgeStaleThrottles();
      }
    },
  });
  jobs.onStart(async () => {
    // The per-attempt callback jobs of releases before the outbox: their callbacks are in the outbox.
    await jobs.deleteQueue(RETIRED_CALLBACK_QUEUE);
    // Callbacks recorded while no process ran jobs are claimed at once.
    callbackDispatcher.start(log);
    // Gateway payouts assigned, sent and polled here too (their claims on `payouts`, like the outbox's).
    gatewayDispatcher.start(log);
  });
  jobs.onStop(() => callbackDispatcher.stop());
  jobs.onStop(() => gatewayDispatcher.stop());
  jobs.every(every * 1000, () => jobs.sendThrottled(MAINTENANCE_QUEUE, {}, every));
  // The Telegram bots (modules/bots): messages on their retried queue, and the scan for balance changes.
  services.botSender.setLogger(log);
  services.botSender.define();
  const telegramEvery = Math.max(1, Math.round(tuning?.telegramScanEverySeconds ?? 2));
  jobs.define({
    name: TELEGRAM_SCAN_QUEUE,
    options: { policy: 'singleton', expireInSeconds: 120, retryLimit: 0, deleteAfterSeconds: 3_600 },
    handle: () => services.fundNotices.scan(),
  });
  jobs.every(telegramEvery * 1000, () => jobs.sendThrottled(TELEGRAM_SCAN_QUEUE, {}, telegramEvery));
  const reminderEvery = Math.max(
    1,
    Math.round(tuning?.telegramReminderEverySeconds ?? DEFAULT_REMINDER_EVERY_MINUTES * 60),
  );
  jobs.define({
    name: TELEGRAM_REMINDER_QUEUE,
    options: { policy: 'singleton', expireInSeconds: 120, retryLimit: 0, deleteAfterSeconds: 86_400 },
    handle: () => services.reminders.remind(),
  });
  const pollEvery = Math.max(1, Math.round(tuning?.telegramPollEverySeconds ?? 3));
  jobs.define({
    name: TELEGRAM_POLL_QUEUE,
    options: { policy: 'singleton', expireInSeconds: 60, retryLimit: 0, deleteAfterSeconds: 3_600 },
    handle: () => services.botQuestions.poll(),
  });
  jobs.every(pollEvery * 1000, () => jobs.sendThrottled(TELEGRAM_POLL_QUEUE, {}, pollEvery));
  // Every process offers a round each period; the throttle keeps one per period.
  jobs.every(Math.min(reminderEvery, 60) * 1000, () => jobs.sendThrottled(TELEGRAM_REMINDER_QUEUE, {}, reminderEvery));
  // The order clear (DataClearCycle): one run a day across processes; each process offers it hourly.
  services.orderClear.setLogger(log);
  const clearEvery = Math.max(1, Math.round(tuning?.orderClearEverySeconds ?? 86_400));
  jobs.define({
    name: ORDER_CLEAR_QUEUE,
    options: { policy: 'singleton', expireInSeconds: 6 * 3_600, retryLimit: 0, deleteAfterSeconds: 7 * 86_400 },
    handle: () => services.orderClear.scheduled(),
  });
  jobs.every(Math.min(clearEvery, 3_600) * 1000, () => jobs.sendThrottled(ORDER_CLEAR_QUEUE, {}, clearEvery));
  // The system check (EnableSystemCheck): one round per period across processes, each offering it.
  const checkEvery = Math.max(
    1,
    Math.round(tuning?.systemCheckEverySeconds ?? DEFAULT_SYSTEM_CHECK_EVERY_MINUTES * 60),
  );
  jobs.define({
    name: SYSTEM_CHECK_QUEUE,
    options: { policy: 'singleton', expireInSeconds: 900, retryLimit: 0, deleteAfterSeconds: 86_400 },
    handle: () => services.systemCheck.round(),
  });
  jobs.every(Math.min(checkEvery, 60) * 1000, () => jobs.sendThrottled(SYSTEM_CHECK_QUEUE, {}, checkEvery));
}

/**
 * The request log: one line per answered request, with the request (its URL's secrets redacted by the
 * serializer), the status and the time taken. Fastify's default writes two lines per request (on
 * arrival and on answer) and serializes the request on the first: half the log's cost on every call.
 */
function logRequests(app: FastifyInstance) {
  app.addHook('onResponse', async (req, reply) => {
    req.log.info({ req, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  });
}

/**
 * A POST whose Content-Type is JSON and whose body is empty reads as an empty object: clients that set
 * the header on every call send such requests to getInfo, logout or getSessions. Anything else is
 * parsed as Fastify does by default (prototype poisoning refused).
 */
function acceptEmptyJsonBodies(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    return parseJson(req, text, done);
  });
}

/** How often a process's maintenance run also purges stale sign-in throttle rows. */
const THROTTLE_PURGE_EVERY_MS = 10 * 60_000;

/** How long /readyz waits for the database's answer before it says the database is not answering. */
const READY_TIMEOUT_MS = 2_000;
