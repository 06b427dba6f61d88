import type { Role } from '../common/roles.js';
import type { ResourceKind } from './details.js';

/** Who reads resources: staff who look after suppliers, and a supplier its own. */
export const RESOURCE_READ_ROLES = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalMaintenance',
  'supplier',
] as const satisfies readonly Role[];
/** Who creates, changes, switches and deletes them: a supplier its own, admins any supplier's. */
export const RESOURCE_MANAGE_ROLES = ['superAdmin', 'admin', 'supplier'] as const satisfies readonly Role[];

/**
 * What can be done to one resource (a row of the list). The server refuses any other pairing (403 by
 * role, 422 by the row's facts: `resourceActionRefusal`); the console offers a row's `allowedActions`,
 * which the server computes with the same rule. Creating is not a row action, and the bulk switch
 * applies the rule of `enable` / `disable` to every selected row.
 */
export const RESOURCE_ACTIONS = ['edit', 'uploadQr', 'delete', 'enable', 'disable'] as const;
export type ResourceAction = (typeof RESOURCE_ACTIONS)[number];

/**
 * The kinds whose accounts show an uploaded QR image (UPI, WeChat, Alipay: the "other channel" pages).
 * Bank cards, bank accounts, gateways and mobile money have none; a USDT wallet's QR code is its address.
 */
export const QR_IMAGE_KINDS: readonly ResourceKind[] = ['upi', 'wechat', 'alipay'];
export const takesQrImage = (kind: string): boolean => (QR_IMAGE_KINDS as readonly string[]).includes(kind);

/**
 * The red-packet receiving accounts (WeChat 5001, Alipay 5002): a supplier may have at most the
 * `redWalletCount` setting's number of them switched on at once (both products counted together).
 */
export const RED_WALLET_PRODUCTS = [5001, 5002] as const;
export const isRedWalletProduct = (productId: number): boolean =>
  (RED_WALLET_PRODUCTS as readonly number[]).includes(productId);

/** What of a resource the action rule reads. */
export interface ResourceActionFacts {
  kind: string;
  /** Its open orders: allocated to it and not yet paid. */
  openOrders: number;
  /** Whether its supplier and its product are enabled (switching on needs both). */
  supplierEnabled: boolean;
  productEnabled: boolean;
  /**
   * Switching it on would pass its supplier's limit of red-packet accounts on at once (redWalletCount):
   * it is one, it is off, and its supplier has as many on as allowed. Absent: false.
   */
  redWalletsFull?: boolean;
}

/**
 * Why an action is refused: the role may not take it (403); the resource has open orders (delete), its
 * kind takes no QR image (upload), its supplier or its product is disabled, or its supplier has as many
 * red-packet accounts on as redWalletCount allows (switching on) (422, with this reason). A resource outside the caller's reach (another supplier's, deleted) is a 404 before it.
 */
export type ResourceActionRefusal =
  | 'role'
  | 'resourceBusy'
  | 'qrImageNotTaken'
  | 'supplierDisabled'
  | 'productDisabled'
  | 'redWalletLimit';

/**
 * THE rule of the resource actions: null when `role` may take `action` on the resource now, else why
 * not. The server's guard refuses with it and puts `allowedResourceActions` on every row it lists, so
 * the console offers exactly what the server accepts (resources.offered.test walks the combinations).
 * Switching on or off is accepted whatever the resource's state (switching on an enabled one keeps it on).
 */
export function resourceActionRefusal(
  action: ResourceAction,
  role: Role | null | undefined,
  resource: ResourceActionFacts,
): ResourceActionRefusal | null {
  if (!role || !(RESOURCE_MANAGE_ROLES as readonly Role[]).includes(role)) return 'role';
  switch (action) {
    case 'delete':
      return resource.openOrders > 0 ? 'resourceBusy' : null;
    case 'uploadQr':
      return takesQrImage(resource.kind) ? null : 'qrImageNotTaken';
    case 'enable':
      if (!resource.supplierEnabled) return 'supplierDisabled';
      if (!resource.productEnabled) return 'productDisabled';
      return resource.redWalletsFull ? 'redWalletLimit' : null;
    case 'edit':
    case 'disable':
      return null;
  }
}

/** The actions `role` may take on the resource now (the `allowedActions` of a resource row). */
export function allowedResourceActions(role: Role | null | undefined, resource: ResourceActionFacts): ResourceAction[] {
  return RESOURCE_ACTIONS.filter((action) => resourceActionRefusal(action, role, resource) === null);
}
