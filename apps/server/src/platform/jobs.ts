import type { FastifyBaseLogger } from 'fastify';
import { type ConstructorOptions, fromPglite, type Job, type JobResult, PgBoss, type Queue } from 'pg-boss';
import type { Database } from '../db/client.js';

/**
 * Background jobs (DESIGN section 2): a thin wrapper over pg-boss 12 whose jobs live in the database,
 * in the `pgboss` schema beside ours, so they survive restarts and are shared by every process on one
 * PostgreSQL. On the embedded database pg-boss runs on the same PGlite instance (`fromPglite`).
 *
 * Areas `define` their queues (name, pg-boss queue options, a handler per job) when the app is built;
 * `start` creates the queues and works them; `stop` (on app close) lets the jobs in hand finish.
 * A process whose jobs are off sends nothing (`sendThrottled` answers null). Work that runs beside the queues while the jobs run (the callback outbox's dispatcher, which keeps its
 * queue in its own table) starts and stops with them (`onStart`, `onStop`).
 */

export interface JobsTuning {
  /** How often an idle worker looks for due jobs, in seconds (pg-boss's floor is 0.5). */
  pollingIntervalSeconds: number;
}
export const DEFAULT_JOBS_TUNING: JobsTuning = { pollingIntervalSeconds: 2 };

type Logger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
const consoleLogger: Logger = {
  info: () => undefined,
  warn: (obj: unknown, msg?: string) => console.warn('[jobs]', msg ?? '', obj),
  error: (obj: unknown, msg?: string) => console.error('[jobs]', msg ?? '', obj),
} as Logger;

export interface QueueDefinition<T extends object> {
  name: string;
  /** pg-boss queue options: policy, retries, expiry, retention, notify. */
  options: Omit<Queue, 'name'>;
  /** Workers of this queue in this process, and jobs each takes per fetch (handled concurrently). */
  localConcurrency?: number;
  batchSize?: number;
  /** Handles one job. A throw fails it, and pg-boss retries it per the queue's retry options. */
  handle(data: T, job: Job<T>): Promise<unknown>;
}

/** The schema pg-boss keeps its tables in. */
export const JOBS_SCHEMA = 'pgboss';

export class Jobs {
  private boss: PgBoss | null = null;
  private readonly queues: QueueDefinition<object>[] = [];
  private readonly startHooks: Array<() => Promise<void>> = [];
  private readonly stopHooks: Array<() => Promise<void>> = [];
  private readonly repeats: Array<{ everyMs: number; run: () => Promise<unknown> }> = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private log: Logger = consoleLogger;
  readonly tuning: JobsTuning;

  constructor(private readonly deps: { database: Database; tuning?: Partial<JobsTuning> | undefined }) {
    this.tuning = { ...DEFAULT_JOBS_TUNING, ...deps.tuning };
  }

  /** Declares a queue and its handler; it is created and worked when the jobs start. */
  define<T extends object>(definition: QueueDefinition<T>): void {
    this.queues.push(definition as unknown as QueueDefinition<object>);
  }

  /** Runs once the queues are worked (e.g. a sweep of work recorded while jobs were off). */
  onStart(hook: () => Promise<void>): void {
    this.startHooks.push(hook);
  }

  /** Runs when the jobs stop, before the queue's connections close (e.g. a dispatcher finishing its batch). */
  onStop(hook: () => Promise<void>): void {
    this.stopHooks.push(hook);
  }

  /** Runs `run` in this process every `everyMs` while the jobs run (first right after start). */
  every(everyMs: number, run: () => Promise<unknown>): void {
    this.repeats.push({ everyMs, run });
  }

  /** Whether this process runs the jobs (and so enqueues). */
  get running(): boolean {
    return this.boss !== null;
  }

