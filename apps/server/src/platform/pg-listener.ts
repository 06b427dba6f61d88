import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

type Logger = Pick<FastifyBaseLogger, 'warn' | 'error'>;

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;
/** A sync whose round trip takes longer than this answers false (the caller reads the database instead). */
const SYNC_TIMEOUT_MS = 2_000;

/**
 * LISTEN on one PostgreSQL channel over a dedicated connection (LISTEN belongs to a session, which a
 * pooled client would not keep), reconnecting with a growing delay when the connection is lost.
 * `onListening` and `onLost` tell the owner when notifications may have been missed: everything sent
 * between a loss and the next `onListening` never arrives.
 *
 * `sync` is the fence that makes "heard" exact: a notification is sent to the listening connection when
 * its transaction commits, but it crosses a socket of its own, so a request that arrives right after the
 * commit (on another process, through another connection) may be handled before it. A round trip on
 * the listening connection started after the request arrived ends after every notification committed
 * before that moment (PostgreSQL sends a listening session's pending notifications before answering it).
 */
export class PgListener {
  private client: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelay = RECONNECT_MIN_MS;
  private closed = false;
  /** The sync round trip in flight, and the one queued behind it (see `sync`). */
  private current: Promise<boolean> | undefined;
  private queued: Promise<boolean> | undefined;

  constructor(
    private readonly opts: {
      connectionString: string;
      channel: string;
      onNotification(payload: string): void;
      onListening(): void;
      onLost(): void;
      log?: Logger | undefined;
    },
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(opts.channel)) throw new Error(`invalid channel name '${opts.channel}'`);
  }

  /** Connects; a failure is logged and retried in the background, never thrown. */
  async start(): Promise<void> {
    try {
      await this.connect();
    } catch (err) {
      this.opts.log?.error({ err, channel: this.opts.channel }, 'listener could not connect');
      this.scheduleReconnect();
    }
  }

  get listening(): boolean {
    return this.client !== undefined;
  }

  /**
   * Resolves true once a round trip on the listening connection that started after this call has
   * ended: every notification committed before the call has then been handed to `onNotification`.
   * False when not listening (or the connection fails or stalls): the caller must not trust what it
   * heard. Calls share round trips: one in flight, one queued behind it for the calls that came later.
   */
  sync(): Promise<boolean> {
    if (!this.client) return Promise.resolve(false);
    if (!this.current) {
      this.current = this.ping();
      return this.current;
    }
    if (!this.queued) {
      this.queued = this.current.then(() => {
        this.queued = undefined;
        this.current = this.ping();
        return this.current;
      });
    }
    return this.queued;
  }

  private ping(): Promise<boolean> {
    const client = this.client;
    if (!client) return Promise.resolve(false);
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), SYNC_TIMEOUT_MS);
    });
    const answered = client.query('select 1').then(
      () => this.client === client,
      () => false,
    );
    const tracked: Promise<boolean> = Promise.race([answered, stalled]).then((ok) => {
      clearTimeout(timer);
      if (this.current === tracked) this.current = undefined;
      return ok;
    });
    return tracked;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    if (client) this.opts.onLost();
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    // Named, so operators (and tests) can tell it in pg_stat_activity.
    const client = new pg.Client({
      connectionString: this.opts.connectionString,
      application_name: `paydesk listen ${this.opts.channel}`,
    });
    client.on('notification', (n) => {
      if (n.channel === this.opts.channel && this.client === client) this.opts.onNotification(n.payload ?? '');
    });
    client.on('error', (err) => {
      this.opts.log?.warn({ err, channel: this.opts.channel }, 'listener connection failed');
      this.drop(client);
    });
    client.on('end', () => this.drop(client));
    try {
      await client.connect();
      await client.query(`listen ${this.opts.channel}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.reconnectDelay = RECONNECT_MIN_MS;
    this.opts.onListening();
  }

  private drop(client: pg.Client) {
    if (this.client !== client) return;
    this.client = undefined;
    this.opts.onLost();
    client.end().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    if (this.closed) return;
    const delay = this.reconnectDelay;
    this.reconnectDelay = Math.min(delay * 2, RECONNECT_MAX_MS);
    this.reconnectTimer = setTimeout(() => {
      this.connect().catch((err) => {
        this.opts.log?.error({ err, channel: this.opts.channel }, 'listener could not reconnect');
        this.scheduleReconnect();
      });
    }, delay);
    this.reconnectTimer.unref();
  }
}
