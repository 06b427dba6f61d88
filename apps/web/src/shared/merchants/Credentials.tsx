import { endpoints, type MerchantRow } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Modal, Popconfirm, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../api/errorText';
import { call } from '../api/http';
import { formatTime } from '../format/time';
import type { RowActionPanelProps } from '../list/rowActions';
import { merchantKeys } from './api';

/**
 * Shows an API secret with a copy button. `once`: it was just issued (creation, rotation) and is not
 * shown again. Test hooks: `merchant-secret-modal`, `merchant-secret-value`, `merchant-secret-copy`,
 * `merchant-secret-merchantno`.
 */
export function SecretModal(props: {
  title: string;
  secret: string;
  merchantNo?: string | undefined;
  once: boolean;
  onClose(): void;
}) {
  const { t } = useTranslation(['merchants', 'common']);
  const { message } = App.useApp();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.secret);
      void message.success(t('secret.copied'));
    } catch {
      void message.error(t('common:error.copyFailed'));
    }
  };
  return (
    <Modal
      open
      title={props.title}
      onCancel={props.onClose}
      maskClosable={false}
      footer={
        <Button type="primary" data-testid="merchant-secret-close" onClick={props.onClose}>
          {t('action.close')}
        </Button>
      }
    >
      <div data-testid="merchant-secret-modal">
        <Alert
          type={props.once ? 'warning' : 'info'}
          showIcon
          message={props.once ? t('secret.onceWarning') : t('secret.revealWarning')}
          style={{ marginBottom: 16 }}
        />
        <Descriptions column={1} bordered size="small">
          {props.merchantNo && (
            <Descriptions.Item label={t('secret.merchantNo')}>
              <Typography.Text data-testid="merchant-secret-merchantno">{props.merchantNo}</Typography.Text>
            </Descriptions.Item>
          )}
          <Descriptions.Item label={t('secret.secret')}>
            <Space wrap>
              <Typography.Text code data-testid="merchant-secret-value" style={{ wordBreak: 'break-all' }}>
                {props.secret}
              </Typography.Text>
              <Button size="small" data-testid="merchant-secret-copy" onClick={() => void copy()}>
                {t('action.copy')}
              </Button>
            </Space>
          </Descriptions.Item>
        </Descriptions>
      </div>
    </Modal>
  );
}

type Shown = { secret: string; once: boolean } | null;

/**
 * A merchant's API credentials: merchant number, sign type, whitelist, and the secret revealed or
 * rotated on demand (token2: the second-level password dialog opens by itself). Test hooks:
 * `merchant-reveal-secret`, `merchant-rotate-secret`.
 */
export function CredentialsPanel({ merchant }: { merchant: MerchantRow }) {
  const { t, i18n } = useTranslation(['merchants', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [shown, setShown] = useState<Shown>(null);
  const onError = (error: unknown) =>
    void message.error(t('common:error.generic', { message: errorText(i18n, error) }));
  const reveal = useMutation({
    mutationFn: () => call(endpoints.merchants.revealSecret, { id: merchant.id }),
    onSuccess: (data) => setShown({ secret: data.secret, once: false }),
    onError,
  });
  const rotate = useMutation({
    mutationFn: () => call(endpoints.merchants.rotateSecret, { id: merchant.id }),
    onSuccess: (data) => {
      setShown({ secret: data.secret, once: true });
      void queryClient.invalidateQueries({ queryKey: merchantKeys.all });
    },
    onError,
  });
  return (
    <>
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label={t('column.merchantNo')}>
          <Typography.Text copyable data-testid="merchant-credentials-merchantno">
            {merchant.merchantNo}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('column.signType')}>{merchant.signType}</Descriptions.Item>
        <Descriptions.Item label={t('column.ipWhitelist')}>
          {merchant.ipWhitelist.length === 0
            ? t('anyAddress')
            : merchant.ipWhitelist.map((ip) => <Tag key={ip}>{ip}</Tag>)}
        </Descriptions.Item>
        <Descriptions.Item label={t('credentials.rotatedAt')}>{formatTime(merchant.secretRotatedAt)}</Descriptions.Item>
      </Descriptions>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
        {t('credentials.secretHidden')}
      </Typography.Paragraph>
      <Space>
        <Button data-testid="merchant-reveal-secret" loading={reveal.isPending} onClick={() => reveal.mutate()}>
          {t('action.reveal')}
        </Button>
        <Popconfirm
          title={t('credentials.rotateConfirm')}
          okText={t('common:action.ok')}
          cancelText={t('common:action.cancel')}
          onConfirm={() => rotate.mutate()}
        >
          <Button danger data-testid="merchant-rotate-secret" loading={rotate.isPending}>
            {t('action.rotate')}
          </Button>
        </Popconfirm>
      </Space>
      {shown && (
        <SecretModal
          title={shown.once ? t('secret.rotatedTitle') : t('secret.revealedTitle')}
          secret={shown.secret}
          once={shown.once}
          onClose={() => setShown(null)}
        />
      )}
    </>
  );
}

/**
 * A merchant row's API credentials in a dialog, as a row panel action (the merchant list). Test hook:
 * `merchant-credentials-modal`, and the panel's.
 */
export function MerchantCredentialsModal({ row, onClose }: RowActionPanelProps<MerchantRow>) {
  const { t } = useTranslation(['merchants', 'common']);
  return (
    <Modal
      open
      title={t('credentials.title', { name: row.name })}
      onCancel={onClose}
      footer={null}
      data-testid="merchant-credentials-modal"
    >
      <CredentialsPanel merchant={row} />
    </Modal>
  );
}
