import { z } from 'zod';
import { defineEndpoint } from '../common/endpoint.js';
import { ALL_ROLES } from '../common/roles.js';

/**
 * The demo's order history after a first start: made in the background once the server listens.
 * `none`: no history is planned (not the demo, or DEMO_ORDERS=0); `making`: being made now (`made` of
 * about `planned` orders); `done`; `interrupted`: a stop cut it short and a later start skipped the rest.
 */
export const DEMO_HISTORY_STATES = ['none', 'making', 'done', 'interrupted'] as const;
export type DemoHistoryState = (typeof DEMO_HISTORY_STATES)[number];

export const demoHistorySchema = z.object({
  state: z.enum(DEMO_HISTORY_STATES),
  made: z.number().int(),
  planned: z.number().int(),
});
export type DemoHistoryStatus = z.infer<typeof demoHistorySchema>;

/** Platform state every signed-in console reads. */
export const systemEndpoints = {
  demoHistory: defineEndpoint({
    method: 'GET',
    path: '/v1.0/system/demoHistory',
    summary: 'Whether the demo order history is still being made (the console shows a notice meanwhile)',
    input: z.strictObject({}),
    output: demoHistorySchema,
    example: {},
    access: ALL_ROLES,
    token2: false,
    scope: 'none',
  }),
};
