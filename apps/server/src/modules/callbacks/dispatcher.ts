import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { AttemptOutcome, AttemptResult, DueAttempt } from './callbacks.service.js';

/** What a dispatcher drives (CallbacksService): claims, attempts, the record of a batch, releases. */
export interface DispatchSource {
  claimDue(limit: number, leaseMs: number, claimedBy: string): Promise<DueAttempt[]>;
  attempt(due: DueAttempt, signal?: AbortSignal): Promise<AttemptOutcome>;
  record(outcomes: readonly AttemptOutcome[]): Promise<Map<number, AttemptResult>>;
  release(callbackIds: readonly number[], claimedBy: string): Promise<void>;
}

export interface DispatcherTuning {
  /** How often an idle dispatcher looks for due attempts (other processes' callbacks, retries coming due). */
  pollMs: number;
  /** Attempts in flight at once in this process (the bounded pool of HTTP exchanges). */
  concurrency: number;
  /** Attempts one claim takes at most. */
  batchSize: number;
  /**
   * How long a claim holds its attempt: longer than an exchange and its record take. A process that dies
   * holding claims leaves them to lapse; then any dispatcher makes those attempts again.
   */
  leaseMs: number;
  /** On stop, how long attempts in flight may finish before they are cut short and their claims given back. */
  stopGraceMs: number;
}

type Logger = Pick<FastifyBaseLogger, 'warn' | 'error'>;
const consoleLogger: Logger = {
  warn: (obj: unknown, msg?: string) => console.warn('[callbacks]', msg ?? '', obj),
  error: (obj: unknown, msg?: string) => console.error('[callbacks]', msg ?? '', obj),
} as Logger;

interface InFlight {
  due: DueAttempt;
  controller: AbortController;
  /** Settles when the exchange ended (its outcome then waits in `done` for the next record). */
  exchange: Promise<void>;
  finished: boolean;
}

/** How often a record that failed (the database away) is tried again before its outcomes are dropped. */
const RECORD_TRIES = 5;

/**
 * Drains the callback outbox (`order_callbacks`) in this process (DESIGN section 6): claims due attempts
 * in batches (FOR UPDATE SKIP LOCKED, one per order, see CLAIM_DUE), makes them concurrently, at most
 * `concurrency` at once, and records the outcomes that came in meanwhile in one transaction. A claim is
 * made when a slot is free and there is reason to look: the start, a poll, a poke (a callback scheduled
 * in this process just committed), a claim that came back full, a record (its orders' next callbacks
 * may be due). Every process whose jobs run has one; they share the work through the claims.
 *
 * At least once: a notification whose outcome is not recorded (a crash, a failed record) is attempted
 * again when its claim lapses; the merchant deduplicates on the notification id.
 */
export class CallbackDispatcher {
  /** Names this dispatcher's claims (`claimed_by`): host, process, instance. */
  readonly id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly inFlight = new Map<number, InFlight>();
  private done: AttemptOutcome[] = [];
  private recordFailures = 0;
  private claimWanted = false;
  private wakeUp: (() => void) | null = null;
  private timer: NodeJS.Timeout | undefined;
  private log: Logger = consoleLogger;

  constructor(
    private readonly source: DispatchSource,
    readonly tuning: DispatcherTuning,
  ) {}

  get active(): boolean {
    return this.running;
  }

  /** Starts claiming (at once, then on every poll and poke). */
  start(log?: Logger): void {
    if (this.running) return;
    if (log) this.log = log;
    this.running = true;
    this.claimWanted = true;
    this.timer = setInterval(() => this.poke(), this.tuning.pollMs);
    this.timer.unref();
    this.loop = this.run();
  }

  /** Look for due attempts now (a callback was scheduled and committed in this process). */
  poke(): void {
    if (!this.running) return;
    this.claimWanted = true;
    this.wake();
  }

  /**
   * Stops claiming; the attempts in flight get `stopGraceMs` to finish and be recorded, and the rest are
   * cut short and their claims given back, due again at once for whichever dispatcher looks next.
   */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.timer);
    this.wake();
    await this.loop;
    this.loop = null;
    const open = [...this.inFlight.values()].filter((f) => !f.finished);
    if (open.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(open.map((f) => f.exchange)),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, this.tuning.stopGraceMs);
        }),
      ]);
      clearTimeout(timer);
    }
    const unfinished = [...this.inFlight.values()].filter((f) => !f.finished);
    for (const f of unfinished) f.controller.abort();
    while (this.done.length > 0 && this.recordFailures < RECORD_TRIES) await this.flush();
    try {
      await this.source.release(
        unfinished.map((f) => f.due.callback.id),
        this.id,
      );
    } catch (error) {
      this.log.error({ err: error }, 'callback claims not given back: they lapse');
    }
    this.inFlight.clear();
    this.done = [];
    this.recordFailures = 0;
  }

  private wake(): void {
    const wake = this.wakeUp;
    this.wakeUp = null;
    wake?.();
  }

  /** Waits for a wake (a poke, an outcome, stop), or `ms` when given. */
  private idle(ms?: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(() => this.wake(), ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async run(): Promise<void> {
    while (this.running) {
      if (this.done.length > 0) {
        const ok = await this.flush();
        if (!ok) await this.idle(Math.min(this.tuning.pollMs * 2 ** this.recordFailures, 30_000));
        continue;
      }
      const free = this.tuning.concurrency - this.inFlight.size;
      if (this.claimWanted && free > 0) {
        this.claimWanted = false;
        const limit = Math.min(free, this.tuning.batchSize);
        let claimed: DueAttempt[];
        try {
          claimed = await this.source.claimDue(limit, this.tuning.leaseMs, this.id);
        } catch (error) {
          this.log.error({ err: error }, 'claiming callbacks failed');
          // Looked for again at the next poll.
          continue;
        }
        for (const due of claimed) this.launch(due);
        // A full claim: more may be due.
        if (claimed.length === limit) this.claimWanted = true;
        continue;
      }
      await this.idle();
    }
  }

  private launch(due: DueAttempt): void {
    const controller = new AbortController();
    const id = due.callback.id;
    const entry: InFlight = {
      due,
      controller,
      finished: false,
      exchange: this.source.attempt(due, controller.signal).then(
        (outcome) => {
          entry.finished = true;
          // Cut short by stop: not an attempt to record; its claim is given back.
          if (controller.signal.aborted) return;
          this.done.push(outcome);
          this.wake();
        },
        (error: unknown) => {
          entry.finished = true;
          this.inFlight.delete(id);
          this.log.error({ err: error, callbackId: id }, 'callback attempt failed: its claim lapses');
        },
      ),
    };
    this.inFlight.set(id, entry);
  }

  /** Records the outcomes that came in, in one transaction; answers whether it could. */
  private async flush(): Promise<boolean> {
    const batch = this.done;
    this.done = [];
    try {
      await this.source.record(batch);
    } catch (error) {
      this.recordFailures += 1;
      if (this.recordFailures < RECORD_TRIES) {
        this.log.warn({ err: error, attempts: batch.length }, 'recording callback attempts failed: trying again');
        this.done = [...batch, ...this.done];
        return false;
      }
      // The claims lapse and the attempts are made again (at least once).
      this.log.error({ err: error, attempts: batch.length }, 'recording callback attempts failed: dropped');
      for (const o of batch) this.inFlight.delete(o.due.callback.id);
      this.recordFailures = 0;
      return true;
    }
    this.recordFailures = 0;
    for (const o of batch) this.inFlight.delete(o.due.callback.id);
    // Slots are free, and the orders of this batch may have other callbacks due.
    this.claimWanted = true;
    return true;
  }
}
