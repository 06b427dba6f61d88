import { ENTITY_TABLES, type EntityColumn, type EntityTable, SETTINGS } from '@paydesk/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/raw-rows.js';
import { invalid } from '../../platform/errors.js';
import { keysetRowsAfter } from '../../platform/export.js';

/**
 * The entity data view (DESIGN section 10): a read-only page of one main table, newest first by its
 * primary key, optionally where one column's text equals a value. The tables are the contract's list
 * and the columns the database's own (information_schema), so a query names only identifiers that
 * exist; values are always parameters. Secrets never leave: the columns below, and any column whose
 * name says it holds one, answer only 'set'; stored bytes answer their size; a secret setting's sealed
 * value answers 'set'.
 */
const SECRET_COLUMNS: Partial<Record<EntityTable, readonly string[]>> = {
  users: ['password_hash', 'pay_password_hash', 'google_secret', 'pending_google_secret'],
  sessions: ['token_hash', 'token2_hash'],
  merchants: ['secret_sealed'],
  resources: ['secret_sealed'],
};
/** A column added later that holds a secret is masked before anyone remembers to list it. */
const SECRET_NAME = /password|secret|sealed|token_hash|token2_hash/;
const SECRET_SETTINGS = Object.entries(SETTINGS)
  .filter(([, def]) => def.type.kind === 'secret')
  .map(([key]) => key);

/** A row's primary key rides along in an export under these names (no table has such a column). */
const KEY_PREFIX = '__key';

interface Filter {
  table: EntityTable;
  column?: string | null | undefined;
  value?: string | null | undefined;
}

interface TableInfo {
  columns: EntityColumn[];
  primaryKey: string[];
}

export class EntityData {
  private readonly info = new Map<EntityTable, TableInfo>();

  constructor(private readonly db: Db) {}

  async tables(): Promise<Array<{ table: EntityTable; columns: EntityColumn[] }>> {
    const out = [];
    for (const table of ENTITY_TABLES) out.push({ table, columns: (await this.tableInfo(table)).columns });
    return out;
  }

  async rows(input: Filter & { pageIndex: number; pageSize: number }): Promise<{
    list: Array<Record<string, string | null>>;
    pageIndex: number;
    pageSize: number;
    hasMore: boolean;
  }> {
    const { select, where, order } = await this.query(input);
    const offset = (input.pageIndex - 1) * input.pageSize;
    const rows = rowsOf<Record<string, string | null>>(
      await this.db.execute(
        sql`select ${select} from ${sql.identifier(input.table)} where ${where} order by ${order} limit ${input.pageSize + 1} offset ${offset}`,
      ),
    );
    const list = rows.slice(0, input.pageSize).map((row) => this.masked(input.table, row));
    return { list, pageIndex: input.pageIndex, pageSize: input.pageSize, hasMore: rows.length > input.pageSize };
  }

  /**
   * The same rows as a CSV export, newest first, read in batches after the last row's primary key (a
   * keyset, so a million-row table streams with flat memory), at most EXPORT_ROW_LIMIT.
   */
  async *export(input: Filter, batchSize = 1000): AsyncGenerator<Record<string, string | null>> {
    const { info, select, where, order } = await this.query(input);
    const keys = info.primaryKey.map((name) => info.columns.find((c) => c.name === name) ?? { name, type: 'text' });
    // Each row carries its key as text under its own names; the next batch starts after it, the text
    // cast back to the key's own types (information_schema's names, never the caller's).
    const keyText = sql.join(
      keys.map((k, i) => sql`${sql.identifier(k.name)}::text as ${sql.identifier(`${KEY_PREFIX}${i}`)}`),
      sql`, `,
    );
    const keyColumns = sql.join(
      keys.map((k) => sql.identifier(k.name)),
      sql`, `,
    );
    const batches = keysetRowsAfter<Record<string, string | null>>(async (last, limit) => {
      const after = last
        ? sql` and (${keyColumns}) < (${sql.join(
            keys.map((k, i) => sql`cast(${last[`${KEY_PREFIX}${i}`]} as ${sql.raw(k.type)})`),
            sql`, `,
          )})`
        : sql``;
      return rowsOf<Record<string, string | null>>(
        await this.db.execute(
          sql`select ${select}, ${keyText} from ${sql.identifier(input.table)} where ${where}${after} order by ${order} limit ${limit}`,
        ),
      );
    }, batchSize);
    for await (const row of batches) {
      const shown = Object.fromEntries(Object.entries(row).filter(([name]) => !name.startsWith(KEY_PREFIX)));
      yield this.masked(input.table, shown);
    }
  }

  /** The select list (secrets as set, bytes as their size), the filter and the newest-first order. */
  private async query(input: Filter) {
    const info = await this.tableInfo(input.table);
    let where: SQL = sql`true`;
    if (input.column) {
      const column = info.columns.find((c) => c.name === input.column);
      if (column?.kind !== 'value') {
        throw invalid([{ path: 'column', message: `no column '${input.column}' of ${input.table} to filter by` }]);
      }
      where =
        input.value === null || input.value === undefined
          ? sql`${sql.identifier(column.name)} is null`
          : sql`${sql.identifier(column.name)}::text = ${input.value}`;
    }
    const select = sql.join(
      info.columns.map((c) => {
        const id = sql.identifier(c.name);
        if (c.kind === 'secret') return sql`case when ${id} is null then null else 'set' end as ${id}`;
        if (c.kind === 'bytes') return sql`octet_length(${id})::text as ${id}`;
        return sql`${id}::text as ${id}`;
      }),
      sql`, `,
    );
    // Qualified: a bare name would sort by the select list's text of it ('9' after '34').
    const order = sql.join(
      info.primaryKey.map((k) => sql`${sql.identifier(input.table)}.${sql.identifier(k)} desc`),
      sql`, `,
    );
    return { info, select, where, order };
  }

  /** A secret setting's row: its sealed value is a secret too. */
  private masked(table: EntityTable, row: Record<string, string | null>): Record<string, string | null> {
    if (table === 'system_settings' && row.key && SECRET_SETTINGS.includes(row.key) && row.value !== null) {
      return { ...row, value: 'set' };
    }
    return row;
  }

  private async tableInfo(table: EntityTable): Promise<TableInfo> {
    const known = this.info.get(table);
    if (known) return known;
    const columns = rowsOf<{ name: string; type: string }>(
      await this.db.execute(sql`
        select column_name as name, data_type as type
          from information_schema.columns
         where table_schema = 'public' and table_name = ${table}
         order by ordinal_position`),
    );
    const primaryKey = rowsOf<{ name: string }>(
      await this.db.execute(sql`
        select k.column_name as name
          from information_schema.table_constraints c
          join information_schema.key_column_usage k
            on k.constraint_name = c.constraint_name and k.table_schema = c.table_schema and k.table_name = c.table_name
         where c.table_schema = 'public' and c.table_name = ${table} and c.constraint_type = 'PRIMARY KEY'
         order by k.ordinal_position`),
    ).map((r) => r.name);
    const secrets = SECRET_COLUMNS[table] ?? [];
    const info: TableInfo = {
      columns: columns.map((c) => ({
        name: c.name,
        type: c.type,
        kind: c.type === 'bytea' ? 'bytes' : secrets.includes(c.name) || SECRET_NAME.test(c.name) ? 'secret' : 'value',
      })),
      primaryKey: primaryKey.length > 0 ? primaryKey : [columns[0]!.name],
    };
    this.info.set(table, info);
    return info;
  }
}
