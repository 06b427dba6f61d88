import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

type Logger = Pick<FastifyBaseLogger, 'warn' | 'error'>;

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;

/**
 * LISTEN on one PostgreSQL channel over a dedicated connection (LISTEN belongs to a session, which a
 * pooled client would not keep), reconnecting with a growing delay when the connection is lost.
 * `onListening` and `onLost` tell the owner when notifications may have been missed: everything sent
 * between a loss and the next `onListening` never arrives.
 */
export class PgListener {
  private client: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelay = RECONNECT_MIN_MS;
  private closed = false;

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

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    if (client) this.opts.onLost();
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.opts.connectionString });
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
