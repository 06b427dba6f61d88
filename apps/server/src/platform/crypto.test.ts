import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import { openSecret, parseSecretKey, resolveSecretKey, SECRET_KEY_FILE, sealSecret } from './crypto.js';

const key = randomBytes(32);
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-key-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('sealSecret / openSecret', () => {
  it('opens what it sealed; the sealed text is versioned, hides the plaintext, and differs each time', () => {
    const secret = randomBytes(32).toString('hex');
    const a = sealSecret(secret, key);
    const b = sealSecret(secret, key);
    expect(a.startsWith('v1.')).toBe(true);
    expect(a).not.toContain(secret);
    expect(a).not.toBe(b); // random IV
    expect(openSecret(a, key)).toBe(secret);
    expect(openSecret(b, key)).toBe(secret);
  });

  it('detects tampering with the ciphertext, the IV or the tag', () => {
    const sealed = sealSecret('the merchant secret', key);
    const [version, iv, tag, body] = sealed.split('.') as [string, string, string, string];
    const flip = (text: string) => {
      const bytes = Buffer.from(text, 'base64url');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return bytes.toString('base64url');
    };
    expect(() => openSecret([version, iv, tag, flip(body)].join('.'), key)).toThrow();
    expect(() => openSecret([version, flip(iv), tag, body].join('.'), key)).toThrow();
    expect(() => openSecret([version, iv, flip(tag), body].join('.'), key)).toThrow();
    expect(() => openSecret(['v9', iv, tag, body].join('.'), key)).toThrow(/version/);
    expect(() => openSecret('plain text', key)).toThrow();
  });

  it('refuses to open with another key', () => {
    const sealed = sealSecret('the merchant secret', key);
    expect(() => openSecret(sealed, randomBytes(32))).toThrow();
  });
});

describe('the secret key', () => {
  it('SECRET_KEY accepts 64 hex characters or base64 of 32 bytes; anything else is a configuration error', () => {
    const hex = key.toString('hex');
    expect(parseSecretKey(hex).equals(key)).toBe(true);
    expect(parseSecretKey(key.toString('base64')).equals(key)).toBe(true);
    expect(loadConfig({ SECRET_KEY: hex }).secretKey?.equals(key)).toBe(true);
    expect(loadConfig({}).secretKey).toBeUndefined();
    expect(() => loadConfig({ SECRET_KEY: 'too short' })).toThrow(/SECRET_KEY/);
    expect(() => loadConfig({ SECRET_KEY: randomBytes(16).toString('hex') })).toThrow(/SECRET_KEY/);
    expect(() => loadConfig({ SECRET_KEY: randomBytes(31).toString('base64') })).toThrow(/SECRET_KEY/);
  });

  it('a configured key wins over the data dir file', () => {
    const dir = tempDir();
    expect(resolveSecretKey({ secretKey: key, dataDir: dir, databaseUrl: undefined }).equals(key)).toBe(true);
    expect(() => statSync(join(dir, SECRET_KEY_FILE))).toThrow();
  });

  it('without SECRET_KEY the data dir keeps one key file (mode 0600) that later starts reuse', () => {
    const dir = tempDir();
    const first = resolveSecretKey({ secretKey: undefined, dataDir: dir, databaseUrl: undefined });
    const path = join(dir, SECRET_KEY_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(path, 'utf8').trim(), 'hex').equals(first)).toBe(true);
    // Another process on the same folder (no cache): reads the same key.
    const sealed = sealSecret('s', first);
    const again = parseSecretKey(readFileSync(path, 'utf8'));
    expect(openSecret(sealed, again)).toBe('s');
    expect(resolveSecretKey({ secretKey: undefined, dataDir: dir, databaseUrl: undefined }).equals(first)).toBe(true);
  });

  it('with DATABASE_URL and no SECRET_KEY it uses the data dir file and warns', () => {
    const dir = tempDir();
    const warn = vi.fn();
    resolveSecretKey({ secretKey: undefined, dataDir: dir, databaseUrl: 'postgres://db/paydesk' }, warn);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/SECRET_KEY/));
    expect(statSync(join(dir, SECRET_KEY_FILE)).isFile()).toBe(true);
  });

  it('refuses a damaged key file rather than replacing it', () => {
    const dir = tempDir();
    writeFileSync(join(dir, SECRET_KEY_FILE), 'garbage\n');
    expect(() => resolveSecretKey({ secretKey: undefined, dataDir: dir, databaseUrl: undefined })).toThrow(
      /secret\.key/,
    );
  });

  it('without a data dir (tests, in memory) one random key serves the whole process', () => {
    const a = resolveSecretKey({ secretKey: undefined, dataDir: undefined, databaseUrl: undefined });
    const b = resolveSecretKey({ secretKey: undefined, dataDir: undefined, databaseUrl: undefined });
    expect(a.length).toBe(32);
    expect(a.equals(b)).toBe(true);
  });
});
