import { endpoints, type PayoutRow, type Role } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Card, Descriptions, Drawer, Empty, Image, Space, Spin, Tag, Timeline, Typography } from 'antd';
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
import { payoutKeys } from './api';
import { PayoutStateTag } from './PayoutStateTag';

/** The payee's fields, each copyable: what the supplier types into its bank's app. */
const PAYEE_FIELDS = ['userName', 'cardNumber', 'ifscCode', 'bankName', 'bankBranch', 'address'] as const;

/**
 * One payout: its fields, the receipt image of its UTR (when the supplier attached one), the payee
 * (copyable), its timeline (every state change, claim and action with who did it and the note) and its
 * ledger transfers (hold, release, payment) with their entries; a merchant or supplier gets only its
 * own accounts' entries from the server. The row's actions sit in the header (on a phone in the
 * footer). Test hooks: `payout-detail`, `payout-detail-fields`, `payout-detail-receipt`,
 * `payout-detail-payee`, `payout-detail-timeline`, `payout-timeline-entry`, `payout-detail-transfers`,
 * `payout-transfer-<id>`.
 */
export function PayoutDetailDrawer(props: {
  id: number;
  orderCode: string;
  role: Role | undefined;
  actions: RowActions<PayoutRow>;
  /** Names of merchants and suppliers the page knows (staff filters), for the ledger accounts. */
  merchantName?(id: number): string | undefined;
  supplierName?(id: number): string | undefined;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation(['payouts', 'common']);
  const narrow = useNarrow();
  const productName = useProductName();
  const money = (v: number | null) => formatMoney(v, i18n.language);
  const detail = useQuery({
    queryKey: payoutKeys.detail(props.id),
    queryFn: () => call(endpoints.payouts.getDetail, { orderId: props.id }),
  });
  const d = detail.data;
  const p = d?.payout;
  const stateText = (s: number | null) => (s === null ? '' : labelOr(i18n, `payouts:state.${s}`, String(s)));
  /** A field most payouts leave empty (by product, by state): shown only when it has a value. */
  const optional = (label: string, value: ReactNode) =>
    value === null || value === '' ? null : <Descriptions.Item label={label}>{value}</Descriptions.Item>;
  const bar = p ? <RowActionBar actions={props.actions} role={props.role} row={p} /> : undefined;

  return (
    <Drawer
      open
      size="large"
      title={t('detail.title', { orderCode: props.orderCode })}
      onClose={props.onClose}
      destroyOnHidden
      data-testid="payout-detail"
      extra={narrow ? undefined : bar}
      footer={narrow ? bar : undefined}
    >
      {detail.isPending && <Spin />}
      {detail.isError && (
        <Alert type="error" showIcon title={t('detail.loadFailed', { message: errorText(i18n, detail.error) })} />
      )}
      {d && p && (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Card size="small" title={t('detail.fields')}>
            <Descriptions column={narrow ? 1 : 2} size="small" data-testid="payout-detail-fields">
              <Descriptions.Item label={t('column.orderCode')}>{p.orderCode}</Descriptions.Item>
              <Descriptions.Item label={t('column.mchOrderNo')}>{p.mchOrderNo}</Descriptions.Item>
              <Descriptions.Item label={t('column.merchant')}>
                {props.merchantName?.(p.merchantId) ?? `#${p.merchantId}`}
              </Descriptions.Item>
              <Descriptions.Item label={t('column.product')}>{productName(p.productId)}</Descriptions.Item>
              <Descriptions.Item label={t('column.state')}>
                <PayoutStateTag state={p.state} testId="payout-detail-state" />
              </Descriptions.Item>
              <Descriptions.Item label={t('column.amount')}>
                <span data-testid="payout-detail-amount">{money(p.amount)}</span>
              </Descriptions.Item>
              <Descriptions.Item label={t('column.fee')}>{money(p.fee)}</Descriptions.Item>
              {optional(t('column.commission'), p.commission === null ? null : money(p.commission))}
              {optional(
                t('column.supplier'),
                p.supplierId === null ? null : (props.supplierName?.(p.supplierId) ?? `#${p.supplierId}`),
              )}
              {optional(t('detail.resourceId'), p.resourceId === null ? null : `#${p.resourceId}`)}
              {optional(t('column.utr'), p.utr)}
              {optional(t('column.remark'), p.remark)}
              {optional(t('column.rejectReason'), p.rejectReason)}
              {optional(t('column.exceptionReason'), p.exceptionReason)}
              <Descriptions.Item label={t('column.createdAt')}>{formatTime(p.createdAt)}</Descriptions.Item>
              {optional(t('column.claimedAt'), formatTime(p.claimedAt))}
              {optional(t('column.completedAt'), formatTime(p.completedAt))}
            </Descriptions>
          </Card>

          {p.receiptId !== null && <PayoutReceiptCard id={p.id} receiptId={p.receiptId} orderCode={p.orderCode} />}

          <Card size="small" title={t('detail.payee')} data-testid="payout-detail-payee">
            <Descriptions column={1} size="small">
              {PAYEE_FIELDS.map((field) =>
                p[field] ? (
                  <Descriptions.Item key={field} label={t(`column.${field}`)}>
                    <Typography.Text copyable>{p[field]}</Typography.Text>
                  </Descriptions.Item>
                ) : null,
              )}
            </Descriptions>
          </Card>

          <Card size="small" title={t('detail.timeline')} data-testid="payout-detail-timeline">
            {d.timeline.length === 0 ? (
              <Empty description={t('detail.noTimeline')} />
            ) : (
              <Timeline
                items={d.timeline.map((e, i) => ({
                  key: `${e.at}-${i}`,
                  content: (
                    <div data-testid="payout-timeline-entry">
                      <Space wrap size={4}>
                        <Typography.Text type="secondary">{formatTime(e.at)}</Typography.Text>
                        <strong>{labelOr(i18n, `payouts:timeline.${e.kind}`, e.kind)}</strong>
                        {e.fromState !== null && e.toState !== null && (
                          <span>
                            {stateText(e.fromState)} → {stateText(e.toState)}
                          </span>
                        )}
                        {e.fromState === null && e.toState !== null && <span>→ {stateText(e.toState)}</span>}
                        <Tag>{e.actor ?? t('detail.system')}</Tag>
                      </Space>
                      {(e.note || e.noteTemplate) && <div>{noteText(i18n, e)}</div>}
                    </div>
                  ),
                }))}
              />
            )}
          </Card>

          <Card size="small" title={t('detail.transfers')} data-testid="payout-detail-transfers">
            <TransferList
              transfers={d.transfers}
              testIdPrefix="payout"
              texts={{
                account: t('detail.account'),
                entryAmount: t('detail.entryAmount'),
                none: t('detail.noTransfers'),
              }}
              accountText={(code) =>
                ledgerAccountText(i18n, code, {
                  merchantId: p.merchantId,
                  merchantName: props.merchantName?.(p.merchantId),
                  supplierId: p.supplierId,
                  supplierName: p.supplierId === null ? null : props.supplierName?.(p.supplierId),
                })
              }
            />
          </Card>
        </Space>
      )}
    </Drawer>
  );
}

/**
 * The receipt image the supplier attached to the UTR: fit to the drawer's width (a phone's too), tap to
 * enlarge (antd Image's preview), with who attached it and when where the reader may know. Test hook:
 * `payout-detail-receipt`.
 */
function PayoutReceiptCard(props: { id: number; receiptId: number; orderCode: string }) {
  const { t, i18n } = useTranslation(['payouts', 'common']);
  const receipt = useQuery({
    queryKey: payoutKeys.receipt(props.id, props.receiptId),
    queryFn: () => call(endpoints.payouts.receipt, { orderId: props.id }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const r = receipt.data;
  return (
    <Card size="small" title={t('detail.receipt')} data-testid="payout-detail-receipt">
      {receipt.isPending && <Spin />}
      {receipt.isError && (
        <Alert type="error" showIcon title={t('detail.receiptFailed', { message: errorText(i18n, receipt.error) })} />
      )}
      {r && (
        <Space orientation="vertical" size={4} style={{ width: '100%' }}>
          <Image
            src={r.dataUrl}
            alt={t('detail.receiptAlt', { orderCode: props.orderCode })}
            style={{ maxWidth: '100%', maxHeight: 360, objectFit: 'contain' }}
          />
          <Typography.Text type="secondary">
            {r.uploadedBy
              ? t('detail.receiptBy', { account: r.uploadedBy, at: formatTime(r.uploadedAt) })
              : t('detail.receiptAt', { at: formatTime(r.uploadedAt) })}
          </Typography.Text>
        </Space>
      )}
      {receipt.isSuccess && r === null && <Empty description={t('detail.noReceipt')} />}
    </Card>
  );
}
