/** Query keys of online user management; ending a session invalidates `sessionKeys.all`. */
export const sessionKeys = { all: ['sessions'] as const, list: ['sessions', 'list'] as const };
