/** Query keys of the supplier pages; every change invalidates `supplierKeys.all`. */
export const supplierKeys = {
  all: ['suppliers'] as const,
  list: ['suppliers', 'list'] as const,
  proxy: ['suppliers', 'proxy'] as const,
  mine: ['suppliers', 'mine'] as const,
  unusedAccounts: ['suppliers', 'unusedAccounts'] as const,
  commissions: (agentId: number) => ['suppliers', 'commissions', agentId] as const,
};
