import { z } from 'zod';

/**
 * The realtime channel (spec sections 3, 4, 7 "Websocket"; DESIGN sections 1-3).
 *
 * The console sends JSON text frames, each a command:
 *   {"requestId":"r1","commandType":"heartbeat","token":"<session token>"}
 *   {"requestId":"r2","commandType":"subscribe","data":{"topic":"orders"},"token":"<session token>"}
 * and the server answers each with a response carrying the same requestId (null when the frame was not
 * even readable), its `code` from the error catalogue (200, 400, 403, 429, 1003, 500):
 *   {"code":200,"requestId":"r1","data":{"key":"<random>"},"msg":"success"}
 * The server also pushes events to the sockets subscribed to a topic, told apart by `type`:
 *   {"type":"event","topic":"orders","data":{...}}
 * A response never has `type`; an event never has `requestId`.
 *
 * The token travels in every command (not at connect time) because sessions can end at any moment:
 * each command re-checks it, and a dead or missing session answers 1003 and the server closes the socket.
 */

export const WS_PATH = '/v1.0/ws';
/** Spec section 9: the console sends a heartbeat every 20 s and keeps the answered key as `currentKey`. */
export const HEARTBEAT_INTERVAL_MS = 20_000;
/** Larger frames close the socket (close code 1009): commands are small. */
export const WS_MAX_MESSAGE_BYTES = 64 * 1024;

/**
 * Close codes the server uses besides the standard ones (1009 frame too big, 1013 too slow a reader).
 * After `sessionExpired` the console goes to /login; after the others it reconnects.
 */
export const WS_CLOSE_CODES = {
  /** Sent after a 1003 response: the session is missing, unknown, revoked or expired. */
  sessionExpired: 4401,
  /** No command for three heartbeat intervals: a dead or forgotten connection. */
  idle: 4408,
} as const;

export const WS_COMMAND_TYPES = ['heartbeat', 'subscribe', 'unsubscribe'] as const;
export const wsCommandTypeSchema = z.enum(WS_COMMAND_TYPES);
export type WsCommandType = z.infer<typeof wsCommandTypeSchema>;

/** A topic is a short name: 'orders', 'payouts', 'messages' (areas may add their own, e.g. 'orders:42'). */
export const wsTopicSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'topic accepts letters, digits and _ . : -');

/** One command of the console. Unknown fields are refused, as for HTTP bodies. */
export const wsCommandSchema = z.strictObject({
  requestId: z.string().min(1).max(64),
  commandType: wsCommandTypeSchema,
  data: z.unknown().optional(),
  /** The session token; a missing or empty one answers 1003 like an unknown one. */
  token: z.string().max(512).optional(),
});
export type WsCommand = z.input<typeof wsCommandSchema>;

/** `data` of subscribe and unsubscribe (heartbeat takes none). */
export const wsTopicDataSchema = z.strictObject({ topic: wsTopicSchema });
export type WsTopicData = z.infer<typeof wsTopicDataSchema>;

/** `data` of a successful heartbeat: a fresh random key each time. */
export const wsHeartbeatDataSchema = z.object({ key: z.string() });
export type WsHeartbeatData = z.infer<typeof wsHeartbeatDataSchema>;

/** `data` of a successful subscribe or unsubscribe: the socket's topics afterwards. */
export const wsTopicsDataSchema = z.object({ topics: z.array(z.string()) });
export type WsTopicsData = z.infer<typeof wsTopicsDataSchema>;

/** The answer to one command. Error answers carry `data` as in HTTP: {reason?, issues?} or null. */
export const wsResponseSchema = z.object({
  code: z.number().int(),
  requestId: z.string().nullable(),
  data: z.unknown(),
  msg: z.string(),
});
export type WsResponse = z.infer<typeof wsResponseSchema>;

/** A server-pushed event to the subscribers of `topic`. */
export const wsEventSchema = z.object({
  type: z.literal('event'),
  topic: z.string(),
  data: z.unknown(),
});
export type WsEvent = z.infer<typeof wsEventSchema>;

/** Any frame the server sends: the console parses with this, then branches on `'type' in frame`. */
export const wsServerFrameSchema = z.union([wsEventSchema, wsResponseSchema]);
export type WsServerFrame = z.infer<typeof wsServerFrameSchema>;

export function isWsEvent(frame: WsServerFrame): frame is WsEvent {
  return 'type' in frame && frame.type === 'event';
}

/**
 * The topic a console follows to learn that a system setting changed (issue 21): every server process
 * hears the change itself and tells its own sockets, so an open console reads getInfo again at once
 * (the service-paused banner, the logo, the system flag, the contact info, the pay password banner)
 * instead of at its next sign-in. Data: `{key}` to the roles that may read that key on the config
 * page, `{}` to the others; `{}` to everyone after a server process could not hear changes for a while.
 */
export const SETTINGS_TOPIC = 'settings';
export const settingsEventSchema = z.object({ key: z.string().max(64).optional() });
export type SettingsEvent = z.infer<typeof settingsEventSchema>;
