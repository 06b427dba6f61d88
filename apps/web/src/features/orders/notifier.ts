import { ORDER_STATE } from '@paydesk/contract';

/** Spec section 9: the latest order is polled every 10 s. */
export const POLL_MS = 10_000;
/** Spec section 9: while a new order is pending, the sound and the toast repeat every 5 s. */
export const ALERT_MS = 5_000;
/** Spec section 9: a toast lasts 5 s. */
export const TOAST_SECONDS = 5;

/** The answer of GET /v1.0/order/getLastOrder. */
export interface LastOrder {
  orderCode: string;
  createTime: string;
  state: number;
}

/** States in which a new order still waits for the payer's money (the alert keeps repeating). */
const PENDING: readonly number[] = [ORDER_STATE.created, ORDER_STATE.allocated];
export const isPending = (order: LastOrder) => PENDING.includes(order.state);

export interface NotifierTimers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

/** What a notifier polls: one item with a code (an order, a payout). */
export interface Notified {
  orderCode: string;
}

export interface NotifierOptions<T extends Notified = LastOrder> {
  /** The newest item in the caller's scope, or null when there is none. */
  fetchLast(): Promise<T | null>;
  /** Play the sound and show a toast about this item. */
  alert(item: T): void;
  /**
   * Whether a poll's answer is news against the last one alerted (or remembered at the first poll).
   * Default: another code (the newest order only ever moves forward).
   */
  isNew?(item: T, known: T | null): boolean;
  /** Whether the alert keeps repeating while the polls still answer this item. Default: an order awaiting payment. */
  isPending?(item: T): boolean;
  pollMs?: number;
  alertMs?: number;
  /** Defaults to the global timers (which Vitest's fake timers replace). */
  timers?: NotifierTimers;
}

/**
 * The new-order notifier (spec sections 1, 4 and 9): polls the latest order; the first answer is
 * remembered without an alert; when the latest order code changes it alerts at once, then every 5 s
 * while that order is still pending (as the polls last saw it). A newer order takes over the alert;
 * an answer that is no longer the alerted item (it was taken meanwhile) ends it.
 * `stop()` (logout, user info failing to load) ends polling and alerts.
 * The same class polls a supplier's newest claimable payout (NewOrderNotifier.tsx), with its own
 * `isNew` and `isPending`.
 */
export class NewOrderNotifier<T extends Notified = LastOrder> {
  /** The latest item seen; undefined until the first poll answers. */
  private known: T | null | undefined = undefined;
  private pending: T | null = null;
  private poller: unknown = null;
  private repeater: unknown = null;
  private running = false;
  private readonly timers: NotifierTimers;
  private readonly isNew: (item: T, known: T | null) => boolean;
  private readonly isPending: (item: T) => boolean;

  constructor(private readonly opts: NotifierOptions<T>) {
    this.timers = opts.timers ?? {
      setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
      clearInterval: (h) => globalThis.clearInterval(h as ReturnType<typeof setInterval>),
    };
    this.isNew = opts.isNew ?? ((item, known) => item.orderCode !== known?.orderCode);
    this.isPending = opts.isPending ?? ((item) => isPending(item as unknown as LastOrder));
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.poll();
    this.poller = this.timers.setInterval(() => void this.poll(), this.opts.pollMs ?? POLL_MS);
  }

  stop(): void {
    this.running = false;
    if (this.poller !== null) this.timers.clearInterval(this.poller);
    this.poller = null;
    this.stopAlerts();
    this.known = undefined;
  }

  private stopAlerts() {
    if (this.repeater !== null) this.timers.clearInterval(this.repeater);
    this.repeater = null;
    this.pending = null;
  }

  private async poll(): Promise<void> {
    let last: T | null;
    try {
      last = await this.opts.fetchLast();
    } catch {
      // A failed poll changes nothing; the next one tries again (a dead session stops us from outside).
      return;
    }
    if (!this.running) return;
    if (this.known === undefined) {
      this.known = last;
      return;
    }
    if (last && this.isNew(last, this.known)) {
      this.known = last;
      this.stopAlerts();
      this.pending = last;
      this.opts.alert(last);
      if (this.isPending(last)) {
        this.repeater = this.timers.setInterval(() => this.repeat(), this.opts.alertMs ?? ALERT_MS);
      }
      return;
    }
    if (!this.pending) return;
    if (last?.orderCode === this.pending.orderCode) {
      this.pending = last;
      if (!this.isPending(last)) this.stopAlerts();
    } else {
      // What was alerted is no longer the answer (a payout claimed by someone else): nothing to repeat.
      this.stopAlerts();
    }
  }

  private repeat() {
    if (!this.running || !this.pending || !this.isPending(this.pending)) {
      this.stopAlerts();
      return;
    }
    this.opts.alert(this.pending);
  }
}

let audio: AudioContext | null = null;

/**
 * A short two-tone chime made with Web Audio (no sound file to download). Browsers keep audio
 * suspended until the user has interacted with the page; then it is simply silent.
 */
export function playChime(): void {
  const Context =
    globalThis.AudioContext ?? (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Context) return;
  try {
    audio ??= new Context();
    if (audio.state === 'suspended') void audio.resume().catch(() => undefined);
    const start = audio.currentTime;
    for (const [i, frequency] of [880, 1320].entries()) {
      const at = start + i * 0.18;
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.25, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.3);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.32);
    }
  } catch {
    // No audio device or not allowed: the toast still tells the user.
  }
}
