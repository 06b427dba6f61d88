import { ACCOUNT_MANAGER_ROLES, endpoints, minorToMajorText, type Role, type UserOption } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/http';
import { parseMoneyInput } from '../format/money';
import { useSession } from '../session/session';

/** Query keys of products and party product settings; every change invalidates `productKeys.all`. */
export const productKeys = {
  all: ['products'] as const,
  catalogue: ['products', 'catalogue'] as const,
  userProducts: ['products', 'userProducts'] as const,
  forUser: (userId: number) => ['products', 'forUser', userId] as const,
  partyOptions: ['products', 'partyOptions'] as const,
};

/** The product catalogue with its enablement and limits (every role may read it). */
export function useCatalogue() {
  return useQuery({ queryKey: productKeys.catalogue, queryFn: () => call(endpoints.products.getProductList, {}) });
}

/** Merchant and supplier accounts (agents included), for the account filter and the add form. */
export function usePartyOptions(enabled = true) {
  return useQuery({
    queryKey: productKeys.partyOptions,
    enabled,
    queryFn: async (): Promise<UserOption[]> => {
      const [merchants, suppliers] = await Promise.all([
        call(endpoints.users.getUserOptions, { role: 'merchant' }),
        call(endpoints.users.getUserOptions, { role: 'supplier' }),
      ]);
      const all = [...merchants, ...suppliers];
      return all.filter((o, i) => all.findIndex((x) => x.id === o.id) === i);
    },
  });
}

export const isParty = (role: Role): role is 'merchant' | 'supplier' => role === 'merchant' || role === 'supplier';

/** Minor units -> the text a user edits ('' for none). */
export const moneyText = (minor: number | null | undefined) =>
  minor === null || minor === undefined ? '' : minorToMajorText(minor);
/** Basis points -> the percentage a user edits: 250 -> '2.50'. */
export const rateText = (bp: number) => (bp / 100).toFixed(2);

const TWO_DECIMALS = /^\d+(\.\d{1,2})?$/;
/** A typed amount in major units: at most two decimals; null when it is not such a number. */
export function amountOf(text: string | undefined): number | null {
  const cleaned = (text ?? '').replace(/[,\s]/g, '');
  return TWO_DECIMALS.test(cleaned) ? parseMoneyInput(cleaned) : null;
}

/** Whether the signed-in user may change products and party settings here (superAdmin, admin; not read-only). */
export function useCanManageProducts(readOnly: boolean): boolean {
  const { user } = useSession();
  const role = user?.access;
  return !readOnly && role !== undefined && (ACCOUNT_MANAGER_ROLES as readonly Role[]).includes(role);
}
