import { endpoints, FUND_FLOW_FIGURES, type FundFlowAnswer, type FundFlowDay } from '@paydesk/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Flex,
  Form,
  Skeleton,
  Table,
  type TableColumnsType,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call, exportUrl } from '../../shared/api/http';
import { formatMoney } from '../../shared/format/money';
import { dateRangePresets } from '../../shared/list/DateRangeFilter';
import { useScrollRegion } from '../../shared/list/scrollRegion';

const DAY = 'YYYY-MM-DD';
const FIGURES = FUND_FLOW_FIGURES;
/** Counts are not money. */
const COUNTS: ReadonlySet<string> = new Set(['collectionCount', 'payoutCount']);

type Range = { startDay?: string; endDay?: string };

/**
 * Finance › fund flow (/finance/fundFlow, superAdmin and admin): the money that moved on each day,
 * from the ledger, with the range's totals and its CSV, and whether the statistics' rollups agree with
 * the ledger about the orders and payouts created in those days (GET /v1.0/finance/fundFlow). Without
 * a range the server answers the last 7 days.
 *
 * Test hooks: `fund-flow-filters`, `fund-flow-search`, `fund-flow-check`, `fund-flow-days`,
 * `fund-flow-totals`, `fund-flow-export`, `fund-flow-error`.
 */
export default function FundFlowPage() {
  const { t, i18n } = useTranslation(['funds', 'common']);
  const [form] = Form.useForm<{ range?: [Dayjs, Dayjs] | null }>();
  const [range, setRange] = useState<Range>({});
  const scrollRegion = useScrollRegion();
  const answer = useQuery({
    queryKey: ['funds', 'fundFlow', range],
    queryFn: () => call(endpoints.finance.fundFlow, range),
    placeholderData: keepPreviousData,
  });
  const show = (figure: string, value: number) =>
    COUNTS.has(figure) ? new Intl.NumberFormat(i18n.language).format(value) : formatMoney(value, i18n.language);

  const columns: TableColumnsType<FundFlowDay> = [
    { title: t('flow.day'), dataIndex: 'day', key: 'day', fixed: 'left' },
    ...FIGURES.map((f) => ({
      title: t(`flow.figure.${f}`),
      dataIndex: f,
      key: f,
      align: 'right' as const,
      render: (v: number) => show(f, v),
    })),
  ];
  const data: FundFlowAnswer | undefined = answer.data;

  return (
    <div className="page">
      <Card>
        <Form
          form={form}
          layout="inline"
          data-testid="fund-flow-filters"
          onFinish={(v) =>
            setRange(v.range ? { startDay: v.range[0].format(DAY), endDay: v.range[1].format(DAY) } : {})
          }
        >
          <Form.Item name="range" label={t('flow.range')}>
            <DatePicker.RangePicker presets={dateRangePresets(t)} allowClear data-testid="fund-flow-range" />
          </Form.Item>
          <Flex gap={8} wrap>
            <Button type="primary" htmlType="submit" data-testid="fund-flow-search">
              {t('common:action.search')}
            </Button>
            <Button href={exportUrl(endpoints.finance.fundFlowExport, range)} download data-testid="fund-flow-export">
              {t('common:action.exportCsv')}
            </Button>
          </Flex>
        </Form>
      </Card>
      {answer.isError && (
        <Alert
          type="error"
          showIcon
          data-testid="fund-flow-error"
          title={t('common:list.loadFailed', { message: errorText(i18n, answer.error) })}
          action={
            <Button size="small" onClick={() => void answer.refetch()}>
              {t('common:action.retry')}
            </Button>
          }
        />
      )}
      {answer.isPending && <Skeleton active paragraph={{ rows: 6 }} />}
      {data && (
        <>
          <Alert
            data-testid="fund-flow-check"
            type={data.check.agree ? 'success' : 'error'}
            showIcon
            title={t(data.check.agree ? 'flow.check.agree' : 'flow.check.differ', {
              start: data.startDay,
              end: data.endDay,
              zone: data.timeZone,
            })}
            description={
              <Descriptions size="small" column={1}>
                {data.check.directions.map((d) => (
                  <Descriptions.Item key={d.direction} label={t(`flow.check.${d.direction}`)}>
                    {t('flow.check.figures', {
                      rollupCount: d.rollupCount,
                      ledgerCount: d.ledgerCount,
                      rollupRevenue: formatMoney(d.rollupRevenue, i18n.language),
                      ledgerRevenue: formatMoney(d.ledgerRevenue, i18n.language),
                    })}
                  </Descriptions.Item>
                ))}
              </Descriptions>
            }
          />
          <Card size="small" title={t('flow.title', { start: data.startDay, end: data.endDay })}>
            <Table<FundFlowDay>
              ref={scrollRegion}
              data-testid="fund-flow-days"
              rowKey="day"
              size="small"
              columns={columns}
              dataSource={data.days}
              loading={answer.isFetching}
              scroll={{ x: 'max-content' }}
              pagination={{ pageSize: 31, hideOnSinglePage: true, showSizeChanger: false }}
              locale={{ emptyText: t('common:list.empty') }}
              summary={() => (
                <Table.Summary.Row data-testid="fund-flow-totals">
                  <Table.Summary.Cell index={0}>
                    <strong>{t('flow.total')}</strong>
                  </Table.Summary.Cell>
                  {FIGURES.map((f, i) => (
                    <Table.Summary.Cell key={f} index={i + 1} align="right">
                      <strong>{show(f, data.totals[f])}</strong>
                    </Table.Summary.Cell>
                  ))}
                </Table.Summary.Row>
              )}
            />
          </Card>
        </>
      )}
    </div>
  );
}
