import { Button, Checkbox, Popover, Space } from 'antd';
import { type ReactNode, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ListColumn } from './types';

/** A column's name for settings, sorting and totals: its `key`, else its `dataIndex` when a string. */
export function columnId<Row>(col: ListColumn<Row>): string | undefined {
  if (col.key !== undefined && col.key !== null) return String(col.key);
  if (typeof col.dataIndex === 'string' || typeof col.dataIndex === 'number') return String(col.dataIndex);
  if (Array.isArray(col.dataIndex)) return col.dataIndex.join('.');
  return undefined;
}

/** Where a user's column choices of a page live: per user and page. */
export function columnsStorageKey(userId: number, viewKey: string): string {
  return `paydesk.listColumns.${userId}.${viewKey}`;
}

type Choices = Record<string, boolean>;

function readChoices(key: string | null): Choices {
  if (!key) return {};
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key) ?? '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed as Record<string, unknown>).filter(([, v]) => typeof v === 'boolean'),
    ) as Choices;
  } catch {
    return {};
  }
}

/**
 * Which columns show: the user's choice per column, else shown unless `defaultHidden`. Choices are
 * kept in localStorage under `storageKey` (null: for this visit only).
 */
export function useColumnSettings(storageKey: string | null) {
  const [choices, setChoices] = useState<Choices>(() => readChoices(storageKey));
  const [loadedKey, setLoadedKey] = useState(storageKey);
  if (loadedKey !== storageKey) {
    // The user or page changed under a mounted list: read that one's choices.
    setLoadedKey(storageKey);
    setChoices(readChoices(storageKey));
  }

  const isVisible = useCallback(
    <Row,>(col: ListColumn<Row>) => {
      const id = columnId(col);
      if (id === undefined) return true;
      return choices[id] ?? !col.defaultHidden;
    },
    [choices],
  );

  const setVisible = useCallback(
    (id: string, visible: boolean) => {
      setChoices((prev) => {
        const next = { ...prev, [id]: visible };
        if (storageKey) localStorage.setItem(storageKey, JSON.stringify(next));
        return next;
      });
    },
    [storageKey],
  );

  const reset = useCallback(() => {
    if (storageKey) localStorage.removeItem(storageKey);
    setChoices({});
  }, [storageKey]);

  return { isVisible, setVisible, reset };
}

/** The toolbar button: a checkbox per column to show or hide it, and reset to the page's defaults. */
export function ColumnSettingsButton<Row>(props: {
  columns: Array<ListColumn<Row>>;
  settings: ReturnType<typeof useColumnSettings>;
}) {
  const { t } = useTranslation('common');
  const { settings } = props;
  const items = props.columns.flatMap((col) => {
    const id = columnId(col);
    return id === undefined ? [] : [{ id, col }];
  });
  const content: ReactNode = (
    <Space orientation="vertical" data-testid="list-columns-panel">
      {items.map(({ id, col }) => (
        <Checkbox
          key={id}
          data-testid={`list-column-${id}`}
          checked={settings.isVisible(col)}
          onChange={(e) => settings.setVisible(id, e.target.checked)}
        >
          {typeof col.title === 'function' ? id : (col.title ?? id)}
        </Checkbox>
      ))}
      <Button size="small" onClick={settings.reset} data-testid="list-columns-reset">
        {t('list.columnsReset')}
      </Button>
    </Space>
  );
  return (
    <Popover trigger="click" placement="bottomRight" title={t('list.columns')} content={content}>
      <Button data-testid="list-columns">{t('list.columns')}</Button>
    </Popover>
  );
}
