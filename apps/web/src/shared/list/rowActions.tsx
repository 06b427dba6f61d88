import { MoreOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import type { Role } from '@paydesk/contract';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Dropdown, Modal, Space, Tooltip } from 'antd';
import { type ComponentType, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errorText';
import { ensureToken2 } from '../api/http';

/** What an action's form gets: the row, whether the call is running, and where its values go. */
export interface RowActionFormProps<Row, V> {
  row: Row;
  busy: boolean;
  onSubmit(values: V): void;
  onClose(): void;
}

/**
 * One action a list offers on its rows (docs/architecture.md, "Row actions"). Texts are i18n keys
 * (with their namespace, e.g. 'orders:action.confirm'), filled with the list's `textValues(row)`.
 */
export interface RowAction<Row, V = void> {
  /** Names it in test hooks: `<testIdPrefix>-<key>-<testIdOf(row)>`. */
  key: string;
  label: string;
  icon: ReactNode;
  /** The roles it is open to (the contract's access list of the endpoint it calls). */
  roles: readonly Role[];
  /** Whether this row allows it now; for orders the server's `row.allowedActions` says so. */
  allowed(row: Row): boolean;
  /** The endpoint needs the second-level password: asked before the form or confirmation opens. */
  token2?: boolean;
  danger?: boolean;
  /** Asked before calling (OK / Cancel), for an action without a form. */
  confirm?: string;
  /** The dialog it opens; its submit runs the call with the form's values. */
  form?: ComponentType<RowActionFormProps<Row, V>>;
  /** Said when the call succeeded; filled with `textValues(row)` and the fields of the call's answer. */
  success: string;
  /** What it calls. */
  run(row: Row, values: V): Promise<unknown>;
}

/** The roles an endpoint is open to (a public one: none in the console's lists). */
export const endpointRoles = (endpoint: { access: readonly Role[] | 'public' }): readonly Role[] =>
  endpoint.access === 'public' ? [] : endpoint.access;

/** A row action of any form type (see `rowAction`). */
export type AnyRowAction<Row> = RowAction<Row, never>;

/** Declares an action with a typed form: the list holds actions of different form value types. */
export const rowAction = <Row, V = void>(action: RowAction<Row, V>): AnyRowAction<Row> =>
  action as unknown as AnyRowAction<Row>;

/** A list's row actions, as a page declares them for ListTable (or RowActionBar, in a detail drawer). */
export interface RowActions<Row> {
  actions: Array<AnyRowAction<Row>>;
  /** Test hooks: `<testIdPrefix>-<key>-<id>`, `<testIdPrefix>-actions-<id>`, `<testIdPrefix>-ok`. */
  testIdPrefix: string;
  testIdOf(row: Row): string;
  /** Interpolation values of the confirmation texts (e.g. the order code). */
  textValues?(row: Row): Record<string, unknown>;
  /** A failure in the user's language; by default the server's refusal text (`shared/api/errorText`). */
  errorText?(error: Error): string;
  /**
   * The failure message, i18n key with {{action}} and {{message}} (default 'common:rowActions.failed');
   * null: `errorText` alone.
   */
  failed?: string | null;
  /** After a success: reload what shows the row (the list reloads its own query). */
  onDone?(): Promise<unknown> | undefined;
  /** Buttons shown on the row; the rest go to its 'more' menu. */
  inline?: number;
  /** Content before the buttons of a row that calls nothing (e.g. a 'detail' link), shown to everyone. */
  before?(row: Row): ReactNode;
}

/** At most this many buttons on a row (issue 18: a row of a list fits 1366 px). */
export const INLINE_ACTIONS = 2;

type Open<Row> = { action: AnyRowAction<Row>; row: Row };

/**
 * Runs declared row actions: which ones a row shows, the second-level password, the confirmation or
 * the form, the call, success and failure messages. `bar(row)` draws a row's buttons and 'more' menu;
 * render `dialogs` once.
 */
export function useRowActions<Row>(config: RowActions<Row> | undefined, role: Role | undefined) {
  const { t, i18n } = useTranslation('common');
  const { message } = App.useApp();
  const [open, setOpen] = useState<Open<Row> | null>(null);
  const mutation = useMutation({
    mutationFn: (r: { action: AnyRowAction<Row>; row: Row; values: unknown }) => r.action.run(r.row, r.values as never),
    onSuccess: async (data, r) => {
      const answer = data !== null && typeof data === 'object' ? (data as Record<string, unknown>) : {};
      void message.success(t(r.action.success, { ...config?.textValues?.(r.row), ...answer }));
      setOpen(null);
      await config?.onDone?.();
    },
    onError: (error, r) => {
      // A form stays open to correct and send again; a confirmation has nothing to correct.
      if (!r.action.form) setOpen(null);
      const text = config?.errorText ? config.errorText(error) : errorText(i18n, error);
      void message.error(
        config?.failed === null
          ? text
          : t(config?.failed ?? 'rowActions.failed', { action: t(r.action.label), message: text }),
      );
    },
  });
  const busy = mutation.isPending;
  const mine = (config?.actions ?? []).filter((a) => role !== undefined && a.roles.includes(role));

  const start = async (action: AnyRowAction<Row>, row: Row) => {
    if (action.token2) {
      try {
        await ensureToken2();
      } catch {
        return; // the user closed the second-level password dialog
      }
    }
    setOpen({ action, row });
  };

  const label = (a: AnyRowAction<Row>) => (
    <>
      {t(a.label)}
      {a.token2 && (
        <Tooltip title={t('rowActions.needsToken2')}>
          <SafetyCertificateOutlined aria-label={t('rowActions.needsToken2')} style={{ marginInlineStart: 4 }} />
        </Tooltip>
      )}
    </>
  );

  const bar = (row: Row): ReactNode => {
    if (!config) return null;
    const id = config.testIdOf(row);
    const prefix = config.testIdPrefix;
    const allowed = mine.filter((a) => a.allowed(row));
    const inline = allowed.slice(0, config.inline ?? INLINE_ACTIONS);
    const more = allowed.slice(inline.length);
    return (
      <Space size={0} wrap data-testid={`${prefix}-actions-${id}`}>
        {config.before?.(row)}
        {inline.map((a) => (
          <Button
            key={a.key}
            type="link"
            size="small"
            icon={a.icon}
            danger={a.danger}
            disabled={busy}
            data-testid={`${prefix}-${a.key}-${id}`}
            onClick={() => void start(a, row)}
          >
            {label(a)}
          </Button>
        ))}
        {more.length > 0 && (
          <Dropdown
            trigger={['click']}
            disabled={busy}
            menu={{
              items: more.map((a) => ({
                key: a.key,
                icon: a.icon,
                danger: a.danger,
                label: <span data-testid={`${prefix}-${a.key}-${id}`}>{label(a)}</span>,
              })),
              onClick: ({ key }) => {
                const a = more.find((m) => m.key === key);
                if (a) void start(a, row);
              },
            }}
          >
            <Button
              type="link"
              size="small"
              icon={<MoreOutlined />}
              aria-label={t('rowActions.more')}
              data-testid={`${prefix}-more-${id}`}
            >
              {t('rowActions.more')}
            </Button>
          </Dropdown>
        )}
      </Space>
    );
  };

  const close = () => setOpen(null);
  const submit = (values: unknown) => open && mutation.mutate({ action: open.action, row: open.row, values });
  let dialogs: ReactNode = null;
  if (open && config) {
    const Form = open.action.form as ComponentType<RowActionFormProps<Row, unknown>> | undefined;
    dialogs = Form ? (
      <Form row={open.row} busy={busy} onSubmit={submit} onClose={close} />
    ) : (
      <Modal
        open
        title={t(open.action.label)}
        okText={t('action.ok')}
        cancelText={t('action.cancel')}
        okButtonProps={{ danger: open.action.danger, loading: busy, 'data-testid': `${config.testIdPrefix}-ok` }}
        onOk={() => submit(undefined)}
        onCancel={close}
      >
        {open.action.confirm ? t(open.action.confirm, config.textValues?.(open.row) ?? {}) : null}
      </Modal>
    );
  }

  return { any: mine.length > 0 || config?.before !== undefined, bar, dialogs, busy };
}

/** A row's actions outside a list (a detail drawer): the same buttons, menu and dialogs. */
export function RowActionBar<Row>(props: { actions: RowActions<Row>; role: Role | undefined; row: Row }) {
  const { bar, dialogs } = useRowActions(props.actions, props.role);
  return (
    <>
      {bar(props.row)}
      {dialogs}
    </>
  );
}
