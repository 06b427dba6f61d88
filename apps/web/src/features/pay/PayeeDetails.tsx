import type { Payee } from '@paydesk/contract';
import { App, Button, Flex, QRCode, Spin, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { usePayerQrImage } from './api';
import { usdtText } from './countdown';

type FieldName = 'accountName' | 'bankName' | 'cardNumber' | 'ifsc' | 'vpa' | 'address' | 'usdtCount' | 'phone';

/** Copies `text`; says 'copied' or 'copy failed' (spec section 8) in the payer's language. */
function useCopy() {
  const { t } = useTranslation(['pay', 'common']);
  const { message } = App.useApp();
  return async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      void message.success(t('action.copied'));
    } catch {
      void message.error(t('common:error.copyFailed'));
    }
  };
}

/** One line of what to pay to: its label, its value (wrapping on a narrow screen) and a copy button. */
function Field(props: { name: FieldName; value: string; shown?: ReactNode }) {
  const { t } = useTranslation('pay');
  const copy = useCopy();
  return (
    <div style={{ padding: '8px 0', borderBottom: '1px solid #f0f0f0' }}>
      <Typography.Text type="secondary" style={{ fontSize: 13 }}>
        {t(`field.${props.name}`)}
      </Typography.Text>
      <Flex justify="space-between" align="center" gap={8}>
        <Typography.Text
          strong
          data-testid={`pay-field-${props.name}`}
          style={{ fontSize: 16, wordBreak: 'break-all', fontFamily: 'monospace' }}
        >
          {props.shown ?? props.value}
        </Typography.Text>
        <Button size="small" data-testid={`pay-copy-${props.name}`} onClick={() => void copy(props.value)}>
          {t('action.copy')}
        </Button>
      </Flex>
    </div>
  );
}

function Qr(props: { value: string; caption: string }) {
  return (
    <Flex vertical align="center" gap={4} style={{ margin: '16px 0 8px' }}>
      <QRCode value={props.value} size={200} type="svg" data-testid="pay-qr" />
      <Typography.Text type="secondary">{props.caption}</Typography.Text>
    </Flex>
  );
}

/** The account's uploaded QR image (a data URL from the server), or why it is not shown. */
function QrImage(props: { orderCode: string }) {
  const { t } = useTranslation('pay');
  const image = usePayerQrImage(props.orderCode);
  return (
    <Flex vertical align="center" gap={4} style={{ margin: '16px 0 8px' }}>
      {image.data ? (
        <>
          <img
            src={image.data.dataUrl}
            alt={t('qr.imageAlt')}
            data-testid="pay-qr-image"
            style={{ width: 240, maxWidth: '100%', height: 'auto' }}
          />
          <Typography.Text type="secondary">{t('qr.image')}</Typography.Text>
        </>
      ) : image.isError ? (
        <Typography.Text type="secondary" data-testid="pay-qr-image-failed">
          {t('qr.imageFailed')}
        </Typography.Text>
      ) : (
        <Spin />
      )}
    </Flex>
  );
}

/**
 * What the payer pays to, by channel (DESIGN section 6): bank details (name, bank, account or card,
 * IFSC); the UPI ID with the UPI deep link and its QR code; the USDT address and the exact USDT amount
 * with the address's QR code; the Kenyan mobile-money number; a payment link; the account's uploaded
 * QR image (WeChat, Alipay, UPI) when its supplier uploaded one, in place of a generated code (the UPI
 * button keeps the amount in its link). Only the receiving account's public fields are here.
 */
export function PayeeDetails({ payee, orderCode }: { payee: Payee; orderCode: string }) {
  const { t } = useTranslation('pay');
  const copy = useCopy();
  const field = (name: FieldName, value: string | undefined, shown?: ReactNode) =>
    value ? <Field key={name} name={name} value={value} shown={shown} /> : null;
  const usdt = payee.usdtCount === undefined ? undefined : usdtText(payee.usdtCount);

  return (
    <div data-testid="pay-payee">
      {payee.upiLink && (
        <Button
          type="primary"
          size="large"
          block
          href={payee.upiLink}
          data-testid="pay-upi-link"
          style={{ marginBottom: 8 }}
        >
          {t('action.openUpi')}
        </Button>
      )}
      {field('vpa', payee.vpa)}
      {field('address', payee.address)}
      {field('usdtCount', usdt, usdt && `${usdt} USDT`)}
      {field('phone', payee.phone)}
      {field('accountName', payee.accountName)}
      {field('bankName', payee.bankName)}
      {field('cardNumber', payee.cardNumber)}
      {field('ifsc', payee.ifsc)}
      {payee.paymentLink && (
        <div style={{ padding: '8px 0' }}>
          <Typography.Text type="secondary" style={{ fontSize: 13 }}>
            {t('field.paymentLink')}
          </Typography.Text>
          <Flex gap={8} wrap>
            <Button type="primary" href={payee.paymentLink} target="_blank" rel="noopener noreferrer">
              {t('action.openLink')}
            </Button>
            <Button data-testid="pay-copy-paymentLink" onClick={() => void copy(payee.paymentLink!)}>
              {t('action.copy')}
            </Button>
          </Flex>
        </div>
      )}
      {payee.hasQrImage ? (
        <QrImage orderCode={orderCode} />
      ) : payee.qrCode ? (
        <Qr value={payee.qrCode} caption={payee.kind === 'usdtWallet' ? t('qr.usdt') : t('qr.upi')} />
      ) : payee.paymentLink ? (
        <Qr value={payee.paymentLink} caption={t('qr.link')} />
      ) : null}
    </div>
  );
}
