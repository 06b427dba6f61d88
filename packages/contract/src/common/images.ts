import { z } from 'zod';

/**
 * Images the console uploads (a resource's QR image, a payout's receipt): PNG, JPEG or WebP, at most
 * 512 KiB, sent as base64 in JSON. The server checks the content's magic bytes against the declared
 * type and the decoded size (`platform/images.ts`), the console the file's type and size before sending.
 */
export const IMAGE_MAX_BYTES = 512 * 1024;
export const IMAGE_MIMES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export type ImageMime = (typeof IMAGE_MIMES)[number];

/** The image's bytes as base64 (no data URL prefix); bounded a little above what 512 KiB encodes to. */
export const imageBase64Schema = z
  .string()
  .min(4)
  .max(1_000_000)
  .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'the image must be base64 text');

/** An uploaded image: its declared type and its bytes. */
export const imageUploadSchema = z.strictObject({ mime: z.enum(IMAGE_MIMES), imageBase64: imageBase64Schema });
export type ImageUpload = z.infer<typeof imageUploadSchema>;
