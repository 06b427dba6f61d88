import type { Payee } from '@paydesk/contract';
import { QRCodeSVG } from '@rc-component/qrcode';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePayerQrImage } from './api';
import { usdtText } from './countdown';

type FieldName = 'accountName' | 'bankName' | 'cardNumber' | 'ifsc' | 'vpa' | 'address' | 'usdtCount' | 'phone';

/** How long 'copied' stays next to the button. */
const COPIED_SHOWN_MS = 3000;

/**
 * A copy button and what became of the last copy: 'copied' or 'copy failed' (spec section 8) in the
 * payer's language, said beside the button (a live region, so a screen reader hears it too).
 */
function CopyButton(props: { value: string; testId: string; label?: string }) {
  const { t } = useTranslation(['pay', 'common']);
  const [outcome, setOutcome] = useState<'copied' | 'failed' | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(props.value);
      setOutcome('copied');
      timer.current = setTimeout(() => setOutcome(null), COPIED_SHOWN_MS);
    } catch {
      setOutcome('failed');
    }
  };
  return (
    <span className="pay-copy">
      <span className={`pay-copy-outcome${outcome === 'failed' ? ' pay-error-text' : ''}`} role="status">
        {outcome === 'copied' ? t('action.copied') : outcome === 'failed' ? t('common:error.copyFailed') : ''}
      </span>
      <button
        type="button"
        className="pay-button pay-button-small"
        aria-label={props.label}
        data-testid={props.testId}
        onClick={() => void copy()}
      >
        {t('action.copy')}
      </button>
    </span>
  );
}

/** One line of what to pay to: its label, its value (wrapping on a narrow screen) and a copy button. */
function Field(props: { name: FieldName; value: string; shown?: ReactNode }) {
  const { t } = useTranslation('pay');
  const label = t(`field.${props.name}`);
  return (
    <div className="pay-field">
      <div className="pay-secondary">{label}</div>
      <div className="pay-row">
        <span className="pay-value" data-testid={`pay-field-${props.name}`}>
          {props.shown ?? props.value}
        </span>
        <CopyButton value={props.value} testId={`pay-copy-${props.name}`} label={`${t('action.copy')}: ${label}`} />
      </div>
    </div>
  );
}

/** A generated QR code; its text alternative says what it encodes, for payers who cannot scan it. */
export function Qr(props: { value: string; caption: string }) {
  const { t } = useTranslation('pay');
  return (
    <figure className="pay-qr">
      <div role="img" aria-label={t('qr.codeAlt', { value: props.value })} data-testid="pay-qr">
        <QRCodeSVG value={props.value} size={200} level="M" marginSize={2} aria-hidden="true" />
      </div>
      <figcaption className="pay-secondary">{props.caption}</figcaption>
    </figure>
  );
}

/** The account's uploaded QR image (a data URL from the server), or why it is not shown. */
function QrImage(props: { orderCode: string }) {
  const { t } = useTranslation('pay');
  const image = usePayerQrImage(props.orderCode);
  return (
    <figure className="pay-qr">
      {image.data ? (
        <>
          <img src={image.data.dataUrl} alt={t('qr.imageAlt')} data-testid="pay-qr-image" className="pay-qr-image" />
          <figcaption className="pay-secondary">{t('qr.image')}</figcaption>
        </>
      ) : image.isError ? (
        <figcaption className="pay-secondary" data-testid="pay-qr-image-failed">
          {t('qr.imageFailed')}
        </figcaption>
      ) : (
        <span className="pay-spinner" role="status" aria-label={t('loading')} />
      )}
    </figure>
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
  const field = (name: FieldName, value: string | undefined, shown?: ReactNode) =>
    value ? <Field key={name} name={name} value={value} shown={shown} /> : null;
  const usdt = payee.usdtCount === undefined ? undefined : usdtText(payee.usdtCount);

  return (
    <div data-testid="pay-payee">
      {payee.upiLink && (
        <a className="pay-button pay-button-primary pay-block" href={payee.upiLink} data-testid="pay-upi-link">
          {t('action.openUpi')}
        </a>
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
        <div className="pay-field">
          <div className="pay-secondary">{t('field.paymentLink')}</div>
          <div className="pay-row pay-row-start">
            <a
              className="pay-button pay-button-primary"
              href={payee.paymentLink}
              target="_blank"
              rel="noopener noreferrer"
            >
              {t('action.openLink')}
            </a>
            <CopyButton
              value={payee.paymentLink}
              testId="pay-copy-paymentLink"
              label={`${t('action.copy')}: ${t('field.paymentLink')}`}
            />
          </div>
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
