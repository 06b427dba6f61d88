import {
  allowedProposalKinds,
  BALANCE_DECIDERS,
  type ProposalKind,
  type ProposalPartyFacts,
  type ProposalSettings,
  type Role,
} from '@paydesk/contract';
import type { DbOrTx } from '../../db/client.js';
import type { SettingsStore } from '../../platform/settings.js';

/** The settings the contract's proposal rule reads (CanClearMerchantBalance). */
export async function proposalSettings(settings: SettingsStore, db?: DbOrTx): Promise<ProposalSettings> {
  return { canClearMerchantBalance: await settings.get('CanClearMerchantBalance', db) };
}

/**
 * The `proposalKinds` of the merchant and supplier rows a caller reads: the contract's rule, the one
 * funds.propose refuses with. The settings are read once per answer.
 */
export async function proposalKindsFor(settings: SettingsStore, role: Role | null) {
  // Roles that propose nothing need no settings: the rule answers none for them whatever they say.
  const proposes = role !== null && (BALANCE_DECIDERS as readonly Role[]).includes(role);
  const rule = proposes ? await proposalSettings(settings) : { canClearMerchantBalance: false };
  return (party: ProposalPartyFacts): ProposalKind[] => allowedProposalKinds(role, party, rule);
}
