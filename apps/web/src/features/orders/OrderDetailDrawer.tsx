import { endpoints, type OrderRow, orderFieldShown, type Payee, type Role } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Drawer, Empty, Space, Spin, Table, Tag, Timeline, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { labelOr } from '../../i18n/labelOr';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { formatMoney } from '../../shared/format/money';
import { formatTime } from '../../shared/format/time';
import { ledgerAccountText } from '../../shared/funds/api';
import { TransferList } from '../../shared/funds/TransferList';
import { useNarrow } from '../../shared/layout/useNarrow';
import { RowActionBar, type RowActions } from '../../shared/list/rowActions';
import { noteText } from '../../shared/notes/noteText';
import { useProductName } from '../../shared/products/productName';
import { orderKeys, usdtCountText } from './api';
import { OrderStateTag } from './OrderStateTag';

/** The payee's fields in the order they matter to a payer. */
const PAYEE_FIELDS = [
  'accountName',
  'bankName',
  'cardNumber',
  'ifsc',
  'vpa',
  'upiLink',
  'address',
  'usdtCount',
  'phone',
  'paymentLink',
  'hasQrImage',
] as const;

/** Roles that may read why each receiving account was or was not chosen. */
function readsAllocation(role: Role | undefined): boolean {
  const access = endpoints.orders.getOrderAllocateInfo.access as readonly string[];
  return role !== undefined && access.includes(role);
}

/**
 * One order: its fields, what the payer pays to, its timeline (state changes with who and notes),
 * its ledger transfers with their entries, and for staff the allocation record (each candidate
 * account and why it was skipped). Test hooks: `order-detail`, `order-detail-payee`,
 * `order-detail-timeline`, `order-detail-transfers`, `order-detail-allocation`.
 */
