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

/** What an action's panel gets: the row, how to close it, and how to reload the list after a change. */
export interface RowActionPanelProps<Row> {
  row: Row;
  onClose(): void;
  /** The list (and whatever `onDone` reloads) after the panel changed something. */
  onDone(): Promise<unknown> | undefined;
}

/** What every row action declares (docs/architecture.md, "Row actions"). */
interface RowActionBase<Row> {
  /** Names it in test hooks: `<testIdPrefix>-<key>-<testIdOf(row)>`. */
  key: string;
  /** An i18n key with its namespace (e.g. 'orders:action.confirm'). */
  label: string;
  icon: ReactNode;
  /** The roles it is open to (the contract's access list of the endpoint it calls). */
  roles: readonly Role[];
  /** Whether this row allows it now, by the server's rule (for orders, the row's `allowedActions`). */
  allowed(row: Row): boolean;
  /** The endpoint needs the second-level password: asked before the form, confirmation or panel opens. */
  token2?: boolean;
  danger?: boolean;
}

/**
 * An action that makes one call: after a confirmation (OK / Cancel) or a form. Texts are i18n keys,
 * filled with the list's `textValues(row)`.
 */
export interface RowCallAction<Row, V = void> extends RowActionBase<Row> {
  /** Asked before calling, for an action without a form. */
  confirm?: string;
  /** The dialog it opens; its submit runs the call with the form's values. */
  form?: ComponentType<RowActionFormProps<Row, V>>;
  /** Said when the call succeeded; filled with `textValues(row)` and the fields of the call's answer. */
  success: string;
  /** What it calls. */
  run(row: Row, values: V): Promise<unknown>;
}

/**
 * An action that opens a view of the row that makes its own calls, or none (its products, its API
 * credentials, a balance proposal): the list offers it by the same rules and draws it in the same place.
 */
export interface RowPanelAction<Row> extends RowActionBase<Row> {
  panel: ComponentType<RowActionPanelProps<Row>>;
}

export type RowAction<Row, V = void> = RowCallAction<Row, V> | RowPanelAction<Row>;

/** The roles an endpoint is open to (a public one: none in the console's lists). */
export const endpointRoles = (endpoint: { access: readonly Role[] | 'public' }): readonly Role[] =>
  endpoint.access === 'public' ? [] : endpoint.access;

/** A row action of any form type (see `rowAction`). */
export type AnyRowAction<Row> = RowAction<Row, never>;

/** Declares an action with a typed form: the list holds actions of different form value types. */
export const rowAction = <Row, V = void>(action: RowAction<Row, V>): AnyRowAction<Row> =>
  action as unknown as AnyRowAction<Row>;

/** A list's row actions, as a page declares them for ListTable (or RowActionBar, in a detail drawer). */
/**
 * The declared actions of rows that carry the server's `allowedActions` (orders, payouts): one factory per
 * namespace. Who an action is open to and whether it needs token2 come from the endpoint it calls,
 * whether a row allows it from the row's allowedActions; its texts are `<namespace>:action.<key>`,
 * `<namespace>:success.<key>` and, when it asks first, `<namespace>:ask.<key>`.
 */
export function serverRuledActions<Row extends { allowedActions: readonly Key[] }, Key extends string>(
  namespace: string,
) {
  return <V = void>(
    key: Key,
    endpoint: { access: readonly Role[] | 'public'; token2: boolean },
    rest: {
      icon: ReactNode;
      danger?: boolean;
      confirm?: boolean;
      form?: (props: RowActionFormProps<Row, V>) => ReactNode;
      run(row: Row, values: V): Promise<unknown>;
    },
  ): AnyRowAction<Row> =>
    rowAction<Row, V>({
      key,
      label: `${namespace}:action.${key}`,
      success: `${namespace}:success.${key}`,
      roles: endpointRoles(endpoint),
      token2: endpoint.token2,
      allowed: (row) => row.allowedActions.includes(key),
      ...(rest.confirm ? { confirm: `${namespace}:ask.${key}` } : {}),
      icon: rest.icon,
      ...(rest.danger ? { danger: true } : {}),
      ...(rest.form ? { form: rest.form } : {}),
      run: rest.run,
    });
}

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
  /** Extra attributes on a row's buttons (e.g. `data-account`, which browser tests select by). */
  attrs?(row: Row): Record<`data-${string}`, string>;
}

/** At most this many buttons on a row (issue 18: a row of a list fits 1366 px). */
export const INLINE_ACTIONS = 2;

type Open<Row> = { action: AnyRowAction<Row>; row: Row };

const isPanel = <Row,>(action: AnyRowAction<Row>): action is RowPanelAction<Row> => 'panel' in action;

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
    mutationFn: (r: { action: RowCallAction<Row, never>; row: Row; values: unknown }) =>
      r.action.run(r.row, r.values as never),
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
            {...config.attrs?.(row)}
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
                label: (
                  <span data-testid={`${prefix}-${a.key}-${id}`} {...config.attrs?.(row)}>
                    {label(a)}
                  </span>
                ),
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
  let dialogs: ReactNode = null;
  if (open && config && isPanel(open.action)) {
    const Panel = open.action.panel;
    dialogs = <Panel row={open.row} onClose={close} onDone={() => config.onDone?.()} />;
  } else if (open && config) {
    const action = open.action as RowCallAction<Row, never>;
    const submit = (values: unknown) => mutation.mutate({ action, row: open.row, values });
    const Form = action.form as ComponentType<RowActionFormProps<Row, unknown>> | undefined;
    dialogs = Form ? (
      <Form row={open.row} busy={busy} onSubmit={submit} onClose={close} />
    ) : (
      <Modal
        open
        title={t(action.label)}
        okText={t('action.ok')}
        cancelText={t('action.cancel')}
        okButtonProps={{ danger: action.danger, loading: busy, 'data-testid': `${config.testIdPrefix}-ok` }}
        onOk={() => submit(undefined)}
        onCancel={close}
      >
        {action.confirm ? t(action.confirm, config.textValues?.(open.row) ?? {}) : null}
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
