import type { PayGatewayKind, PayGatewayRow } from '@paydesk/contract';
import { and, desc, eq, ilike, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { payGateways, payScripts, resources, users } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { openSecret, sealSecret } from '../../platform/crypto.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { conflict, notFound, refused } from '../../platform/errors.js';
import { escapeLike } from '../../platform/like.js';

type Filters = {
  name?: string | null | undefined;
  kind?: PayGatewayKind | null | undefined;
  enabled?: boolean | null | undefined;
};

/** What a create or an update gives (the contract's input, blanks already absent). */
interface GatewayFields {
  name: string;
  baseUrl?: string | undefined;
  keyId?: string | undefined;
  keySecret?: string | undefined;
  webhookSecret?: string | undefined;
  remark: string;
  payScriptId?: number | null | undefined;
}

type GatewayRecord = typeof payGateways.$inferSelect;

/** A gateway as its adapters use it: the secrets opened (null when not set). Never answered. */
export interface OpenedPayGateway {
  id: number;
  name: string;
  kind: PayGatewayKind;
  enabled: boolean;
  baseUrl: string;
  keyId: string;
  keySecret: string | null;
  webhookSecret: string | null;
  /** collectionNotify: the pay script that reads its notifications (null: none). */
  payScriptId: number | null;
}

/**
 * How many payout accounts (not deleted) name a gateway: `details.gatewayId` is the gateway's id as
 * text (details hold text only).
 */
const accountsOf = (gatewayId: SQL | number) =>
  sql<number>`(select count(*)::int from ${resources} where ${resources.deletedAt} is null and ${resources.kind} = 'gatewayPayout' and ${resources.details}->>'gatewayId' = (${gatewayId})::text)`;

/**
 * Pay gateway config (issue 21 item 6; docs/architecture.md "Pay gateway config"): the upstream
 * gateways' address and credentials. The key secret and the webhook secret are sealed apart under the
 * server key; lists, exports and audit rows say only whether each is set, and a blank one on update
 * keeps the sealed one. The adapters open a gateway at each call (`open`), so a rotated secret or a
 * switched-off gateway applies at once.
 */
export class PayGateways {
  constructor(private readonly deps: { db: Db; clock: Clock; secretKey: Buffer }) {}

  async list(input: Filters & { pageIndex: number; pageSize: number }) {
    const where = this.where(input);
    const [rows, total] = await Promise.all([
      this.select(this.deps.db, where)
        .limit(input.pageSize)
        .offset((input.pageIndex - 1) * input.pageSize),
      this.deps.db.$count(payGateways, where),
    ]);
    return { list: rows.map(toRow), total, pageIndex: input.pageIndex, pageSize: input.pageSize };
  }

  async *export(input: Filters) {
    for (const row of await this.select(this.deps.db, this.where(input))) yield toRow(row);
  }

  async create(input: GatewayFields & { kind: PayGatewayKind }, actor: Actor): Promise<PayGatewayRow> {
    const now = this.deps.clock.now();
    const key = this.deps.secretKey;
    return this.unique(() =>
      this.deps.db.transaction(async (tx) => {
        const payScriptId = await this.scriptOf(tx, input.kind, input.payScriptId);
        const [created] = await tx
          .insert(payGateways)
          .values({
            name: input.name,
            kind: input.kind,
            baseUrl: input.baseUrl ?? '',
            keyId: input.keyId ?? '',
            keySecretSealed: input.keySecret === undefined ? null : sealSecret(input.keySecret, key),
            webhookSecretSealed: input.webhookSecret === undefined ? null : sealSecret(input.webhookSecret, key),
            remark: input.remark,
            payScriptId,
            enabled: true,
            createdAt: now,
            updatedAt: now,
            updatedBy: actor.userId,
          })
          .returning();
        await writeAudit(
          tx,
          actor,
          { action: 'payGateways.create', target: `payGateway:${created!.id}`, after: auditView(created!) },
          now,
        );
        return this.rowById(tx, created!.id);
      }),
    );
  }

  async update(input: GatewayFields & { id: number }, actor: Actor): Promise<PayGatewayRow> {
    const now = this.deps.clock.now();
    const key = this.deps.secretKey;
    return this.unique(() =>
      this.deps.db.transaction(async (tx) => {
        const before = await this.lock(tx, input.id);
        const baseUrl = input.baseUrl ?? '';
        const keyId = input.keyId ?? '';
        if (before.kind === 'payoutApi' && (!baseUrl || !keyId)) {
          throw refused('a payout API gateway needs its base URL and key id', 'payGatewayIncomplete');
        }
        const payScriptId = await this.scriptOf(tx, before.kind as PayGatewayKind, input.payScriptId);
        const [after] = await tx
          .update(payGateways)
          .set({
            name: input.name,
            baseUrl,
            keyId,
            // A blank secret keeps the sealed one.
            ...(input.keySecret === undefined ? {} : { keySecretSealed: sealSecret(input.keySecret, key) }),
            ...(input.webhookSecret === undefined ? {} : { webhookSecretSealed: sealSecret(input.webhookSecret, key) }),
            remark: input.remark,
            payScriptId,
            updatedAt: now,
            updatedBy: actor.userId,
          })
          .where(eq(payGateways.id, before.id))
          .returning();
        await writeAudit(
          tx,
          actor,
          {
            action: 'payGateways.update',
            target: `payGateway:${before.id}`,
            before: auditView(before),
            after: {
              ...auditView(after!),
              keyReplaced: input.keySecret !== undefined,
              webhookKeyReplaced: input.webhookSecret !== undefined,
            },
          },
          now,
        );
        return this.rowById(tx, before.id);
      }),
    );
  }

  async setEnabled(id: number, enabled: boolean, actor: Actor): Promise<PayGatewayRow> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      const before = await this.lock(tx, id);
      if (before.enabled !== enabled) {
        await tx
          .update(payGateways)
          .set({ enabled, updatedAt: now, updatedBy: actor.userId })
          .where(eq(payGateways.id, id));
        await writeAudit(
          tx,
          actor,
          {
            action: 'payGateways.setEnabled',
            target: `payGateway:${id}`,
            before: { enabled: before.enabled },
            after: { enabled },
          },
          now,
        );
      }
      return this.rowById(tx, id);
    });
  }

  /** Deletes a gateway no payout account names (an account names it under a share lock of its row). */
  async delete(id: number, actor: Actor): Promise<void> {
    const now = this.deps.clock.now();
    await this.deps.db.transaction(async (tx) => {
      const before = await this.lock(tx, id);
      const [{ used } = { used: 0 }] = await tx.select({ used: accountsOf(id) }).from(sql`(select 1) as one`);
      if (used > 0) throw refused('payout accounts still use this pay gateway', 'payGatewayInUse');
      await tx.delete(payGateways).where(eq(payGateways.id, id));
      await writeAudit(
        tx,
        actor,
        { action: 'payGateways.delete', target: `payGateway:${id}`, before: auditView(before) },
        now,
      );
    });
  }

  /**
   * A gateway with its secrets opened, for an adapter's call (null when there is none). With `share`,
   * the row is locked against a delete until the caller's transaction ends (an account naming it).
   */
  async open(db: DbOrTx, id: number, opts: { share?: boolean } = {}): Promise<OpenedPayGateway | null> {
    const query = db.select().from(payGateways).where(eq(payGateways.id, id));
    const [row] = opts.share ? await query.for('share') : await query;
    if (!row) return null;
    const key = this.deps.secretKey;
    return {
      id: row.id,
      name: row.name,
      kind: row.kind as PayGatewayKind,
      enabled: row.enabled,
      baseUrl: row.baseUrl,
      keyId: row.keyId,
      keySecret: row.keySecretSealed === null ? null : openSecret(row.keySecretSealed, key),
      webhookSecret: row.webhookSecretSealed === null ? null : openSecret(row.webhookSecretSealed, key),
      payScriptId: row.payScriptId,
    };
  }

  /**
   * The pay script a gateway of `kind` may name: none for a payout API gateway (422), an existing one
   * (422 when not; read under a share lock so the script's row stays while the gateway names it).
   */
  private async scriptOf(tx: DbOrTx, kind: PayGatewayKind, payScriptId: number | null | undefined) {
    if (payScriptId === null || payScriptId === undefined) return null;
    if (kind !== 'collectionNotify') {
      throw refused('only a collection notification gateway names a pay script', 'payGatewayScriptNotNotify');
    }
    const [script] = await tx
      .select({ id: payScripts.id })
      .from(payScripts)
      .where(eq(payScripts.id, payScriptId))
      .for('share');
    if (!script) throw refused('the chosen pay script does not exist', 'payGatewayScriptUnknown');
    return script.id;
  }

  private async unique<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('a pay gateway of this name exists already', 'payGatewayNameTaken');
      throw error;
    }
  }

  private async lock(db: DbOrTx, id: number): Promise<GatewayRecord> {
    const [row] = await db.select().from(payGateways).where(eq(payGateways.id, id)).for('update');
    if (!row) throw notFound('no such pay gateway');
    return row;
  }

  private async rowById(db: DbOrTx, id: number): Promise<PayGatewayRow> {
    const [row] = await this.select(db, eq(payGateways.id, id));
    if (!row) throw notFound('no such pay gateway');
    return toRow(row);
  }

  private where(input: Filters): SQL | undefined {
    return and(
      input.name ? ilike(payGateways.name, `%${escapeLike(input.name)}%`) : undefined,
      input.kind ? eq(payGateways.kind, input.kind) : undefined,
      typeof input.enabled === 'boolean' ? eq(payGateways.enabled, input.enabled) : undefined,
    );
  }

  private select(db: DbOrTx, where: SQL | undefined) {
    return db
      .select({
        row: payGateways,
        updatedBy: users.account,
        payScriptName: payScripts.name,
        accounts: accountsOf(sql`${payGateways.id}`),
      })
      .from(payGateways)
      .leftJoin(users, eq(users.id, payGateways.updatedBy))
      .leftJoin(payScripts, eq(payScripts.id, payGateways.payScriptId))
      .where(where)
      .orderBy(desc(payGateways.id));
  }
}