export function OrderDetailDrawer(props: {
  orderCode: string;
  role: Role | undefined;
  /** The list's row actions: the same buttons, 'more' menu and dialogs for the order shown. */
  actions: RowActions<OrderRow>;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation(['orders', 'common']);
  // On a phone one field per line: two columns broke codes and names letter by letter.
  const narrow = useNarrow();
  const productName = useProductName();
  const money = (v: number | null) => formatMoney(v, i18n.language);
  const detail = useQuery({
    queryKey: orderKeys.detail(props.orderCode),
    queryFn: () => call(endpoints.orders.getDetail, { orderCode: props.orderCode }),
  });
  const staff = readsAllocation(props.role);
  const allocation = useQuery({
    queryKey: orderKeys.allocation(props.orderCode),
    queryFn: () => call(endpoints.orders.getOrderAllocateInfo, { orderCode: props.orderCode }),
    enabled: staff,
  });
  const d = detail.data;
  const o = d?.order;
  const shown = (field: Parameters<typeof orderFieldShown>[1]) => orderFieldShown(props.role, field);
  /** A field that most orders leave empty (by channel, by state): shown only when it has a value. */
  const optional = (label: string, value: ReactNode) =>
    value === null || value === '' ? null : <Descriptions.Item label={label}>{value}</Descriptions.Item>;
  const stateText = (s: number | null) => (s === null ? '' : labelOr(i18n, `orders:state.${s}`, String(s)));

  const payeeValue = (payee: Payee, field: (typeof PAYEE_FIELDS)[number]) => {
    const v = payee[field];
    if (field === 'usdtCount' && typeof v === 'number') return usdtCountText(v);
    if (field === 'hasQrImage') return v ? t('yes') : null;
    return typeof v === 'string' && v !== '' ? v : null;
  };

  return (
    <Drawer
      open
      size="large"
      title={t('detail.title', { orderCode: props.orderCode })}
      onClose={props.onClose}
      destroyOnHidden
      data-testid="order-detail"
      // On a phone the header has no room beside the title: the actions sit in the footer, under the thumb.
      extra={!narrow && o && <RowActionBar actions={props.actions} role={props.role} row={o} />}
      footer={narrow && o ? <RowActionBar actions={props.actions} role={props.role} row={o} /> : undefined}
    >
      {detail.isPending && <Spin />}
      {detail.isError && (
        <Alert type="error" showIcon title={t('detail.loadFailed', { message: errorText(i18n, detail.error) })} />
      )}
      {d && o && (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Card size="small" title={t('detail.fields')}>
            <Descriptions column={narrow ? 1 : 2} size="small" data-testid="order-detail-fields">
              <Descriptions.Item label={t('column.orderCode')}>{o.orderCode}</Descriptions.Item>
              <Descriptions.Item label={t('column.merchantOrderNo')}>{o.merchantOrderNo}</Descriptions.Item>
              <Descriptions.Item label={t('column.merchant')}>{o.merchantName}</Descriptions.Item>
              <Descriptions.Item label={t('detail.merchantNo')}>{o.merchantNo}</Descriptions.Item>
              <Descriptions.Item label={t('column.product')}>{productName(o.productId)}</Descriptions.Item>
              <Descriptions.Item label={t('column.state')}>
                <OrderStateTag state={o.state} locked={o.locked} testId="order-detail-state" />
              </Descriptions.Item>
              <Descriptions.Item label={t('column.amount')}>
                <span data-testid="order-detail-amount">{money(o.amount)}</span>
              </Descriptions.Item>
              {shown('fee') && <Descriptions.Item label={t('column.fee')}>{money(o.fee)}</Descriptions.Item>}
              {shown('commission') && (
                <Descriptions.Item label={t('column.commission')}>{money(o.commission)}</Descriptions.Item>
              )}
              <Descriptions.Item label={t('column.mark')}>{t(`mark.${o.mark}`)}</Descriptions.Item>
              <Descriptions.Item label={t('column.supplemented')}>
                {o.supplemented
                  ? `${t('yes')}${o.supplementType !== null ? ` · ${t(`supplementType.${o.supplementType}`)}` : ''}`
                  : t('no')}
              </Descriptions.Item>
              {optional(t('column.utr'), o.utr)}
              {optional(t('column.payerUtr'), o.payerUtr)}
              {optional(t('column.payerName'), o.payerName)}
              {shown('supplierName') && optional(t('column.supplier'), o.supplierName)}
              {shown('resourceName') && optional(t('detail.resource'), o.resourceName)}
              {optional(t('column.userName'), o.userName)}
              {optional(t('column.cardNumber'), o.cardNumber)}
              {optional(t('column.ifscCode'), o.ifscCode)}
              {optional(t('column.usdtAddress'), o.usdtAddress)}
              {optional(t('column.usdtCount'), o.usdtCount === null ? null : usdtCountText(o.usdtCount))}
              {optional(t('column.clientIp'), o.clientIp)}
              {optional(t('column.subject'), o.subject)}
              {optional(t('column.rejectReason'), o.rejectReason)}
              <Descriptions.Item label={t('column.createdAt')}>{formatTime(o.createdAt)}</Descriptions.Item>
              <Descriptions.Item label={t('detail.allocatedAt')}>{formatTime(o.allocatedAt)}</Descriptions.Item>
              <Descriptions.Item label={t('column.expiresAt')}>{formatTime(o.expiresAt)}</Descriptions.Item>
              <Descriptions.Item label={t('column.paidAt')}>{formatTime(o.paidAt)}</Descriptions.Item>
            </Descriptions>
          </Card>

          <Card size="small" title={t('detail.payee')} data-testid="order-detail-payee">
            {d.payee ? (
              <Descriptions column={1} size="small">
                {PAYEE_FIELDS.map((field) => {
                  const v = payeeValue(d.payee!, field);
                  return v === null ? null : (
                    <Descriptions.Item key={field} label={t(`payee.${field}`)}>
                      <Typography.Text copyable>{v}</Typography.Text>
                    </Descriptions.Item>
                  );
                })}
              </Descriptions>
            ) : (
              <Typography.Text type="secondary">{t('detail.noPayee')}</Typography.Text>
            )}
          </Card>

          <Card size="small" title={t('detail.timeline')} data-testid="order-detail-timeline">
            {d.timeline.length === 0 ? (
              <Empty description={t('detail.noTimeline')} />
            ) : (
              <Timeline
                items={d.timeline.map((e, i) => ({
                  key: `${e.at}-${i}`,
                  content: (
                    <div className="order-timeline-entry" data-testid="order-timeline-entry">
                      <Space wrap size={4}>
                        <Typography.Text type="secondary">{formatTime(e.at)}</Typography.Text>
                        <strong>{labelOr(i18n, `orders:timeline.${e.kind}`, e.kind)}</strong>
                        {e.fromState !== null && e.toState !== null && (
                          <span>
                            {stateText(e.fromState)} → {stateText(e.toState)}
                          </span>
                        )}
                        {e.fromState === null && e.toState !== null && <span>→ {stateText(e.toState)}</span>}
                        <Tag>{e.actor ?? t('detail.system')}</Tag>
                      </Space>
                      {e.note && <div className="order-timeline-note">{noteText(i18n, e)}</div>}
                    </div>
                  ),
                }))}
              />
            )}
          </Card>

          <Card size="small" title={t('detail.transfers')} data-testid="order-detail-transfers">
            <TransferList
              transfers={d.transfers}
              testIdPrefix="order"
              accountTestId="order-transfer-account"
              texts={{
                account: t('detail.account'),
                entryAmount: t('detail.entryAmount'),
                none: t('detail.noTransfers'),
              }}
              accountText={(code) => ledgerAccountText(i18n, code, o)}
            />
          </Card>

          {staff && (
            <Card size="small" title={t('detail.allocation')} data-testid="order-detail-allocation">
              {allocation.isPending && <Spin />}
              {allocation.isError && <Alert type="error" showIcon title={errorText(i18n, allocation.error)} />}
              {allocation.data && allocation.data.attempts.length === 0 && (
                <Empty description={t('detail.noAllocation')} />
              )}
              {allocation.data?.attempts.map((a, i) => {
                const chosen = a.candidates.find((c) => c.resourceId === a.chosenResourceId);
                return (
                  <div key={`${a.at}:${a.chosenResourceId}`} className="order-allocation-attempt">
                    <Space wrap size={8}>
                      <strong>{t('detail.attempt', { n: i + 1, at: formatTime(a.at) })}</strong>
                      <span>
                        {chosen ? t('detail.chosenResource', { name: chosen.resourceName }) : t('detail.noneChosen')}
                      </span>
                    </Space>
                    <Table
                      size="small"
                      pagination={false}
                      rowKey="resourceId"
                      dataSource={a.candidates}
                      columns={[
                        { title: t('detail.candidateResource'), dataIndex: 'resourceName', key: 'resourceName' },
                        { title: t('detail.candidateSupplier'), dataIndex: 'supplierName', key: 'supplierName' },
                        {
                          title: t('detail.candidateOutcome'),
                          dataIndex: 'outcome',
                          key: 'outcome',
                          render: (outcome: string) => (
                            <Tag color={outcome === 'chosen' ? 'success' : undefined}>
                              {labelOr(i18n, `orders:outcome.${outcome}`, outcome)}
                            </Tag>
                          ),
                        },
                      ]}
                    />
                  </div>
                );
              })}
            </Card>
          )}
        </Space>
      )}
    </Drawer>
  );
}
