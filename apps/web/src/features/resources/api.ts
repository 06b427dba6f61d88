import { RESOURCE_TEXTS, type ResourceTextKey } from '@paydesk/contract';
import type { i18n as I18n } from 'i18next';
import type { ErrorTextOptions } from '../../shared/api/errorText';

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

/** How the resource pages word the fields of a 400: the form's labels and the contract's field texts. */
export function resourceIssues(i18n: I18n): ErrorTextOptions {
  return {
    fieldLabel: (path) => {
      const key = `resources:field.${path.split('.').pop()}`;
      return i18n.exists(key) ? i18n.t(key) : undefined;
    },
    issueText: (message) => resourceText(i18n, message),
  };
}
