import { SearchOutlined } from '@ant-design/icons';
import {
  endpoints,
  routeByPath,
  SETTING_GROUP_TEXTS,
  SETTING_GROUPS,
  SETTINGS,
  type SettingEntry,
  type SettingKey,
  type TextLocale,
} from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Input, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { systemConfigKeys } from './api';
import { SettingForm } from './SettingForm';
import { SettingRow } from './SettingRow';
import { matches } from './values';

/**
 * System management › global settings (/systemConfig, spec section 7; issue 21): every setting the
 * caller may read, grouped as the registry groups them, searchable by key, name or description in the
 * reader's language. A row the caller may change has its typed control; on the read-only route
 * (technicalMaintenance) and for keys of other roles the row only shows the value.
 * Test hooks: `system-config`, `config-search`, `config-group-<group>`, `config-empty`, and the rows'
 * (SettingRow, SettingForm).
 */
export default function SystemConfigPage() {
  const { t, i18n } = useTranslation(['systemConfig', 'common']);
  const { pathname } = useLocation();
  const readOnly = routeByPath(pathname)?.readOnly === true;
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<SettingKey | null>(null);
  const list = useQuery({
    queryKey: systemConfigKeys.list,
    queryFn: () => call(endpoints.systemConfig.list, {}),
  });

  if (list.isPending) return <Skeleton active paragraph={{ rows: 8 }} />;
  if (list.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title={t('common:list.loadFailed', { message: errorText(i18n, list.error) })}
        action={<Button onClick={() => void list.refetch()}>{t('common:action.retry')}</Button>}
      />
    );
  }

  const entries = list.data.list.filter((e) => matches(e.key, query, i18n.language));
  const groups = SETTING_GROUPS.map((group) => ({
    group,
    entries: entries.filter((e) => SETTINGS[e.key].group === group),
  })).filter((g) => g.entries.length > 0);
  const editingEntry: SettingEntry | undefined = list.data.list.find((e) => e.key === editing);

  return (
    <div className="page config-page" data-testid="system-config">
      {readOnly && <Alert type="info" showIcon title={t('readOnlyPage')} data-testid="config-readonly" />}
      <Input
        allowClear
        prefix={<SearchOutlined aria-hidden />}
        type="search"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        placeholder={t('searchPlaceholder')}
        aria-label={t('search')}
        data-testid="config-search"
        className="config-search"
      />
      {groups.length === 0 && (
        <Empty
          data-testid="config-empty"
          description={<Typography.Text type="secondary">{t('noMatch', { query: query.trim() })}</Typography.Text>}
        />
      )}
      {groups.map(({ group, entries: rows }) => (
        <Card
          key={group}
          data-testid={`config-group-${group}`}
          title={
            <h2 className="config-group-title">{SETTING_GROUP_TEXTS[group][i18n.language as TextLocale] ?? group}</h2>
          }
          size="small"
        >
          {rows.map((entry) => (
            <SettingRow
              key={entry.key}
              entry={entry}
              editable={!readOnly && entry.writable}
              showWriters={!readOnly}
              onEdit={() => setEditing(entry.key)}
            />
          ))}
        </Card>
      ))}
      {editingEntry && <SettingForm entry={editingEntry} onClose={() => setEditing(null)} />}
    </div>
  );
}
