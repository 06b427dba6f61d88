/**
 * The console's websocket client (spec section 4): states Uninitialized, Connecting, Connected, Error,
 * Closed; it reconnects from Uninitialized, Error and Closed (with backoff), sends only when Connected,
 * and sends a heartbeat every 20 s whose answer key is stored as `currentKey`.
 */
export type SocketState = 'Uninitialized' | 'Connecting' | 'Connected' | 'Error' | 'Closed';

export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
}

export interface SocketOptions {
  url: string;
  getToken(): string | null;
  /** Builds the socket; tests pass a fake. */
  create(url: string): SocketLike;
  storage: Pick<Storage, 'setItem'>;
  heartbeatMs?: number;
  /** Reconnect delay after the n-th failed attempt (1-based). */
  backoffMs?: (attempt: number) => number;
  /** A response with code 1003: the session is dead (the app alerts and goes to sign-in). */
  onSessionExpired?(): void;
  onEvent?(topic: string, data: unknown): void;
  onStateChange?(state: SocketState): void;
  timers?: {
    setTimeout: typeof setTimeout;
    clearTimeout: typeof clearTimeout;
    setInterval: typeof setInterval;
    clearInterval: typeof clearInterval;
  };
}

export const HEARTBEAT_MS = 20_000;
export const defaultBackoff = (attempt: number) => Math.min(30_000, 1000 * 2 ** (attempt - 1));
const RECONNECTABLE: readonly SocketState[] = ['Uninitialized', 'Error', 'Closed'];

/** A response to a command ({code, requestId, data, msg}) or a pushed event ({type: 'event', topic, data}). */
interface Frame {
  type?: 'event';
  topic?: string;
  code?: number;
  requestId?: string | null;
  data?: unknown;
  msg?: string;
}

export class RealtimeSocket {
  private socket: SocketLike | null = null;
  private _state: SocketState = 'Uninitialized';
  private attempts = 0;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private retry: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private seq = 0;
  private readonly topics = new Set<string>();
  private readonly timers;

  constructor(private readonly opts: SocketOptions) {
    // Bound to the global object: browsers refuse window.setInterval called as another object's method.
    this.timers = opts.timers ?? {
      setTimeout: globalThis.setTimeout.bind(globalThis),
      clearTimeout: globalThis.clearTimeout.bind(globalThis),
      setInterval: globalThis.setInterval.bind(globalThis),
      clearInterval: globalThis.clearInterval.bind(globalThis),
    };
  }

  get state(): SocketState {
    return this._state;
  }

  /** Connects when the state allows it (Uninitialized, Error, Closed); otherwise does nothing. */
  connect(): void {
    if (!RECONNECTABLE.includes(this._state)) return;
    this.stopped = false;
    this.setState('Connecting');
    const socket = this.opts.create(this.opts.url);
    this.socket = socket;
    socket.onopen = () => {
      this.attempts = 0;
      this.setState('Connected');
      for (const topic of this.topics) this.command('subscribe', { topic });
      this.sendHeartbeat();
      this.heartbeat = this.timers.setInterval(() => this.sendHeartbeat(), this.opts.heartbeatMs ?? HEARTBEAT_MS);
    };
    socket.onmessage = (ev) => this.receive(ev.data);
    socket.onerror = () => this.lost('Error');
    socket.onclose = () => this.lost('Closed');
  }

  /** Logout: closes for good (no reconnect) until connect() is called again. */
  close(): void {
    this.stopped = true;
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    socket?.close();
    this.setState('Closed');
  }

  subscribe(topic: string): void {
    this.topics.add(topic);
    this.command('subscribe', { topic });
  }

  unsubscribe(topic: string): void {
    this.topics.delete(topic);
    this.command('unsubscribe', { topic });
  }

  /** Sends a command only when Connected; answers whether it was sent. */
  command(commandType: string, data?: unknown): boolean {
    const token = this.opts.getToken();
    if (this._state !== 'Connected' || !this.socket || !token) return false;
    this.seq += 1;
    this.socket.send(JSON.stringify({ requestId: `r${this.seq}`, commandType, data, token }));
    return true;
  }

  private sendHeartbeat() {
    this.command('heartbeat');
  }

  private receive(raw: unknown) {
    let frame: Frame;
    try {
      frame = JSON.parse(String(raw)) as Frame;
    } catch {
      return;
    }
    if (frame.type === 'event' && typeof frame.topic === 'string') {
      this.opts.onEvent?.(frame.topic, frame.data);
      return;
    }
    if (frame.code === 1003) {
      this.opts.onSessionExpired?.();
      this.close();
      return;
    }
    const key = (frame.data as { key?: unknown } | undefined)?.key;
    if (frame.code === 200 && typeof key === 'string') this.opts.storage.setItem('currentKey', key);
  }

  private lost(state: 'Error' | 'Closed') {
    if (this._state === 'Closed' && this.stopped) return;
    this.clearTimers();
    this.socket = null;
    this.setState(state);
    if (this.stopped) return;
    this.attempts += 1;
    const delay = (this.opts.backoffMs ?? defaultBackoff)(this.attempts);
    this.retry = this.timers.setTimeout(() => this.connect(), delay);
  }

  private clearTimers() {
    if (this.heartbeat) this.timers.clearInterval(this.heartbeat);
    if (this.retry) this.timers.clearTimeout(this.retry);
    this.heartbeat = null;
    this.retry = null;
  }

  private setState(state: SocketState) {
    if (this._state === state) return;
    this._state = state;
    this.opts.onStateChange?.(state);
  }
}
