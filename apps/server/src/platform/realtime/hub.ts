import { type Role, roleSchema, type WsEvent, wsTopicSchema } from '@paydesk/contract';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { z } from 'zod';
import type { Database } from '../../db/client.js';
import { PgListener } from '../pg-listener.js';
import type { SessionUser } from '../sessions.js';

/** The PostgreSQL channel every server process LISTENs on. */
export const REALTIME_CHANNEL = 'paydesk_realtime';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; PGlite mode keeps the same limit. */
export const MAX_EVENT_BYTES = 7_999;
/** Topics one socket may follow at once: bounds the memory a client can make the server hold. */
export const MAX_TOPICS_PER_CONNECTION = 32;

/**
 * Who receives an event among the subscribers of its topic: the listed users and the listed roles
 * (a union). Without either, every subscriber does, so publishers of private data must name one.
 */
export interface Audience {
  userIds?: readonly number[];
  roles?: readonly Role[];
}

/** A connected socket as the hub sees it: the hub hands it serialised event frames. */
export interface RealtimeConnection {
  send(text: string): void;
}

type Logger = Pick<FastifyBaseLogger, 'warn' | 'error'>;

/** What travels in a NOTIFY: it comes back to every process, this one included. */
const messageSchema = z.object({
  topic: z.string(),
  data: z.unknown(),
  audience: z.object({
    userIds: z.array(z.number().int()).optional(),
    roles: z.array(roleSchema).optional(),
  }),
});
type Message = z.infer<typeof messageSchema>;

/** A published event waiting for its NOTIFY. */
interface PendingEvent {
  payload: string;
  resolve(): void;
  reject(error: unknown): void;
}

interface Entry {
  user: SessionUser;
  topics: Set<string>;
}

