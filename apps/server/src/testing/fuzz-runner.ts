import { endpoints, ROLES, type Role } from '@paydesk/contract';
import { eq, sql } from 'drizzle-orm';
import { sessions, users } from '../db/schema.js';
import { DEMO_ACCOUNTS } from '../seed/seed.js';
import { callerRoleOf, type ForeignIds, type FuzzCase, fuzzCases } from './fuzz.js';
import { type Auth, changeMark, type TestApp } from './harness.js';

/**
 * Sends the fuzz cases to a test app, each with a session of a role that may call the endpoint (so the
 * case reaches validation and the handler, not the role guard), and checks what a careless client or an
 * attacker must never see: an answer of 500, or a refused request that changed something.
 */

/** Refused requests between two comparisons with the database: a mark per request would be slow. */
const CHECK_EVERY = 10;

/** Refusals that change the database by design: a failed sign-in is counted against the account. */
const CHANGES_WHEN_REFUSED = new Set(['auth.login', 'auth.login2']);

export interface FuzzFailure {
  endpointId: string;
  label: string;
  problem: string;
}

export interface FuzzReport {
  requests: number;
  byStatus: Record<number, number>;
  failures: FuzzFailure[];
  /** Runs of refused requests after which the database was compared with its state before them. */
  checkedGroups: number;
  /** Refused requests that an accepted change followed before their comparison (so went unchecked). */
  uncheckedRefusals: number;
  ms: number;
}

/** Sessions minted for the demo account of each role, with a valid token2 (no sign-in: fast, and no lockouts). */
export async function mintSessions(t: TestApp): Promise<Map<Role, Auth>> {
  const out = new Map<Role, Auth>();
  for (const role of ROLES) {
    const demo = DEMO_ACCOUNTS.find((a) => a.role === role && !a.parent);
    if (!demo) continue;
    const [user] = await t.database.db.select({ userId: users.id }).from(users).where(eq(users.account, demo.account));
    if (!user) continue;
    const { sessions: store } = t.app.services;
    const created = await store.create(t.database.db, user.userId, {
      pendingBind: false,
      ip: '127.0.0.1',
      userAgent: 'fuzz',
    });
    const [row] = await t.database.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.publicId, created.publicId));
    const { token2 } = await store.grantToken2(t.database.db, row!.id, 'fuzz');
    out.set(role, { token: created.token, token2 });
  }
  return out;
}

/** Ids and codes of rows that belong to other parties than the fuzzing merchant and supplier. */
export async function foreignIdsOf(t: TestApp): Promise<ForeignIds> {
  const rows = <T>(q: ReturnType<typeof sql>) =>
    t.database.db.execute(q).then((r) => (r as unknown as { rows: T[] }).rows);
  const ids = await rows<{ id: number }>(
    sql`select id from users where role in ('superAdmin', 'admin') order by id limit 2`,
  );
  const orders = await rows<{ code: string }>(
    sql`select order_code as code from collection_orders order by id limit 2`,
  ).catch(() => []);
  return { ids: ids.map((r) => Number(r.id)), codes: orders.map((r) => r.code) };
}

async function send(t: TestApp, c: FuzzCase, auth: Auth | undefined) {
  const headers: Record<string, string> = {};
  if (auth?.token) headers.token = auth.token;
  if (auth?.token2) headers.token2 = auth.token2;
  const { method, path } = c.endpoint;
  if (c.raw) {
    if (method === 'GET') return t.app.inject({ method, url: `${path}?${c.raw.query ?? ''}`, headers });
    return t.app.inject({
      method,
      url: path,
      headers: { ...headers, ...(c.raw.contentType ? { 'content-type': c.raw.contentType } : {}) },
      payload: c.raw.payload ?? '',
    });
  }
  if (method === 'GET') {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(c.input ?? {})) {
      if (v === undefined) continue;
      if (Array.isArray(v)) for (const item of v) query.append(k, String(item));
      else query.append(k, v === null ? '' : String(v));
    }
    return t.app.inject({ method, url: `${path}?${query.toString()}`, headers });
  }
  return t.app.inject({
    method,
    url: path,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(c.input ?? {}),
  });
}

