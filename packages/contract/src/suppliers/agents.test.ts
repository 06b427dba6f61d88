import { describe, expect, it } from 'vitest';
import { ROLES } from '../common/roles.js';
import { AGENT_ACTIONS, agentActionRefusal } from './agents.js';

describe('the agent rule', () => {
  it('lets a supplier act on its own agents only', () => {
    for (const action of AGENT_ACTIONS) {
      expect(agentActionRefusal(action, { role: 'supplier', userId: 6 }, { parentUserId: 6 })).toBeNull();
      expect(agentActionRefusal(action, { role: 'supplier', userId: 6 }, { parentUserId: 9 })).toBe('notOwnAgent');
      expect(agentActionRefusal(action, { role: 'supplier', userId: 6 }, { parentUserId: null })).toBe('notOwnAgent');
      for (const role of ROLES.filter((r) => r !== 'supplier')) {
        expect(agentActionRefusal(action, { role, userId: 6 }, { parentUserId: 6 }), role).toBe('role');
      }
    }
  });
});
