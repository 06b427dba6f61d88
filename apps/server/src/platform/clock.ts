/** The time source of every rule that depends on time (sessions, codes, locks), so tests can move it. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  private ms: number;
  constructor(start: Date = new Date()) {
    this.ms = start.getTime();
  }
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

export const minutes = (n: number) => n * 60_000;
