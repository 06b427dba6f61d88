import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { guardTransactions } from './pglite-guard.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
/** One type for both drivers: services never know which database they run on. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** What a query function accepts: the database or a transaction of it. */
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The PostgreSQL connection string (kind 'postgres'): the job queue opens its own pool with it. */
  url?: string;
  /** The embedded database (kind 'pglite'): the job queue runs on the same instance (pg-boss fromPglite). */
  pglite?: PGlite;
  ping(): Promise<void>;
  close(): Promise<void>;
}

const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'drizzle');
/** Any fixed number: serialises migrations when several processes start at once. */
const MIGRATION_LOCK = 7_270_701;

/**
 * Opens the database and applies pending migrations. With a URL: PostgreSQL through node-postgres;
 * without: embedded PGlite in `dataDir` (or in memory when dataDir is undefined).
 */
export async function openDatabase(opts: {
  url?: string | undefined;
  dataDir?: string | undefined;
  /**
   * The embedded database's files to start from (PGlite's `dumpDataDir`), instead of an empty
   * database: tests start from a migrated copy rather than create and migrate one each time.
   */
  pgliteSnapshot?: Blob | undefined;
  /** Told when an idle pooled connection breaks (server restart, failover, admin termination). */
  onIdleError?: (error: Error) => void;
}): Promise<Database> {
  if (opts.url) {
    const pool = new pg.Pool({ connectionString: opts.url, max: 20 });
    // Without a listener, node-postgres turns an idle connection's error into an uncaught exception
    // and the process dies. The pool drops the broken connection and opens a new one when needed.
    pool.on('error', opts.onIdleError ?? ((error) => console.warn(`[db] idle connection lost: ${error.message}`)));
    const db = drizzleNodePg(pool, { schema }) as unknown as Db;
    const lockClient = await pool.connect();
    try {
      await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migrateNodePg(drizzleNodePg(pool, { schema }), { migrationsFolder });
    } finally {
      await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      lockClient.release();
    }
    return {
      db,
      kind: 'postgres',
      url: opts.url,
      ping: async () => {
        await pool.query('select 1');
      },
      close: () => pool.end(),
    };
  }
  const client = new PGlite({
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.pgliteSnapshot ? { loadDataDir: opts.pgliteSnapshot } : {}),
  });
  await client.waitReady;
  guardTransactions(client);
  const pgliteDb = drizzlePglite(client, { schema });
  await migratePglite(pgliteDb, { migrationsFolder });
  return {
    db: pgliteDb as unknown as Db,
    kind: 'pglite',
    pglite: client,
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
  };
}

/**
 * A new PostgreSQL database beside the one `baseUrl` names, for tests: empty, or a copy of `template`
 * (a database nobody is connected to, e.g. one already migrated). Drop it when done.
 */
export async function createScratchDatabase(
  baseUrl: string,
  opts: { template?: string | undefined } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `paydesk_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}${opts.template ? ` template ${pg.escapeIdentifier(opts.template)}` : ''}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
