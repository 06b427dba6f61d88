import { productById } from '@paydesk/contract';

/** A product's name from the catalogue, for rows that show it; its id when the catalogue lacks it. */
export function productName(id: number): string {
  return productById(id)?.name ?? String(id);
}