/** The connection string behind a node-postgres database (drizzle keeps its pool as `$client`). */
export function connectionStringOf(database: Database): string | undefined {
  const client = (database.db as unknown as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client.options.connectionString : undefined;
}

/**
 * Realtime fan-out (DESIGN section 2). Modules call `publish`; the hub delivers the event to the sockets
 * of this process subscribed to the topic and in the audience. With PostgreSQL every event goes through
 * NOTIFY (those published together in one, see `enqueue`) and each process delivers what its own LISTEN
 * connection receives, so all processes (this one included) see the same events in the same order. With PGlite there is one process: delivery is direct.
 *
 * Delivery is at most once: an event published while a listener is reconnecting is lost, so the
 * console refetches its lists after reconnecting. Events carry ids and small summaries, not rows.
 */
export class RealtimeHub {
  private readonly connections = new Map<RealtimeConnection, Entry>();
  private readonly byTopic = new Map<string, Set<RealtimeConnection>>();
  private listener: PgListener | undefined;
  private started = false;
  private log: Logger | undefined;
  private readonly pending: PendingEvent[] = [];
  private sending = false;

  constructor(private readonly deps: { database: Database; url?: string | undefined }) {}

  /**
   * Publishes an event to the subscribers of `topic` in `audience`, in every process. Call it after
   * the transaction that made the change has committed. Refuses events over MAX_EVENT_BYTES.
   */
  async publish(topic: string, data: unknown, audience: Audience = {}): Promise<void> {
    const valid = wsTopicSchema.safeParse(topic);
    if (!valid.success) throw new Error(`realtime topic '${topic}' is invalid: ${valid.error.issues[0]?.message}`);
    const { userIds, roles } = audience;
    const message: Message = {
      topic,
      data,
      audience: { ...(userIds && { userIds: [...userIds] }), ...(roles && { roles: [...roles] }) },
    };
    const payload = JSON.stringify(message);
    const bytes = Buffer.byteLength(payload);
    if (bytes > MAX_EVENT_BYTES) {
      throw new Error(
        `realtime event on '${topic}' is ${bytes} bytes, over the ${MAX_EVENT_BYTES}-byte limit of PostgreSQL NOTIFY: publish ids and let clients fetch the rows`,
      );
    }
    if (this.deps.database.kind === 'postgres') {
      await this.enqueue(payload);
    } else {
      this.deliver(message);
    }
  }

  /**
   * Delivers an event to the subscribers in `audience` of this process only, for a change every process
   * hears by itself (a setting's NOTIFY: see settings-push.ts), where a `publish` from each would repeat
   * it once per process.
   */
  deliverHere(topic: string, data: unknown, audience: Audience = {}): void {
    const valid = wsTopicSchema.safeParse(topic);
    if (!valid.success) throw new Error(`realtime topic '${topic}' is invalid: ${valid.error.issues[0]?.message}`);
    const { userIds, roles } = audience;
    this.deliver({
      topic,
      data,
      audience: { ...(userIds && { userIds: [...userIds] }), ...(roles && { roles: [...roles] }) },
    });
  }

  /**
   * Sends a message with the others published meanwhile: one NOTIFY carries a JSON array of as many
   * as fit in its limit, and one NOTIFY is in flight at a time (what is published while it is sent
   * goes in the next). Under load a NOTIFY per event cost a round trip each, and NOTIFY takes a
   * database-wide lock at commit. Resolves once the message is sent.
   */
  private enqueue(payload: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ payload, resolve, reject });
      if (!this.sending) void this.sendPending();
    });
  }

  private async sendPending(): Promise<void> {
    this.sending = true;
    try {
      while (this.pending.length > 0) {
        // Let the publishes of this turn of the event loop join the batch.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const batch: PendingEvent[] = [];
        let bytes = 2; // the brackets
        while (this.pending.length > 0) {
          const next = this.pending[0]!;
          const size = Buffer.byteLength(next.payload) + (batch.length > 0 ? 1 : 0);
          if (batch.length > 0 && bytes + size > MAX_EVENT_BYTES) break;
          batch.push(this.pending.shift()!);
          bytes += size;
        }
        const text = batch.length === 1 ? batch[0]!.payload : `[${batch.map((e) => e.payload).join(',')}]`;
        try {
          await this.deps.database.db.execute(sql`select pg_notify(${REALTIME_CHANNEL}, ${text})`);
          for (const e of batch) e.resolve();
        } catch (error) {
          for (const e of batch) e.reject(error);
        }
      }
    } finally {
      this.sending = false;
    }
  }

  /** Starts listening for events of every process (PostgreSQL only). Called by the process serving sockets. */
  async start(log?: Logger): Promise<void> {
    this.log = log;
    if (this.started || this.deps.database.kind !== 'postgres') return;
    this.started = true;
    const connectionString = this.deps.url ?? connectionStringOf(this.deps.database);
    if (!connectionString) throw new Error('realtime on PostgreSQL needs the database URL to LISTEN');
    this.listener = new PgListener({
      connectionString,
      channel: REALTIME_CHANNEL,
      onNotification: (payload) => {
        if (payload) this.receive(payload);
      },
      // Events sent while it reconnects are lost: consoles refetch after their own reconnect (above).
      onListening: () => undefined,
      onLost: () => undefined,
      log: this.log,
    });
    await this.listener.start();
  }

  async close(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    await listener?.close();
    this.connections.clear();
    this.byTopic.clear();
  }

  /** Records who is behind a connection; called on every command with the freshly resolved session. */
  identify(conn: RealtimeConnection, user: SessionUser): void {
    const entry = this.connections.get(conn);
    if (entry) entry.user = user;
    else this.connections.set(conn, { user, topics: new Set() });
  }

  /** Adds a topic to an identified connection; null when it already follows too many. */
  subscribe(conn: RealtimeConnection, topic: string): string[] | null {
    const entry = this.connections.get(conn);
    if (!entry) throw new Error('subscribe before identify');
    if (!entry.topics.has(topic) && entry.topics.size >= MAX_TOPICS_PER_CONNECTION) return null;
    entry.topics.add(topic);
    let set = this.byTopic.get(topic);
    if (!set) {
      set = new Set();
      this.byTopic.set(topic, set);
    }
    set.add(conn);
    return [...entry.topics];
  }

  unsubscribe(conn: RealtimeConnection, topic: string): string[] {
    const entry = this.connections.get(conn);
    if (!entry) return [];
    entry.topics.delete(topic);
    this.dropFromTopic(conn, topic);
    return [...entry.topics];
  }

  /** Forgets a connection (closed, or its session ended). */
  remove(conn: RealtimeConnection): void {
    const entry = this.connections.get(conn);
    if (!entry) return;
    for (const topic of entry.topics) this.dropFromTopic(conn, topic);
    this.connections.delete(conn);
  }

  /** Identified connections of this process. */
  get connectionCount(): number {
    return this.connections.size;
  }

  private dropFromTopic(conn: RealtimeConnection, topic: string) {
    const set = this.byTopic.get(topic);
    set?.delete(conn);
    if (set?.size === 0) this.byTopic.delete(topic);
  }

  private deliver(message: Message) {
    const subscribers = this.byTopic.get(message.topic);
    if (!subscribers) return;
    const frame: WsEvent = { type: 'event', topic: message.topic, data: message.data };
    const text = JSON.stringify(frame);
    const { userIds, roles } = message.audience;
    const everyone = !userIds && !roles;
    for (const conn of subscribers) {
      const user = this.connections.get(conn)?.user;
      if (!user) continue;
      if (!everyone && !userIds?.includes(user.userId) && !roles?.includes(user.role)) continue;
      try {
        conn.send(text);
      } catch (err) {
        // One broken socket must not keep the event from the others.
        this.log?.warn({ err }, 'realtime delivery failed');
      }
    }
  }

  /** A notification: one message, or an array of them (a batch, see `enqueue`). */
  private receive(payload: string) {
    const value = parseJson(payload);
    for (const item of Array.isArray(value) ? value : [value]) {
      const parsed = messageSchema.safeParse(item);
      if (!parsed.success) {
        this.log?.warn({ payload: payload.slice(0, 200) }, 'ignored a malformed realtime notification');
        continue;
      }
      this.deliver(parsed.data);
    }
  }
}

/** The value of a JSON text, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
