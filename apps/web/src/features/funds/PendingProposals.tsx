/** Placeholder until the funds area lands; the funds work replaces this file. */
export interface PendingProposalsProps {
  partyKind: 'merchant' | 'supplier';
}

export function PendingProposals(_props: PendingProposalsProps) {
  return null;
}
