import { type CounterChange, englishNoteText, minorToMajorText, note } from '@paydesk/contract';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { messages, users } from '../../db/schema.js';
import type { Clock } from '../../platform/clock.js';
import type { SettingsStore } from '../../platform/settings.js';
import type { LedgerService } from '../ledger/ledger.service.js';
import type { MessagesService } from '../messages/messages.service.js';
import type { SystemMaintenance } from './maintenance.js';

/** How often the check runs across all processes (minutes; one round per period). */
export const DEFAULT_SYSTEM_CHECK_EVERY_MINUTES = 30;
/** The days of daily counters a round compares: today and yesterday, the days still being written. */
export const SYSTEM_CHECK_DAYS = 2;
/** The same findings are told again after this long (a day), different ones at once. */
export const SYSTEM_CHECK_REPEAT_MS = 24 * 3_600_000;
/** Findings of each kind a message lists (the rest are counted), and the length of each. */
const LISTED = 5;
const ITEM_CHARS = 200;
/** Any fixed number: one round decides and writes its message at a time across every process. */
const SYSTEM_CHECK_LOCK = 7_270_731;

export interface SystemCheckRound {
  /** The switch was on and the checks ran. */
  ran: boolean;
  /** Ledger violations found (each kind of the ledger check lists at most 100). */
  ledger: number;
  /** Daily counters that differ from the orders and payouts. */
  counters: number;
  /** The message written to the superAdmins, or null (agreement, off, or the same findings told within a day). */
  msgId: number | null;
}

const clip = (text: string) => (text.length > ITEM_CHARS ? `${text.slice(0, ITEM_CHARS - 1)}…` : text);

/** Up to LISTED items, '; ' between them, '(+N)' for the rest; '-' for none. */
function listed(items: readonly string[], total: number): string {
  if (total === 0) return '-';
  const shown = items.slice(0, LISTED).map(clip).join('; ');
  return total > LISTED ? `${shown} (+${total - LISTED})` : shown;
}

/** A counter as figures (language-neutral): its table and key, stored count / amount -> expected. */
function counterText(c: CounterChange): string {
  const who =
    c.table === 'resource_daily'
      ? `#${c.resourceId ?? '-'} ${c.resourceName ?? ''}`.trim()
      : `${c.account ?? `#${c.userId ?? '-'}`} ${c.productId ?? '-'}`;
  return `${c.table} ${who} ${c.day}: ${c.countBefore} / ${minorToMajorText(c.amountBefore)} -> ${c.countAfter} / ${minorToMajorText(c.amountAfter)}`;
}

/**
 * EnableSystemCheck (issue 21 item 2; docs/operations.md "System check"): a periodic round runs the
 * ledger check (`LedgerService.check`) and the resource pool's counter check (`SystemMaintenance.check`
 * over SYSTEM_CHECK_DAYS) and, when either finds differences, writes one in-app message to every live
 * superAdmin (templates systemCheckTitle and systemCheck, rendered in each reader's language) naming
 * them, bounded, and pointing to /system/maintenance. It repeats a finding only when the findings
 * changed since the last such message, or that message is a day old: a standing problem is told once a
 * day, not every round. Nothing is written while the switch is off or everything agrees; nothing is
 * corrected here (fixing is staff's decision).
 */
export class SystemCheck {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      settings: SettingsStore;
      ledger: LedgerService;
      maintenance: SystemMaintenance;
      messages: MessagesService;
    },
  ) {}

  async round(): Promise<SystemCheckRound> {
    const { db, settings } = this.deps;
    if (!(await settings.get('EnableSystemCheck'))) return { ran: false, ledger: 0, counters: 0, msgId: null };
    const ledger = await this.deps.ledger.check();
    const counters = await this.deps.maintenance.check({ days: SYSTEM_CHECK_DAYS });
    const found = { ran: true, ledger: ledger.violations.length, counters: counters.changed };
    if (found.ledger === 0 && found.counters === 0) return { ...found, msgId: null };

    const title = note('systemCheckTitle', { count: found.ledger + found.counters });
    const content = note('systemCheck', {
      ledgerCount: found.ledger,
      counterCount: found.counters,
      ledger: listed(ledger.violations, found.ledger),
      counters: listed(counters.changes.map(counterText), found.counters),
    });
    const sent = await db.transaction(async (tx) => {
      // Two processes in one round (or a round and a manual call) decide one after the other.
      await tx.execute(sql`select pg_advisory_xact_lock(${SYSTEM_CHECK_LOCK})`);
      const [last] = await tx
        .select({ content: messages.content, createdAt: messages.createdAt })
        .from(messages)
        .where(sql`${messages.contentTemplate}->>'key' = 'systemCheck' and ${messages.senderId} is null`)
        .orderBy(desc(messages.id))
        .limit(1);
      const now = this.deps.clock.now().getTime();
      // The English text holds every value: equal texts are equal findings.
      if (last?.content === englishNoteText(content) && now - last.createdAt.getTime() < SYSTEM_CHECK_REPEAT_MS)
        return null;
      const admins = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.role, 'superAdmin'), isNull(users.deletedAt)));
      const written = await this.deps.messages.notify(tx, { title, content, userIds: admins.map((a) => a.id) });
      return written ? { msgId: written.msgId, userIds: admins.map((a) => a.id) } : null;
    });
    if (sent) await this.deps.messages.announce(sent.userIds, sent.msgId);
    return { ...found, msgId: sent?.msgId ?? null };
  }
}
