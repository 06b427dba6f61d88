import { MESSAGE_SENDER_ROLES, MESSAGE_STATES, type MessageRow, type MessageState, type Role } from '@paydesk/contract';
import { Alert, Badge, Button, Card, Drawer, List, Skeleton, Space, Tabs, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { formatTime } from '../../shared/format/time';
import { templateText } from '../../shared/notes/noteText';
import { useSession } from '../../shared/session/session';
import {
  ACTION_OF,
  type MessageAction,
  useInbox,
  useMessageAction,
  useMessageContent,
  usePendingMessageIds,
} from './api';
import { SendMessageModal } from './SendMessageModal';

/** How each action's button looks; its data-testid is message-<action>-<msg_id>. */
const BUTTON_STYLE: Record<MessageAction, { danger?: boolean; type?: 'primary' | 'default' }> = {
  read: { type: 'primary' },
  remove: { danger: true },
  restore: {},
};

/**
 * message_page: the caller's inbox in three tabs (unread, readed, trash). Opening a message shows its
 * content in a drawer and, when unread, marks it read. `?msg=<id>` opens that message (home links so).
 * Staff who may broadcast also get "Send message".
 */
export default function MessagePage() {
  const { t, i18n } = useTranslation(['messages', 'common']);
  const { user } = useSession();
  const inbox = useInbox();
  const act = useMessageAction();
  const pending = usePendingMessageIds();
  const [params, setParams] = useSearchParams();
  const [tab, setTab] = useState<MessageState>('unread');
  const [sending, setSending] = useState(false);
  const openId = Number(params.get('msg')) || null;
  const content = useMessageContent(openId);

  const stateOf = (msgId: number): MessageState | undefined =>
    MESSAGE_STATES.find((s) => inbox.data?.[s].some((m) => m.msg_id === msgId));

  // Opening an unread message marks it read (once per message and visit).
  const markedOnOpen = useRef(new Set<number>());
  const openState = openId === null ? undefined : stateOf(openId);
  useEffect(() => {
    if (openId === null || openState !== 'unread' || markedOnOpen.current.has(openId)) return;
    markedOnOpen.current.add(openId);
    act.mutate({ action: 'read', msgId: openId });
  }, [openId, openState, act.mutate]);

  // A deep link shows the tab the message is in.
  const shownTabFor = useRef<number | null>(null);
  useEffect(() => {
    if (openId === null || !openState || shownTabFor.current === openId) return;
    shownTabFor.current = openId;
    setTab(openState);
  }, [openId, openState]);

  const open = (msgId: number) => setParams({ msg: String(msgId) }, { replace: true });
  const close = () => {
    setParams({}, { replace: true });
    shownTabFor.current = null;
  };

  if (!user) return null;
  const canSend = (MESSAGE_SENDER_ROLES as readonly Role[]).includes(user.access);

  /** The row's button; the drawer shows the same action under another test id. */
  const actionButton = (state: MessageState, msgId: number, where: 'message' | 'message-drawer' = 'message') => {
    const action = ACTION_OF[state];
    return (
      <Button
        key={action}
        size="small"
        {...BUTTON_STYLE[action]}
        loading={pending.has(msgId)}
        data-testid={`${where}-${action}-${msgId}`}
        onClick={(e) => {
          e.stopPropagation();
          act.mutate({ action, msgId });
        }}
      >
        {t(`action.${action}`)}
      </Button>
    );
  };

  const list = (state: MessageState, rows: MessageRow[]) => (
    <List
      data-testid={`message-list-${state}`}
      dataSource={rows}
      rowKey="msg_id"
      locale={{ emptyText: t(`empty.${state}`) }}
      renderItem={(m) => (
        <List.Item
          data-testid={`message-item-${m.msg_id}`}
          className="clickable"
          onClick={() => open(m.msg_id)}
          actions={[actionButton(state, m.msg_id)]}
        >
          <List.Item.Meta
            title={
              state === 'unread' ? (
                <Typography.Text strong>{templateText(i18n, m.title_template, m.title, m.title_texts)}</Typography.Text>
              ) : (
                templateText(i18n, m.title_template, m.title, m.title_texts)
              )
            }
            description={formatTime(m.create_time)}
          />
        </List.Item>
      )}
    />
  );

  return (
    <div className="page message-page">
      <Card
        title={t('title')}
        extra={
          canSend && (
            <Button type="primary" data-testid="message-send" onClick={() => setSending(true)}>
              {t('send.open')}
            </Button>
          )
        }
      >
        {inbox.isPending && <Skeleton active />}
        {inbox.isError && (
          <Alert
            type="error"
            showIcon
            title={t('loadFailed', { message: errorText(i18n, inbox.error) })}
            action={<Button onClick={() => void inbox.refetch()}>{t('common:action.retry')}</Button>}
          />
        )}
        {inbox.data && (
          <Tabs
            activeKey={tab}
            onChange={(k) => setTab(k as MessageState)}
            items={MESSAGE_STATES.map((state) => ({
              key: state,
              label: (
                <span data-testid={`message-tab-${state}`}>
                  {t(`tab.${state}`)}{' '}
                  <Badge
                    count={inbox.data[state].length}
                    showZero
                    overflowCount={999}
                    color={state === 'unread' ? undefined : 'gray'}
                  />
                </span>
              ),
              children: list(state, inbox.data[state]),
            }))}
          />
        )}
      </Card>
      <Drawer
        open={openId !== null}
        onClose={close}
        size={520}
        title={
          content.data
            ? templateText(i18n, content.data.title_template, content.data.title, content.data.title_texts)
            : t('drawer.title')
        }
        destroyOnHidden
        extra={
          openId !== null && openState && openState !== 'unread' && actionButton(openState, openId, 'message-drawer')
        }
      >
        {content.isPending && <Skeleton active />}
        {content.isError && (
          <Alert type="error" showIcon title={t('drawer.loadFailed', { message: errorText(i18n, content.error) })} />
        )}
        {content.data && (
          <Space orientation="vertical" data-testid="message-content">
            <Typography.Text type="secondary">{formatTime(content.data.create_time)}</Typography.Text>
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>
              {templateText(i18n, content.data.content_template, content.data.content, content.data.content_texts)}
            </Typography.Paragraph>
          </Space>
        )}
      </Drawer>
      {canSend && <SendMessageModal open={sending} onClose={() => setSending(false)} />}
    </div>
  );
}
