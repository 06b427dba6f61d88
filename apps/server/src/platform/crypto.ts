import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Secrets the server must read back (merchant API secrets) are sealed with AES-256-GCM under the
 * server's key. Text format: `v1.<iv base64url>.<auth tag base64url>.<ciphertext base64url>`; the
 * version names the algorithm, so a later key or algorithm can sit beside this one.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_BYTES = 32;

function checkKey(key: Buffer) {
  if (key.length !== SECRET_KEY_BYTES) throw new Error(`the secret key must be ${SECRET_KEY_BYTES} bytes`);
}

export function sealSecret(plain: string, key: Buffer): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), body.toString('base64url')].join('.');
}

/** The plaintext of a sealed value; throws when it was sealed under another key or changed since. */
export function openSecret(sealed: string, key: Buffer): string {
  checkKey(key);
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new Error('not a sealed secret of a known version');
  const iv = Buffer.from(parts[1]!, 'base64url');
  const tag = Buffer.from(parts[2]!, 'base64url');
  const body = Buffer.from(parts[3]!, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new Error('malformed sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAuthTag(tag);
  // final() throws when the tag does not match: a changed value or another key.
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

/**
 * SECRET_KEY as configured: 64 hex characters or the base64 of 32 bytes. Anything else is refused,
 * never silently replaced.
 */
export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed, trimmed.includes('-') || trimmed.includes('_') ? 'base64url' : 'base64');
    if (bytes.length === SECRET_KEY_BYTES) return bytes;
  }
  throw new Error('SECRET_KEY must be 64 hex characters or the base64 of 32 bytes');
}

export const SECRET_KEY_FILE = 'secret.key';

/** The part of the server's Config the key comes from (declared here: config.ts imports this file). */
export interface SecretKeySource {
  secretKey: Buffer | undefined;
  dataDir: string | undefined;
  databaseUrl: string | undefined;
}

const fileKeys = new Map<string, Buffer>();
let processKey: Buffer | undefined;

/**
 * The key that seals secrets: config.secretKey (SECRET_KEY) when set; else `<dataDir>/secret.key`,
 * created once (mode 0600) and reused, so restarts and every process on the same DATA_DIR agree;
 * else (tests, in-memory database) a random key for this process.
 */
export function resolveSecretKey(
  config: SecretKeySource,
  warn: (message: string) => void = (m) => console.warn(m),
): Buffer {
  if (config.secretKey) return config.secretKey;
  if (config.dataDir) {
    const path = join(config.dataDir, SECRET_KEY_FILE);
    const known = fileKeys.get(path);
    if (known) return known;
    if (config.databaseUrl) {
      warn(
        `[config] SECRET_KEY is not set: merchant API secrets are sealed with ${path}. ` +
          'In production set SECRET_KEY (the same on every server process) and keep it safe.',
      );
    }
    const key = readOrCreateKeyFile(path, config.dataDir);
    fileKeys.set(path, key);
    return key;
  }
  processKey ??= randomBytes(SECRET_KEY_BYTES);
  return processKey;
}

function readOrCreateKeyFile(path: string, dir: string): Buffer {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(path)) {
    // Written whole under a temporary name, then linked into place: linking fails when another
    // process got there first, so processes starting at once keep one key and never read half a file.
    const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(temp, `${randomBytes(SECRET_KEY_BYTES).toString('hex')}\n`, { mode: 0o600 });
    chmodSync(temp, 0o600);
    try {
      linkSync(temp, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(temp, { force: true });
    }
  }
  const text = readFileSync(path, 'utf8');
  try {
    return parseSecretKey(text);
  } catch {
    throw new Error(`${path} does not hold a valid key (64 hex characters): restore it or set SECRET_KEY`);
  }
}
