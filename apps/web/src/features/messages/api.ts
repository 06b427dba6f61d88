import { endpoints, type MessageState } from '@paydesk/contract';
import { useMutation, useMutationState, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { call } from '../../shared/api/http';

/**
 * Query keys of the inbox. Everything starts with ['messages']: the header's unread badge
 * (['messages', 'unreadCount']) and the websocket's 'messages' events refresh through that prefix.
 */
export const messageKeys = {
  all: ['messages'] as const,
  init: ['messages', 'init'] as const,
  content: (msgId: number) => ['messages', 'content', msgId] as const,
};
/** The recipients' options live with the accounts, so an account change refreshes them too. */
export const recipientKeys = { options: ['users', 'options'] as const };

/** The three lists of the inbox (spec section 3, Message). */
export function useInbox() {
  return useQuery({ queryKey: messageKeys.init, queryFn: () => call(endpoints.messages.init) });
}

export function useMessageContent(msgId: number | null) {
  return useQuery({
    queryKey: messageKeys.content(msgId ?? 0),
    queryFn: () => call(endpoints.messages.content, { msg_id: msgId ?? 0 }),
    enabled: msgId !== null,
  });
}

/** What a row's button does, by the list it is in (spec section 4). */
export type MessageAction = 'read' | 'remove' | 'restore';
export const ACTION_OF: Record<MessageState, MessageAction> = { unread: 'read', readed: 'remove', trash: 'restore' };
const ENDPOINT_OF = {
  read: endpoints.messages.hasRead,
  remove: endpoints.messages.removeReaded,
  restore: endpoints.messages.restore,
} as const;

interface ActionInput {
  action: MessageAction;
  msgId: number;
}
const actionKey = ['messages', 'action'] as const;

/**
 * Moves a message between lists: unread -> readed (mark read), readed -> trash (remove),
 * trash -> readed (restore). Afterwards every ['messages'] query refetches, the header badge too.
 */
export function useMessageAction() {
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  return useMutation({
    mutationKey: actionKey,
    mutationFn: ({ action, msgId }: ActionInput) => call(ENDPOINT_OF[action], { msg_id: msgId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messageKeys.all }),
    onError: (e) => void message.error(e.message),
  });
}

/** The spec's per-message loading flag: the ids whose action is on its way. */
export function usePendingMessageIds(): ReadonlySet<number> {
  const pending = useMutationState({
    filters: { mutationKey: actionKey, status: 'pending' },
    select: (m) => (m.state.variables as ActionInput | undefined)?.msgId,
  });
  return new Set(pending.filter((id): id is number => id !== undefined));
}

export function useRecipientOptions(enabled: boolean) {
  return useQuery({
    queryKey: recipientKeys.options,
    queryFn: () => call(endpoints.users.getUserOptions, {}),
    enabled,
  });
}
