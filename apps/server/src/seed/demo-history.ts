import type { OrderClearRun } from '@paydesk/contract';
import type { FakeGateway } from '../../../../tools/fake-gateway/fake-gateway.js';
import type { Services } from '../app.js';
import { writeDemoHistory } from '../modules/system/demo-history.js';
import type { ManualClock } from '../platform/clock.js';
import { type DemoOrdersSummary, seedDemoOrders } from './demo-orders.js';
import { runDemoOrderClear } from './demo-system.js';

/** The history writes its progress for the console's notice every this many orders. */
const PROGRESS_EVERY = 50;

/** The history the first start planned: made by `makeDemoHistory` once the server listens. */
export interface PendingHistory {
  services: Services;
  clock: ManualClock;
  end: Date;
  count: number;
  timeZone: string;
  /** DEMO_GATEWAY_PORT: where the demo's gateway payout account points. */
  gatewayPort: number;
  /** The live fake gateway of `npm start` when it runs (main.ts); the history starts its own otherwise. */
  gateway?: FakeGateway | null;
}

/** The history's orders, and the order clear run made over them (null when it could not be made). */
export interface DemoHistorySummary extends DemoOrdersSummary {
  orderClear: OrderClearRun | null;
}

export interface DemoHistoryRun {
  /** The summary when the history is complete; null when `stop` cut it short. */
  finished: Promise<DemoHistorySummary | null>;
  /** Ends the history after the step in hand (each step is a whole transaction) and waits for it. */
  stop(): Promise<void>;
}

/**
 * Makes the planned history with the engine (seedDemoOrders), writing its progress for the console
 * every 50 orders and telling `log` every 500, then one order clear run over it (runDemoOrderClear:
 * the order clear history page has a run with real counts). The caller starts the background jobs
 * once it is done: their timeouts and callback deliveries run on the real clock and would overtake
 * the history's.
 */
export function makeDemoHistory(
  pending: PendingHistory,
  log: (line: string) => void = () => undefined,
): DemoHistoryRun {
  const db = pending.services.orders.deps.db;
  const abort = new AbortController();
  const planned = pending.count;
  // Progress writes go one after another, and the last one is awaited before the final state.
  let writing: Promise<void> = Promise.resolve();
  const progress = (made: number) => {
    if (made % 500 === 0) log(`  ${made.toLocaleString('en-US')} demo orders made...`);
    writing = writing.then(() =>
      writeDemoHistory(db, { state: 'making', made, planned, beatAt: new Date().toISOString() }),
    );
  };
  const finished = (async () => {
    let summary: DemoOrdersSummary;
    try {
      summary = await seedDemoOrders({
        services: pending.services,
        clock: pending.clock,
        end: pending.end,
        count: pending.count,
        timeZone: pending.timeZone,
        progressEvery: PROGRESS_EVERY,
        onProgress: progress,
        signal: abort.signal,
        gateway: pending.gateway,
        gatewayPort: pending.gatewayPort,
      });
    } catch (error) {
      // Not made again by a later start either: the console's notice must not wait for ever.
      await writing.catch(() => undefined);
      await writeDemoHistory(db, { state: 'interrupted', made: 0, planned, beatAt: new Date().toISOString() });
      throw error;
    }
    await writing;
    if (summary.interrupted) return null;
    // Its failure costs the demo a row of a system page, not the history: said, and the rest goes on.
    const orderClear = await runDemoOrderClear(pending.services).catch((error: unknown) => {
      log(`The demo's order clear run failed: ${(error as Error).message}`);
      return null;
    });
    await writeDemoHistory(db, { state: 'done', made: summary.orders, planned, beatAt: new Date().toISOString() });
    return { ...summary, orderClear };
  })();
  return {
    finished,
    stop: async () => {
      abort.abort();
      await finished.catch(() => undefined);
    },
  };
}
