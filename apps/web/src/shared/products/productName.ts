import { productById } from '@paydesk/contract';
import type { i18n as I18n } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** A product's name in the console's language (`products:name.<id>`), else the catalogue's English name. */
export function productName(i18n: I18n, id: number): string {
  const key = `products:name.${id}`;
  if (i18n.exists(key)) return i18n.t(key);
  return productById(id)?.name ?? String(id);
}

/** For any page: `const name = useProductName(); name(1001)` -> 'UPI 代收' / 'UPI collection'. */
export function useProductName(): (id: number) => string {
  const { i18n } = useTranslation('products');
  return useCallback((id: number) => productName(i18n, id), [i18n, i18n.language]);
}
