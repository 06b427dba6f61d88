import { PAYOUT_STATE, type TextLocale } from '@paydesk/contract';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rowsOf } from '../../db/raw-rows.js';
import type { Clock } from '../../platform/clock.js';
import type { SettingsStore } from '../../platform/settings.js';
import { formatPlatformTime } from '../../platform/time.js';
import type { BotSender } from './bot-sender.js';
import type { BotsAdminService } from './bots-admin.service.js';
import type { MessageTemplates } from './templates.js';

/** How often the reminders go out (minutes; across all processes, one per period). */
export const DEFAULT_REMINDER_EVERY_MINUTES = 30;

/** The waiting work a reminder counts. */
export interface WaitingWork {
  /** Collection orders locked (marked suspicious or malicious) while still open: staff review them. */
  lockedOrders: number;
  /** Payouts in the claim queue. */
  payoutsToClaim: number;
  /** Payouts waiting for staff: submitted, to confirm, given back, processing exceptions. */
  payoutsForStaff: number;
  /** Callbacks that gave up (not deleted): to replay or look into. */
  failedCallbacks: number;
}

const STAFF_PAYOUT_STATES = [
  PAYOUT_STATE.submitted,
  PAYOUT_STATE.pendingConfirmation,
  PAYOUT_STATE.rejecting,
  PAYOUT_STATE.processingException,
];

/**
 * BotConstantReminder (issue 21 item 5): on a schedule, the staff groups get the counts of waiting
 * work, counted from the orders, payouts and callbacks tables. Nothing is sent while the switch is
 * off, BotToken is unset, or nothing waits.
 */
export class Reminders {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      settings: SettingsStore;
      sender: BotSender;
      templates: MessageTemplates;
      admin: BotsAdminService;
      timeZone: string;
    },
  ) {}

  async waitingWork(): Promise<WaitingWork> {
    const [row] = rowsOf<Record<keyof WaitingWork, number | string>>(
      await this.deps.db.execute(sql`
        select
          (select count(*) from orders where locked and state in (0, 1, 2, 5)) as "lockedOrders",
          (select count(*) from payouts where state = ${PAYOUT_STATE.awaiting}) as "payoutsToClaim",
          (select count(*) from payouts where state in (${sql.join(
            STAFF_PAYOUT_STATES.map((s) => sql`${s}`),
            sql`, `,
          )})) as "payoutsForStaff",
          (select count(*) from order_callbacks where state = 'failed' and deleted_at is null) as "failedCallbacks"`),
    );
    return {
      lockedOrders: Number(row?.lockedOrders ?? 0),
      payoutsToClaim: Number(row?.payoutsToClaim ?? 0),
      payoutsForStaff: Number(row?.payoutsForStaff ?? 0),
      failedCallbacks: Number(row?.failedCallbacks ?? 0),
    };
  }

  /** One round: answers how many groups it enqueued a reminder for. */
  async remind(): Promise<number> {
    const { settings } = this.deps;
    if (!(await settings.get('BotConstantReminder')) || (await settings.get('BotToken')) === null) return 0;
    const groups = await this.deps.admin.groupsOf('staff', null);
    if (groups.length === 0) return 0;
    const work = await this.waitingWork();
    if (Object.values(work).every((n) => n === 0)) return 0;
    const time = formatPlatformTime(this.deps.clock.now(), this.deps.timeZone);
    let enqueued = 0;
    for (const group of groups) {
      const text = await this.deps.templates.render('reminder', group.language as TextLocale, { ...work, time });
      if (await this.deps.sender.enqueue({ bot: 'BotToken', chatId: group.chatId, text, about: 'reminder' }))
        enqueued += 1;
    }
    return enqueued;
  }
}