  async start(log?: Logger): Promise<void> {
    if (this.boss) return;
    if (log) this.log = log;
    const { database } = this.deps;
    const common: ConstructorOptions = {
      schema: JOBS_SCHEMA,
      // Workers of notify queues wake as soon as an immediate job commits; delayed jobs wait for a poll.
      useListenNotify: true,
      // No cron here: repeating work is a throttled job sent by every running process (see `every`).
      schedule: false,
      supervise: true,
      migrate: true,
      instanceName: 'paydesk',
    };
    let options: ConstructorOptions;
    if (database.kind === 'pglite') {
      if (!database.pglite) throw new Error('jobs: the embedded database does not expose its PGlite instance');
      // One process owns the embedded database: nothing to vacuum-watch or reindex concurrently.
      options = { ...common, db: fromPglite(database.pglite), backend: 'pglite', monitorVacuum: false, reindex: false };
    } else {
      if (!database.url) throw new Error('jobs: the PostgreSQL database does not expose its connection string');
      options = { ...common, connectionString: database.url, max: 5, application_name: 'paydesk-jobs' };
    }
    const boss = new PgBoss(options);
    // pg-boss reports maintenance and worker problems as events; without a listener they would throw.
    boss.on('error', (error) => this.log.error({ err: error }, 'job queue error'));
    boss.on('warning', (warning) => this.log.warn({ warning }, 'job queue warning'));
    await boss.start();
    try {
      for (const queue of this.queues) {
        await boss.createQueue(queue.name, queue.options);
        const { policy: _policy, partition: _partition, deadLetter: _deadLetter, ...changeable } = queue.options;
        // An existing queue takes the options of this version of the code.
        await boss.updateQueue(queue.name, changeable);
      }
      // Enqueueing is allowed from here: the start hooks may send.
      this.boss = boss;
      const polling = this.tuning.pollingIntervalSeconds;
      for (const queue of this.queues) {
        const batchSize = queue.batchSize ?? 1;
        await boss.work<object>(
          queue.name,
          {
            batchSize,
            localConcurrency: queue.localConcurrency ?? 1,
            pollingIntervalSeconds: polling,
            // NOTIFY wakes workers for immediate jobs only; delayed ones (retries) need the poll.
            notifyPollingIntervalSeconds: polling,
            burstWhenBatchFull: batchSize > 1,
            perJobResults: true,
          },
          (jobs) => Promise.all(jobs.map((job) => this.runOne(queue, job))),
        );
      }
      for (const hook of this.startHooks) await hook();
      for (const repeat of this.repeats) this.startRepeat(repeat);
    } catch (error) {
      this.boss = null;
      await boss.stop({ graceful: false, timeout: 1000 }).catch(() => undefined);
      throw error;
    }
  }

  private async runOne(queue: QueueDefinition<object>, job: Job<object>): Promise<JobResult> {
    try {
      await queue.handle(job.data, job);
      return { id: job.id, status: 'completed' };
    } catch (error) {
      this.log.error({ err: error, queue: queue.name, jobId: job.id }, 'job failed');
      return { id: job.id, status: 'failed', output: { message: (error as Error).message } };
    }
  }

  private startRepeat(repeat: { everyMs: number; run: () => Promise<unknown> }): void {
    const tick = () => {
      if (!this.boss) return;
      repeat.run().catch((error: unknown) => this.log.error({ err: error }, 'repeating job failed'));
    };
    tick();
    const timer = setInterval(tick, repeat.everyMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** Stops taking jobs; jobs in hand finish (up to `timeoutMs`), and the queue's connections close. */
  async stop(timeoutMs = 20_000): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers.clear();
    const boss = this.boss;
    this.boss = null;
    if (!boss) return;
    for (const hook of this.stopHooks) {
      await hook().catch((error: unknown) => this.log.error({ err: error }, 'stopping a job runner failed'));
    }
    await boss.stop({ graceful: true, timeout: timeoutMs });
  }

  /** Deletes a queue that is no longer used, and its jobs (nothing happens when there is none). */
  async deleteQueue(queue: string): Promise<void> {
    const boss = this.boss;
    if (!boss) return;
    await boss.deleteQueue(queue);
  }

  /** Enqueues a job (retries per its queue's options); null when this process runs no jobs. */
  async send(queue: string, data: object): Promise<string | null> {
    const boss = this.boss;
    if (!boss) return null;
    return boss.send(queue, data);
  }

  /** Enqueues at most one job per `seconds`-long time slot across every process. */
  async sendThrottled(queue: string, data: object, seconds: number): Promise<string | null> {
    const boss = this.boss;
    if (!boss) return null;
    return boss.sendThrottled(queue, data, null, seconds);
  }
}
