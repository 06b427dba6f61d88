import { z } from 'zod';

/** Every role of spec section 6. The string values travel as `access` on the wire. */
export const ROLES = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalMaintenance',
  'technicalSupport',
  'supplier',
  'merchant',
] as const;
export type Role = (typeof ROLES)[number];
export const roleSchema = z.enum(ROLES);

/** Platform staff: they see every party's rows unless an endpoint narrows it. */
export const STAFF_ROLES = [
  'superAdmin',
  'admin',
  'customerService',
  'technicalMaintenance',
  'technicalSupport',
] as const satisfies readonly Role[];

/** Staff who manage accounts (users, authenticators, sessions of others). */
export const ACCOUNT_MANAGER_ROLES = ['superAdmin', 'admin'] as const satisfies readonly Role[];

/** Every signed-in role: for endpoints about the caller's own account. */
export const ALL_ROLES = ROLES;

export function isStaff(role: Role): boolean {
  return (STAFF_ROLES as readonly Role[]).includes(role);
}

/** Roles that an account manager of the given role may create, edit or delete. */
export function manageableRoles(actor: Role): readonly Role[] {
  if (actor === 'superAdmin') return ROLES;
  if (actor === 'admin') return ROLES.filter((r) => r !== 'superAdmin');
  return [];
}
