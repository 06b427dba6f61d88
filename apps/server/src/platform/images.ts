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

/**
 * An image's width and height from its header (PNG IHDR, JPEG's frame marker, WebP's VP8/VP8L/VP8X
 * chunk), without decoding it; null when the header does not say. A file of 512 KiB can decode to a
 * huge bitmap, so what decodes it (the picture reader) checks this first.
 */
export function imageDimensions(mime: string, b: Buffer): { width: number; height: number } | null {
  if (mime === 'image/png') {
    if (b.length < 24 || b.subarray(12, 16).toString('latin1') !== 'IHDR') return null;
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (mime === 'image/jpeg') {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1]!;
      // Fill bytes, and markers without a length (restart, start of image).
      if (marker === 0xff) {
        i += 1;
        continue;
      }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        i += 2;
        continue;
      }
      // Start of frame (SOF0..SOF15 but DHT 0xC4, JPG 0xC8, DAC 0xCC): height, then width.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
      }
      i += 2 + b.readUInt16BE(i + 2);
    }
    return null;
  }
  if (mime === 'image/webp') {
    if (b.length < 30) return null;
    const chunk = b.subarray(12, 16).toString('latin1');
    if (chunk === 'VP8 ') return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
    if (chunk === 'VP8L') {
      const bits = b.readUInt32LE(21);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    if (chunk === 'VP8X') return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
    return null;
  }
  return null;
}
