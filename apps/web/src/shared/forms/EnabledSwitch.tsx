import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errorText';

/**
 * A row's enable/disable switch: runs `onToggle` with the new state, then says 'opened successfully'
 * or 'closed successfully' and reloads `invalidate`; a refusal shows in the reader's language.
 */
export function EnabledSwitch(props: {
  checked: boolean;
  onToggle(next: boolean): Promise<unknown>;
  testId: string;
  /** What it switches, for screen readers (it shows no text): e.g. 'Enabled: merchant1'. */
  label: string;
  disabled?: boolean;
  /** The queries to reload once it worked. */
  invalidate: QueryKey;
}) {
  const { t, i18n } = useTranslation('common');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (next: boolean) => props.onToggle(next),
    onSuccess: async (_data, next) => {
      void message.success(t(next ? 'toggle.opened' : 'toggle.closed'));
      await queryClient.invalidateQueries({ queryKey: props.invalidate });
    },
    onError: (error) => void message.error(errorText(i18n, error)),
  });
  return (
    <Switch
      size="small"
      checked={props.checked}
      disabled={props.disabled}
      loading={toggle.isPending}
      aria-label={props.label}
      data-testid={props.testId}
      onChange={(next) => toggle.mutate(next)}
    />
  );
}
