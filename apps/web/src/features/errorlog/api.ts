/** Query keys of the script-error log. */
export const errorLogKeys = { all: ['errorLog'] as const, list: ['errorLog', 'list'] as const };
