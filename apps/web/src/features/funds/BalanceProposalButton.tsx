/** Placeholder until the funds area lands; the funds work replaces this file. */
export type ProposalKind = 'adjust' | 'clear' | 'deposit' | 'withdraw';

export interface BalanceProposalButtonProps {
  partyKind: 'merchant' | 'supplier';
  /** The merchant's or supplier's record id. */
  partyId: number;
  partyName: string;
  kinds: ProposalKind[];
}

export function BalanceProposalButton(_props: BalanceProposalButtonProps) {
  return null;
}
