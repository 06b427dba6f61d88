import { endpoints } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { formatMoney } from '../../shared/format/money';
import { resourceKeys } from './api';

/** Resource states (spec section 3): 0 is enabled. */
const ENABLED = 0;

/**
 * The channel's resources at a glance (getResourceStaticInfo, summed over the channel's products):
 * how many, how many switched on or off, and what they processed today. A supplier sees its own;
 * staff see every supplier's, or one supplier's when `supplierId` is given.
 */
export function ResourceStats(props: { products: readonly number[]; supplierId?: number | undefined }) {
  const { t, i18n } = useTranslation(['resources', 'common']);
  const stats = useQuery({
    queryKey: [...resourceKeys.all, 'stats', props.products, props.supplierId ?? null],
    queryFn: async () => {
      const each = await Promise.all(
        props.products.map((productId) =>
          call(endpoints.resources.getResourceStaticInfo, { productId, supplierId: props.supplierId }),
        ),
      );
      const sum = { total: 0, enabled: 0, todayCount: 0, todayAmount: 0 };
      for (const s of each) {
        sum.total += s.totalCount;
        sum.todayCount += s.todayCount;
        sum.todayAmount += s.todayAmount;
        sum.enabled += s.states.filter((x) => x.state === ENABLED).reduce((n, x) => n + x.count, 0);
      }
      return sum;
    },
  });
  if (stats.isError) {
    return (
      <Alert type="error" showIcon title={t('common:list.loadFailed', { message: errorText(i18n, stats.error) })} />
    );
  }
  const s = stats.data;
  const items: Array<[string, string, string | number | undefined]> = [
    ['total', t('stats.total'), s?.total],
    ['enabled', t('stats.enabled'), s?.enabled],
    ['disabled', t('stats.disabled'), s ? s.total - s.enabled : undefined],
    ['todayCount', t('stats.todayCount'), s?.todayCount],
    ['todayAmount', t('stats.todayAmount'), s ? formatMoney(s.todayAmount, i18n.language) : undefined],
  ];
  return (
    <Card size="small" className="resource-stats" loading={stats.isPending} data-testid="resource-stats">
      <Row gutter={16}>
        {items.map(([key, title, value]) => (
          <Col key={key} xs={12} md={4} data-testid={`resource-stats-${key}`}>
            <Statistic title={title} value={value ?? ''} />
          </Col>
        ))}
      </Row>
    </Card>
  );
}
