/** The time source of every rule that depends on time (sessions, codes, locks), so tests can move it. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/**
 * A clock tests move by hand. Running, real time passes too between the moves: the demo's history jumps
 * through a month, and what an order's steps take in between is measured in real milliseconds.
 */
export class ManualClock implements Clock {
  private ms: number;
  /** Running: real time passes on top of the jumps (when it was last moved, by performance.now()). */
  private since: number | null;
  constructor(start: Date = new Date(), opts: { running?: boolean } = {}) {
    this.ms = start.getTime();
    this.since = opts.running ? performance.now() : null;
  }
  now(): Date {
    return new Date(this.ms + this.elapsed());
  }
  advance(ms: number): void {
    this.ms += this.elapsed() + ms;
    if (this.since !== null) this.since = performance.now();
  }
  private elapsed(): number {
    return this.since === null ? 0 : Math.floor(performance.now() - this.since);
  }
}

export const minutes = (n: number) => n * 60_000;
