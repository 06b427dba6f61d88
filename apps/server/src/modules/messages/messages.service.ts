import {
  type MessageContent,
  type MessageRow,
  type MessageState,
  type NoteTemplate,
  noteParts,
  type Role,
  type TextLocale,
} from '@paydesk/contract';
import { and, count, desc, eq, inArray, isNull, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { messageRecipients, messages, users } from '../../db/schema.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import type { Clock } from '../../platform/clock.js';
import { conflict, notFound, refused } from '../../platform/errors.js';
import type { RealtimeHub } from '../../platform/realtime/hub.js';

export interface MessagesDeps {
  db: Db;
  clock: Clock;
  /** Pushes "your inbox changed" to open consoles; best effort (the inbox is the truth). */
  realtime?: RealtimeHub;
  /**
   * The staff's edited in-app templates (modules/bots/templates.ts): a system message's title and
   * content in each language where one was edited, filled. Without it the defaults alone apply.
   */
  templates?: { inAppTexts(template: NoteTemplate, db: Tx): Promise<Partial<Record<TextLocale, string>>> };
}

type LocalTexts = Partial<Record<TextLocale, { title?: string; content?: string }>>;
const textsOf = (local: LocalTexts | null, part: 'title' | 'content'): Partial<Record<TextLocale, string>> =>
  Object.fromEntries(
    Object.entries(local ?? {}).flatMap(([language, texts]) => (texts[part] ? [[language, texts[part]]] : [])),
  );

/** Each inbox list shows at most this many messages, newest first. */
const LIST_LIMIT = 200;
/** Recipient rows are inserted this many per statement. */
const INSERT_CHUNK = 1000;

/** The transitions of spec section 4: the call, the state it expects, the state it leaves. */
const TRANSITIONS = {
  hasRead: { from: 'unread', to: 'readed' },
  removeReaded: { from: 'readed', to: 'trash' },
  restore: { from: 'trash', to: 'readed' },
} as const satisfies Record<string, { from: MessageState; to: MessageState }>;
export type MessageTransition = keyof typeof TRANSITIONS;

const toRow = (m: {
  id: number;
  title: string;
  titleTemplate: NoteTemplate | null;
  localTexts: LocalTexts | null;
  createdAt: Date;
}): MessageRow => ({
  msg_id: m.id,
  title: m.title,
  title_template: m.titleTemplate ?? null,
  title_texts: textsOf(m.localTexts, 'title'),
  create_time: m.createdAt.toISOString(),
});

/**
 * The in-app inbox. Messages come from the system (other services call `notify` inside their own
 * transaction) and from staff broadcasts (`send`). Moving a message within one's own inbox is not
 * audited: it is the reader's own view, not business state; a broadcast is.
 */
export class MessagesService {
  constructor(private readonly deps: MessagesDeps) {}

  private get db() {
    return this.deps.db;
  }
  private now() {
    return this.deps.clock.now();
  }

  async init(userId: number): Promise<{ unread: MessageRow[]; readed: MessageRow[]; trash: MessageRow[] }> {
    const list = (state: MessageState) =>
      this.db
        .select({
          id: messages.id,
          title: messages.title,
          titleTemplate: messages.titleTemplate,
          localTexts: messages.localTexts,
          createdAt: messages.createdAt,
        })
        .from(messageRecipients)
        .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
        .where(and(eq(messageRecipients.userId, userId), eq(messageRecipients.state, state)))
        .orderBy(desc(messages.id))
        .limit(LIST_LIMIT);
    const [unread, readed, trash] = await Promise.all([list('unread'), list('readed'), list('trash')]);
    return { unread: unread.map(toRow), readed: readed.map(toRow), trash: trash.map(toRow) };
  }

  /** One of the caller's messages; another account's is "not found". */
  async content(userId: number, msgId: number): Promise<MessageContent> {
    const [row] = await this.db
      .select({ m: messages })
      .from(messageRecipients)
      .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
      .where(and(eq(messageRecipients.messageId, msgId), eq(messageRecipients.userId, userId)))
      .limit(1);
    if (!row) throw notFound('no such message');
    return {
      ...toRow(row.m),
      content: row.m.content,
      content_template: row.m.contentTemplate ?? null,
      content_texts: textsOf(row.m.localTexts, 'content'),
    };
  }

  async unreadCount(userId: number): Promise<{ count: number }> {
    const [row] = await this.db
      .select({ n: count() })
      .from(messageRecipients)
      .where(and(eq(messageRecipients.userId, userId), eq(messageRecipients.state, 'unread')));
    return { count: row?.n ?? 0 };
  }

  /**
   * A guarded move within the caller's inbox: it happens only from the expected state. Zero rows
   * moved is 409 when the message is the caller's (it changed meanwhile), else 404.
   */
  async move(userId: number, msgId: number, transition: MessageTransition): Promise<void> {
    const { from, to } = TRANSITIONS[transition];
    const now = this.now();
    await this.db.transaction(async (tx) => {
      const moved = await tx
        .update(messageRecipients)
        .set({ state: to, updatedAt: now, ...(transition === 'hasRead' ? { readAt: now } : {}) })
        .where(
          and(
            eq(messageRecipients.messageId, msgId),
            eq(messageRecipients.userId, userId),
            eq(messageRecipients.state, from),
          ),
        )
        .returning({ messageId: messageRecipients.messageId });
      if (moved.length > 0) return;
      const [mine] = await tx
        .select({ state: messageRecipients.state })
        .from(messageRecipients)
        .where(and(eq(messageRecipients.messageId, msgId), eq(messageRecipients.userId, userId)))
        .limit(1);
      if (!mine) throw notFound('no such message');
      throw conflict('the message changed meanwhile', 'stateChanged');
    });
  }

  /**
   * A staff broadcast: one message, one inbox row per live account of the given roles and of the
   * given account ids. Named accounts that do not exist (or are deleted) are refused.
   */
  async send(
    input: { title: string; content: string; roles?: Role[] | undefined; userIds?: number[] | undefined },
    actor: Actor,
  ): Promise<{ msg_id: number; recipients: number }> {
    const roles = [...new Set(input.roles ?? [])];
    const userIds = [...new Set(input.userIds ?? [])];
    const sent = await this.db.transaction(async (tx) => {
      const targets = await tx
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            isNull(users.deletedAt),
            or(
              roles.length > 0 ? inArray(users.role, roles) : undefined,
              userIds.length > 0 ? inArray(users.id, userIds) : undefined,
            ),
          ),
        );
      const found = new Set(targets.map((t) => t.id));
      const missing = userIds.filter((id) => !found.has(id));
      if (missing.length > 0) throw notFound(`no such account: ${missing.slice(0, 20).join(', ')}`);
      if (found.size === 0) throw refused('no live account has these roles', 'noRecipients');
      const msgId = await this.deliver(tx, {
        title: input.title,
        content: input.content,
        senderId: actor.userId,
        userIds: [...found],
      });
      await writeAudit(
        tx,
        actor,
        {
          action: 'messages.send',
          target: `message:${msgId}`,
          after: { title: input.title, roles, userIds, recipients: found.size },
        },
        this.now(),
      );
      return { msg_id: msgId, recipients: [...found] };
    });
    await this.announce(sent.recipients, sent.msg_id);
    return { msg_id: sent.msg_id, recipients: sent.recipients.length };
  }

  /**
   * Tells the recipients' open consoles that their inbox changed (badge, inbox, home). Call it after
   * the transaction that wrote the message has committed; a console that misses it reloads anyway.
   */
  async announce(userIds: readonly number[], msgId: number): Promise<void> {
    if (!this.deps.realtime || userIds.length === 0) return;
    await this.deps.realtime.publish('messages', { msg_id: msgId }, { userIds: [...userIds] }).catch(() => undefined);
  }

  /**
   * A system message (payout rejected, supplement awaiting review, low deposit, ...), written inside
   * the calling service's transaction so it exists exactly when the change it tells about does.
   * Deleted accounts are skipped; with no live recipient nothing is written and null is answered.
   * Not audited here: the calling service audits the change that caused it.
   */
  async notify(
    tx: Tx,
    input: { title: NoteTemplate; content: NoteTemplate; userIds: readonly number[] },
  ): Promise<{ msgId: number; recipients: number } | null> {
    const wanted = [...new Set(input.userIds)];
    if (wanted.length === 0) return null;
    const live = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, wanted), isNull(users.deletedAt)));
    if (live.length === 0) return null;
    const title = noteParts(input.title);
    const content = noteParts(input.content);
    const msgId = await this.deliver(tx, {
      title: title.note,
      content: content.note,
      titleTemplate: title.noteTemplate,
      contentTemplate: content.noteTemplate,
      localTexts: await this.localTexts(tx, input.title, input.content),
      senderId: null,
      userIds: live.map((u) => u.id),
    });
    return { msgId, recipients: live.length };
  }

  /** The edited in-app templates' texts of a system message, per language; null when none was edited. */
  private async localTexts(tx: Tx, title: NoteTemplate, content: NoteTemplate): Promise<LocalTexts | null> {
    if (!this.deps.templates) return null;
    const titles = await this.deps.templates.inAppTexts(title, tx);
    const contents = await this.deps.templates.inAppTexts(content, tx);
    const local: LocalTexts = {};
    for (const [language, text] of Object.entries(titles)) local[language as TextLocale] = { title: text };
    for (const [language, text] of Object.entries(contents))
      local[language as TextLocale] = { ...local[language as TextLocale], content: text };
    return Object.keys(local).length > 0 ? local : null;
  }

  private async deliver(
    tx: Tx,
    input: {
      title: string;
      content: string;
      titleTemplate?: NoteTemplate | null;
      contentTemplate?: NoteTemplate | null;
      localTexts?: LocalTexts | null;
      senderId: number | null;
      userIds: readonly number[];
    },
  ): Promise<number> {
    const now = this.now();
    const { userIds: _userIds, ...fields } = input;
    const [message] = await tx
      .insert(messages)
      .values({ ...fields, createdAt: now })
      .returning({ id: messages.id });
    const msgId = message!.id;
    for (let i = 0; i < input.userIds.length; i += INSERT_CHUNK) {
      await tx.insert(messageRecipients).values(
        input.userIds.slice(i, i + INSERT_CHUNK).map((userId) => ({
          messageId: msgId,
          userId,
          state: 'unread' as const,
          updatedAt: now,
        })),
      );
    }
    return msgId;
  }
}
