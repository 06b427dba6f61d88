import {
  ORDER_STATE,
  PAY_SCRIPT_FUNCTIONS,
  type PayScriptFetch,
  type PayScriptKind,
  type PayScriptNotification,
  type PayScriptOrder,
  type PayScriptRecord,
  type PayScriptRow,
  type PayScriptRun,
  type PayScriptSource,
  type PayScriptVersion,
  type PayScriptView,
  payScriptParsedSchema,
  type payScriptRecordFilterShape,
  payScriptViewSchema,
  productById,
} from '@paydesk/contract';
import {
  and,
  asc,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNotNull,
  lt,
  lte,
  max,
  notInArray,
  type SQL,
} from 'drizzle-orm';
import type { z } from 'zod';
import type { Db, DbOrTx } from '../../db/client.js';
import { payScriptCalls, payScripts, payScriptVersions, products, users } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { AppError, conflict, invalid, notFound, refused } from '../../platform/errors.js';
import { keysetRowsAfter } from '../../platform/export.js';
import { escapeLike } from '../../platform/like.js';
import { sha256 } from '../../platform/secrets.js';
import { parsePlatformTime } from '../../platform/time.js';
import type { OrderQueries } from '../orders/orders.query.js';
import type { PayScriptSandbox } from './sandbox.js';

type Parsed<S extends Record<string, z.ZodType>> = { [K in keyof S]?: z.output<S[K]> };
export type PayScriptRecordFilters = Parsed<typeof payScriptRecordFilterShape>;

/** A payer page whose render failed asks again at most this often (each try is a call record). */
const FAILED_RENDER_RETRY_MS = 60_000;

type TestRunInput =
  | { id: number; version?: number | undefined; kind: 'render'; input: PayScriptOrder }
  | { id: number; version?: number | undefined; kind: 'parse'; input: PayScriptNotification };

/** The text of a result that is not what the interface asks for: its first problems, with their fields. */
function resultProblem(kind: PayScriptKind, issues: z.core.$ZodIssue[]): string {
  const fn = PAY_SCRIPT_FUNCTIONS[kind];
  const listed = issues
    .slice(0, 3)
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
  return `${fn}() returned what the interface does not allow: ${listed}`;
}

/**
 * Dynamic pay scripts (issue 21 item 4): versions, the products that use them, runs in the sandbox and
 * their call records. A save is a new version (the code must compile); one version is active, and real
 * runs (the payer page) use it. Every change is audited in its transaction. Every run, a test or a
 * real one, writes a call record with its input, its checked output or error, duration, fetches and logs.
 */
