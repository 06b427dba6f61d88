/**
 * The query key of the signed-in user's info (getInfo). Whatever changes what it answers (a global
 * setting: the service switch, the system flag, the contact info) invalidates it, and the shell follows.
 */
export const authKeys = { info: ['auth', 'info'] as const };
