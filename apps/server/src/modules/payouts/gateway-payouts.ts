import { GATEWAY_PAYOUT_PRODUCTS, note, PAYOUT_STATE } from '@paydesk/contract';
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.js';
import { partyProducts, payGateways, payouts, resources, suppliers } from '../../db/schema.js';
import { type Actor, SYSTEM_ACTOR, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { checkedAgent, urlRefusal } from '../callbacks/delivery.js';
import type { PayGateways } from '../paygateways/pay-gateways.js';
import {
  type CreatePayoutAnswer,
  createGatewayPayout,
  DEFAULT_GATEWAY_TIMEOUT_MS,
  type FetchPayoutAnswer,
  fetchGatewayPayout,
  type GatewayCallOptions,
} from './gateway/client.js';
import type { GatewayCredentials } from './gateway/credentials.js';
import { openGatewaySecrets } from './gateway/secrets.js';
import type { GatewayStatus } from './gateway/status.js';
import { GatewayWebhookError, parseWebhook, verifyWebhook } from './gateway/webhook.js';
import { lockPayout, movePayout, type PayoutRecord, recordPayoutEvent } from './payout-core.js';
import type { PayoutsService } from './payouts.service.js';

/**
 * Gateway payouts (issue 20 item 5; docs/architecture.md "Gateway payouts"): a payout of a gateway
 * product (GATEWAY_PAYOUT_PRODUCTS: 2002 India auto payout, 2003 gateway payout) is paid by the server
 * through a gateway account of its product, never claimed by hand.
 *
 * - Assignment: an awaiting one (not reserved by a batch) goes to the least recently used enabled
 *   gateway account of its product whose supplier is enabled and has the product enabled (awaiting ->
 *   preparing, its commission fixed as a claim fixes it), due to be sent at once. No deposit or
 *   in-progress limit applies: the gateway, not the supplier's hand, pays, and says so itself.
 * - Send (preparing): createGatewayPayout with the payout's code as the idempotency key. Accepted ->
 *   in progress with the gateway's id, then its status applied; refused -> processing exception with
 *   the gateway's reason; unanswered -> sent again later with the same key (RETRY_MS), and after
 *   `maxUnanswered` sends without an answer -> processing exception (the gateway may still hold it:
 *   staff ask the gateway before rejecting).
 * - Status (a poll of an in-progress one every `pollMs`, or a signed webhook at any time): processed
 *   with its UTR -> completed as confirm completes (PayoutsService.settleBySystem: the ledger's paid
 *   transfer, the timeline, the merchant's callback); failed, reversed, rejected or cancelled ->
 *   processing exception with the gateway's reason (staff resolve it as today: rejected gives the
 *   merchant its funds back, in progress asks the gateway again); still under way -> polled later.
 *
 * Every transition is a compare-and-set under the payout's lock with its timeline row and its audit
 * row (by `system`), so a webhook and a poll racing move the payout once; once its transaction
 * committed it is published to the live lists as every other move (`PayoutsService.committed`). The work is found by its
 * columns (`gateway_due_at`), claimed a lease ahead with FOR UPDATE SKIP LOCKED, as the callback
 * dispatcher claims its outbox: any number of processes share it, and a process that dies mid-send
 * leaves its claims to lapse, sent again with the same key (the gateway answers with the payout it has).
 */

const S = PAYOUT_STATE;

export interface GatewayPayoutsDeps {
  db: Db;
  clock: Clock;
  payouts: PayoutsService;
  /** Opens the accounts' sealed secrets (platform/crypto.ts). */
  secretKey: Buffer;
  /**
   * The pay gateway config: an account naming a gateway (`details.gatewayId`) uses that gateway's
   * base URL, key and webhook secret, read at each call (a rotated secret applies at once).
   */
  payGateways?: PayGateways | undefined;
  /** Whether a gateway's base URL may be on loopback or a private network (GATEWAY_PRIVATE_NETWORKS). */
  privateNetworks: boolean;
  /** One exchange with a gateway (10 s). */
  timeoutMs?: number | undefined;
  /** How long after a send, or a status still under way, a payout is asked about again (60 s). */
  pollMs?: number | undefined;
  /** Delays of the sends after unanswered ones, the last repeating (5 s, 15 s, 1 min, 5 min). */
  retryMs?: readonly number[] | undefined;
  /** Sends without an answer before a payout becomes a processing exception (12). */
  maxUnanswered?: number | undefined;
}

export const DEFAULT_GATEWAY_POLL_MS = 60_000;
export const DEFAULT_GATEWAY_RETRY_MS: readonly number[] = [5_000, 15_000, 60_000, 300_000];
export const DEFAULT_GATEWAY_MAX_UNANSWERED = 12;

/** A payout claimed for a send or a poll, with what reaching its gateway takes. */
export interface DueGatewayPayout {
  payout: PayoutRecord;
  /** Null when the account lacks something (its secrets, a field): the payout cannot be sent. */
  creds: GatewayCredentials | null;
  /** Why the credentials are missing, for the payout's exception. */
  credsProblem: string | null;
}

/** What a webhook did, for its route's answer. */
export type WebhookOutcome =
  | { kind: 'unauthorised' }
  | { kind: 'malformed'; reason: string }
  | { kind: 'done'; state: number | null };

const gatewayActor: Actor = SYSTEM_ACTOR;

/**
 * The payouts a transaction moved, by id: the state each had before it and the record it ended with.
 * Published once the transaction committed (`PayoutsService.committed`), as every other move is.
 */
type Moves = Map<number, { payout: PayoutRecord; previousState: number }>;

function noteMove(moves: Moves, before: PayoutRecord, after: PayoutRecord): void {
  moves.set(before.id, { payout: after, previousState: moves.get(before.id)?.previousState ?? before.state });
}

export class GatewayPayouts {
  readonly timeoutMs: number;
  readonly pollMs: number;
  readonly leaseMs: number;
  private readonly retryMs: readonly number[];
  private readonly maxUnanswered: number;

  constructor(private readonly deps: GatewayPayoutsDeps) {
    this.timeoutMs = deps.timeoutMs ?? DEFAULT_GATEWAY_TIMEOUT_MS;
    this.pollMs = deps.pollMs ?? DEFAULT_GATEWAY_POLL_MS;
    this.retryMs = deps.retryMs?.length ? deps.retryMs : DEFAULT_GATEWAY_RETRY_MS;
    this.maxUnanswered = deps.maxUnanswered ?? DEFAULT_GATEWAY_MAX_UNANSWERED;
    // Longer than an exchange and its record take: a claim lapses only when its process is gone.
    this.leaseMs = this.timeoutMs + 30_000;
  }

  private get db() {
    return this.deps.db;
  }
  private now() {
    return this.deps.clock.now();
  }
  private later(ms: number) {
    return new Date(this.now().getTime() + ms);
  }

  /** A transaction whose payout moves are published after it committed (live lists, the callback poke). */
  private async moving<T>(run: (tx: Tx, moves: Moves) => Promise<T>): Promise<T> {
    const moves: Moves = new Map();
    const result = await this.db.transaction((tx) => run(tx, moves));
    if (moves.size > 0) this.deps.payouts.committed([...moves.values()]);
    return result;
  }

  /**
   * Assigns up to `limit` awaiting gateway payouts, oldest first, each to its product's least recently
   * used gateway account (see the module's comment); a payout of a product without one waits. Answers
   * how many were assigned.
   */
  async assignDue(limit: number): Promise<number> {
    return this.moving(async (tx, moves) => {
      const waiting = await tx
        .select()
        .from(payouts)
        .where(
          and(
            eq(payouts.state, S.awaiting),
            inArray(payouts.productId, [...GATEWAY_PAYOUT_PRODUCTS]),
            isNull(payouts.batchId),
          ),
        )
        .orderBy(asc(payouts.id))
        .limit(limit)
        .for('update', { skipLocked: true });
      let assigned = 0;
      for (const payout of waiting) {
        const [account] = await tx
          .select({
            id: resources.id,
            supplierId: suppliers.id,
            supplierUserId: suppliers.userId,
            commissionRate: partyProducts.commissionRate,
          })
          .from(resources)
          .innerJoin(suppliers, eq(suppliers.id, resources.supplierId))
          .innerJoin(
            partyProducts,
            and(eq(partyProducts.userId, suppliers.userId), eq(partyProducts.productId, resources.productId)),
          )
          .where(
            and(
              eq(resources.productId, payout.productId),
              eq(resources.kind, 'gatewayPayout'),
              eq(resources.state, 0),
              isNull(resources.deletedAt),
              eq(suppliers.enabled, true),
              eq(partyProducts.enabled, true),
              // An account naming a pay gateway waits while that gateway is switched off.
              sql`(${resources.details}->>'gatewayId' is null or exists (select 1 from ${payGateways} where ${payGateways.id}::text = ${resources.details}->>'gatewayId' and ${payGateways.enabled}))`,
            ),
          )
          .orderBy(sql`${resources.lastAllocatedAt} asc nulls first`, asc(resources.id))
          .limit(1)
          .for('update', { of: resources, skipLocked: true });
        if (!account) continue;
        const now = this.now();
        await tx.update(resources).set({ lastAllocatedAt: now }).where(eq(resources.id, account.id));
        const moved = await movePayout(tx, payout, {
          to: S.preparing,
          kind: 'claimed',
          actor: gatewayActor,
          note: note('payoutClaimed', { resourceId: account.id }),
          set: {
            supplierId: account.supplierId,
            supplierUserId: account.supplierUserId,
            resourceId: account.id,
            commission: Number((BigInt(payout.amount) * BigInt(account.commissionRate)) / 10_000n),
            claimNo: payout.claimNo + 1,
            claimedAt: now,
            gatewayAttempts: 0,
            gatewayDueAt: now,
          },
          now,
        });
        if (!moved) continue;
        noteMove(moves, payout, moved);
        await this.audit(tx, 'payouts.claim', payout, { state: moved.state, resourceId: account.id }, now);
        assigned += 1;
      }
      return assigned;
    });
  }

  /**
   * Claims up to `limit` gateway payouts due for a send (preparing) or a poll (in progress): their due
   * time moves a lease ahead, so no other dispatcher takes them meanwhile.
   */
  async claimDue(limit: number): Promise<DueGatewayPayout[]> {
    const now = this.now();
    const claimed = await this.db.transaction(async (tx) => {
      const due = await tx
        .select({ payout: payouts, resource: resources })
        .from(payouts)
        .innerJoin(resources, eq(resources.id, payouts.resourceId))
        .where(
          and(
            lte(payouts.gatewayDueAt, now),
            or(
              eq(payouts.state, S.preparing),
              and(eq(payouts.state, S.inProgress), sql`${payouts.gatewayId} is not null`),
            ),
          ),
        )
        .orderBy(asc(payouts.gatewayDueAt))
        .limit(limit)
        .for('update', { of: payouts, skipLocked: true });
      if (due.length === 0) return [];
      await tx
        .update(payouts)
        .set({ gatewayDueAt: this.later(this.leaseMs) })
        .where(
          inArray(
            payouts.id,
            due.map((d) => d.payout.id),
          ),
        );
      return due;
    });
    return Promise.all(
      claimed.map(async ({ payout, resource }) => ({ payout, ...(await this.credentialsOf(resource)) })),
    );
  }

  /** Sends or polls one claimed payout and records what came of it. `signal` cuts the exchange short. */
  async process(due: DueGatewayPayout, signal?: AbortSignal): Promise<void> {
    const { payout, creds } = due;
    if (!creds) {
      await this.recordRefusal(payout.id, `the gateway account cannot be used: ${due.credsProblem}`);
      return;
    }
    const refusal = urlRefusal(creds.baseUrl, this.deps.privateNetworks);
    const opts: GatewayCallOptions = {
      timeoutMs: this.timeoutMs,
      signal,
      dispatcher: checkedAgent(this.deps.privateNetworks),
    };
    if (payout.state === S.preparing) {
      if (refusal) {
        await this.recordRefusal(payout.id, `the gateway URL may not be called: ${refusal}`);
        return;
      }
      const answer = await createGatewayPayout(creds, this.inputOf(payout), opts);
      if (signal?.aborted) return this.giveBack(payout.id);
      await this.recordSend(payout.id, answer);
      return;
    }
    const answer: FetchPayoutAnswer = refusal
      ? { kind: 'unknown', reason: `the gateway URL may not be called: ${refusal}` }
      : await fetchGatewayPayout(creds, payout.gatewayId ?? '', opts);
    if (signal?.aborted) return this.giveBack(payout.id);
    await this.recordPoll(payout.id, answer);
  }

  /** One round: assign, then send and poll what is due, `limit` at most. Answers how much it did. */
  async runOnce(limit = 50, signal?: AbortSignal): Promise<number> {
    const assigned = await this.assignDue(limit);
    const due = await this.claimDue(limit);
    await Promise.all(due.map((d) => this.process(d, signal)));
    return assigned + due.length;
  }

  /**
   * A gateway's webhook for account `resourceId`: the signature is checked over the raw body with the
   * account's webhook secret before anything is parsed (a wrong or missing one: unauthorised, nothing
   * moves); then the payout it names on that account (by the gateway's id, or by our code as its
   * reference while the send's answer is not recorded yet) takes the reported status.
   */
  async handleWebhook(resourceId: number, rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
    const [account] = await this.db
      .select()
      .from(resources)
      .where(and(eq(resources.id, resourceId), eq(resources.kind, 'gatewayPayout')));
    if (!account) return { kind: 'unauthorised' };
    const webhookSecret = await this.webhookSecretOf(account);
    if (!webhookSecret || !verifyWebhook(rawBody, signature, webhookSecret)) return { kind: 'unauthorised' };
    let event: ReturnType<typeof parseWebhook>;
    try {
      event = parseWebhook(rawBody);
    } catch (error) {
      if (error instanceof GatewayWebhookError) return { kind: 'malformed', reason: error.message };
      throw error;
    }
    const [found] = await this.db
      .select({ id: payouts.id })
      .from(payouts)
      .where(
        and(
          eq(payouts.resourceId, resourceId),
          or(
            eq(payouts.gatewayId, event.gatewayId),
            event.referenceId === null
              ? sql`false`
              : and(isNull(payouts.gatewayId), eq(payouts.orderCode, event.referenceId)),
          ),
        ),
      )
      .limit(1);
    // Not ours (or not on this account): acknowledged, so the gateway does not send it again forever.
    if (!found) return { kind: 'done', state: null };
    return this.moving(async (tx, moves): Promise<WebhookOutcome> => {
      const payout = await lockPayout(tx, found.id);
      if (!payout) return { kind: 'done', state: null };
      if (event.amount !== null && event.amount !== payout.amount) {
        const reason = `the gateway reports payout ${event.gatewayId} of ${event.amount} paise, this payout is of ${payout.amount}`;
        const moved = await this.toException(tx, moves, payout, reason, this.now());
        return { kind: 'done', state: moved?.state ?? payout.state };
      }
      const moved = await this.applyStatus(tx, moves, payout, event.gatewayId, event.status, 'webhook');
      return { kind: 'done', state: moved.state };
    });
  }

  // ---- recording what a gateway said ----

  private async recordSend(id: number, answer: CreatePayoutAnswer): Promise<void> {
    await this.moving(async (tx, moves) => {
      const payout = await lockPayout(tx, id);
      // Moved meanwhile (a webhook came first, staff acted): what it says now stands.
      if (!payout || payout.state !== S.preparing) return;
      const now = this.now();
      if (answer.kind === 'accepted') {
        await this.applyStatus(tx, moves, payout, answer.gatewayId, answer.status, 'send');
        return;
      }
      if (answer.kind === 'failed') {
        await this.toException(tx, moves, payout, `the gateway refused the payout: ${answer.reason}`, now);
        return;
      }
      const attempts = payout.gatewayAttempts + 1;
      if (attempts >= this.maxUnanswered) {
        await this.toException(
          tx,
          moves,
          payout,
          `no answer from the gateway after ${attempts} sends (last: ${answer.reason}); it may still hold the payout: ask it before rejecting`,
          now,
          { gatewayAttempts: attempts },
        );
        return;
      }
      const delay = this.retryMs[Math.min(attempts - 1, this.retryMs.length - 1)]!;
      await tx
        .update(payouts)
        .set({ gatewayAttempts: attempts, gatewayDueAt: new Date(now.getTime() + delay), updatedAt: now })
        .where(eq(payouts.id, id));
      await recordPayoutEvent(
        tx,
        payout,
        'gatewayUnanswered',
        payout.state,
        payout.state,
        gatewayActor,
        `send ${attempts} unanswered (${answer.reason}): sent again with the same key in ${Math.round(delay / 1000)} s`,
        now,
      );
    });
  }

  private async recordPoll(id: number, answer: FetchPayoutAnswer): Promise<void> {
    await this.moving(async (tx, moves) => {
      const payout = await lockPayout(tx, id);
      if (!payout || payout.state !== S.inProgress || payout.gatewayId === null) return;
      if (answer.kind === 'accepted') {
        await this.applyStatus(tx, moves, payout, answer.gatewayId, answer.status, 'poll');
        return;
      }
      // No telling: asked again later (a poll's failure says nothing about the payout).
      await tx
        .update(payouts)
        .set({ gatewayDueAt: this.later(this.pollMs) })
        .where(eq(payouts.id, id));
    });
  }

  /** A send that cannot be made: preparing -> processing exception with the reason. */
  private async recordRefusal(id: number, reason: string): Promise<void> {
    await this.moving(async (tx, moves) => {
      const payout = await lockPayout(tx, id);
      if (!payout || payout.state !== S.preparing) return;
      await this.toException(tx, moves, payout, reason, this.now());
    });
  }

  /** A claim cut short by the dispatcher stopping: due again at once, for whichever dispatcher looks next. */
  private async giveBack(id: number): Promise<void> {
    await this.db
      .update(payouts)
      .set({ gatewayDueAt: this.now() })
      .where(and(eq(payouts.id, id), inArray(payouts.state, [S.preparing, S.inProgress])));
  }

  /**
   * The gateway's status of a payout it holds, applied under the payout's lock: a preparing one first
   * becomes in progress with the gateway's id; then processed with a UTR completes it, a failure makes
   * it a processing exception, and anything else leaves it to be polled. A payout in any other state
   * (already settled, or an exception staff are looking at) is left as it is.
   */
  private async applyStatus(
    tx: Tx,
    moves: Moves,
    locked: PayoutRecord,
    gatewayId: string,
    status: GatewayStatus,
    source: 'send' | 'poll' | 'webhook',
  ): Promise<PayoutRecord> {
    const now = this.now();
    let payout = locked;
    if (payout.gatewayId !== null && payout.gatewayId !== gatewayId) return payout;
    if (payout.state === S.preparing) {
      const sent = await movePayout(tx, payout, {
        to: S.inProgress,
        kind: 'gatewaySent',
        actor: gatewayActor,
        note: `accepted by the gateway as ${gatewayId} (${status.gatewayStatus}, via ${source})`,
        set: { gatewayId, gatewayDueAt: this.later(this.pollMs) },
        now,
      });
      if (!sent) return payout;
      noteMove(moves, payout, sent);
      await this.audit(tx, 'payouts.submit', payout, { state: sent.state, gatewayId }, now);
      payout = sent;
    }
    if (payout.state !== S.inProgress) return payout;
    if (status.state === 'failed') {
      return (
        (await this.toException(
          tx,
          moves,
          payout,
          `the gateway reports ${status.gatewayStatus}: ${status.reason}`,
          now,
        )) ?? payout
      );
    }
    if (status.state === 'completed' && status.utr !== null) {
      const [completed] = await this.deps.payouts.settleBySystem(
        tx,
        [{ payout, outcome: 'completed', utr: status.utr, note: note('payoutSubmitted', { utr: status.utr }) }],
        gatewayActor,
        now,
      );
      await tx.update(payouts).set({ gatewayDueAt: null }).where(eq(payouts.id, payout.id));
      noteMove(moves, payout, completed!);
      await this.audit(tx, 'payouts.confirm', payout, { state: completed!.state, utr: status.utr, via: source }, now);
      return completed!;
    }
    // Under way, or processed without its UTR yet (the gateway gives it a little later): asked again.
    const next = status.state === 'completed' ? this.retryMs[0]! : this.pollMs;
    if (source !== 'send') {
      await tx
        .update(payouts)
        .set({ gatewayDueAt: this.later(next) })
        .where(eq(payouts.id, payout.id));
    }
    return payout;
  }

  /** -> processing exception with the reason (staff resolve it); nothing more for the dispatcher to do. */
  private async toException(
    tx: Tx,
    moves: Moves,
    payout: PayoutRecord,
    reason: string,
    now: Date,
    extra: Partial<typeof payouts.$inferInsert> = {},
  ): Promise<PayoutRecord | null> {
    if (payout.state !== S.preparing && payout.state !== S.inProgress) return null;
    const moved = await movePayout(tx, payout, {
      to: S.processingException,
      kind: 'markedAbnormal',
      actor: gatewayActor,
      note: reason,
      set: { exceptionReason: reason.slice(0, 1000), gatewayDueAt: null, ...extra },
      now,
    });
    if (moved) {
      noteMove(moves, payout, moved);
      await this.audit(tx, 'payouts.markAbnormal', payout, { state: moved.state, reason }, now);
    }
    return moved;
  }

  // ---- reading an account and a payout the gateway's way ----

  /**
   * The pay gateway an account names (`details.gatewayId`), opened now; undefined when it names none.
   * A problem (gone, switched off, secrets that do not open) is answered as such: the account's own
   * credentials are not used in its place.
   */
  private async namedGateway(
    resource: typeof resources.$inferSelect,
  ): Promise<undefined | { problem: string } | { gateway: NonNullable<Awaited<ReturnType<PayGateways['open']>>> }> {
    const id = resource.details.gatewayId;
    if (id === undefined || id === '') return undefined;
    let gateway: Awaited<ReturnType<PayGateways['open']>>;
    try {
      gateway = (await this.deps.payGateways?.open(this.db, Number(id))) ?? null;
    } catch {
      return { problem: `the sealed secrets of pay gateway ${id} cannot be opened with this server’s key` };
    }
    if (!gateway) return { problem: `pay gateway ${id} does not exist` };
    if (!gateway.enabled) return { problem: `pay gateway ${gateway.name} is switched off` };
    return { gateway };
  }

  /** The secret the account's webhooks are signed with: its pay gateway's, else its own. */
  private async webhookSecretOf(resource: typeof resources.$inferSelect): Promise<string | undefined> {
    const named = await this.namedGateway(resource);
    if (named === undefined) {
      return openGatewaySecrets(resource.secretSealed, this.deps.secretKey).webhookSecret;
    }
    return 'gateway' in named ? (named.gateway.webhookSecret ?? undefined) : undefined;
  }

  private async credentialsOf(resource: typeof resources.$inferSelect): Promise<Omit<DueGatewayPayout, 'payout'>> {
    const { accountNumber } = resource.details;
    let { baseUrl, keyId } = resource.details;
    let secrets: ReturnType<typeof openGatewaySecrets>;
    const named = await this.namedGateway(resource);
    if (named !== undefined) {
      if (!('gateway' in named)) return { creds: null, credsProblem: named.problem };
      const { gateway } = named;
      baseUrl = gateway.baseUrl;
      keyId = gateway.keyId;
      secrets = {
        ...(gateway.keySecret === null ? {} : { keySecret: gateway.keySecret }),
        ...(gateway.webhookSecret === null ? {} : { webhookSecret: gateway.webhookSecret }),
      };
    } else {
      try {
        secrets = openGatewaySecrets(resource.secretSealed, this.deps.secretKey);
      } catch {
        return { creds: null, credsProblem: 'its sealed secrets cannot be opened with this server’s key' };
      }
    }
    const missing = [
      !baseUrl && 'base URL',
      !keyId && 'key id',
      !secrets.keySecret && 'key secret',
      !accountNumber && 'account number',
    ].filter(Boolean);
    if (missing.length > 0) return { creds: null, credsProblem: `it has no ${missing.join(', ')}` };
    return {
      creds: {
        baseUrl: baseUrl!,
        keyId: keyId!,
        keySecret: secrets.keySecret!,
        webhookSecret: secrets.webhookSecret ?? '',
        accountNumber: accountNumber!,
      },
      credsProblem: null,
    };
  }

  private inputOf(p: PayoutRecord) {
    return {
      idempotencyKey: p.orderCode,
      amount: p.amount,
      currency: 'INR' as const,
      // IMPS up to its ceiling of 5 lakh rupees, NEFT above it.
      mode: p.amount <= 50_000_000 ? ('IMPS' as const) : ('NEFT' as const),
      payee: { name: p.userName ?? '', accountNumber: p.cardNumber ?? '', ifsc: p.ifscCode ?? '' },
      narration: `Payout ${p.orderCode}`,
      referenceId: p.orderCode,
    };
  }

  private async audit(
    tx: Tx,
    action: 'payouts.claim' | 'payouts.submit' | 'payouts.confirm' | 'payouts.markAbnormal',
    payout: PayoutRecord,
    after: Record<string, unknown>,
    now: Date,
  ) {
    await writeAudit(
      tx,
      gatewayActor,
      {
        action,
        target: `payout:${payout.orderCode}`,
        before: { state: payout.state },
        after: { via: 'gateway', ...after },
      },
      now,
    );
  }
}

type Logger = Pick<FastifyBaseLogger, 'warn' | 'error'>;

/**
 * Runs GatewayPayouts rounds in this process while the jobs run: one at start, then whenever the last
 * one did something (more may be due), on a poke (a gateway payout was created here), and every
 * `pollMs` otherwise. Stopping cuts the exchanges in flight short and gives their claims back.
 */
export class GatewayDispatcher {
  private running = false;
  private loop: Promise<void> | null = null;
  private controller = new AbortController();
  private wakeUp: (() => void) | null = null;
  private wanted = false;
  private log: Logger = {
    warn: (obj: unknown, msg?: string) => console.warn('[gateway]', msg ?? '', obj),
    error: (obj: unknown, msg?: string) => console.error('[gateway]', msg ?? '', obj),
  } as Logger;

  constructor(
    private readonly gateway: GatewayPayouts,
    readonly tuning: { pollMs: number; batchSize: number },
  ) {}

  start(log?: Logger): void {
    if (this.running) return;
    if (log) this.log = log;
    this.running = true;
    this.controller = new AbortController();
    this.wanted = true;
    this.loop = this.run();
  }

  poke(): void {
    this.wanted = true;
    const wake = this.wakeUp;
    this.wakeUp = null;
    wake?.();
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.controller.abort();
    this.poke();
    await this.loop;
    this.loop = null;
  }

  private async run(): Promise<void> {
    while (this.running) {
      if (!this.wanted) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => this.poke(), this.tuning.pollMs);
          this.wakeUp = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        continue;
      }
      this.wanted = false;
      try {
        const did = await this.gateway.runOnce(this.tuning.batchSize, this.controller.signal);
        if (did > 0) this.wanted = true;
      } catch (error) {
        if (this.running) this.log.error({ err: error }, 'gateway payouts round failed');
      }
    }
  }
}
