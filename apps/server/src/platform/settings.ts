import {
  isSettingKey,
  SETTING_KEYS,
  SETTINGS,
  type SettingDef,
  type SettingKey,
  type SettingValue,
  settingValueSchema,
} from '@paydesk/contract';
import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db, DbOrTx } from '../db/client.js';
import { systemSettings } from '../db/schema.js';
import type { Clock } from './clock.js';
import { openSecret, sealSecret } from './crypto.js';
import { PgListener } from './pg-listener.js';

type Logger = Pick<FastifyBaseLogger, 'warn' | 'error'>;

/** Every key of the registry with its current value (a secret opened: for the server's own use only). */
export type SettingValues = { readonly [K in SettingKey]: SettingValue<K> };

/** A stored row of a key, as the config page shows who changed it. */
export interface StoredSetting {
  key: SettingKey;
  updatedAt: Date;
  updatedBy: number | null;
}

/** The channel every process hears a committed change of a setting on (payload: the key). */
export const SETTINGS_CHANNEL = 'paydesk_settings';
/**
 * How long values read from the database are trusted while changes are not heard (no listener yet, or
 * its connection lost): the registry's promise is that a change acts everywhere within a second.
 */
export const UNHEARD_TTL_MS = 1_000;

/**
 * Told when this process hears that a setting changed: its key, or null when anything may have changed
 * (the listener came back after its connection was lost, so changes made meanwhile went unheard).
 */
export type SettingChangeListener = (key: SettingKey | null) => void;

/** A sealed secret as it is stored: never a bare string, so a plain value can never be read as sealed. */
interface SealedValue {
  sealed: string;
}
const isSealed = (v: unknown): v is SealedValue =>
  typeof v === 'object' && v !== null && typeof (v as { sealed?: unknown }).sealed === 'string';

/**
 * The system settings of the registry (contract settings/registry.ts) as every part of the server reads
 * them: typed, with their defaults, from one cached read of `system_settings`. A change is written by
 * `write` inside the caller's transaction, which also notifies every process (PostgreSQL NOTIFY, heard
 * by a LISTEN of each process; PGlite's own notifications); a process forgets its cached values when it
 * hears one, and trusts them at most UNHEARD_TTL_MS while it cannot hear.
 */
