import {
  type CounterChange,
  endpoints,
  FIX_DAYS_DEFAULT,
  FIX_DAYS_MAX,
  type FixReport,
  getSettingEndpoint,
  type ResetReport,
  routeByPath,
  SETTINGS,
  setSettingEndpoint,
} from '@paydesk/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, InputNumber, Space, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { call, ensureToken2 } from '../../shared/api/http';
import { formatMoney } from '../../shared/format/money';
import { endpointRoles } from '../../shared/list/rowActions';
import { useScrollRegion } from '../../shared/list/scrollRegion';
import { productName } from '../../shared/products/productName';
import { authKeys } from '../../shared/session/keys';
import { useSession } from '../../shared/session/session';

const api = endpoints.systemMaintenance;
/** Under the global config page's key, so a change on either page is read again by both. */
const serviceKey = ['systemConfig', 'enableService'] as const;

/** The service switch (enableService through its setX): superAdmin turns it, everyone here reads it. */
function ServiceCard({ mayChange }: { mayChange: boolean }) {
  const { t, i18n } = useTranslation(['systemMaintenance', 'common']);
  const { message, modal } = App.useApp();
  const state = useQuery({ queryKey: serviceKey, queryFn: () => call(getSettingEndpoint('enableService'), {}) });
  const queryClient = useQueryClient();
  // setenableService; then this switch, the config page and the user's info (the service banner) read again.
  const change = useMutation({
    mutationFn: (enable: boolean) => call(setSettingEndpoint('enableService'), { enable }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['systemConfig'] }),
        queryClient.invalidateQueries({ queryKey: authKeys.info }),
      ]),
  });
  const on = state.data?.enable === true;
  const turn = () =>
    modal.confirm({
      title: t(on ? 'service.confirmOff' : 'service.confirmOn'),
      okText: t('common:action.ok'),
      cancelText: t('common:action.cancel'),
      okButtonProps: { danger: on, 'data-testid': 'maint-service-confirm' },
      onOk: () =>
        change
          .mutateAsync(!on)
          .then(() => void message.success(t('service.saved')))
          .catch((e: unknown) => void message.error(errorText(i18n, e))),
    });
  return (
    <Card title={t('service.title')} size="small">
      <Typography.Paragraph type="secondary">{t('service.hint')}</Typography.Paragraph>
      {state.isError ? (
        <Alert type="error" showIcon title={errorText(i18n, state.error)} />
      ) : (
        <Space wrap>
          <Switch
            checked={on}
            loading={state.isLoading || change.isPending}
            disabled={!mayChange}
            onChange={turn}
            aria-label={t('service.title')}
            data-testid="maint-service-switch"
          />
          <Typography.Text data-testid="maint-service-state">
            {state.isLoading ? '' : t(on ? 'service.on' : 'service.off')}
          </Typography.Text>
        </Space>
      )}
      {!mayChange && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('service.readOnly')}
        </Typography.Paragraph>
      )}
    </Card>
  );
}

/** What a check or a fix found: a summary line and the rows that differ, before and after. */
function FixReportView({ report }: { report: FixReport }) {
  const { t, i18n } = useTranslation(['systemMaintenance', 'common']);
  const scrollRegion = useScrollRegion();
  const values = { checked: report.checked, changed: report.changed, from: report.fromDay, to: report.toDay };
  const target = (row: CounterChange) =>
    row.table === 'resource_daily'
      ? `${row.resourceName ?? ''} #${row.resourceId ?? ''}`.trim()
      : (row.account ?? `#${row.userId ?? ''}`);
  return (
    <div data-testid="maint-report">
      <Alert
        type={report.changed === 0 ? 'success' : report.dryRun ? 'warning' : 'info'}
        showIcon
        title={t(report.dryRun ? 'report.summaryDry' : 'report.summaryFixed', values)}
        description={
          report.changes.length < report.changed ? t('report.more', { shown: report.changes.length }) : undefined
        }
        style={{ marginBottom: 12 }}
      />
      <Table<CounterChange>
        ref={scrollRegion}
        size="small"
        rowKey={(r) => `${r.table}:${r.resourceId ?? r.userId}:${r.productId}:${r.day}`}
        dataSource={report.changes}
        pagination={report.changes.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('report.empty') }}
        columns={[
          { title: t('report.column.day'), dataIndex: 'day' },
          {
            title: t('report.column.table'),
            dataIndex: 'table',
            render: (v: CounterChange['table']) => t(`report.table.${v}`),
          },
          { title: t('report.column.target'), key: 'target', render: (_, r) => target(r) },
          {
            title: t('report.column.product'),
            dataIndex: 'productId',
            render: (id: number | null) => (id === null ? '' : `${id} ${productName(i18n, id)}`),
          },
          {
            title: t('report.column.count'),
            key: 'count',
            align: 'right',
            render: (_, r) => `${r.countBefore} → ${r.countAfter}`,
          },
          {
            title: t('report.column.amount'),
            key: 'amount',
            align: 'right',
            render: (_, r) =>
              `${formatMoney(r.amountBefore, i18n.language)} → ${formatMoney(r.amountAfter, i18n.language)}`,
          },
        ]}
      />
    </div>
  );
}