/** What an audit row shows of a gateway: never a secret, only whether each is sealed. */
function auditView(x: GatewayRecord) {
  return {
    name: x.name,
    kind: x.kind,
    baseUrl: x.baseUrl,
    keyId: x.keyId,
    remark: x.remark,
    enabled: x.enabled,
    payScriptId: x.payScriptId,
    // Named so the audit's secret-looking-key redaction keeps the fact (never the value).
    keySealed: x.keySecretSealed !== null,
    webhookKeySealed: x.webhookSecretSealed !== null,
  };
}

function toRow(r: {
  row: GatewayRecord;
  updatedBy: string | null;
  payScriptName: string | null;
  accounts: number;
}): PayGatewayRow {
  return {
    id: r.row.id,
    name: r.row.name,
    kind: r.row.kind as PayGatewayKind,
    baseUrl: r.row.baseUrl,
    keyId: r.row.keyId,
    hasKeySecret: r.row.keySecretSealed !== null,
    hasWebhookSecret: r.row.webhookSecretSealed !== null,
    remark: r.row.remark,
    enabled: r.row.enabled,
    payScriptId: r.row.payScriptId,
    payScriptName: r.payScriptName,
    accounts: Number(r.accounts),
    createdAt: r.row.createdAt.toISOString(),
    updatedAt: r.row.updatedAt.toISOString(),
    updatedBy: r.updatedBy,
  };
}