export class PayScriptsService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      timeZone: string;
      sandbox: PayScriptSandbox;
      orderQueries: OrderQueries;
    },
  ) {}

  private get db() {
    return this.deps.db;
  }

  // ---- scripts ----

  async list(input: { name?: string | null | undefined; pageIndex: number; pageSize: number }) {
    const where = scriptWhere(input);
    const [rows, [totals]] = await Promise.all([
      this.db
        .select({ id: payScripts.id })
        .from(payScripts)
        .where(where)
        .orderBy(desc(payScripts.id))
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.db.select({ n: count() }).from(payScripts).where(where),
    ]);
    return {
      list: await this.rows(rows.map((r) => r.id)),
      total: totals?.n ?? 0,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    };
  }

  /** The filtered scripts, newest first, in keyset batches (the CSV export). */
  async *exportList(input: { name?: string | null | undefined }): AsyncGenerator<PayScriptRow> {
    const where = scriptWhere(input);
    yield* keysetRowsAfter<PayScriptRow>(async (last, limit) => {
      const ids = await this.db
        .select({ id: payScripts.id })
        .from(payScripts)
        .where(and(where, last ? lt(payScripts.id, last.id) : undefined))
        .orderBy(desc(payScripts.id))
        .limit(limit);
      return this.rows(ids.map((r) => r.id));
    });
  }

  async versions(id: number): Promise<{ list: PayScriptVersion[] }> {
    const [script] = await this.db.select().from(payScripts).where(eq(payScripts.id, id));
    if (!script) throw notFound('no such pay script');
    const rows = await this.db
      .select({ v: payScriptVersions, createdBy: users.account })
      .from(payScriptVersions)
      .leftJoin(users, eq(users.id, payScriptVersions.createdBy))
      .where(eq(payScriptVersions.scriptId, id))
      .orderBy(desc(payScriptVersions.version));
    return {
      list: rows.map(({ v, createdBy }) => ({
        version: v.version,
        code: v.code,
        hosts: v.hosts,
        active: v.version === script.activeVersion,
        createdAt: v.createdAt.toISOString(),
        createdBy,
      })),
    };
  }

  async create(input: { name: string; code: string; hosts: string[] }, actor: Actor): Promise<PayScriptRow> {
    await this.mustCompile(input.code);
    const now = this.deps.clock.now();
    const id = await this.named(() =>
      this.db.transaction(async (tx) => {
        const [script] = await tx
          .insert(payScripts)
          .values({
            name: input.name,
            activeVersion: 1,
            createdAt: now,
            createdBy: actor.userId,
            updatedAt: now,
            updatedBy: actor.userId,
          })
          .returning({ id: payScripts.id });
        const scriptId = script!.id;
        await tx.insert(payScriptVersions).values({
          scriptId,
          version: 1,
          code: input.code,
          hosts: input.hosts,
          createdAt: now,
          createdBy: actor.userId,
        });
        await writeAudit(
          tx,
          actor,
          {
            action: 'payScripts.create',
            target: `payScript:${scriptId}`,
            after: { name: input.name, version: 1, hosts: input.hosts, ...codeFacts(input.code) },
          },
          now,
        );
        return scriptId;
      }),
    );
    return this.row(id);
  }

  async saveVersion(
    input: { id: number; name: string; code: string; hosts: string[]; activate: boolean },
    actor: Actor,
  ): Promise<PayScriptRow> {
    await this.mustCompile(input.code);
    const now = this.deps.clock.now();
    await this.named(() =>
      this.db.transaction(async (tx) => {
        // The script's row is the lock: two saves at once get consecutive versions.
        const [script] = await tx.select().from(payScripts).where(eq(payScripts.id, input.id)).for('update');
        if (!script) throw notFound('no such pay script');
        const [latest] = await tx
          .select({ v: max(payScriptVersions.version) })
          .from(payScriptVersions)
          .where(eq(payScriptVersions.scriptId, input.id));
        const version = (latest?.v ?? 0) + 1;
        await tx.insert(payScriptVersions).values({
          scriptId: input.id,
          version,
          code: input.code,
          hosts: input.hosts,
          createdAt: now,
          createdBy: actor.userId,
        });
        await tx
          .update(payScripts)
          .set({
            name: input.name,
            activeVersion: input.activate ? version : script.activeVersion,
            updatedAt: now,
            updatedBy: actor.userId,
          })
          .where(eq(payScripts.id, input.id));
        await writeAudit(
          tx,
          actor,
          {
            action: 'payScripts.saveVersion',
            target: `payScript:${input.id}`,
            before: { name: script.name, activeVersion: script.activeVersion },
            after: {
              name: input.name,
              version,
              activeVersion: input.activate ? version : script.activeVersion,
              hosts: input.hosts,
              ...codeFacts(input.code),
            },
          },
          now,
        );
      }),
    );
    return this.row(input.id);
  }

  async activate(input: { id: number; version: number }, actor: Actor): Promise<PayScriptRow> {
    const now = this.deps.clock.now();
    await this.db.transaction(async (tx) => {
      const [script] = await tx.select().from(payScripts).where(eq(payScripts.id, input.id)).for('update');
      if (!script) throw notFound('no such pay script');
      const [version] = await tx
        .select({ id: payScriptVersions.id })
        .from(payScriptVersions)
        .where(and(eq(payScriptVersions.scriptId, input.id), eq(payScriptVersions.version, input.version)));
      if (!version) throw notFound(`the script has no version ${input.version}`);
      await tx
        .update(payScripts)
        .set({ activeVersion: input.version, updatedAt: now, updatedBy: actor.userId })
        .where(eq(payScripts.id, input.id));
      await writeAudit(
        tx,
        actor,
        {
          action: 'payScripts.activate',
          target: `payScript:${input.id}`,
          before: { activeVersion: script.activeVersion },
          after: { activeVersion: input.version },
        },
        now,
      );
    });
    return this.row(input.id);
  }

  /** The collection products whose payer page runs the script: exactly `productIds` from now on. */
  async setProducts(input: { id: number; productIds: number[] }, actor: Actor): Promise<PayScriptRow> {
    for (const productId of input.productIds) {
      const product = productById(productId);
      if (!product) throw notFound(`no product ${productId}`);
      if (product.direction !== 'collection') {
        throw refused(`product ${productId} is a payout product: it has no payer page`, 'payScriptNotCollection');
      }
    }
    const now = this.deps.clock.now();
    await this.db.transaction(async (tx) => {
      const [script] = await tx.select().from(payScripts).where(eq(payScripts.id, input.id)).for('update');
      if (!script) throw notFound('no such pay script');
      const before = (
        await tx.select({ id: products.id }).from(products).where(eq(products.payScriptId, input.id))
      ).map((p) => p.id);
      await tx
        .update(products)
        .set({ payScriptId: null, updatedAt: now, updatedBy: actor.userId })
        .where(
          and(
            eq(products.payScriptId, input.id),
            input.productIds.length > 0 ? notInArray(products.id, input.productIds) : undefined,
          ),
        );
      if (input.productIds.length > 0) {
        await tx
          .update(products)
          .set({ payScriptId: input.id, updatedAt: now, updatedBy: actor.userId })
          .where(inArray(products.id, input.productIds));
      }
      await writeAudit(
        tx,
        actor,
        {
          action: 'payScripts.setProducts',
          target: `payScript:${input.id}`,
          before: { productIds: before.sort((a, b) => a - b) },
          after: { productIds: [...input.productIds].sort((a, b) => a - b) },
        },
        now,
      );
    });
    return this.row(input.id);
  }

  // ---- runs ----

  /** A test run from the console: the version asked for (the active one by default), recorded. */
  async testRun(input: TestRunInput, actor: Actor): Promise<PayScriptRun> {
    const version = await this.version(input.id, input.version);
    return this.runRecorded({
      scriptId: input.id,
      version,
      kind: input.kind,
      source: 'test',
      arg: input.input,
      orderCode: input.kind === 'render' ? input.input.orderCode : null,
      createdBy: actor.userId,
    });
  }

  /**
   * The payer page's part: what the active version of the order's product's script renders for the
   * order while it awaits payment, else null. One render per order and version: a later read answers
   * the recorded one (a failed one is tried again after a minute); the payer sees the receiving
   * account as always, with the script's view above it.
   */
  async payerView(orderCode: string): Promise<{ view: PayScriptView | null }> {
    const order = await this.deps.orderQueries.payerView(orderCode);
    if (order.state !== ORDER_STATE.allocated) return { view: null };
    const [product] = await this.db
      .select({ scriptId: products.payScriptId, activeVersion: payScripts.activeVersion })
      .from(products)
      .innerJoin(payScripts, eq(payScripts.id, products.payScriptId))
      .where(eq(products.id, order.productId));
    if (!product?.scriptId) return { view: null };
    const [previous] = await this.db
      .select({ ok: payScriptCalls.ok, output: payScriptCalls.output, createdAt: payScriptCalls.createdAt })
      .from(payScriptCalls)
      .where(
        and(
          eq(payScriptCalls.orderCode, order.orderCode),
          eq(payScriptCalls.source, 'payerPage'),
          eq(payScriptCalls.kind, 'render'),
          eq(payScriptCalls.scriptId, product.scriptId),
          eq(payScriptCalls.version, product.activeVersion),
        ),
      )
      .orderBy(desc(payScriptCalls.id))
      .limit(1);
    if (previous?.ok) return { view: previous.output as PayScriptView };
    if (previous && this.deps.clock.now().getTime() - previous.createdAt.getTime() < FAILED_RENDER_RETRY_MS) {
      return { view: null };
    }
    const arg: PayScriptOrder = {
      orderCode: order.orderCode,
      amount: order.amount,
      currency: order.currency,
      product: { id: order.productId, name: productById(order.productId)?.name ?? '' },
      merchantName: order.merchantName,
      subject: order.subject,
      expiresAt: order.expiresAt,
      payee: order.payee,
    };
    const run = await this.runRecorded({
      scriptId: product.scriptId,
      version: product.activeVersion,
      kind: 'render',
      source: 'payerPage',
      arg,
      orderCode: order.orderCode,
      createdBy: null,
    });
    return { view: run.ok ? (run.output as PayScriptView) : null };
  }

  /**
   * A pay gateway's notification (paygateways/pay-notify.ts): the active version of the script's
   * parseNotification on it, recorded with source `notify` and, when it read one, the order code.
   */
  async parseNotification(scriptId: number, notification: PayScriptNotification): Promise<PayScriptRun> {
    const version = await this.version(scriptId, undefined);
    return this.runRecorded({
      scriptId,
      version,
      kind: 'parse',
      source: 'notify',
      arg: notification,
      orderCode: null,
      createdBy: null,
    });
  }

  /** Runs a version on `arg`, checks what it returned against the interface, and records the call. */
  private async runRecorded(run: {
    scriptId: number;
    version: number;
    kind: PayScriptKind;
    source: PayScriptSource;
    arg: unknown;
    orderCode: string | null;
    createdBy: number | null;
  }): Promise<PayScriptRun> {
    const [version] = await this.db
      .select()
      .from(payScriptVersions)
      .where(and(eq(payScriptVersions.scriptId, run.scriptId), eq(payScriptVersions.version, run.version)));
    if (!version) throw notFound(`the script has no version ${run.version}`);
    const outcome = await this.deps.sandbox.run({
      code: version.code,
      fn: PAY_SCRIPT_FUNCTIONS[run.kind],
      arg: run.arg,
      hosts: version.hosts,
    });
    let ok = outcome.ok;
    let output: unknown = outcome.value;
    let error = outcome.error;
    if (outcome.ok) {
      const checked = (run.kind === 'render' ? payScriptViewSchema : payScriptParsedSchema).safeParse(outcome.value);
      if (checked.success) output = checked.data;
      else {
        ok = false;
        error = resultProblem(run.kind, checked.error.issues);
      }
    }
    const [record] = await this.db
      .insert(payScriptCalls)
      .values({
        scriptId: run.scriptId,
        version: run.version,
        kind: run.kind,
        source: run.source,
        // A notification's order is what the script read from it.
        orderCode:
          run.orderCode ??
          (run.source === 'notify' && ok ? ((output as { orderCode?: string }).orderCode ?? null) : null),
        ok,
        input: run.arg as object,
        output: output === null || output === undefined ? null : (output as object),
        error,
        durationMs: outcome.durationMs,
        fetches: outcome.fetches,
        logs: outcome.logs,
        createdAt: this.deps.clock.now(),
        createdBy: run.createdBy,
      })
      .returning({ id: payScriptCalls.id });
    return {
      recordId: record!.id,
      version: run.version,
      ok,
      output: output ?? null,
      error,
      durationMs: outcome.durationMs,
      fetches: outcome.fetches,
      logs: outcome.logs,
    };
  }

  // ---- call records ----

  private recordWhere(f: PayScriptRecordFilters): SQL | undefined {
    const time = (text: string) => parsePlatformTime(text, this.deps.timeZone);
    return and(
      f.scriptId ? eq(payScriptCalls.scriptId, f.scriptId) : undefined,
      f.kind ? eq(payScriptCalls.kind, f.kind) : undefined,
      f.source ? eq(payScriptCalls.source, f.source) : undefined,
      f.outcome ? eq(payScriptCalls.ok, f.outcome === 'ok') : undefined,
      f.orderCode ? ilike(payScriptCalls.orderCode, `%${escapeLike(f.orderCode)}%`) : undefined,
      f.startTime ? gte(payScriptCalls.createdAt, time(f.startTime)) : undefined,
      f.endTime ? lte(payScriptCalls.createdAt, time(f.endTime)) : undefined,
    );
  }

  private selectRecords(db: DbOrTx) {
    return db
      .select({ call: payScriptCalls, scriptName: payScripts.name, createdBy: users.account })
      .from(payScriptCalls)
      .innerJoin(payScripts, eq(payScripts.id, payScriptCalls.scriptId))
      .leftJoin(users, eq(users.id, payScriptCalls.createdBy));
  }

  async records(input: PayScriptRecordFilters & { pageIndex: number; pageSize: number }) {
    const where = this.recordWhere(input);
    const [rows, [totals]] = await Promise.all([
      this.selectRecords(this.db)
        .where(where)
        .orderBy(desc(payScriptCalls.id))
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.db.select({ n: count() }).from(payScriptCalls).where(where),
    ]);
    return {
      list: rows.map(toRecord),
      total: totals?.n ?? 0,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    };
  }

  /** The filtered set for the CSV export, newest first, read in batches. */
  async *exportRecords(input: PayScriptRecordFilters): AsyncGenerator<PayScriptRecord> {
    const where = this.recordWhere(input);
    yield* keysetRowsAfter<PayScriptRecord>(async (last, limit) =>
      (
        await this.selectRecords(this.db)
          .where(and(where, last ? lt(payScriptCalls.id, last.id) : undefined))
          .orderBy(desc(payScriptCalls.id))
          .limit(limit)
      ).map(toRecord),
    );
  }

  // ---- helpers ----

  /** The version to run: the one asked for, else the active one. */
  private async version(scriptId: number, asked: number | undefined): Promise<number> {
    const [script] = await this.db.select().from(payScripts).where(eq(payScripts.id, scriptId));
    if (!script) throw notFound('no such pay script');
    return asked ?? script.activeVersion;
  }

  private async mustCompile(code: string) {
    const error = await this.deps.sandbox.compileError(code);
    if (error) throw invalid([{ path: 'code', message: error }], 'payScriptSyntax');
  }

  /** A name another script has (any case) is a 409 that says so. */
  private async named<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (error instanceof AppError || !isUniqueViolation(error)) throw error;
      throw conflict('a pay script with this name exists', 'payScriptNameTaken');
    }
  }

  private async row(id: number): Promise<PayScriptRow> {
    const [row] = await this.rows([id]);
    if (!row) throw notFound('no such pay script');
    return row;
  }

  /** The rows of these scripts, in the order given. */
  private async rows(ids: number[]): Promise<PayScriptRow[]> {
    if (ids.length === 0) return [];
    const [scripts, versions, used] = await Promise.all([
      this.db
        .select({ s: payScripts, updatedBy: users.account })
        .from(payScripts)
        .leftJoin(users, eq(users.id, payScripts.updatedBy))
        .where(inArray(payScripts.id, ids)),
      this.db
        .select({
          scriptId: payScriptVersions.scriptId,
          version: payScriptVersions.version,
          hosts: payScriptVersions.hosts,
        })
        .from(payScriptVersions)
        .where(inArray(payScriptVersions.scriptId, ids)),
      this.db
        .select({ id: products.id, scriptId: products.payScriptId })
        .from(products)
        .where(and(inArray(products.payScriptId, ids), isNotNull(products.payScriptId)))
        .orderBy(asc(products.id)),
    ]);
    const byId = new Map(scripts.map((r) => [r.s.id, r]));
    return ids.flatMap((id) => {
      const r = byId.get(id);
      if (!r) return [];
      const own = versions.filter((v) => v.scriptId === id);
      return [
        {
          id,
          name: r.s.name,
          activeVersion: r.s.activeVersion,
          latestVersion: Math.max(...own.map((v) => v.version)),
          hosts: own.find((v) => v.version === r.s.activeVersion)?.hosts ?? [],
          productIds: used.filter((p) => p.scriptId === id).map((p) => p.id),
          updatedAt: r.s.updatedAt.toISOString(),
          updatedBy: r.updatedBy,
        },
      ];
    });
  }
}

function scriptWhere(input: { name?: string | null | undefined }) {
  return input.name ? ilike(payScripts.name, `%${escapeLike(input.name)}%`) : undefined;
}

/** What the audit keeps of a version's code: its size and digest (the code itself is in its version row). */
function codeFacts(code: string) {
  return { size: code.length, sha256: sha256(code) };
}

function toRecord(r: {
  call: typeof payScriptCalls.$inferSelect;
  scriptName: string;
  createdBy: string | null;
}): PayScriptRecord {
  const c = r.call;
  return {
    id: c.id,
    scriptId: c.scriptId,
    scriptName: r.scriptName,
    version: c.version,
    kind: c.kind as PayScriptKind,
    source: c.source as PayScriptSource,
    orderCode: c.orderCode,
    ok: c.ok,
    input: c.input,
    output: c.output ?? null,
    error: c.error,
    durationMs: c.durationMs,
    fetches: c.fetches as PayScriptFetch[],
    logs: c.logs,
    createdBy: r.createdBy,
    createdAt: c.createdAt.toISOString(),
  };
}
