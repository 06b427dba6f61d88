import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Telegram Bot API server in memory (the subset PayDesk uses: sendMessage and getUpdates), for the
 * tests and the demo. Every bot token is accepted unless `tokens` lists the valid ones; it records the
 * messages each bot sends and serves the updates a test queues (`pushUpdate`), with getUpdates' offset
 * semantics (an offset confirms every update below it). It depends on Node only, so the server's tests
 * start it in-process (see README.md).
 */

export interface FakeTelegramOptions {
  /** 0 (the default): any free port. */
  port?: number;
  /** 127.0.0.1 by default. */
  host?: string;
  /** The bot tokens it knows; any token when unset. Another token gets 401 Unauthorized. */
  tokens?: readonly string[];
  /** A line per message sent and update served (main.ts prints them). */
  log?: (line: string) => void;
}

export interface FakeSentMessage {
  /** The bot token it was sent with. */
  token: string;
  chatId: string;
  text: string;
  messageId: number;
  /** reply_to_message_id, when the bot answered a message. */
  replyTo: number | null;
  at: number;
}

export interface FakeUpdateInput {
  /** The chat (a group's id is negative) the message was written in. */
  chatId: number;
  /** The Telegram user who wrote it. */
  fromId: number;
  text: string;
  /** The bot it is for; every bot when unset. */
  token?: string;
  username?: string;
}

export interface FakeTelegram {
  /** http://host:port: the API root to give the client (TELEGRAM_API_ROOT). */
  url: string;
  /** Every message sent, oldest first (live: read, do not change). */
  sent: readonly FakeSentMessage[];
  /** Queues a user's message for getUpdates; answers its update_id. */
  pushUpdate(update: FakeUpdateInput): number;
  /** The next `count` sendMessage calls answer 500 (a Telegram outage); getUpdates is not affected. */
  failNext(count: number): void;
  /** sendMessage calls answered 500 by `failNext` so far. */
  readonly failedSends: number;
  /** Forgets the messages sent and the queued updates. */
  reset(): void;
  close(): Promise<void>;
}

interface QueuedUpdate {
  updateId: number;
  token: string | undefined;
  body: Record<string, unknown>;
}

const MAX_BODY = 1_048_576;

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const query = Object.fromEntries(new URL(req.url ?? '/', 'http://x').searchParams);
  if (!text) return query;
  if ((req.headers['content-type'] ?? '').includes('application/json')) {
    const parsed: unknown = JSON.parse(text);
    return { ...query, ...(typeof parsed === 'object' && parsed ? (parsed as Record<string, unknown>) : {}) };
  }
  return { ...query, ...Object.fromEntries(new URLSearchParams(text)) };
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function apiError(res: ServerResponse, status: number, description: string): void {
  answer(res, status, { ok: false, error_code: status, description });
}

export async function startFakeTelegram(options: FakeTelegramOptions = {}): Promise<FakeTelegram> {
  const sent: FakeSentMessage[] = [];
  let queue: QueuedUpdate[] = [];
  let nextUpdateId = 1;
  let nextMessageId = 1;
  let failures = 0;
  let failedSends = 0;
  const log = options.log ?? (() => undefined);
  const known = options.tokens ? new Set(options.tokens) : null;
  // The offsets each bot confirmed: getUpdates with an offset forgets that bot's earlier updates.
  const confirmed = new Map<string, number>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) apiError(res, 400, `Bad Request: ${(error as Error).message}`);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const match = /^\/bot([^/]+)\/(\w+)$/.exec(new URL(req.url ?? '/', 'http://x').pathname);
    if (!match) return apiError(res, 404, 'Not Found');
    const token = decodeURIComponent(match[1] ?? '');
    const method = match[2] ?? '';
    if (known && !known.has(token)) return apiError(res, 401, 'Unauthorized');
    const body = await readBody(req);
    if (method === 'sendMessage') {
      if (failures > 0) {
        failures--;
        failedSends++;
        return apiError(res, 500, 'Internal Server Error');
      }
      const chatId = String(body.chat_id ?? '');
      const text = typeof body.text === 'string' ? body.text : '';
      if (!chatId) return apiError(res, 400, 'Bad Request: chat_id is empty');
      if (!text.trim()) return apiError(res, 400, 'Bad Request: message text is empty');
      if (text.length > 4096) return apiError(res, 400, 'Bad Request: message is too long');
      const replyTo = body.reply_to_message_id === undefined ? null : Number(body.reply_to_message_id);
      const message: FakeSentMessage = { token, chatId, text, messageId: nextMessageId++, replyTo, at: Date.now() };
      sent.push(message);
      log(`sendMessage to ${chatId}: ${text.replace(/\n/g, ' | ')}`);
      return answer(res, 200, {
        ok: true,
        result: {
          message_id: message.messageId,
          date: Math.floor(message.at / 1000),
          chat: { id: Number(chatId) },
          text,
        },
      });
    }
    if (method === 'getUpdates') {
      const offset = body.offset === undefined ? undefined : Number(body.offset);
      if (offset !== undefined && Number.isFinite(offset)) confirmed.set(token, offset);
      const from = confirmed.get(token) ?? 0;
      const limit = Math.min(100, Math.max(1, Number(body.limit ?? 100) || 100));
      const mine = queue.filter((u) => (u.token === undefined || u.token === token) && u.updateId >= from);
      const result = mine.slice(0, limit).map((u) => ({ update_id: u.updateId, ...u.body }));
      if (result.length > 0) log(`getUpdates: ${result.length} update(s)`);
      return answer(res, 200, { ok: true, result });
    }
    if (method === 'getMe') {
      return answer(res, 200, {
        ok: true,
        result: { id: 1, is_bot: true, first_name: 'PayDesk fake bot', username: 'paydesk_fake_bot' },
      });
    }
    return apiError(res, 404, 'Not Found: method not found');
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    sent,
    pushUpdate(update) {
      const updateId = nextUpdateId++;
      queue.push({
        updateId,
        token: update.token,
        body: {
          message: {
            message_id: nextMessageId++,
            date: Math.floor(Date.now() / 1000),
            chat: { id: update.chatId, type: update.chatId < 0 ? 'group' : 'private' },
            from: {
              id: update.fromId,
              is_bot: false,
              first_name: update.username ?? `user${update.fromId}`,
              username: update.username,
            },
            text: update.text,
          },
        },
      });
      return updateId;
    },
    failNext(count) {
      failures = count;
    },
    get failedSends() {
      return failedSends;
    },
    reset() {
      sent.length = 0;
      queue = [];
      confirmed.clear();
      failures = 0;
      failedSends = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
