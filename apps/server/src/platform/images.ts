import { createHash } from 'node:crypto';
import { IMAGE_MAX_BYTES, type Reason } from '@paydesk/contract';

/** The magic bytes of the image types an upload may be (the contract's IMAGE_MIMES). */
const IMAGE_SIGNATURES: Record<string, (b: Buffer) => boolean> = {
  'image/png': (b) =>
    b.length > 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  'image/jpeg': (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  'image/webp': (b) =>
    b.length > 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
};

/** An uploaded image once checked: its bytes, their SHA-256 (hex) and size. */
export interface CheckedImage {
  mime: string;
  bytes: Buffer;
  sha256: string;
  size: number;
}

/**
 * Checks an uploaded image (a resource's QR, a payout's receipt) by its content: at most IMAGE_MAX_BYTES
 * once decoded (else `imageTooLarge`), and the declared type's magic bytes at its start (else `fileType`).
 * The caller turns the refusal into its answer (a 422 for the QR upload, a 400 for the receipt).
 */
export function checkImage(
  mime: string,
  imageBase64: string,
): { ok: true; image: CheckedImage } | { ok: false; reason: Extract<Reason, 'imageTooLarge' | 'fileType'> } {
  const bytes = Buffer.from(imageBase64, 'base64');
  if (bytes.length > IMAGE_MAX_BYTES) return { ok: false, reason: 'imageTooLarge' };
  if (!IMAGE_SIGNATURES[mime]?.(bytes)) return { ok: false, reason: 'fileType' };
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return { ok: true, image: { mime, bytes, sha256, size: bytes.length } };
}

/** A stored image as a data URL (what an `<img>` shows). */
export const dataUrlOf = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;
