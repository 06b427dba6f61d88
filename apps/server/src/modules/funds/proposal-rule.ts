import {
  allowedProposalKinds,
  BALANCE_DECIDERS,
  type ProposalKind,
  type ProposalPartyFacts,
  type ProposalSettings,
  type Role,
} from '@paydesk/contract';
import type { DbOrTx } from '../../db/client.js';
import { readSettings } from '../../platform/settings.js';

/** The settings the contract's proposal rule reads (CanClearMerchantBalance: off unless set to true). */
export async function proposalSettings(db: DbOrTx): Promise<ProposalSettings> {
  const settings = await readSettings(db, { CanClearMerchantBalance: false as unknown });
  return { canClearMerchantBalance: settings.CanClearMerchantBalance === true };
}

/**
 * The `proposalKinds` of the merchant and supplier rows a caller reads: the contract's rule, the one
 * funds.propose refuses with. The settings are read once per answer.
 */
export async function proposalKindsFor(db: DbOrTx, role: Role | null) {
  // Roles that propose nothing need no settings: the rule answers none for them whatever they say.
  const proposes = role !== null && (BALANCE_DECIDERS as readonly Role[]).includes(role);
  const settings = proposes ? await proposalSettings(db) : { canClearMerchantBalance: false };
  return (party: ProposalPartyFacts): ProposalKind[] => allowedProposalKinds(role, party, settings);
}
