/** Query keys of account management; every change invalidates `userKeys.all`. */
export const userKeys = {
  all: ['users'] as const,
  list: ['users', 'list'] as const,
};
