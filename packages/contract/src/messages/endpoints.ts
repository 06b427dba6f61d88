import { z } from 'zod';
import { defineEndpoint } from '../common/endpoint.js';
import { noteTemplateSchema } from '../common/notes.js';
import { idSchema, queryIdSchema } from '../common/paging.js';
import { ALL_ROLES, ROLES, roleSchema } from '../common/roles.js';
import { TEXT_LOCALES } from '../common/server-texts.js';

const ok = z.null();

/** Where a message is in its recipient's inbox (spec section 4): unread -> readed -> trash -> readed. */
export const MESSAGE_STATES = ['unread', 'readed', 'trash'] as const;
export type MessageState = (typeof MESSAGE_STATES)[number];

/** Staff who may broadcast messages to roles or accounts. */
export const MESSAGE_SENDER_ROLES = ['superAdmin', 'admin', 'customerService'] as const;

/** One message of an inbox list; the spec's field names. The content is fetched by /message/content. */
export const messageRowSchema = z.object({
  msg_id: z.number().int(),
  title: z.string(),
  /** A system message's title as a template the console renders in its language (NOTE_TEMPLATES). */
  title_template: noteTemplateSchema,
  /**
   * A system message's title in the languages where staff edited its template (/system/messageTemplate,
   * in-app), filled when it was sent: the console shows its language's over the template.
   */
  title_texts: z.partialRecord(z.enum(TEXT_LOCALES), z.string()),
  /** ISO 8601, UTC. */
  create_time: z.string(),
});
export type MessageRow = z.infer<typeof messageRowSchema>;

export const messageContentSchema = messageRowSchema.extend({
  content: z.string(),
  /** A system message's content as a template (NOTE_TEMPLATES); null for a staff broadcast. */
  content_template: noteTemplateSchema,
  /** The content in the languages where staff edited its template (as `title_texts`). */
  content_texts: z.partialRecord(z.enum(TEXT_LOCALES), z.string()),
});
export type MessageContent = z.infer<typeof messageContentSchema>;

const msgIdInput = z.strictObject({ msg_id: idSchema });

/**
 * The in-app inbox (spec section 7, Messages). The inbox calls keep the spec's paths outside /v1.0
 * (DESIGN section 4); each acts on the caller's own messages only: another's msg_id is "not found".
 */
export const messagesEndpoints = {
  init: defineEndpoint({
    method: 'GET',
    path: '/message/init',
    summary: 'The caller’s inbox: unread, readed and trash lists, newest first (at most 200 each)',
    input: z.strictObject({}),
    output: z.object({
      unread: z.array(messageRowSchema),
      readed: z.array(messageRowSchema),
      trash: z.array(messageRowSchema),
    }),
    example: {},
    access: ALL_ROLES,
    token2: false,
    scope: 'self',
  }),
  content: defineEndpoint({
    method: 'GET',
    path: '/message/content',
    summary: 'One of the caller’s messages with its content (does not mark it read)',
    input: z.strictObject({ msg_id: queryIdSchema }),
    output: messageContentSchema,
    example: { msg_id: 1 },
    access: ALL_ROLES,
    token2: false,
    scope: 'self',
  }),
  hasRead: defineEndpoint({
    method: 'POST',
    path: '/message/has_read',
    summary: 'Mark an unread message read (unread -> readed); 409 when it is not unread any more',
    input: msgIdInput,
    output: ok,
    example: { msg_id: 1 },
    access: ALL_ROLES,
    token2: false,
    scope: 'self',
  }),
  removeReaded: defineEndpoint({
    method: 'POST',
    path: '/message/remove_readed',
    summary: 'Move a read message to the trash (readed -> trash); 409 when it is not readed',
    input: msgIdInput,
    output: ok,
    example: { msg_id: 1 },
    access: ALL_ROLES,
    token2: false,
    scope: 'self',
  }),
  restore: defineEndpoint({
    method: 'POST',
    path: '/message/restore',
    summary: 'Take a message out of the trash (trash -> readed); 409 when it is not in the trash',
    input: msgIdInput,
    output: ok,
    example: { msg_id: 1 },
    access: ALL_ROLES,
    token2: false,
    scope: 'self',
  }),
  unreadCount: defineEndpoint({
    method: 'GET',
    path: '/v1.0/message/unreadCount',
    summary: 'How many of the caller’s messages are unread (the header badge)',
    input: z.strictObject({}),
    output: z.object({ count: z.number().int() }),
    example: {},
    access: ALL_ROLES,
    token2: false,
    scope: 'self',
  }),
  send: defineEndpoint({
    method: 'POST',
    path: '/v1.0/message/send',
    summary: 'Broadcast a message to every live account of the given roles and to the given accounts',
    input: z
      .strictObject({
        title: z.string().trim().min(1, 'title cannot be empty').max(100, 'title is at most 100 characters'),
        content: z.string().trim().min(1, 'content cannot be empty').max(5000, 'content is at most 5000 characters'),
        roles: z.array(roleSchema).max(ROLES.length).optional(),
        userIds: z.array(idSchema).max(10_000).optional(),
      })
      .refine((v) => (v.roles?.length ?? 0) > 0 || (v.userIds?.length ?? 0) > 0, {
        message: 'choose at least one role or account',
        path: ['roles'],
      }),
    output: z.object({ msg_id: z.number().int(), recipients: z.number().int() }),
    example: { title: 'Maintenance tonight', content: 'The console is unavailable 02:00-02:30.', roles: ['merchant'] },
    access: MESSAGE_SENDER_ROLES,
    token2: false,
    scope: 'owned',
  }),
} as const;