export class SettingsStore {
  private cached: { at: number; values: SettingValues } | null = null;
  /** Bumped by every forget, so a read that started before it does not cache what it read. */
  private generation = 0;
  private hearing = false;
  private listener: PgListener | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private log: Logger | undefined;
  private readonly changeListeners = new Set<SettingChangeListener>();
  /** Whether the listener has lost its connection since it first listened (its return is then told). */
  private lostSinceListening = false;

  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      secretKey: Buffer;
      /** To hear other processes' changes; without it values are re-read after UNHEARD_TTL_MS. */
      database?: Database;
    },
  ) {}

  /**
   * Every value. Inside a transaction pass it as `db`: a read on the pool would, on the embedded
   * database (one connection), wait for that transaction to end while the transaction waits for it.
   */
  async values(db: DbOrTx = this.deps.db): Promise<SettingValues> {
    // Monotonic time, not the clock: how fresh a cache is has nothing to do with business time.
    const now = performance.now();
    const cached = this.cached;
    if (cached && (this.hearing || (now >= cached.at && now - cached.at < UNHEARD_TTL_MS))) return cached.values;
    const generation = this.generation;
    const values = await this.readAll(db);
    if (generation === this.generation) this.cached = { at: now, values };
    return values;
  }

  async get<K extends SettingKey>(key: K, db?: DbOrTx): Promise<SettingValue<K>> {
    return (await this.values(db))[key];
  }

  /** When each changed key was last written, and by whom. */
  async stored(db: DbOrTx = this.deps.db): Promise<StoredSetting[]> {
    const rows = await db
      .select({ key: systemSettings.key, updatedAt: systemSettings.updatedAt, updatedBy: systemSettings.updatedBy })
      .from(systemSettings)
      .where(inArray(systemSettings.key, SETTING_KEYS));
    return rows as StoredSetting[];
  }

  /**
   * Writes a key inside the caller's transaction (a secret sealed; a cleared secret removes its row)
   * and notifies every process when it commits. Call `forget` after the commit so this process's next
   * read sees it at once.
   */
  async write<K extends SettingKey>(tx: DbOrTx, key: K, value: SettingValue<K>, by: number | null): Promise<void> {
    const def: SettingDef = SETTINGS[key];
    const parsed = settingValueSchema(key).parse(value) as unknown;
    if (parsed === null) {
      await tx.delete(systemSettings).where(eq(systemSettings.key, key));
    } else {
      const stored =
        def.type.kind === 'secret' ? { sealed: sealSecret(parsed as string, this.deps.secretKey) } : parsed;
      const now = this.deps.clock.now();
      await tx
        .insert(systemSettings)
        .values({ key, value: stored, updatedAt: now, updatedBy: by })
        .onConflictDoUpdate({ target: systemSettings.key, set: { value: stored, updatedAt: now, updatedBy: by } });
    }
    await tx.execute(sql`select pg_notify(${SETTINGS_CHANNEL}, ${key})`);
  }

  /** Whether this process hears changes now (its cache then lives until one is heard). */
  isHearing(): boolean {
    return this.hearing;
  }

  /** Forgets the cached values in this process (after a committed write, or when one is heard). */
  forget(): void {
    this.generation += 1;
    this.cached = null;
  }

  /**
   * Calls `listener` for every change this process hears (its own and every other process's, each
   * once, after the change committed). Returns the way to stop.
   */
  onChange(listener: SettingChangeListener): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** A notification on SETTINGS_CHANNEL: forget the cache, then tell the listeners. */
  private heard(payload: string | undefined) {
    this.forget();
    this.tell(payload !== undefined && isSettingKey(payload) ? payload : null);
  }

  private tell(key: SettingKey | null) {
    for (const listener of this.changeListeners) {
      try {
        listener(key);
      } catch (err) {
        this.log?.error({ err, key }, 'settings: a change listener failed');
      }
    }
  }

  /** Starts hearing changes of every process; never throws (values are then re-read every second). */
  async start(log?: Logger): Promise<void> {
    this.log = log;
    const database = this.deps.database;
    if (!database || this.listener || this.unlisten) return;
    if (database.kind === 'pglite' && database.pglite) {
      try {
        this.unlisten = await database.pglite.listen(SETTINGS_CHANNEL, (payload) => this.heard(payload));
        this.hear(true);
      } catch (err) {
        log?.error({ err }, 'settings: could not listen; values are re-read every second');
      }
      return;
    }
    if (!database.url) return;
    this.listener = new PgListener({
      connectionString: database.url,
      channel: SETTINGS_CHANNEL,
      onNotification: (payload) => this.heard(payload),
      // What changed while nobody listened is unknown: read again, and tell the listeners so.
      onListening: () => {
        this.hear(true);
        if (this.lostSinceListening) this.tell(null);
        this.lostSinceListening = false;
      },
      onLost: () => {
        this.hear(false);
        this.lostSinceListening = true;
      },
      log,
    });
    await this.listener.start();
  }

  async stop(): Promise<void> {
    this.hear(false);
    const listener = this.listener;
    const unlisten = this.unlisten;
    this.listener = undefined;
    this.unlisten = undefined;
    await listener?.close();
    await unlisten?.().catch(() => undefined);
  }

  private hear(on: boolean) {
    this.hearing = on;
    this.forget();
  }

  /** Every value read from the database now, past the cache (what a change's audit calls before). */
  async readAll(db: DbOrTx): Promise<SettingValues> {
    const rows = await db
      .select({ key: systemSettings.key, value: systemSettings.value })
      .from(systemSettings)
      .where(inArray(systemSettings.key, SETTING_KEYS));
    const values: Record<string, unknown> = Object.fromEntries(SETTING_KEYS.map((k) => [k, SETTINGS[k].default]));
    for (const row of rows) values[row.key] = this.decode(row.key as SettingKey, row.value);
    return values as SettingValues;
  }

  /** A stored value, or the key's default (logged) when it is not one the registry allows. */
  private decode(key: SettingKey, stored: unknown): unknown {
    const def: SettingDef = SETTINGS[key];
    if (def.type.kind === 'secret') {
      if (!isSealed(stored)) return this.fallBack(key, 'not sealed');
      try {
        return openSecret(stored.sealed, this.deps.secretKey);
      } catch {
        return this.fallBack(key, 'cannot be opened with this server key');
      }
    }
    // Rows written before the registry: {enable} or {value} around the plain value.
    const plain =
      typeof stored === 'object' && stored !== null && !Array.isArray(stored) && def.type.kind !== 'structured'
        ? ((stored as { enable?: unknown; value?: unknown }).enable ?? (stored as { value?: unknown }).value)
        : stored;
    const parsed = settingValueSchema(key).safeParse(plain);
    return parsed.success ? parsed.data : this.fallBack(key, 'not a value its type allows');
  }

  private fallBack(key: SettingKey, why: string): unknown {
    this.log?.warn({ key }, `settings: the stored value is ${why}; the default applies`);
    return SETTINGS[key].default;
  }
}