function codeOf(body: string): unknown {
  try {
    return (JSON.parse(body) as { code?: unknown }).code;
  } catch {
    return undefined;
  }
}

/**
 * Runs the cases in order, endpoint by endpoint. A refused request must change nothing: the database
 * is compared with its state before each run of `CHECK_EVERY` refused requests. A request the server accepted may change what it is for, so the comparison starts
 * again after it.
 */
export async function runFuzz(
  t: TestApp,
  opts: {
    seed: number;
    randomCount: number;
    perField?: number;
    maxRequests?: number;
  },
): Promise<FuzzReport> {
  const started = Date.now();
  let auths = await mintSessions(t);
  const foreign = await foreignIdsOf(t);
  // Each session's first use writes its "last seen" time: do it before any snapshot.
  const touch = async () => {
    for (const auth of auths.values()) await t.call(endpoints.auth.getInfo, undefined, auth);
  };
  await touch();
  const cases = fuzzCases({
    seed: opts.seed,
    randomCount: opts.randomCount,
    foreign,
    ...(opts.perField === undefined ? {} : { perField: opts.perField }),
  });
  const limit = Math.min(cases.length, opts.maxRequests ?? cases.length);
  const report: FuzzReport = {
    requests: 0,
    byStatus: {},
    failures: [],
    checkedGroups: 0,
    uncheckedRefusals: 0,
    ms: 0,
  };
  const fail = (c: FuzzCase, problem: string) =>
    report.failures.push({ endpointId: c.endpointId, label: c.label, problem });

  /** The database as it was after the last accepted request of this endpoint; null: nothing to compare. */
  let baseline: string | null = null;
  /** The refused cases since the baseline (the first one names a failure). */
  let refusedSince: FuzzCase[] = [];
  const compare = async () => {
    if (baseline === null || refusedSince.length === 0) return;
    const first = refusedSince[0]!;
    if (CHANGES_WHEN_REFUSED.has(first.endpointId)) return;
    report.checkedGroups += 1;
    if ((await changeMark(t.database)) !== baseline) {
      fail(first, `one of ${refusedSince.length} refused requests from here on changed the database`);
    }
  };
  const rebase = async () => {
    baseline = await changeMark(t.database);
    refusedSince = [];
  };

  for (let i = 0; i < limit; i += 1) {
    const c = cases[i]!;
    if (c.endpointId !== cases[i - 1]?.endpointId) {
      await compare();
      await rebase();
    }
    const role = callerRoleOf(c.endpoint);
    let res = await send(t, c, role ? auths.get(role) : undefined);
    const lost = codeOf(res.body);
    if ((lost === 1003 || lost === 1024 || lost === 1025) && role) {
      // An accepted case ended the session or its token2 (logout, forceLogout, a password change, a
      // reset second-level password): mint new ones.
      await compare();
      auths = await mintSessions(t);
      await touch();
      res = await send(t, c, auths.get(role));
      await rebase();
    }
    report.requests += 1;
    report.byStatus[res.statusCode] = (report.byStatus[res.statusCode] ?? 0) + 1;
    if (res.statusCode >= 500 && res.statusCode !== 503) fail(c, `${res.statusCode}: ${res.body.slice(0, 300)}`);
    const isCsv = c.endpoint.produces === 'csv' && res.statusCode === 200;
    if (!isCsv && typeof codeOf(res.body) !== 'number') fail(c, `not an envelope: ${res.body.slice(0, 200)}`);
    if (res.statusCode >= 400) {
      refusedSince.push(c);
      if (refusedSince.length >= CHECK_EVERY) {
        await compare();
        await rebase();
      }
    } else {
      // Accepted (a GET too: the spec's deleteUser and resetPayPassword are GETs): what it changed is
      // its job, so the refusals since the last check cannot be told apart from it; they go unchecked
      // (a check every `CHECK_EVERY` refusals keeps that window small).
      report.uncheckedRefusals += refusedSince.length;
      await rebase();
    }
  }
  await compare();
  report.ms = Date.now() - started;
  return report;
}
