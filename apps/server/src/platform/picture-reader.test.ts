import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { PictureReader } from './picture-reader.js';

const RECEIPT = readFileSync(new URL('../modules/orders/fixtures/upi-receipt.png', import.meta.url));
const reasonOf = (error: unknown) => (error instanceof AppError ? [error.code, error.data?.reason] : error);

let reader: PictureReader | null = null;
afterEach(async () => {
  await reader?.close();
  reader = null;
});

describe('the picture reader’s bounds', () => {
  it('a picture past the time limit is refused as unreadable, and the next one is read by a fresh worker', async () => {
    reader = new PictureReader({ timeoutMs: 1 });
    expect(reasonOf(await reader.read(RECEIPT).catch((e) => e))).toEqual([422, 'pictureUnreadable']);
    const patient = new PictureReader({ timeoutMs: 20_000 });
    try {
      expect(await patient.read(RECEIPT)).toContain('407812345678');
    } finally {
      await patient.close();
    }
  });

  it('one at a time: with no room to wait, a second picture is refused as busy while the first is read', async () => {
    reader = new PictureReader({ maxWaiting: 0 });
    const first = reader.read(RECEIPT);
    expect(
      reasonOf(
        await Promise.resolve()
          .then(() => reader!.read(RECEIPT))
          .catch((e) => e),
      ),
    ).toEqual([429, 'pictureQueryBusy']);
    expect(await first).toContain('1,234.50');
    // Closed (the app's onClose): nothing more is read.
    await reader.close();
    expect(
      reasonOf(
        await Promise.resolve()
          .then(() => reader!.read(RECEIPT))
          .catch((e) => e),
      ),
    ).toEqual([422, 'pictureUnreadable']);
  });
});
