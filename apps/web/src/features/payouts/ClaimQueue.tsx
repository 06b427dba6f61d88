import { ReloadOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { claimRoomRefusal, endpoints, type PayoutRow } from '@paydesk/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Alert, App, Button, Card, Descriptions, Empty, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { formatMoney } from '../../shared/format/money';
import { formatTime } from '../../shared/format/time';
import { useProductName } from '../../shared/products/productName';
import { payoutKeys } from './api';
import { usePayoutsReload } from './PayoutActions';

/** Cards loaded at first and added by each "load more". */
const QUEUE_PAGE = 20;
/** The most rows a list answers at once (the contract's page size bound). */
const QUEUE_MAX = 500;
/** The payee's fields a supplier copies into its bank's app, in that order. */
const PAYEE_FIELDS = ['userName', 'cardNumber', 'ifscCode', 'bankName', 'bankBranch', 'address'] as const;

/**
 * A supplier's claim queue (issue 20 item 6): the awaiting payouts it may claim, oldest first, as
 * cards that fit a 360 px phone: the amount, the payee's name, account, IFSC and bank each with a copy
 * button, and one tap to claim (no dialog: whoever taps first wins; a lost race says 'claim failed').
 * A card offers the claim only when its row allows it (the server's claim room: an account of the
 * product, room under the limit of payouts in progress, a deposit covering the amount), else says why.
 * Test hooks: `payout-queue`, `payout-queue-card-<orderCode>`, `payout-queue-claim-<orderCode>`,
 * `payout-queue-more`, `payout-queue-refresh`.
 */
export function ClaimQueue() {
  const { t, i18n } = useTranslation(['payouts', 'common']);
  const { message } = App.useApp();
  const productName = useProductName();
  const reload = usePayoutsReload();
  const [size, setSize] = useState(QUEUE_PAGE);
  const queue = useQuery({
    queryKey: [...payoutKeys.queue, size],
    queryFn: () => call(endpoints.payouts.getList, { pageIndex: 1, pageSize: size, queue: true }),
    placeholderData: keepPreviousData,
  });
  const claim = useMutation({
    mutationFn: (row: PayoutRow) => call(endpoints.payouts.claimOrder, { orderId: row.id }),
    onSuccess: async (_answer, row) => {
      void message.success(t('success.claim', { orderCode: row.orderCode }));
      await reload();
    },
    onError: async (error) => {
      void message.error(t('failed', { action: t('action.claim'), message: errorText(i18n, error) }));
      // Someone else may have taken it: show the queue as it is now.
      await reload();
    },
  });
  const rows = queue.data?.list ?? [];
  const total = queue.data?.total ?? 0;
  const room = queue.data?.claimRoom;
  /** Why a card offers no claim (the server's row does not allow one): the claim room's reason. */
  const notNow = (row: PayoutRow) => {
    if (row.allowedActions.includes('claim')) return null;
    const reason = room ? claimRoomRefusal(room, row) : null;
    return reason === 'depositShort'
      ? t('queue.depositShort', { deposit: formatMoney(room!.deposit, i18n.language) })
      : reason === 'noPayoutAccount'
        ? t('queue.noAccount')
        : null;
  };

  return (
    <Space orientation="vertical" size="small" style={{ width: '100%' }} data-testid="payout-queue">
      <Space wrap style={{ width: '100%', justifyContent: 'space-between' }}>
        <Typography.Text type="secondary">{t('queue.hint')}</Typography.Text>
        <Button
          icon={<ReloadOutlined />}
          loading={queue.isFetching}
          onClick={() => void queue.refetch()}
          data-testid="payout-queue-refresh"
        >
          {t('queue.refresh')}
        </Button>
      </Space>
      {queue.isError && (
        <Alert type="error" showIcon title={t('queue.loadFailed', { message: errorText(i18n, queue.error) })} />
      )}
      {room && room.held >= room.limit && (
        <Alert
          type="warning"
          showIcon
          title={t('queue.full', { held: room.held, limit: room.limit })}
          data-testid="payout-queue-full"
        />
      )}
      <Spin spinning={queue.isPending}>
        {rows.length === 0 && !queue.isPending && !queue.isError ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('queue.empty')} />
        ) : (
          <Space orientation="vertical" size="small" style={{ width: '100%' }}>
            {rows.map((row) => (
              <Card
                key={row.id}
                size="small"
                data-testid={`payout-queue-card-${row.orderCode}`}
                title={<span style={{ fontSize: 18 }}>{formatMoney(row.amount, i18n.language)}</span>}
                extra={<Typography.Text type="secondary">{productName(row.productId)}</Typography.Text>}
              >
                <Descriptions
                  column={1}
                  size="small"
                  items={[
                    ...PAYEE_FIELDS.flatMap((field) =>
                      row[field]
                        ? [
                            {
                              key: field,
                              label: t(`column.${field}`),
                              children: (
                                <Typography.Text copyable={{ tooltips: false }} data-testid={`payout-queue-${field}`}>
                                  {row[field]}
                                </Typography.Text>
                              ),
                            },
                          ]
                        : [],
                    ),
                    {
                      key: 'orderCode',
                      label: t('column.orderCode'),
                      children: <Typography.Text type="secondary">{row.orderCode}</Typography.Text>,
                    },
                    {
                      key: 'createdAt',
                      label: t('column.createdAt'),
                      children: formatTime(row.createdAt),
                    },
                  ]}
                />
                {row.allowedActions.includes('claim') ? (
                  <Button
                    type="primary"
                    block
                    size="large"
                    icon={<ThunderboltOutlined />}
                    loading={claim.isPending && claim.variables?.id === row.id}
                    disabled={claim.isPending && claim.variables?.id !== row.id}
                    onClick={() => claim.mutate(row)}
                    data-testid={`payout-queue-claim-${row.orderCode}`}
                    style={{ marginTop: 8 }}
                  >
                    {t('queue.claim')}
                  </Button>
                ) : (
                  notNow(row) && (
                    <Typography.Text type="secondary" data-testid={`payout-queue-not-now-${row.orderCode}`}>
                      {notNow(row)}
                    </Typography.Text>
                  )
                )}
              </Card>
            ))}
          </Space>
        )}
      </Spin>
      {total > rows.length && (
        <Button
          block
          loading={queue.isFetching}
          onClick={() => setSize((s) => Math.min(s + QUEUE_PAGE, QUEUE_MAX))}
          data-testid="payout-queue-more"
        >
          {t('queue.more')}
        </Button>
      )}
    </Space>
  );
}
