import { createHash, createHmac, randomInt } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Code, type Endpoint, endpoints, ORDER_STATE, type SignType, signingString } from '@paydesk/contract';
import { type Answer, isLoopback, payerAddress, request } from './http.js';
import { apiAmountOf, type SimulatorOptions, type SupplierLogin } from './options.js';
import { totpCode } from './totp.js';

/** What the simulator did so far; every count is of this run only. */
export interface SimulatorStats {
  /** Orders the merchant API accepted (allocated), refused with 'allocation failed', or refused otherwise. */
  created: number;
  allocated: number;
  allocationFailed: number;
  refused: number;
  /** Refusals by code, e.g. {"2006": 3}; network errors under "network". */
  refusedByCode: Record<string, number>;
  /** Payers who opened the payer view and submitted a UTR; payers who never paid. */
  payersPaid: number;
  payersAbandoned: number;
  /** Orders the suppliers confirmed (the order is paid, the merchant is notified). */
  confirmed: number;
  confirmFailed: number;
  /** Merchant callbacks: requests received, answered SUCCESS, answered with a failure, badly signed. */
  callbacksReceived: number;
  callbacksOk: number;
  callbacksFailed: number;
  callbacksBadSign: number;
  /** Different orders whose callback was answered SUCCESS. */
  ordersNotified: number;
  /** Payouts: created (funds held), claimed by a supplier, UTR submitted, confirmed by staff, refused steps. */
  payoutsCreated: number;
  payoutsClaimed: number;
  payoutsSubmitted: number;
  payoutsCompleted: number;
  payoutStepsFailed: number;
  /** Payout callbacks received and answered SUCCESS (counted apart from the orders'). */
  payoutCallbacksReceived: number;
  payoutCallbacksOk: number;
  /** Different payouts whose callback was answered SUCCESS. */
  payoutsNotified: number;
  /** Order create latency in ms (median and 95th percentile of the last 1,000). */
  createP50: number;
  createP95: number;
}

export interface Simulator {
  stats: SimulatorStats;
  /** The receiver's notifyUrl (useful when the port was 0). */
  notifyUrl: string;
  /** Codes of the orders this run created, with what their payer did. */
  orders: Map<string, { paid: boolean; confirmed: boolean; notified: boolean }>;
  /** Codes of the payouts this run created, with whether staff confirmed each and its callback was taken. */
  payouts: Map<string, { completed: boolean; notified: boolean }>;
  /** Stops now: no new orders, pending payers and confirmations dropped, the receiver closed. */
  stop(): Promise<SimulatorStats>;
  /** Settles when the run ends (after --duration and the drain, or after stop()). */
  done: Promise<SimulatorStats>;
}

interface Session {
  login: SupplierLogin;
  token: string;
  supplierId: number;
  /** A supplier's agent: confirms only its own accounts' orders. */
  isAgent: boolean;
  /** A sign-in under way after the session ended. */
  renewing?: Promise<string> | undefined;
}

const sign = (params: Record<string, string>, secret: string, signType: SignType) => {
  const text = signingString(params, secret);
  const digest =
    signType === 'MD5'
      ? createHash('md5').update(text, 'utf8').digest('hex')
      : createHmac('sha256', secret).update(text, 'utf8').digest('hex');
  return digest.toUpperCase();
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = ([min, max]: [number, number]) => min + Math.random() * (max - min);

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!);
}

/** A 12-digit UTR, as Indian banks print them. */
const newUtr = () => `${randomInt(3, 6)}${String(randomInt(0, 100_000_000_000)).padStart(11, '0')}`;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= 65_536) chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Runs traffic against a PayDesk server: the merchant creates orders through the signed API at
 * `rate`, payers pay (payer view, UTR) or never do, the owning supplier confirms through the console
 * API, and a merchant receiver takes the callbacks. `log` gets the progress lines.
 */
