import { z } from 'zod';

/**
 * The Telegram Bot API adapter (DESIGN section 10: an external service behind an adapter whose base
 * URL is configuration). Only what PayDesk uses: sendMessage and getUpdates, over fetch, each bounded
 * by a timeout. The API root is TELEGRAM_API_ROOT (https://api.telegram.org by default); tests and the
 * demo point it at the fake in tools/fake-telegram.
 *
 * Nothing here throws or logs: every call answers `{ ok: true, value }` or `{ ok: false, reason,
 * retryable }`, where retryable says a later attempt may succeed (no answer, a timeout, a 5xx, 429).
 * The bot token travels in the URL path, as the Bot API requires: it is scrubbed from every reason.
 */

export const DEFAULT_TELEGRAM_API_ROOT = 'https://api.telegram.org';
/** One sendMessage: 10 s. */
export const DEFAULT_TELEGRAM_TIMEOUT_MS = 10_000;
/** Telegram's limit of one message's text. */
export const TELEGRAM_TEXT_LIMIT = 4096;

export type TelegramResult<T> = { ok: true; value: T } | { ok: false; reason: string; retryable: boolean };

/** A user's message as getUpdates answers it (what the bot reads of it). */
export interface TelegramIncoming {
  updateId: number;
  chatId: string;
  fromId: string | null;
  messageId: number | null;
  text: string | null;
}

const envelopeSchema = z.object({
  ok: z.boolean(),
  result: z.unknown().optional(),
  description: z.string().optional(),
});

const updateSchema = z.object({
  update_id: z.number().int(),
  message: z
    .object({
      message_id: z.number().int().optional(),
      chat: z.object({ id: z.union([z.number(), z.string()]) }),
      from: z.object({ id: z.union([z.number(), z.string()]) }).optional(),
      text: z.string().optional(),
    })
    .passthrough()
    .optional(),
});

export interface TelegramClientOptions {
  /** The API root, without a trailing slash (TELEGRAM_API_ROOT). */
  apiRoot?: string;
  /** Bound of one call (sendMessage; getUpdates adds its long-poll time). */
  timeoutMs?: number;
}

export class TelegramClient {
  readonly apiRoot: string;
  readonly timeoutMs: number;

  constructor(options: TelegramClientOptions = {}) {
    this.apiRoot = (options.apiRoot ?? DEFAULT_TELEGRAM_API_ROOT).replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TELEGRAM_TIMEOUT_MS;
  }

  /** Sends a text to a chat (a group's id is negative); answers the message id. */
  async sendMessage(
    token: string,
    message: { chatId: string; text: string; replyTo?: number | undefined },
    signal?: AbortSignal,
  ): Promise<TelegramResult<{ messageId: number }>> {
    const text =
      message.text.length > TELEGRAM_TEXT_LIMIT ? `${message.text.slice(0, TELEGRAM_TEXT_LIMIT - 1)}…` : message.text;
    const answer = await this.call(
      token,
      'sendMessage',
      {
        chat_id: message.chatId,
        text,
        disable_web_page_preview: true,
        ...(message.replyTo !== undefined ? { reply_to_message_id: message.replyTo } : {}),
      },
      this.timeoutMs,
      signal,
    );
    if (!answer.ok) return answer;
    const id = (answer.value as { message_id?: unknown } | null)?.message_id;
    return { ok: true, value: { messageId: typeof id === 'number' ? id : 0 } };
  }

  /**
   * The updates from `offset` on (an offset confirms every earlier update, so they are not served
   * again). `waitSeconds` is Telegram's long poll (0: answer at once).
   */
  async getUpdates(
    token: string,
    options: { offset?: number | undefined; limit?: number; waitSeconds?: number } = {},
    signal?: AbortSignal,
  ): Promise<TelegramResult<TelegramIncoming[]>> {
    const waitSeconds = options.waitSeconds ?? 0;
    const answer = await this.call(
      token,
      'getUpdates',
      {
        ...(options.offset !== undefined ? { offset: options.offset } : {}),
        limit: options.limit ?? 100,
        timeout: waitSeconds,
        allowed_updates: ['message'],
      },
      this.timeoutMs + waitSeconds * 1000,
      signal,
    );
    if (!answer.ok) return answer;
    const list = z.array(z.unknown()).safeParse(answer.value);
    if (!list.success) return { ok: false, reason: 'getUpdates answered something other than a list', retryable: true };
    const updates: TelegramIncoming[] = [];
    for (const item of list.data) {
      const parsed = updateSchema.safeParse(item);
      if (!parsed.success) continue;
      const m = parsed.data.message;
      updates.push({
        updateId: parsed.data.update_id,
        chatId: m ? String(m.chat.id) : '',
        fromId: m?.from ? String(m.from.id) : null,
        messageId: m?.message_id ?? null,
        text: m?.text ?? null,
      });
    }
    return { ok: true, value: updates };
  }

  private async call(
    token: string,
    method: string,
    body: Record<string, unknown>,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<TelegramResult<unknown>> {
    if (!/^[A-Za-z0-9:_-]{1,200}$/.test(token))
      return { ok: false, reason: 'the bot token is not set or malformed', retryable: false };
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = signal ? AbortSignal.any([timeout, signal]) : timeout;
    const scrub = (text: string) => text.split(token).join('<token>');
    let response: Response;
    try {
      response = await fetch(`${this.apiRoot}/bot${token}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: combined,
        redirect: 'error',
      });
    } catch (error) {
      const reason = timeout.aborted
        ? `no answer within ${timeoutMs} ms`
        : signal?.aborted
          ? 'stopped'
          : `network error: ${scrub(String((error as Error).cause ?? (error as Error).message))}`;
      return { ok: false, reason, retryable: true };
    }
    let parsed: z.infer<typeof envelopeSchema> | null = null;
    try {
      const json = envelopeSchema.safeParse(await response.json());
      parsed = json.success ? json.data : null;
    } catch {
      parsed = null;
    }
    const retryable = response.status >= 500 || response.status === 429;
    if (!parsed) return { ok: false, reason: `HTTP ${response.status} with an unreadable answer`, retryable: true };
    if (!response.ok || !parsed.ok) {
      return { ok: false, reason: scrub(`HTTP ${response.status}: ${parsed.description ?? 'refused'}`), retryable };
    }
    return { ok: true, value: parsed.result ?? null };
  }
}
