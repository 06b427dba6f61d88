import { type NoteTemplate, noteParts, type OrderEventKind } from '@paydesk/contract';
import type { Tx } from '../../db/client.js';
import { tableRow } from '../../db/raw-rows.js';
import { orderEvents, orders } from '../../db/schema.js';
import type { Actor } from '../../platform/audit.js';
import { MOVE_STATE, MOVE_STATES } from './statements.js';

/**
 * The orders module owns an order's state: every change of it is written here or by OrdersService,
 * each with its timeline row (order_events). Other modules (callbacks) ask through `moveOrderState`.
 */

type OrderRecord = typeof orders.$inferSelect;

/** The timeline row of one event of an order (`fromState`/`toState` null: the state did not change). */
export function orderEventRow(
  order: Pick<OrderRecord, 'id'>,
  kind: OrderEventKind,
  fromState: number | null,
  toState: number | null,
  actor: Actor | null,
  text: string | NoteTemplate,
  now: Date,
): typeof orderEvents.$inferInsert {
  return {
    orderId: order.id,
    kind,
    fromState,
    toState,
    actorUserId: actor?.userId ?? null,
    actorAccount: actor?.account ?? null,
    ...noteParts(text),
    createdAt: now,
  };
}

/**
 * Moves the order (read under the caller's lock) to `to` when its state is one of `from`, as a
 * compare-and-set with its timeline row; an order in another state (reversed meanwhile, moved on by
 * someone else) is left alone and null answered. The caller publishes the moved order.
 */
export async function moveOrderState(
  tx: Tx,
  order: Pick<OrderRecord, 'id' | 'state'>,
  change: {
    from: readonly number[];
    to: number;
    kind: OrderEventKind;
    note: string | NoteTemplate;
    actor?: Actor | null;
    now: Date;
  },
): Promise<OrderRecord | null> {
  if (!change.from.includes(order.state)) return null;
  const { note, noteTemplate } = noteParts(change.note);
  const [raw] = await MOVE_STATE.rows<Record<string, unknown>>(tx, {
    orderId: order.id,
    fromState: order.state,
    toState: change.to,
    kind: change.kind,
    actorUserId: change.actor?.userId ?? null,
    actorAccount: change.actor?.account ?? null,
    note,
    noteTemplate: noteTemplate === null ? null : JSON.stringify(noteTemplate),
    now: change.now.toISOString(),
  });
  return raw ? tableRow(orders, raw) : null;
}

/** One order's move in `moveOrderStates`. */
export interface OrderStateChange {
  order: Pick<OrderRecord, 'id' | 'state'>;
  from: readonly number[];
  to: number;
  kind: OrderEventKind;
  note: string | NoteTemplate;
}

/**
 * `moveOrderState` for many orders (read under the caller's locks) in one statement, by the system (no
 * actor): each moves only when its state is one of its change's `from`. Answers the moved orders.
 */
export async function moveOrderStates(tx: Tx, changes: readonly OrderStateChange[], now: Date): Promise<OrderRecord[]> {
  const rows = changes
    .filter((c) => c.from.includes(c.order.state))
    .map((c) => {
      const { note, noteTemplate } = noteParts(c.note);
      return {
        order_id: c.order.id,
        from_state: c.order.state,
        to_state: c.to,
        kind: c.kind,
        note,
        note_template: noteTemplate,
      };
    });
  if (rows.length === 0) return [];
  const raw = await MOVE_STATES.rows<Record<string, unknown>>(tx, {
    changes: JSON.stringify(rows),
    now: now.toISOString(),
  });
  return raw.map((r) => tableRow(orders, r));
}

/** Records an event that leaves the order's state as it is (a replayed callback, a skipped one). */
export async function recordOrderEvent(
  tx: Tx,
  order: Pick<OrderRecord, 'id'>,
  kind: OrderEventKind,
  actor: Actor | null,
  text: string | NoteTemplate,
  now: Date,
): Promise<void> {
  await tx.insert(orderEvents).values(orderEventRow(order, kind, null, null, actor, text, now));
}
