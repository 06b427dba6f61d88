import { generateSecret, generateSync, generateURI, verifySync } from 'otplib';

/** RFC 6238 codes: 30 s steps, one step of tolerance either side (DESIGN section 4). */
const PERIOD = 30;

export const newTotpSecret = () => generateSecret();

export const totpUri = (account: string, secret: string, issuer: string) =>
  generateURI({ issuer, label: account, secret });

export const totpCode = (secret: string, at: Date) => generateSync({ secret, epoch: Math.floor(at.getTime() / 1000) });

/**
 * The time step the code belongs to, or null when it is wrong or not after `afterStep`
 * (a code is good once: the step it used is stored and refused again).
 */
export function verifyTotp(secret: string, code: string, at: Date, afterStep: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const result = verifySync({
    secret,
    token: code,
    epoch: Math.floor(at.getTime() / 1000),
    epochTolerance: PERIOD,
    afterTimeStep: afterStep > 0 ? afterStep : undefined,
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}
