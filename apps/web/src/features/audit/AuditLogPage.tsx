import { type AuditRow, endpoints, isSettingKey, SETTING_TEXTS, type TextLocale } from '@paydesk/contract';
import { useTranslation } from 'react-i18next';
import { labelOr } from '../../i18n/labelOr';
import { call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { ListTable } from '../../shared/list/ListTable';
import { ChangeTable } from './ChangeTable';

/** A target's name the console knows itself: a setting's label in the reader's language. */
function nameOf(kind: string, key: string, language: string): string {
  if (kind === 'setting' && isSettingKey(key)) return SETTING_TEXTS[key].label[language as TextLocale] ?? key;
  return key;
}

/** Kinds of target the server names (`kind:key`); anything else (a URL) shows as written. */
const TARGET_KINDS = new Set([
  'user',
  'session',
  'order',
  'merchant',
  'supplier',
  'resource',
  'view',
  'message',
  'proposal',
  'product',
  'setting',
  'ip',
  'blacklist',
  'clear',
  'callbacks',
  'payout',
]);

/** System management › audit log: who changed what, when, from where (read-only for everyone). */
export default function AuditLogPage() {
  const { t, i18n } = useTranslation(['audit', 'common']);
  return (
    <div className="page">
      <ListTable<AuditRow>
        testId="audit-list"
        viewKey="auditLog"
        queryKey={['audit', 'list']}
        rowKey="id"
        fetchPage={(p) => call(endpoints.audit.getList, p)}
        exportHref={(f) => exportUrl(endpoints.audit.export, f)}
        filters={[
          { kind: 'text', name: 'account', label: t('filter.account') },
          { kind: 'text', name: 'action', label: t('filter.action') },
          { kind: 'dateRange', name: 'time', label: t('filter.time') },
        ]}
        columns={[
          { title: t('column.at'), dataIndex: 'at', render: (v: string) => formatTime(v) },
          { title: t('column.account'), dataIndex: 'account' },
          {
            title: t('column.role'),
            dataIndex: 'role',
            render: (r: string | null) => (r ? t(`common:role.${r}`) : ''),
          },
          {
            title: t('column.action'),
            dataIndex: 'action',
            // In the reader's language; the code stays at hand as the title (and is what the filter takes).
            render: (action: string) => (
              <span title={action} data-testid="audit-action">
                {/* An action this console does not know (an older version's) shows its code. */}
                {labelOr(i18n, `audit:actionName.${action}`, action)}
              </span>
            ),
          },
          {
            title: t('column.target'),
            dataIndex: 'target',
            // What it is and its name (the server resolves ids); the stored target stays at hand as the title.
            render: (target: string | null, row) => {
              if (!target) return '';
              const kind = /^([a-z]+):(.*)$/.exec(target);
              if (!kind || !TARGET_KINDS.has(kind[1]!)) return target;
              return (
                <span title={target} data-testid="audit-target">
                  {t('change.target', {
                    kind: t(`targetKind.${kind[1]}`),
                    name: row.targetName ?? nameOf(kind[1]!, kind[2]!, i18n.language),
                  })}
                </span>
              );
            },
          },
          {
            title: t('column.change'),
            key: 'change',
            render: (_, row) => <ChangeTable before={row.before} after={row.after} />,
          },
          { title: t('column.ip'), dataIndex: 'ip' },
        ]}
      />
    </div>
  );
}
