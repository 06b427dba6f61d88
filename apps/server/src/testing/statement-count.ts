import { AsyncLocalStorage } from 'node:async_hooks';
import { NodePgPreparedQuery } from 'drizzle-orm/node-postgres/session';
import { PglitePreparedQuery, PgliteSession } from 'drizzle-orm/pglite/session';

/**
 * Counts the statements a piece of work sends to the database (its round trips on PostgreSQL), for
 * tests that keep a hot path's cost from creeping back up. Every statement goes through a drizzle
 * prepared query (the `statement` helper too); a transaction's BEGIN and COMMIT are statements of
 * their own on node-postgres, and are counted as such on PGlite (which sends them itself), so both
 * databases count alike. Only statements sent from within `counted`'s work are counted (an async
 * context), not a background sealer's or folder's meanwhile.
 */
const current = new AsyncLocalStorage<{ texts: string[]; open: boolean }>();
let installed = false;

function record(text: string): void {
  const store = current.getStore();
  if (store?.open) store.texts.push(text);
}

function install(): void {
  if (installed) return;
  installed = true;
  for (const proto of [NodePgPreparedQuery.prototype, PglitePreparedQuery.prototype] as unknown as Array<
    Record<'execute' | 'all', (...args: unknown[]) => Promise<unknown>>
  >) {
    for (const method of ['execute', 'all'] as const) {
      const original = proto[method];
      proto[method] = function (this: { rawQueryConfig?: { text?: string }; queryString?: string }, ...args) {
        record(this.rawQueryConfig?.text ?? this.queryString ?? '?');
        return original.apply(this, args);
      };
    }
  }
  const session = PgliteSession.prototype as unknown as Record<
    'transaction',
    (this: unknown, work: (tx: unknown) => Promise<unknown>, config?: unknown) => Promise<unknown>
  >;
  const transaction = session.transaction;
  session.transaction = async function (this: unknown, work, config) {
    record('begin');
    const result = await transaction.call(this, work, config);
    record('commit');
    return result;
  };
}

/** Runs `work` and answers its result with the text of every statement it sent, in order. */
export async function counted<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  install();
  const store = { texts: [] as string[], open: true };
  try {
    const result = await current.run(store, work);
    return { result, statements: store.texts };
  } finally {
    // Work the call left behind (a sealer's timer set during it) is not part of it.
    store.open = false;
  }
}
