import type { Endpoint, EndpointOutput, EndpointParsed, Role } from '@paydesk/contract';
import type { FastifyReply } from 'fastify';
import type { Actor } from './audit.js';
import type { SessionUser } from './sessions.js';
import type { SettingsStore } from './settings.js';

/**
 * Which parties' rows the caller may see on an `owned` endpoint: all of them, or the rows owned by
 * these user ids (a merchant: itself; a supplier: itself and its agents).
 */
export type DataScope = { all: true } | { all: false; userIds: readonly number[] };

export interface PublicContext {
  user: null;
  actor: Actor;
  ip: string;
  userAgent: string;
  requestId: string;
  reply: FastifyReply;
}
export interface UserContext extends Omit<PublicContext, 'user'> {
  user: SessionUser;
  scope: DataScope;
  role: Role;
  /** Whether the request carries a valid second-level token for this session. */
  token2Valid: boolean;
}

/** A handler of one endpoint: its parsed input in, its `data` out (an export: its rows, streamed). */
export type Handler<E extends Endpoint> = (
  input: EndpointParsed<E>,
  ctx: E['access'] extends 'public' ? PublicContext : UserContext,
) => NonNullable<E['produces']> extends 'csv'
  ? AsyncIterable<EndpointOutput<E>>
  : Promise<EndpointOutput<E> | (EndpointOutput<E> extends null ? undefined : never)>;

/** Every endpoint of a group must have its handler: a missing one does not compile. */
export type Handlers<G extends Record<string, Endpoint>> = { [K in keyof G]: Handler<G[K]> };

export function inScope(scope: DataScope, ownerUserId: number | null): boolean {
  return scope.all || (ownerUserId !== null && scope.userIds.includes(ownerUserId));
}

/**
 * The isProxy a supplier's order or payout list is read with (SupplierUnifyQueryGroup, read by the
 * caller): asked for, it stays (true: its agents' rows, the team pages; false: its own); not asked
 * for, the list is its whole team's when `unified`, else its own. Other roles: as asked.
 */
export function supplierListProxy(
  role: Role,
  isProxy: boolean | null | undefined,
  unified: boolean,
): boolean | null | undefined {
  if (role !== 'supplier' || typeof isProxy === 'boolean') return isProxy;
  return unified ? isProxy : false;
}

/**
 * A supplier's list filters as read (its totals and export alike), `supplierListProxy` applied with the
 * setting read only when it matters (a supplier that did not say isProxy).
 */
export async function supplierListFilters<F extends { isProxy?: boolean | null | undefined }>(
  settings: Pick<SettingsStore, 'get'>,
  role: Role,
  f: F,
): Promise<F> {
  if (role !== 'supplier' || typeof f.isProxy === 'boolean') return f;
  return { ...f, isProxy: supplierListProxy(role, f.isProxy, await settings.get('SupplierUnifyQueryGroup')) };
}
