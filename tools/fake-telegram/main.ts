import { parseArgs } from 'node:util';
import { startFakeTelegram } from './fake-telegram.js';

/**
 * `npm run fake-telegram -w @paydesk/tools -- [--port 4020] [--host 127.0.0.1] [--say <chatId>:<userId>:<text>]`:
 * the fake Telegram Bot API on its own, until Ctrl-C, printing each message the bots send. Each
 * `--say` queues a user's message for the bots' getUpdates (e.g. `--say -1001:42:/balance`).
 */
async function main() {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env.FAKE_TELEGRAM_PORT ?? '4020' },
      host: { type: 'string', default: process.env.FAKE_TELEGRAM_HOST ?? '127.0.0.1' },
      say: { type: 'string', multiple: true, default: [] },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(
      'Usage: npm run fake-telegram -w @paydesk/tools -- [--port 4020] [--host 127.0.0.1] [--say chatId:userId:text]...',
    );
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('--port must be a port number');
  const telegram = await startFakeTelegram({
    port,
    host: values.host,
    log: (line) => console.log(`${new Date().toISOString()} ${line}`),
  });
  for (const say of values.say) {
    const match = /^(-?\d+):(\d+):(.+)$/s.exec(say);
    if (!match) throw new Error(`--say takes chatId:userId:text, not ${say}`);
    telegram.pushUpdate({ chatId: Number(match[1]), fromId: Number(match[2]), text: match[3] ?? '' });
  }
  console.log(`Fake Telegram Bot API at ${telegram.url} (TELEGRAM_API_ROOT=${telegram.url})`);
  const stop = () => void telegram.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  console.error(`fake-telegram: ${(error as Error).message}`);
  process.exit(2);
});
