import { IMAGE_MAX_BYTES, IMAGE_MIMES, type ImageUpload } from '@paydesk/contract';

/** The base64 text of a file (without the data URL prefix). */
export function base64Of(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/**
 * A picked image file as the contract takes it (the common image rule: PNG, JPEG or WebP, at most
 * 512 KiB), or the server's reason it would be refused for (`fileType`, `imageTooLarge`: their texts are
 * `server:reason.<reason>`), checked here before sending; the server checks the content again.
 */
export async function imageUploadOf(
  file: File,
): Promise<{ ok: true; upload: ImageUpload } | { ok: false; reason: 'fileType' | 'imageTooLarge' }> {
  const mime = IMAGE_MIMES.find((m) => m === file.type);
  if (!mime) return { ok: false, reason: 'fileType' };
  if (file.size > IMAGE_MAX_BYTES) return { ok: false, reason: 'imageTooLarge' };
  return { ok: true, upload: { mime, imageBase64: await base64Of(file) } };
}