export async function startSimulator(options: SimulatorOptions, log: (line: string) => void): Promise<Simulator> {
  const base = new URL(options.url);
  const stats: SimulatorStats = {
    created: 0,
    allocated: 0,
    allocationFailed: 0,
    refused: 0,
    refusedByCode: {},
    payersPaid: 0,
    payersAbandoned: 0,
    confirmed: 0,
    confirmFailed: 0,
    callbacksReceived: 0,
    callbacksOk: 0,
    callbacksFailed: 0,
    callbacksBadSign: 0,
    ordersNotified: 0,
    createP50: 0,
    createP95: 0,
    payoutsCreated: 0,
    payoutsClaimed: 0,
    payoutsSubmitted: 0,
    payoutsCompleted: 0,
    payoutStepsFailed: 0,
    payoutCallbacksReceived: 0,
    payoutCallbacksOk: 0,
    payoutsNotified: 0,
  };
  /** This run's payouts by code: whether staff confirmed it and whether its callback was taken. */
  const payouts = new Map<string, { completed: boolean; notified: boolean }>();
  const orders: Simulator['orders'] = new Map();
  const latencies: number[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  const pending = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>) => {
    const settled = work
      .catch((error: unknown) => log(`simulator error: ${(error as Error).stack ?? String(error)}`))
      .finally(() => pending.delete(settled));
    pending.add(settled);
  };
  const later = (seconds: number, run: () => Promise<unknown>) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopped) track(run());
    }, seconds * 1000);
    timers.add(timer);
  };
  const refuse = (code: string) => {
    stats.refused += 1;
    stats.refusedByCode[code] = (stats.refusedByCode[code] ?? 0) + 1;
  };

  /** A console API call the way the console makes it (query for GET, JSON body for POST, token header). */
  const call = (
    endpoint: Endpoint,
    input: Record<string, unknown>,
    token?: string,
    localAddress?: string,
    token2?: string,
  ) => {
    const url = new URL(endpoint.path, base);
    const headers: Record<string, string> = token ? { token } : {};
    if (token2) headers.token2 = token2;
    if (endpoint.method === 'GET') {
      for (const [k, v] of Object.entries(input)) url.searchParams.set(k, String(v));
      return request(url, { method: 'GET', headers, localAddress });
    }
    return request(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(input),
      localAddress,
    });
  };

  // ---- the merchant's callback receiver ----
  const notified = new Set<string>();
  const receiver: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Merchant One</title><p>Thank you: your payment is being processed.</p>');
      return;
    }
    readBody(req)
      .then((body) => {
        const params = Object.fromEntries(new URLSearchParams(body));
        const payout = params.orderType === 'payout';
        if (payout) stats.payoutCallbacksReceived += 1;
        else stats.callbacksReceived += 1;
        const { sign: sent = '', ...signed } = params;
        if (sent.toUpperCase() !== sign(signed, options.merchant.secret, options.merchant.signType)) {
          stats.callbacksBadSign += 1;
          res.writeHead(400, { 'content-type': 'text/plain' }).end('bad sign');
          return;
        }
        if (payout) {
          // A payout's callback is taken at once: the failures above test the orders' retries.
          stats.payoutCallbacksOk += 1;
          const known = payouts.get(params.orderCode ?? '');
          if (known && !known.notified) {
            known.notified = true;
            stats.payoutsNotified += 1;
          }
          res.writeHead(200, { 'content-type': 'text/plain' }).end('SUCCESS');
          return;
        }
        if (Math.random() < options.callbackFailRate) {
          stats.callbacksFailed += 1;
          if (Math.random() < 0.5) res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
          else res.writeHead(200, { 'content-type': 'text/plain' }).end('FAIL');
          return;
        }
        stats.callbacksOk += 1;
        const code = params.orderCode ?? '';
        if (!notified.has(code)) {
          notified.add(code);
          stats.ordersNotified += 1;
          const order = orders.get(code);
          if (order) order.notified = true;
        }
        res.writeHead(200, { 'content-type': 'text/plain' }).end('SUCCESS');
      })
      .catch(() => res.writeHead(400).end());
  });
  await new Promise<void>((resolve, reject) => {
    receiver.once('error', reject);
    receiver.listen(options.callbackPort, options.callbackBind, () => {
      receiver.off('error', reject);
      resolve();
    });
  }).catch((error: NodeJS.ErrnoException) => {
    throw new Error(
      `the callback receiver cannot listen on ${options.callbackBind}:${options.callbackPort} (${error.code ?? error.message}): choose another --callback-port`,
    );
  });
  const receiverPort = (receiver.address() as AddressInfo).port;
  const notifyUrl = `http://${options.callbackHost}:${receiverPort}/notify`;
  const returnUrl = `http://${options.callbackHost}:${receiverPort}/return`;
  const closeReceiver = () =>
    new Promise<void>((resolve) => {
      receiver.close(() => resolve());
      receiver.closeAllConnections();
    });

  try {
    // ---- the server is there ----
    try {
      const health = await request(new URL('/healthz', base), { method: 'GET' });
      if (health.status !== 200) throw new Error(`HTTP ${health.status}`);
    } catch (error) {
      throw new Error(`no PayDesk server at ${options.url} (${(error as Error).message}): start it with npm start`);
    }

    // ---- suppliers sign in (password and authenticator code), as the console does ----
    const sessions: Session[] = [];
    for (const login of options.suppliers) sessions.push(await signIn(login));

    async function signIn(login: SupplierLogin): Promise<Session> {
      const token = await sessionToken(login);
      const mine = await call(endpoints.suppliers.getMine, {}, token);
      if (mine.code !== Code.success || !mine.data) {
        throw new Error(`${login.account} is not a supplier account with a supplier record`);
      }
      return { login, token, supplierId: Number(mine.data.id), isAgent: mine.data.parentId !== null };
    }

    async function sessionToken(login: SupplierLogin): Promise<string> {
      const attempt = () =>
        call(endpoints.auth.login, {
          userName: login.account,
          password: login.password,
          googleCode: totpCode(login.secret),
        });
      let answer = await attempt();
      if (answer.code === Code.wrongAuthCode) {
        // Each authenticator code signs in once: a code just used (say, a console sign-in) is refused; the next one serves.
        await sleep(30_000 - (Date.now() % 30_000) + 500);
        answer = await attempt();
      }
      if (answer.code !== Code.success) {
        throw new Error(`${login.account} could not sign in: ${answer.msg ?? `HTTP ${answer.status}`}`);
      }
      return String(answer.data.token);
    }

    /** A console call in a supplier's session; a session that ended (a day after sign-in) signs in again. */
    async function asSupplier(session: Session, endpoint: Endpoint, input: Record<string, unknown>) {
      const answer = await call(endpoint, input, session.token);
      if (answer.code !== Code.sessionExpired) return answer;
      const stale = session.token;
      if (session.token === stale) {
        // Calls that find the session ended together sign in once.
        session.renewing ??= sessionToken(session.login).finally(() => (session.renewing = undefined));
        session.token = await session.renewing;
      }
      return call(endpoint, input, session.token);
    }

    /** The session that confirms an order: its supplier's own, else its team's top supplier's (who sees it). */
    async function confirmerOf(orderCode: string): Promise<Session | null> {
      const roots = [...sessions].sort((a, b) => Number(a.isAgent) - Number(b.isAgent));
      for (const session of roots) {
        const found = await asSupplier(session, endpoints.orders.getList, { pageIndex: 1, pageSize: 1, orderCode });
        const row = found.data?.list?.[0] as { supplierId: number | null } | undefined;
        if (found.code !== Code.success || !row) continue;
        return sessions.find((s) => s.supplierId === row.supplierId) ?? session;
      }
      return null;
    }

    // ---- one order's life ----
    let payerCount = 0;
    const pickProduct = () => {
      const total = options.products.reduce((sum, [, w]) => sum + w, 0);
      let r = Math.random() * total;
      for (const [id, w] of options.products) {
        r -= w;
        if (r <= 0) return id;
      }
      return options.products[0]![0];
    };
    const ownAddresses = isLoopback(base.hostname) && process.platform === 'linux';

    async function createOrder(n: number) {
      const productId = pickProduct();
      const major = options.minAmount + Math.random() * (options.maxAmount - options.minAmount);
      // Odd paise on most orders, as merchants send them: the same amount may not be open twice on an account.
      const minor = Math.round(major) * 100 + (Math.random() < 0.7 ? randomInt(1, 100) : 0);
      const params: Record<string, string> = {
        mchId: options.merchant.mchId,
        productId: String(productId),
        mchOrderNo: `SIM${Date.now().toString(36).toUpperCase()}${String(n).padStart(6, '0')}`,
        amount: apiAmountOf(productId, minor),
        notifyUrl,
        returnUrl,
        subject: 'Simulated top-up',
        clientIp: `49.${randomInt(32, 48)}.${randomInt(0, 256)}.${randomInt(1, 255)}`,
        // As integrations written for gateways of this kind do: the type is signed with the rest.
        signType: options.merchant.signType,
      };
      params.sign = sign(params, options.merchant.secret, options.merchant.signType);
      let answer: Answer;
      try {
        answer = await request(new URL(endpoints.orders.create.path, base), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(params),
        });
      } catch {
        refuse('network');
        return;
      }
      latencies.push(answer.ms);
      if (latencies.length > 1_000) latencies.shift();
      if (answer.code === Code.allocationFailed) {
        // The server keeps the order (state allocation failed) and answers its code.
        stats.created += 1;
        stats.allocationFailed += 1;
        return;
      }
      if (answer.code !== Code.success) {
        refuse(String(answer.code ?? `HTTP ${answer.status}`));
        return;
      }
      stats.created += 1;
      const orderCode = String(answer.data.orderCode);
      if (answer.data.state !== ORDER_STATE.allocated) return;
      stats.allocated += 1;
      const order = { paid: false, confirmed: false, notified: false };
      orders.set(orderCode, order);
      if (Math.random() >= options.payRate) {
        stats.payersAbandoned += 1;
        return;
      }
      payerCount += 1;
      const from = ownAddresses ? payerAddress(payerCount) : undefined;
      later(between(options.payDelay), () => pay(orderCode, order, from));
    }

    /** The payer opens the payer page, pays what it shows, and submits the UTR. */
    async function pay(orderCode: string, order: { paid: boolean; confirmed: boolean }, from: string | undefined) {
      try {
        const view = await call(endpoints.orders.payerOrder, { orderCode }, undefined, from);
        if (view.code !== Code.success || view.data.state !== ORDER_STATE.allocated || !view.data.payee) {
          stats.payersAbandoned += 1;
          return;
        }
        const sent = await call(endpoints.orders.payerSubmitUtr, { orderCode, utr: newUtr() }, undefined, from);
        if (sent.code !== Code.success) {
          refuse(`utr ${sent.code ?? sent.status}`);
          return;
        }
        stats.payersPaid += 1;
        order.paid = true;
        later(between(options.confirmDelay), () => confirm(orderCode, order));
      } catch {
        refuse('network');
      }
    }

    /** The supplier sees the money on its account and confirms the order. */
    async function confirm(orderCode: string, order: { confirmed: boolean }) {
      try {
        const session = await confirmerOf(orderCode);
        const answer = session ? await asSupplier(session, endpoints.orders.confirmOrder, { orderCode }) : null;
        if (answer?.code === Code.success) {
          stats.confirmed += 1;
          order.confirmed = true;
        } else stats.confirmFailed += 1;
      } catch {
        stats.confirmFailed += 1;
      }
    }

    // ---- one payout's life: the merchant creates it, a supplier claims, pays and submits, staff confirm ----
    const claimer = sessions.find((s) => !s.isAgent) ?? sessions[0]!;
    let staff: { token: string; token2: string } | null = null;
    if (options.payoutRate > 0 && options.confirmer) {
      const token = await sessionToken(options.confirmer);
      const granted = await call(
        endpoints.auth.login2,
        { password: options.confirmer.password, logInReason: 'simulator confirms payouts' },
        token,
      );
      if (granted.code !== Code.success) {
        throw new Error(`${options.confirmer.account} could not enter its second-level password: ${granted.msg}`);
      }
      staff = { token, token2: String(granted.data.token2) };
    }
    const payoutSteps = options.payoutRate > 0 && staff !== null;
    if (options.payoutRate > 0 && !staff)
      log('No staff account to confirm payouts (--confirmer): no payouts are made.');

    const payoutStep = async (run: () => Promise<Answer>) => {
      try {
        const answer = await run();
        if (answer.code === Code.success) return answer;
      } catch {
        // counted below
      }
      stats.payoutStepsFailed += 1;
      return null;
    };

    async function createPayout(n: number) {
      const [min, max] = options.payoutAmount;
      const params: Record<string, string> = {
        mchId: options.merchant.mchId,
        productId: '2001',
        mchOrderNo: `SIMP${Date.now().toString(36).toUpperCase()}${String(n).padStart(6, '0')}`,
        amount: String(Math.round(min + Math.random() * (max - min)) * 100),
        notifyUrl,
        userName: 'Simulated Payee',
        cardNumber: String(randomInt(100_000_000, 1_000_000_000)) + String(randomInt(100, 1_000)),
        ifscCode: 'HDFC0001234',
        bankName: 'HDFC Bank',
        bankBranch: 'Koramangala',
        address: '12 MG Road, Bengaluru',
        signType: options.merchant.signType,
      };
      params.sign = sign(params, options.merchant.secret, options.merchant.signType);
      let answer: Answer;
      try {
        answer = await request(new URL(endpoints.payouts.create.path, base), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(params),
        });
      } catch {
        refuse('network');
        return;
      }
      if (answer.code !== Code.success) {
        refuse(`payout ${answer.code ?? `HTTP ${answer.status}`}`);
        return;
      }
      stats.payoutsCreated += 1;
      const orderCode = String(answer.data.orderCode);
      const payout = { completed: false, notified: false };
      payouts.set(orderCode, payout);
      later(between(options.payoutDelay), () => claimPayout(orderCode, payout));
    }

    /** The supplier finds the payout in its claim queue and claims it; later it pays and submits the UTR. */
    async function claimPayout(orderCode: string, payout: { completed: boolean }) {
      const found = await payoutStep(() =>
        asSupplier(claimer, endpoints.payouts.getList, { pageIndex: 1, pageSize: 1, queue: true, orderCode }),
      );
      const id = (found?.data?.list?.[0] as { id: number } | undefined)?.id;
      if (id === undefined) {
        stats.payoutStepsFailed += 1;
        return;
      }
      if (!(await payoutStep(() => asSupplier(claimer, endpoints.payouts.claimOrder, { orderId: id })))) return;
      stats.payoutsClaimed += 1;
      later(between(options.payoutDelay), async () => {
        if (!(await payoutStep(() => asSupplier(claimer, endpoints.payouts.submit, { orderId: id, utr: newUtr() })))) {
          return;
        }
        stats.payoutsSubmitted += 1;
        later(between(options.payoutDelay), async () => {
          const done = await payoutStep(() =>
            call(endpoints.payouts.confirm, { orderId: id }, staff!.token, undefined, staff!.token2),
          );
          if (!done) return;
          stats.payoutsCompleted += 1;
          payout.completed = true;
        });
      });
    }

    // ---- the merchant's pace ----
    const started = Date.now();
    let made = 0;
    let payoutsMade = 0;
    let inFlight = 0;
    const pace = setInterval(() => {
      if (stopped) return;
      const due = Math.floor(((Date.now() - started) / 1000) * options.rate);
      while (made < due && inFlight < options.concurrency) {
        made += 1;
        inFlight += 1;
        track(createOrder(made).finally(() => (inFlight -= 1)));
      }
      // Behind by more than a second of orders: the server is slower than the rate; do not catch up in a burst.
      if (due - made > Math.max(1, options.rate)) made = due - Math.max(1, Math.floor(options.rate));
      if (payoutSteps) {
        const payoutsDue = Math.floor(((Date.now() - started) / 1000) * options.payoutRate);
        while (payoutsMade < payoutsDue) {
          payoutsMade += 1;
          track(createPayout(payoutsMade));
        }
      }
    }, 20);

    let reportedAt = 0;
    const report = () => {
      reportedAt = Date.now();
      const sorted = [...latencies].sort((a, b) => a - b);
      stats.createP50 = percentile(sorted, 0.5);
      stats.createP95 = percentile(sorted, 0.95);
      const secs = Math.round((Date.now() - started) / 1000);
      const refusedText = stats.refused
        ? `, refused ${stats.refused} (${Object.entries(stats.refusedByCode)
            .map(([c, n]) => `${c}: ${n}`)
            .join(', ')})`
        : '';
      log(
        `[${String(secs).padStart(4)}s] created ${stats.created} (allocated ${stats.allocated}, allocation failed ${stats.allocationFailed}${refusedText}) | ` +
          `payers paid ${stats.payersPaid}, never paid ${stats.payersAbandoned} | confirmed ${stats.confirmed}` +
          `${stats.confirmFailed ? ` (failed ${stats.confirmFailed})` : ''} | ` +
          `callbacks received ${stats.callbacksReceived}, ok ${stats.callbacksOk}, failed ${stats.callbacksFailed}` +
          `${stats.callbacksBadSign ? `, bad sign ${stats.callbacksBadSign}` : ''} | ` +
          `create p50 ${stats.createP50} ms, p95 ${stats.createP95} ms` +
          (payoutSteps
            ? ` | payouts created ${stats.payoutsCreated}, claimed ${stats.payoutsClaimed}, submitted ${stats.payoutsSubmitted}, ` +
              `completed ${stats.payoutsCompleted}${stats.payoutStepsFailed ? ` (steps failed ${stats.payoutStepsFailed})` : ''}, ` +
              `notified ${stats.payoutsNotified}`
            : ''),
      );
    };
    const reporter = setInterval(report, options.reportEvery * 1000);
    log(
      `Simulating ${options.rate} orders/s against ${options.url} as merchant ${options.merchant.mchId}; ` +
        `suppliers ${sessions.map((s) => s.login.account).join(', ')}; callbacks to ${notifyUrl} ` +
        `(${Math.round(options.callbackFailRate * 100)} % answered with a failure)` +
        (payoutSteps
          ? `; ${options.payoutRate} payouts/s claimed by ${claimer.login.account}, confirmed by ${options.confirmer!.account}`
          : '') +
        '. Ctrl-C stops.',
    );

    let finish: (stats: SimulatorStats) => void = () => undefined;
    const done = new Promise<SimulatorStats>((resolve) => (finish = resolve));
    let ended = false;
    const end = async (drain: boolean) => {
      if (ended) return done;
      ended = true;
      clearInterval(pace);
      if (drain) {
        // Payments and callbacks under way finish (or the drain time runs out).
        const until = Date.now() + options.drain * 1000;
        const settled = () =>
          pending.size === 0 &&
          timers.size === 0 &&
          [...orders.values()].every((o) => !o.confirmed || o.notified) &&
          [...payouts.values()].every((p) => !p.completed || p.notified);
        while (Date.now() < until && !settled()) await sleep(100);
      }
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.allSettled([...pending]);
      clearInterval(reporter);
      if (Date.now() - reportedAt > 500) report();
      await closeReceiver();
      finish(stats);
      return done;
    };
    const runFor = options.duration > 0 ? setTimeout(() => void end(true), options.duration * 1000) : undefined;
    return {
      stats,
      notifyUrl,
      orders,
      payouts,
      stop: () => {
        clearTimeout(runFor);
        return end(false);
      },
      done,
    };
  } catch (error) {
    await closeReceiver();
    throw error;
  }
}