/**
 * System management › system maintenance (spec sections 2 and 7, DESIGN section 10): the service
 * switch, fixSystemResources with its dry run (checkSystemResources) and resetSystemResourcePool,
 * each change after a confirmation and the second-level password. Administrators change; on the
 * read-only route technical maintenance sees the switch and runs the check (a read) only.
 *
 * Test hooks: `maint-service-switch`, `maint-service-state`, `maint-days`, `maint-check`, `maint-fix`,
 * `maint-reset`, `maint-report`, `maint-reset-report`.
 */
export default function SystemMaintenancePage() {
  const { t, i18n } = useTranslation(['systemMaintenance', 'common']);
  const { message, modal } = App.useApp();
  const { user } = useSession();
  const { pathname } = useLocation();
  const readOnly = routeByPath(pathname)?.readOnly === true;
  const role = user?.access;
  const may = (roles: readonly string[]) => role !== undefined && roles.includes(role);
  const mayCheck = may(endpointRoles(api.checkSystemResources));
  const mayFix = !readOnly && may(endpointRoles(api.fixSystemResources));
  const mayReset = !readOnly && may(endpointRoles(api.resetSystemResourcePool));
  const mayService = !readOnly && may(SETTINGS.enableService.writeRoles);
  const [days, setDays] = useState<number>(FIX_DAYS_DEFAULT);
  const [report, setReport] = useState<FixReport | null>(null);
  const [resetReport, setResetReport] = useState<ResetReport | null>(null);
  const failed = (e: unknown) => void message.error(errorText(i18n, e));

  const check = useMutation({
    mutationFn: () => call(api.checkSystemResources, { days }),
    onSuccess: setReport,
    onError: failed,
  });
  const fix = useMutation({
    mutationFn: () => call(api.fixSystemResources, { days }),
    onSuccess: (r) => {
      setReport(r);
      void message.success(r.changed === 0 ? t('fix.nothing') : t('fix.done', { count: r.changed }));
    },
    onError: failed,
  });
  const reset = useMutation({
    mutationFn: () => call(api.resetSystemResourcePool, {}),
    onSuccess: (r) => {
      setResetReport(r);
      void message.success(t('reset.done'));
    },
    onError: failed,
  });

  /** The second-level password first, then the confirmation, then the call. */
  const confirmThen = async (title: string, run: () => Promise<unknown>, testId: string) => {
    try {
      await ensureToken2();
    } catch {
      return;
    }
    modal.confirm({
      title,
      okText: t('common:action.ok'),
      cancelText: t('common:action.cancel'),
      okButtonProps: { danger: true, 'data-testid': testId },
      onOk: () => run().catch(() => undefined),
    });
  };

  return (
    <div className="page">
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <ServiceCard mayChange={mayService} />
        {mayCheck && (
          <Card title={t('fix.title')} size="small">
            <Typography.Paragraph type="secondary">{t('fix.hint')}</Typography.Paragraph>
            <Space wrap style={{ marginBottom: 12 }}>
              <label htmlFor="maint-days">{t('fix.days')}</label>
              <InputNumber
                id="maint-days"
                data-testid="maint-days"
                min={1}
                max={FIX_DAYS_MAX}
                precision={0}
                value={days}
                onChange={(v) => setDays(typeof v === 'number' ? v : FIX_DAYS_DEFAULT)}
              />
              <Button onClick={() => check.mutate()} loading={check.isPending} data-testid="maint-check">
                {t('fix.check')}
              </Button>
              {mayFix && (
                <Button
                  type="primary"
                  danger
                  autoInsertSpace={false}
                  loading={fix.isPending}
                  data-testid="maint-fix"
                  onClick={() => void confirmThen(t('fix.confirm', { days }), () => fix.mutateAsync(), 'maint-fix-ok')}
                >
                  {t('fix.run')}
                </Button>
              )}
            </Space>
            {report && <FixReportView report={report} />}
          </Card>
        )}
        {mayReset && (
          <Card title={t('reset.title')} size="small">
            <Typography.Paragraph type="secondary">{t('reset.hint')}</Typography.Paragraph>
            <Button
              danger
              autoInsertSpace={false}
              loading={reset.isPending}
              data-testid="maint-reset"
              onClick={() => void confirmThen(t('reset.confirm'), () => reset.mutateAsync(), 'maint-reset-ok')}
            >
              {t('reset.run')}
            </Button>
            {resetReport && (
              <Descriptions
                size="small"
                column={1}
                bordered
                style={{ marginTop: 12 }}
                data-testid="maint-reset-report"
                items={[
                  { key: 'r', label: t('reset.resourcesReset'), children: resetReport.resourcesReset },
                  { key: 'f', label: t('reset.futureStamps'), children: resetReport.futureStamps },
                  { key: 'd', label: t('reset.deltasFolded'), children: resetReport.deltasFolded },
                ]}
              />
            )}
          </Card>
        )}
      </Space>
    </div>
  );
}
