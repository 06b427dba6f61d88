import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeTelegram, startFakeTelegram } from '../../../../tools/fake-telegram/fake-telegram.js';
import { loadConfig } from '../config.js';
import { TelegramClient } from './telegram.js';

const TOKEN = '123456:ABC-def_ghi';

describe('Telegram Bot API client', () => {
  let telegram: FakeTelegram;
  let client: TelegramClient;
  beforeAll(async () => {
    telegram = await startFakeTelegram({ tokens: [TOKEN] });
    client = new TelegramClient({ apiRoot: `${telegram.url}/`, timeoutMs: 2_000 });
  });
  afterAll(() => telegram.close());
  beforeEach(() => telegram.reset());

  it('sends a message to a chat, which the fake records with its text', async () => {
    const sent = await client.sendMessage(TOKEN, { chatId: '-1001', text: 'Balance: 12.50' });
    expect(sent.ok).toBe(true);
    expect(telegram.sent).toMatchObject([{ token: TOKEN, chatId: '-1001', text: 'Balance: 12.50', replyTo: null }]);
  });

  it('reads queued updates and does not serve them again after their offset', async () => {
    telegram.pushUpdate({ chatId: -1001, fromId: 42, text: '/balance' });
    const first = await client.getUpdates(TOKEN);
    expect(first).toMatchObject({ ok: true, value: [{ chatId: '-1001', fromId: '42', text: '/balance' }] });
    const id = first.ok ? (first.value[0]?.updateId ?? 0) : 0;
    const again = await client.getUpdates(TOKEN, { offset: id + 1 });
    expect(again).toEqual({ ok: true, value: [] });
  });

  it('answers a refusal without the token, a 500 as retryable, and a silent server as a timeout', async () => {
    const refused = await client.sendMessage('999:wrong-token', { chatId: '1', text: 'x' });
    expect(refused).toEqual({ ok: false, reason: 'HTTP 401: Unauthorized', retryable: false });
    telegram.failNext(1);
    const failed = await client.sendMessage(TOKEN, { chatId: '1', text: 'x' });
    expect(failed).toMatchObject({ ok: false, retryable: true });
    expect(telegram.sent).toHaveLength(0);
    expect((await client.sendMessage('', { chatId: '1', text: 'x' })).ok).toBe(false);

    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    try {
      const slow = new TelegramClient({ apiRoot: `http://127.0.0.1:${port}`, timeoutMs: 200 });
      const started = Date.now();
      const answer = await slow.sendMessage(TOKEN, { chatId: '1', text: 'x' });
      expect(answer).toEqual({ ok: false, reason: 'no answer within 200 ms', retryable: true });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('takes its API root from TELEGRAM_API_ROOT, api.telegram.org by default', () => {
    expect(loadConfig({}).telegramApiRoot).toBe('https://api.telegram.org');
    expect(loadConfig({ TELEGRAM_API_ROOT: 'http://127.0.0.1:4020' }).telegramApiRoot).toBe('http://127.0.0.1:4020');
    expect(() => loadConfig({ TELEGRAM_API_ROOT: 'ftp://x' })).toThrow(/TELEGRAM_API_ROOT/);
  });
});
