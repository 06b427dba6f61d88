import { endpoints } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Drawer, Spin, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { formatMoney } from '../../shared/format/money';
import { useProductName } from '../../shared/products/productName';
import { resourceKeys } from './api';
import { ResourceQr } from './ResourceQr';

/**
 * A resource's detail (spec section 3): its processing orders (amount shown /100), state, link,
 * jumpLink and QR code. Test hooks: `resource-detail`, `resource-detail-processing-count`,
 * `resource-detail-processing-amount`, `resource-detail-qr`.
 */
export function ResourceDetailDrawer(props: { resourceId: number; productId: number; onClose(): void }) {
  const { t, i18n } = useTranslation('resources');
  const productName = useProductName();
  const detail = useQuery({
    queryKey: resourceKeys.detail(props.resourceId),
    queryFn: () =>
      call(endpoints.resources.getResourceDetailInfo, { resourceId: props.resourceId, productId: props.productId }),
  });
  const d = detail.data;
  return (
    <Drawer
      open
      size="large"
      title={t('detail.title')}
      onClose={props.onClose}
      destroyOnHidden
      data-testid="resource-detail"
    >
      {detail.isPending && <Spin />}
      {detail.isError && <Alert type="error" showIcon title={errorText(i18n, detail.error)} />}
      {d && (
        <Descriptions column={1} bordered size="small">
          <Descriptions.Item label={t('detail.id')}>{d.id}</Descriptions.Item>
          <Descriptions.Item label={t('detail.supplierName')}>{d.supplierName}</Descriptions.Item>
          <Descriptions.Item label={t('detail.productName')}>{productName(d.productId)}</Descriptions.Item>
          <Descriptions.Item label={t('detail.processingOrderCount')}>
            <span data-testid="resource-detail-processing-count">{d.processingOrderCount}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.processingOrderAmount')}>
            <span data-testid="resource-detail-processing-amount">
              {formatMoney(d.processingOrderAmount, i18n.language)}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.state')}>
            {d.state === 0 ? <Tag color="success">{t('state.on')}</Tag> : <Tag>{t('state.off')}</Tag>}
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.link')}>{d.link ?? ''}</Descriptions.Item>
          <Descriptions.Item label={t('detail.jumpLink')}>{d.jumpLink ?? ''}</Descriptions.Item>
          <Descriptions.Item label={t('detail.qrCode')}>
            <ResourceQr
              resource={d}
              name={`${d.supplierName} · ${d.productName}`}
              size={180}
              testId="resource-detail-qr"
            />
          </Descriptions.Item>
        </Descriptions>
      )}
    </Drawer>
  );
}
