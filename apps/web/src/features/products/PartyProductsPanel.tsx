/** Placeholder until the products area lands; the products work replaces this file. */
export interface PartyProductsPanelProps {
  /** The merchant's or supplier's console account. */
  userId: number;
  role: 'merchant' | 'supplier';
  readOnly?: boolean;
}

export function PartyProductsPanel(_props: PartyProductsPanelProps) {
  return null;
}
