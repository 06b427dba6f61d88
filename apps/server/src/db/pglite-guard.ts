import { AsyncLocalStorage } from 'node:async_hooks';
import type { PGlite } from '@electric-sql/pglite';

/**
 * The embedded database has one connection, and PGlite runs a statement only while no transaction is
 * open. A statement sent to the database itself (not through the open transaction) from inside that
 * transaction's work waits for the transaction to end, while the transaction waits for it: nothing
 * ever moves again, and every later query of the process queues behind the two (a server that still
 * answers /healthz and nothing else). On PostgreSQL the same code takes a second pooled connection and
 * works, so tests there never show it.
 *
 * `guardTransactions` makes such a statement fail at once, naming what to do, instead of hanging: it
 * tracks which async work belongs to an open transaction (AsyncLocalStorage) and refuses the database's
 * own entry points there. The transaction's own object (`tx`) is not wrapped, so its statements run.
 */
export const OUTSIDE_TRANSACTION_MESSAGE =
  'a statement on the embedded database was sent from inside one of its open transactions without ' +
  'going through that transaction: it would wait for the transaction for ever (pass the transaction)';

const ENTRY_POINTS = ['query', 'sql', 'exec', 'transaction', 'describeQuery'] as const;

export function guardTransactions(client: PGlite): void {
  const open = new AsyncLocalStorage<{ open: boolean }>();
  const methods = client as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  for (const name of ENTRY_POINTS) {
    const original = methods[name];
    if (typeof original !== 'function') continue;
    const bound = original.bind(client);
    methods[name] = (...args: unknown[]) => {
      if (open.getStore()?.open) return Promise.reject(new Error(OUTSIDE_TRANSACTION_MESSAGE));
      if (name !== 'transaction') return bound(...args);
      const work = args[0] as (tx: unknown) => Promise<unknown>;
      return bound(async (tx: unknown) => {
        const store = { open: true };
        try {
          return await open.run(store, () => work(tx));
        } finally {
          // Work this transaction started but did not wait for may query once it has ended.
          store.open = false;
        }
      });
    };
  }
}
