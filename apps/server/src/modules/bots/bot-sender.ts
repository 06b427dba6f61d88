import type { Job } from 'pg-boss';
import type { Jobs } from '../../platform/jobs.js';
import type { SettingsStore } from '../../platform/settings.js';
import type { TelegramClient } from '../../platform/telegram.js';

/** The queue of the bots' outgoing messages: one job per message, retried by pg-boss. */
export const TELEGRAM_SEND_QUEUE = 'telegram-send';
/** Attempts after the first, and the first retry's delay (doubling: 5 s, 10 s, 20 s). */
export const TELEGRAM_SEND_RETRIES = 3;
export const TELEGRAM_SEND_RETRY_DELAY_SECONDS = 5;

export interface BotMessageJob {
  /**
   * Which bot sends it: the main bot (BotToken), or the transfer bot (TransferBotToken) for the fund
   * notices. A transfer bot message whose token was cleared meanwhile goes through the main bot.
   */
  bot: BotTokenKey;
  chatId: string;
  text: string;
  /** What it is about, for the log (e.g. 'fundRecord:123'). */
  about: string;
  replyTo?: number;
}

export type BotTokenKey = 'BotToken' | 'TransferBotToken';

type Logger = { warn(obj: unknown, msg?: string): void; error(obj: unknown, msg?: string): void };

/**
 * Sends the bots' messages outside any money transaction: `enqueue` puts a message on the
 * `telegram-send` queue (pg-boss); a worker sends it through the Telegram adapter. A failure that may
 * pass (no answer, a 5xx, 429) is retried TELEGRAM_SEND_RETRIES times with a growing delay, then
 * logged as an error; a refusal (a wrong token, a chat the bot is not in) is logged at once.
 */
export class BotSender {
  private log: Logger = console;

  constructor(
    private readonly deps: {
      jobs: Jobs;
      telegram: TelegramClient;
      settings: SettingsStore;
      retryDelaySeconds?: number | undefined;
    },
  ) {}

  setLogger(log: Logger): void {
    this.log = log;
  }

  define(): void {
    this.deps.jobs.define<BotMessageJob>({
      name: TELEGRAM_SEND_QUEUE,
      options: {
        retryLimit: TELEGRAM_SEND_RETRIES,
        retryDelay: this.deps.retryDelaySeconds ?? TELEGRAM_SEND_RETRY_DELAY_SECONDS,
        retryBackoff: true,
        expireInSeconds: 120,
        deleteAfterSeconds: 86_400,
      },
      localConcurrency: 2,
      batchSize: 5,
      handle: (data, job) => this.send(data, job),
    });
  }

  /** Enqueues a message; false when this process runs no jobs (nothing is sent from it). */
  async enqueue(message: BotMessageJob): Promise<boolean> {
    return (await this.deps.jobs.send(TELEGRAM_SEND_QUEUE, message)) !== null;
  }

  private async send(message: BotMessageJob, job: Job<BotMessageJob>): Promise<void> {
    const token =
      (await this.deps.settings.get(message.bot)) ??
      (message.bot === 'TransferBotToken' ? await this.deps.settings.get('BotToken') : null);
    if (!token) {
      this.log.warn({ about: message.about, chatId: message.chatId }, `bot message dropped: ${message.bot} is not set`);
      return;
    }
    const sent = await this.deps.telegram.sendMessage(token, {
      chatId: message.chatId,
      text: message.text,
      replyTo: message.replyTo,
    });
    if (sent.ok) return;
    const last = (job.retryCount ?? 0) >= TELEGRAM_SEND_RETRIES;
    if (sent.retryable && !last) throw new Error(`Telegram send failed, will retry: ${sent.reason}`);
    this.log.error(
      { about: message.about, chatId: message.chatId, reason: sent.reason, attempts: (job.retryCount ?? 0) + 1 },
      'bot message not delivered',
    );
  }
}
