import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, isNull, sql } from 'drizzle-orm';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { embeddedOwner } from '../db/data-dir.js';
import { users } from '../db/schema.js';
import { totpCode } from '../platform/totp.js';

/**
 * `npm run otp -- <account>`: the account's current authenticator code, read from the same database
 * as `npm start` (DATA_DIR or DATABASE_URL), whether or not the server is running.
 */
async function main() {
  const account = process.argv[2]?.trim();
  if (!account) {
    console.error('usage: npm run otp -- <account>');
    process.exit(2);
  }
  const config = loadConfig();
  let dataDir = config.databaseUrl ? undefined : config.dataDir;
  let snapshot: string | undefined;
  if (dataDir && embeddedOwner(dataDir) !== null) {
    // PGlite allows one process per folder: while the server holds it, read a snapshot copy instead.
    snapshot = mkdtempSync(join(tmpdir(), 'paydesk-otp-'));
    cpSync(dataDir, snapshot, { recursive: true, filter: (src) => !src.endsWith('server.pid') });
    dataDir = snapshot;
  }
  const database = await openDatabase({ url: config.databaseUrl, dataDir });
  try {
    const [user] = await database.db
      .select({ secret: users.googleSecret, pending: users.pendingGoogleSecret })
      .from(users)
      .where(and(sql`lower(${users.account}) = lower(${account})`, isNull(users.deletedAt)))
      .limit(1);
    if (!user) throw new Error(`no account named ${account}`);
    const secret = user.secret ?? user.pending;
    if (!secret) throw new Error(`${account} has no authenticator yet: it gets one at its first sign-in`);
    console.log(totpCode(secret, new Date()));
  } finally {
    await database.close();
    if (snapshot) rmSync(snapshot, { recursive: true, force: true });
  }
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
