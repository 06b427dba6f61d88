type Logger = { error(obj: unknown, msg?: string): void };

/**
 * Runs `work` every `everyMs` in this process, never two runs at once; `run()` answers the run in
 * progress or starts one. For the folders every process runs (the work takes turns across processes
 * under its own lock): the daily totals, the order rollups.
 */
export class Periodic {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private log: Logger;

  constructor(
    private readonly name: string,
    private readonly work: () => Promise<unknown>,
    private readonly everyMs = 1_000,
  ) {
    this.log = { error: (obj, msg) => console.error(`[${name}]`, msg ?? '', obj) };
  }

  start(log?: Logger): void {
    if (this.timer) return;
    if (log) this.log = log;
    this.timer = setInterval(() => void this.run(), this.everyMs);
    this.timer.unref();
  }

  run(): Promise<void> {
    if (!this.running) {
      this.running = this.work()
        .then(() => undefined)
        .catch((error: unknown) => this.log.error({ err: error }, `${this.name} failed`))
        .finally(() => {
          this.running = null;
        });
    }
    return this.running;
  }

  /** Stops; a run in progress finishes first (the database is closed after). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
