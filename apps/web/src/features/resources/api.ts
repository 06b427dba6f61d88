import { RESOURCE_TEXTS, type ResourceTextKey } from '@paydesk/contract';
import type { i18n as I18n } from 'i18next';
import { ApiError } from '../../shared/api/http';

/** Query keys of the resource pages; every change invalidates `resourceKeys.all`. */
export const resourceKeys = {
  all: ['resources'] as const,
  list: (channel: string) => ['resources', 'list', channel] as const,
  detail: (id: number) => ['resources', 'detail', id] as const,
  qrImage: (id: number, imageId: number) => ['resources', 'qrImage', id, imageId] as const,
  suppliers: ['resources', 'suppliers'] as const,
};

const KEY_OF_TEXT = new Map<string, ResourceTextKey>(
  Object.entries(RESOURCE_TEXTS).map(([k, v]) => [v, k as ResourceTextKey]),
);

/** One of the contract's resource texts (its English words) in the user's language. */
export function resourceText(i18n: I18n, english: string): string {
  const key = KEY_OF_TEXT.get(english);
  return key ? i18n.t(`resources:text.${key}`) : english;
}

/**
 * A refusal in the user's language: by its reason key, else by the contract's text of the message
 * (field checks answer 400 with it), else the server's message.
 */
export function resourceErrorText(i18n: I18n, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.reason && i18n.exists(`resources:text.${error.reason}`)) return i18n.t(`resources:text.${error.reason}`);
    if (KEY_OF_TEXT.has(error.message)) return resourceText(i18n, error.message);
  }
  const message = error instanceof Error ? error.message : String(error);
  return i18n.t('resources:error.generic', { message });
}
