import { type PayScriptView, payerScriptEndpoints } from '@paydesk/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/http';
import { Qr } from './PayeeDetails';

/**
 * What the dynamic pay script of the order's product shows (a pay link, a QR payload, instructions),
 * read once per order while it awaits payment. Nothing shows while it loads, when the product uses no
 * script, or when the script failed: the receiving account below is what the payer pays to anyway.
 */
export function ScriptView(props: { orderCode: string }) {
  const { t } = useTranslation('pay');
  const [view, setView] = useState<PayScriptView | null>(null);
  useEffect(() => {
    let current = true;
    setView(null);
    call(payerScriptEndpoints.payerScriptView, { orderCode: props.orderCode }).then(
      (answer) => current && setView(answer.view),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [props.orderCode]);
  if (!view) return null;
  return (
    <section data-testid="pay-script">
      <h2>{t('script.title')}</h2>
      {view.instructions && (
        <p className="pay-script-instructions" data-testid="pay-script-instructions">
          {view.instructions}
        </p>
      )}
      {view.payUrl && (
        <a
          className="pay-button pay-button-primary pay-block"
          href={view.payUrl}
          rel="noopener noreferrer"
          data-testid="pay-script-link"
        >
          {t('script.open')}
        </a>
      )}
      {view.qrPayload && <Qr value={view.qrPayload} caption={t('script.qr')} />}
    </section>
  );
}
