import { totpCode } from '../../apps/server/src/platform/totp.js';

const STEP_MS = 30_000;
const usedSteps = new Map<string, number>();

/**
 * A code for this secret that no earlier sign-in of this run used. The server accepts the current
 * step and its neighbours and refuses a step used before, so this takes the current step, else the
 * next one, else waits for time to move on.
 */
export async function freshCode(secret: string): Promise<string> {
  for (;;) {
    const now = Math.floor(Date.now() / STEP_MS);
    const last = usedSteps.get(secret) ?? -1;
    const step = Math.max(now, last + 1);
    if (step <= now + 1) {
      usedSteps.set(secret, step);
      return totpCode(secret, new Date(step * STEP_MS + 1000));
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}
