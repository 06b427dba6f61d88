import type { Role } from '../common/roles.js';
import { BALANCE_DECIDERS, type PartyKind, PROPOSAL_KINDS, PROPOSAL_KINDS_OF, type ProposalKind } from './endpoints.js';

/** What of a merchant or supplier the proposal rule reads (a database record or a row the console holds). */
export interface ProposalPartyFacts {
  partyKind: PartyKind;
  /** The party's available balance, minor units. */
  balance: number;
}

/** The system settings (spec section 7) the proposal rule reads. */
export interface ProposalSettings {
  canClearMerchantBalance: boolean;
}

/**
 * Why a balance proposal of a kind is refused for a party: the role may not propose (403), the party
 * does not take that kind (400, as the input schema says), clearing is switched off
 * (CanClearMerchantBalance) or there is nothing to clear (422).
 */
export type ProposalRefusal = 'role' | 'kind' | 'clearDisabled' | 'nothingToClear';

/**
 * THE rule of balance proposals: null when `role` may propose a change of `kind` to the party now,
 * else why not. The server's guard (funds.propose) refuses with it and puts `proposalKinds` on every
 * merchant and supplier row it answers, so the console offers exactly the kinds the server accepts
 * (funds.offered.test walks role x party x balance x setting).
 */
export function proposalRefusal(
  kind: ProposalKind,
  role: Role | null | undefined,
  party: ProposalPartyFacts,
  settings: ProposalSettings,
): ProposalRefusal | null {
  if (!role || !(BALANCE_DECIDERS as readonly Role[]).includes(role)) return 'role';
  if (!PROPOSAL_KINDS_OF[party.partyKind].includes(kind)) return 'kind';
  if (kind === 'clear') {
    if (!settings.canClearMerchantBalance) return 'clearDisabled';
    // An approval of a clearing with nothing to clear is refused: so is the proposal.
    if (party.balance <= 0) return 'nothingToClear';
  }
  return null;
}

/** The kinds `role` may propose for the party now (the `proposalKinds` of a merchant or supplier row). */
export function allowedProposalKinds(
  role: Role | null | undefined,
  party: ProposalPartyFacts,
  settings: ProposalSettings,
): ProposalKind[] {
  return PROPOSAL_KINDS.filter((kind) => proposalRefusal(kind, role, party, settings) === null);
}
