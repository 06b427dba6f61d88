import { describe, expect, it } from 'vitest';
import { ROLES } from '../common/roles.js';
import { allowedProposalKinds, proposalRefusal } from './proposals.js';

const ON = { canClearMerchantBalance: true };
const OFF = { canClearMerchantBalance: false };

describe('the balance proposal rule', () => {
  it('is open to superAdmin and admin only', () => {
    for (const role of ROLES) {
      const kinds = allowedProposalKinds(role, { partyKind: 'supplier', balance: 100 }, ON);
      expect(kinds.length > 0, role).toBe(role === 'superAdmin' || role === 'admin');
    }
    expect(proposalRefusal('adjust', null, { partyKind: 'merchant', balance: 1 }, ON)).toBe('role');
  });

  it('gives each party its kinds; clearing needs the setting and something to clear', () => {
    expect(allowedProposalKinds('admin', { partyKind: 'supplier', balance: 0 }, ON)).toEqual([
      'adjust',
      'deposit',
      'withdraw',
    ]);
    expect(allowedProposalKinds('admin', { partyKind: 'merchant', balance: 1 }, ON)).toEqual(['adjust', 'clear']);
    expect(proposalRefusal('clear', 'admin', { partyKind: 'merchant', balance: 1 }, OFF)).toBe('clearDisabled');
    expect(proposalRefusal('clear', 'admin', { partyKind: 'merchant', balance: 0 }, ON)).toBe('nothingToClear');
    expect(proposalRefusal('deposit', 'admin', { partyKind: 'merchant', balance: 1 }, ON)).toBe('kind');
  });
});
