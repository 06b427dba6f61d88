import {
  type NoteTemplate,
  noteParts,
  PAYOUT_STATE,
  type PayoutAnswer,
  type PayoutEventKind,
  type PayoutStateName,
  REASON_TEXTS,
} from '@paydesk/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { payoutEvents, payouts } from '../../db/schema.js';
import type { Actor } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import type { RealtimeHub } from '../../platform/realtime/hub.js';
import type { SettingsStore } from '../../platform/settings.js';
import { formatPlatformTime } from '../../platform/time.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { NameBlacklist } from '../system/name-blacklist.js';

export type PayoutRecord = typeof payouts.$inferSelect;

export interface PayoutsDeps {
  db: Db;
  clock: Clock;
  ledger: LedgerService;
  timeZone: string;
  settings: SettingsStore;
  /** Payee names refused at create (system management › name blacklist). */
  nameBlacklist: Pick<NameBlacklist, 'blocks'>;
  /** The consoles' live lists (the 'payouts' topic); none in tools that need no pushes. */
  realtime?: RealtimeHub;
  /** Told after a commit that scheduled a merchant notification (this process's callback dispatcher looks now). */
  afterCommit?: () => void;
}

/** The console's texts of payout refusals (the console translates them by `data.reason`). */
export const PAYOUT_REFUSALS = {
  payoutState: 'the payout’s current state does not allow this',
  claimLimit: REASON_TEXTS.claimLimit['en-US'],
  claimFailed: 'claim failed: another supplier claimed it first',
  cancelClaimFailed: 'cancel-claim failed: the payout changed meanwhile',
  noPayoutAccount: 'this product is not enabled for you, or you have no enabled payout account of it',
  supplierOff: 'your supplier account is disabled: ask an administrator',
  depositShort: 'your available balance (deposit) does not cover this payout',
  gatewayPayout: 'a gateway payout is sent to its gateway by the system and cannot be claimed by hand',
  fileType: 'the receipt must be a PNG, JPEG or WebP image (file type error)',
  imageTooLarge: 'the receipt image is larger than 512 KiB',
} as const;

const STATE_NAMES = Object.fromEntries(Object.entries(PAYOUT_STATE).map(([name, code]) => [code, name])) as Record<
  number,
  PayoutStateName
>;

/** A payout as the merchant API answers it (create and query). */
export function payoutAnswerOf(p: PayoutRecord): PayoutAnswer {
  return {
    orderCode: p.orderCode,
    mchOrderNo: p.merchantOrderNo,
    productId: p.productId,
    amount: p.amount,
    fee: p.fee,
    state: p.state,
    stateName: STATE_NAMES[p.state] ?? String(p.state),
    utr: p.utr,
    createTime: p.createdAt.toISOString(),
    completeTime: p.completedAt ? p.completedAt.toISOString() : null,
    rejectReason: p.rejectReason,
  };
}

/** The platform's calendar day of `at` ('YYYY-MM-DD' in the platform time zone): the daily limits' day. */
export function platformDay(at: Date, timeZone: string): string {
  return formatPlatformTime(at, timeZone).slice(0, 10);
}

/**
 * The one writer of a payout's state: a compare-and-set from `from` (the state read under the caller's
 * lock) to `to` with the columns that change with it, and its timeline row. Answers the payout as it
 * is now, or null when its state was not `from` any more (the caller's lost race).
 */
export async function movePayout(
  tx: Tx,
  payout: PayoutRecord,
  change: {
    to: number;
    kind: PayoutEventKind;
    actor: Actor | null;
    note: string | NoteTemplate;
    set?: Partial<typeof payouts.$inferInsert>;
    now: Date;
  },
): Promise<PayoutRecord | null> {
  const [moved] = await tx
    .update(payouts)
    .set({ ...change.set, state: change.to, updatedAt: change.now })
    .where(and(eq(payouts.id, payout.id), eq(payouts.state, payout.state)))
    .returning();
  if (!moved) return null;
  await recordPayoutEvent(tx, payout, change.kind, payout.state, change.to, change.actor, change.note, change.now);
  return moved;
}

export async function recordPayoutEvent(
  tx: Tx,
  payout: Pick<PayoutRecord, 'id'>,
  kind: PayoutEventKind,
  fromState: number | null,
  toState: number | null,
  actor: Actor | null,
  text: string | NoteTemplate,
  now: Date,
): Promise<void> {
  await tx.insert(payoutEvents).values({
    payoutId: payout.id,
    kind,
    fromState,
    toState,
    actorUserId: actor?.userId ?? null,
    actorAccount: actor?.account ?? null,
    ...noteParts(text),
    createdAt: now,
  });
}

/** Payouts by id, locked for the caller's transaction. */
export async function lockPayout(tx: Tx, id: number): Promise<PayoutRecord | undefined> {
  const [row] = await tx
    .select()
    .from(payouts)
    .where(inArray(payouts.id, [id]))
    .for('update');
  return row;
}
