import { endpoints, type ResourceRow } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { QRCode, Space, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/http';
import { EnabledSwitch } from '../../shared/forms/EnabledSwitch';
import { resourceKeys } from './api';

type QrSource = Pick<ResourceRow, 'id' | 'qrCode' | 'qrImageId' | 'link'>;

/**
 * A resource's QR code: rendered by antd's QRCode from the text the account data gives (UPI deep
 * link, USDT address) or its payment link, else its uploaded image. `onLoaded` runs once it shows:
 * when the QR code has rendered (status 'active'), when the image has loaded, or at once when the
 * resource has no QR at all (nothing to wait for).
 */
export function ResourceQr(props: {
  resource: QrSource;
  /** Whose QR code it is, for its text alternative. */
  name: string;
  size: number;
  onLoaded?: () => void;
  testId: string;
}) {
  const { t } = useTranslation(['resources', 'common']);
  const label = t('common:a11y.qr', { name: props.name });
  const { resource, onLoaded } = props;
  const text = resource.qrCode ?? (resource.qrImageId === null ? resource.link : null);
  const image = useQuery({
    queryKey: resourceKeys.qrImage(resource.id, resource.qrImageId ?? 0),
    queryFn: () => call(endpoints.resources.qrImage, { id: resource.id }),
    enabled: text === null && resource.qrImageId !== null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const nothing = text === null && resource.qrImageId === null;
  useEffect(() => {
    // A rendered QRCode (status 'active') has loaded; a resource without any QR has nothing to load.
    if (text !== null || nothing) onLoaded?.();
  }, [text, nothing, onLoaded]);

  if (text !== null) {
    return (
      <QRCode
        value={text}
        size={props.size}
        type="svg"
        status="active"
        bordered={false}
        aria-label={label}
        data-testid={props.testId}
      />
    );
  }
  if (image.data) {
    return (
      <img
        src={image.data.dataUrl}
        alt={label}
        width={props.size}
        height={props.size}
        style={{ objectFit: 'contain' }}
        data-testid={props.testId}
        onLoad={() => onLoaded?.()}
      />
    );
  }
  if (nothing) return <Typography.Text type="secondary">{t('qr.none')}</Typography.Text>;
  return null;
}

/**
 * The QR thumbnail and the enable switch of a row (spec section 4): the switch is usable only once
 * the QR has loaded; success says 'opened successfully' / 'closed successfully', a refusal shows the
 * server's reason as an error. `why`: the tooltip of a switch the rule keeps from switching on.
 */
export function ResourceQrSwitch(props: { row: ResourceRow; canToggle: boolean; why?: string }) {
  const { t } = useTranslation('resources');
  const { row } = props;
  const [loaded, setLoaded] = useState(false);
  const markLoaded = useState(() => () => setLoaded(true))[0];
  const sw = (
    <EnabledSwitch
      checked={row.state === 0}
      disabled={!props.canToggle || !loaded}
      testId={`resource-enabled-${row.id}`}
      label={t('common:a11y.rowControl', { what: t('filter.state'), row: row.name })}
      onToggle={(enable) =>
        call(endpoints.resources.enableResource, { resourceId: row.id, productId: row.productId, enable })
      }
      invalidate={resourceKeys.all}
    />
  );
  return (
    <Space>
      <ResourceQr resource={row} name={row.name} size={56} onLoaded={markLoaded} testId={`resource-qr-${row.id}`} />
      {props.canToggle && !loaded ? (
        <Tooltip title={t('qr.loading')}>{sw}</Tooltip>
      ) : props.why ? (
        <Tooltip title={props.why}>
          <span data-testid={`resource-enabled-why-${row.id}`}>{sw}</span>
        </Tooltip>
      ) : (
        sw
      )}
    </Space>
  );
}
