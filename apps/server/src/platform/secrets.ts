import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

/** argon2id with OWASP's minimum: 19 MiB, 2 passes. */
const ARGON2 = {
  algorithm: 2 /* Argon2id; the package's enum is a const enum */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

/** A hash of nothing anyone knows, verified when the account is unknown so timing does not tell. */
let decoy: Promise<string> | undefined;
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    decoy ??= hashPassword(randomBytes(16).toString('hex'));
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}

/** A random bearer secret (sessions, token2). */
export const newToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
