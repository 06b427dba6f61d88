import type { Role } from '../common/roles.js';
import { suppliersEndpoints } from './endpoints.js';

/** What a supplier does with its agents' rows (the agent list, /supplier-proxy). */
export const AGENT_ACTIONS = ['edit', 'setEnabled', 'commission'] as const;
export type AgentAction = (typeof AGENT_ACTIONS)[number];

/** The endpoint each agent action calls: who it is open to is that endpoint's access. */
export const AGENT_ACTION_ENDPOINTS = {
  edit: suppliersEndpoints.updateAgent,
  setEnabled: suppliersEndpoints.updateAgent,
  commission: suppliersEndpoints.setAgentCommission,
} as const satisfies Record<AgentAction, unknown>;

/** What of an agent the rule reads: its parent's console account (`parentId` of an agent row). */
export interface AgentFacts {
  parentUserId: number | null;
}

/** Why an agent action is refused: the role (403), or the agent is not the caller's own (404, as if absent). */
export type AgentActionRefusal = 'role' | 'notOwnAgent';

/**
 * THE rule of the agent actions: a supplier edits, switches and sets the commission of its own agents
 * only (an agent has none: agents cannot have agents). The server's guard refuses with it (another
 * supplier's agent answers 404 like a missing one, and so does a deleted agent, which no list shows);
 * the console offers a row's actions by it (suppliers.offered.test walks role x agent over HTTP).
 */
export function agentActionRefusal(
  action: AgentAction,
  caller: { role: Role | null | undefined; userId: number },
  agent: AgentFacts,
): AgentActionRefusal | null {
  const { access } = AGENT_ACTION_ENDPOINTS[action];
  if (!caller.role || access === 'public' || !access.includes(caller.role)) return 'role';
  if (agent.parentUserId === null || agent.parentUserId !== caller.userId) return 'notOwnAgent';
  return null;
}
