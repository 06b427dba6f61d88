import { createHash } from 'node:crypto';
import { getTableColumns, type InferSelectModel, type Table } from 'drizzle-orm';
import type { DbOrTx } from './client.js';

/** The rows of a raw `execute` (node-postgres answers { rows }, PGlite too; some drivers an array). */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}

/**
 * A row of `table` as a raw statement returned it (column names, driver values), as drizzle's query
 * builder would have answered it: used where several writes share one statement (a data-modifying
 * WITH) to save round trips, and one of them returns the table's row.
 */
export function tableRow<T extends Table>(table: T, raw: Record<string, unknown>): InferSelectModel<T> {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as InferSelectModel<T>;
}

interface Executable {
  execute(): Promise<unknown>;
}

/**
 * A hot statement written once as SQL text with named parameters (`v.amount` reads `$n`; a name used
 * twice is one parameter), run as a named statement, which node-postgres parses and PostgreSQL plans
 * once per connection (PGlite ignores the name). Nothing is built per call: on the order-create path
 * drizzle's query building cost more of the server's CPU than node-postgres did. It goes through
 * drizzle's session (its type parsers, logging), whose `prepareQuery` is a drizzle internal, stable
 * across its 0.x releases. Rows come back as the driver gives them (column names, driver values; see
 * `tableRow`). The text is fixed, so one name always means one text.
 */
export function statement<P extends string>(
  build: (v: Record<P, string>) => string,
  options: {
    /**
     * Planned at each run for its values (an unnamed statement) instead of once per connection. A
     * named statement's plan is fixed after its fifth run, on the connection's first calls, when a
     * table that grows all day may be empty and the planner cannot tell its indexes apart.
     */
    replan?: boolean;
  } = {},
) {
  const names: P[] = [];
  const placeholders = new Proxy({} as Record<P, string>, {
    get(_target, key) {
      const name = String(key) as P;
      if (!names.includes(name)) names.push(name);
      return `$${names.indexOf(name) + 1}`;
    },
  });
  const text = build(placeholders);
  const name = options.replan ? undefined : `pd_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
  return {
    text,
    async rows<T>(db: DbOrTx, values: Record<P, unknown>): Promise<T[]> {
      const internals = db as unknown as {
        session: {
          prepareQuery(
            query: { sql: string; params: unknown[] },
            fields: undefined,
            name: string | undefined,
            arrayMode: boolean,
          ): Executable;
        };
      };
      const query = { sql: text, params: names.map((n) => values[n]) };
      return rowsOf<T>(await internals.session.prepareQuery(query, undefined, name, false).execute());
    },
  };
}
