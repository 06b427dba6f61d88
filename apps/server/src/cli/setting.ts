import { isSettingKey, SETTINGS, type SettingKey, settingValueSchema } from '@paydesk/contract';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { embeddedOwner } from '../db/data-dir.js';
import { answerOf } from '../modules/settings/system-config.service.js';
import { writeAudit } from '../platform/audit.js';
import { systemClock } from '../platform/clock.js';
import { resolveSecretKey } from '../platform/crypto.js';
import { SettingsStore } from '../platform/settings.js';

/**
 * `npm run setting -- <Key> <value>`: changes a system setting from the server's machine, on the same
 * database as `npm start` (DATA_DIR or DATABASE_URL), audited as the command line. The way back when
 * the console cannot be reached to change it, e.g. a staff sign-in whitelist that no longer holds any
 * staff address (docs/operations.md). Switches take on/off (or true/false), structured values JSON.
 * Running servers on PostgreSQL follow at once; the embedded database must be stopped first.
 */
function parse(key: SettingKey, text: string): unknown {
  const kind = SETTINGS[key].type.kind;
  if (kind === 'switch') {
    if (/^(on|true|1)$/i.test(text)) return true;
    if (/^(off|false|0)$/i.test(text)) return false;
    throw new Error(`${key} is a switch: give on or off`);
  }
  if (kind === 'integer') return Number(text);
  if (kind === 'structured') return JSON.parse(text);
  if (kind === 'secret' && text === '') return null;
  return text;
}

async function main() {
  const [key, text] = process.argv.slice(2);
  if (!key || text === undefined) throw new Error('usage: npm run setting -- <Key> <value>');
  if (!isSettingKey(key)) throw new Error(`no setting named ${key}`);
  const value = settingValueSchema(key).parse(parse(key, text));
  const config = loadConfig();
  const dataDir = config.databaseUrl ? undefined : config.dataDir;
  if (dataDir) {
    const owner = embeddedOwner(dataDir);
    if (owner !== null) throw new Error(`the server (process ${owner}) holds ${dataDir}: stop it first`);
  }
  const database = await openDatabase({ url: config.databaseUrl, dataDir });
  try {
    const settings = new SettingsStore({ db: database.db, clock: systemClock, secretKey: resolveSecretKey(config) });
    await database.db.transaction(async (tx) => {
      const before = (await settings.readAll(tx))[key];
      await settings.write(tx, key, value, null);
      await writeAudit(
        tx,
        { userId: null, account: 'command line', role: null, ip: null },
        {
          action: 'systemConfig.set',
          target: `setting:${key}`,
          before: answerOf(key, before),
          after: answerOf(key, value),
        },
        systemClock.now(),
      );
    });
    console.log(
      `${key} = ${SETTINGS[key].type.kind === 'secret' ? (value === null ? 'not set' : 'set') : JSON.stringify(value)}`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
