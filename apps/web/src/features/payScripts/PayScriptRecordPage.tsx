import {
  endpoints,
  PAY_SCRIPT_KINDS,
  PAY_SCRIPT_SOURCES,
  type PayScriptKind,
  type PayScriptRecord,
  type PayScriptSource,
} from '@paydesk/contract';
import { Button, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, exportUrl } from '../../shared/api/http';
import { formatTime } from '../../shared/format/time';
import { type FilterField, type ListColumn, ListTable } from '../../shared/list/ListTable';
import { payScriptKeys, useRouteName, useScriptOptions } from './api';
import { OutcomeTag, RunResult } from './RunResult';

const api = endpoints.payScripts;

/**
 * System management › dynamic pay script call records (/system/dynamicPayScriptRecord and its read-only
 * variant): every run of a script, a test run or a payer page's, newest first, filtered by script,
 * call, source, outcome, order code and time; paging; CSV of the filtered set. A record opens with its
 * input, its result or error, its outbound calls and its log. Reading only. Test hooks:
 * `payscript-record-list`, `payscript-record-view-<id>`, `payscript-record-*` (RunResult).
 */
export default function PayScriptRecordPage() {
  const { t } = useTranslation(['payScripts', 'common']);
  const viewKey = useRouteName('dynamicPayScriptRecord');
  const scripts = useScriptOptions();
  const [shown, setShown] = useState<PayScriptRecord | null>(null);

  const filters: FilterField[] = [
    { kind: 'select', name: 'scriptId', label: t('filter.script'), options: scripts.data ?? [] },
    {
      kind: 'select',
      name: 'kind',
      label: t('filter.kind'),
      options: PAY_SCRIPT_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) })),
    },
    {
      kind: 'select',
      name: 'outcome',
      label: t('filter.outcome'),
      options: (['ok', 'error'] as const).map((o) => ({ value: o, label: t(`outcome.${o}`) })),
    },
    {
      kind: 'select',
      name: 'source',
      label: t('filter.source'),
      options: PAY_SCRIPT_SOURCES.map((s) => ({ value: s, label: t(`source.${s}`) })),
    },
    { kind: 'text', name: 'orderCode', label: t('filter.orderCode') },
    { kind: 'dateRange', name: 'time', label: t('filter.time') },
  ];

  const columns: Array<ListColumn<PayScriptRecord>> = [
    { title: t('column.createdAt'), dataIndex: 'createdAt', key: 'createdAt', render: formatTime, phone: 'title' },
    { title: t('column.id'), dataIndex: 'id', key: 'id', defaultHidden: true },
    {
      title: t('column.scriptName'),
      dataIndex: 'scriptName',
      key: 'scriptName',
      phone: true,
      render: (name: string, row) => `${name} v${row.version}`,
    },
    {
      title: t('column.kind'),
      dataIndex: 'kind',
      key: 'kind',
      phone: true,
      render: (v: PayScriptKind) => t(`kind.${v}`),
    },
    { title: t('column.source'), dataIndex: 'source', key: 'source', render: (v: PayScriptSource) => t(`source.${v}`) },
    { title: t('column.orderCode'), dataIndex: 'orderCode', key: 'orderCode' },
    {
      title: t('column.outcome'),
      dataIndex: 'ok',
      key: 'ok',
      phone: 'extra',
      render: (ok: boolean, row) => <OutcomeTag ok={ok} testId={`payscript-record-outcome-${row.id}`} />,
    },
    {
      title: t('column.durationMs'),
      dataIndex: 'durationMs',
      key: 'durationMs',
      align: 'right',
      render: (ms: number) => t('result.duration', { ms }),
    },
    {
      title: t('column.error'),
      dataIndex: 'error',
      key: 'error',
      width: 260,
      ellipsis: { showTitle: true },
      phone: true,
      render: (v: string | null) => (v ? <Typography.Text type="danger">{v}</Typography.Text> : ''),
    },
    { title: t('column.createdBy'), dataIndex: 'createdBy', key: 'createdBy' },
    {
      title: t('column.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_: unknown, row) => (
        <Button type="link" size="small" data-testid={`payscript-record-view-${row.id}`} onClick={() => setShown(row)}>
          {t('action.view')}
        </Button>
      ),
    },
  ];

  return (
    <div className="page">
      <ListTable<PayScriptRecord>
        testId="payscript-record-list"
        viewKey={viewKey}
        queryKey={payScriptKeys.records}
        rowKey="id"
        fetchPage={(p) => call(api.getPayScriptRecords, p)}
        exportHref={(f) => exportUrl(api.exportPayScriptRecords, f)}
        filters={filters}
        columns={columns}
      />
      {shown && (
        <Modal
          open
          width={820}
          title={t('record.title', { id: shown.id })}
          onCancel={() => setShown(null)}
          footer={null}
          destroyOnHidden
        >
          <RunResult run={shown} testId="payscript-record" />
        </Modal>
      )}
    </div>
  );
}
