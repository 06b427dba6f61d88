import {
  Code,
  ORDER_STATE,
  ordersEndpoints,
  PAID_STATES,
  payerNameInput,
  productById,
  utrSchema,
} from '@paydesk/contract';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, call } from '../../shared/api/http';
import { formatMoney } from '../../shared/format/money';
import { LanguageSwitch } from '../../shared/layout/LanguageSwitch';
import { type LoadedOrder, usePayerOrder, useSubmit } from './api';
import { formatCountdown, remainingMs, usdtText } from './countdown';
import { payerErrorText } from './errorText';
import { PayeeDetails } from './PayeeDetails';
import { ScriptView } from './ScriptView';
import './pay.css';

/**
 * The payer page is plain React with its own small stylesheet (no component library): payers open it
 * on phones over mobile data, so it loads only what it shows (issue 18, speed).
 */

/** The time left on the server's clock, ticking every second on the phone's. */
function useRemaining(order: LoadedOrder | undefined): number | null {
  const [phoneNow, setPhoneNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setPhoneNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return order ? remainingMs(order, Math.max(phoneNow, order.receivedAt)) : null;
}

function Notice(props: { kind: 'info' | 'success' | 'error'; title: string; body?: ReactNode; testId?: string }) {
  return (
    <div
      className={`pay-notice pay-notice-${props.kind}`}
      data-testid={props.testId}
      role={props.kind === 'error' ? 'alert' : props.kind === 'success' ? 'status' : undefined}
    >
      <div className="pay-notice-title">{props.title}</div>
      {props.body && <div>{props.body}</div>}
    </div>
  );
}

/**
 * The form for the payment's UTR (a transaction hash for USDT), and the payer's name where the order
 * asks for it (AlipayToAlipayByHandSubmitName), checked as the server checks them.
 */
function UtrForm(props: { orderCode: string; usdt: boolean; askName: boolean; reload: () => Promise<void> }) {
  const { t } = useTranslation('pay');
  const id = useId();
  const [utr, setUtr] = useState('');
  const [name, setName] = useState('');
  const [invalid, setInvalid] = useState<string | null>(null);
  const [nameInvalid, setNameInvalid] = useState<string | null>(null);
  const submit = useSubmit(
    (value: { utr: string; payerName?: string }) =>
      call(ordersEndpoints.payerSubmitUtr, { orderCode: props.orderCode, ...value }),
    (error) => {
      // Sent: the order now shows the UTR. Or the order moved on meanwhile (paid, rejected): show what it is now.
      if (!error || (error instanceof ApiError && error.code === Code.businessRule)) void props.reload();
    },
  );
  const key = (k: string) => `utr.${props.usdt ? `hash${k[0]!.toUpperCase()}${k.slice(1)}` : k}`;
  const failure =
    submit.error instanceof ApiError && submit.error.code === Code.businessRule
      ? t('utr.notAwaiting')
      : submit.error
        ? t('utr.failed', { message: payerErrorText(t, submit.error) })
        : null;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const value = utr.trim();
    const problem = !value ? t(key('required')) : utrSchema.safeParse(value).success ? null : t(key('invalid'));
    setInvalid(problem);
    const payerName = name.trim();
    const nameProblem = !props.askName
      ? null
      : !payerName
        ? t('utr.nameRequired')
        : payerNameInput.safeParse(payerName).success
          ? null
          : t('utr.nameInvalid');
    setNameInvalid(nameProblem);
    if (!problem && !nameProblem && !submit.pending) {
      void submit.submit(props.askName ? { utr: value, payerName } : { utr: value });
    }
  };
  return (
    <form noValidate onSubmit={onSubmit} data-testid="pay-utr-form">
      {props.askName && (
        <>
          <label className="pay-label" htmlFor={`${id}-name`}>
            {t('utr.nameLabel')}
          </label>
          <div className="pay-hint" id={`${id}-name-hint`}>
            {t('utr.nameHint')}
          </div>
          <input
            id={`${id}-name`}
            className="pay-input"
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="name"
            maxLength={128}
            aria-invalid={nameInvalid ? true : undefined}
            aria-describedby={`${id}-name-hint${nameInvalid ? ` ${id}-name-error` : ''}`}
            data-testid="pay-name-input"
          />
          {nameInvalid && (
            <div className="pay-field-error" id={`${id}-name-error`} role="alert">
              {nameInvalid}
            </div>
          )}
        </>
      )}
      <label className="pay-label" htmlFor={`${id}-utr`}>
        {t(key('label'))}
      </label>
      <div className="pay-hint" id={`${id}-hint`}>
        {t(key('hint'))}
      </div>
      <input
        id={`${id}-utr`}
        className="pay-input"
        value={utr}
        onChange={(e) => setUtr(e.target.value)}
        placeholder={t(key('placeholder'))}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        maxLength={128}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={`${id}-hint${invalid ? ` ${id}-error` : ''}`}
        data-testid="pay-utr-input"
      />
      {invalid && (
        <div className="pay-field-error" id={`${id}-error`} role="alert">
          {invalid}
        </div>
      )}
      {failure && <Notice kind="error" title={failure} />}
      <button
        type="submit"
        className="pay-button pay-button-primary pay-block"
        aria-busy={submit.pending || undefined}
        disabled={submit.pending}
        data-testid="pay-utr-submit"
      >
        {submit.pending && <span className="pay-spinner pay-spinner-small" aria-hidden="true" />}
        {t('utr.submit')}
      </button>
    </form>
  );
}

function StateResult(props: { kind: 'success' | 'warning' | 'error' | 'info'; name: string; testId: string }) {
  const { t } = useTranslation('pay');
  return (
    <section className={`pay-result pay-result-${props.kind}`} data-testid={props.testId}>
      <h2>{t(`state.${props.name}Title`)}</h2>
      <p>{t(`state.${props.name}Body`)}</p>
    </section>
  );
}

/** What the order asks of the payer now: pay (with the countdown and the UTR form), or its outcome. */
function OrderBody(props: { order: LoadedOrder; remaining: number | null; reload: () => Promise<void> }) {
  const { order, remaining } = props;
  const { t } = useTranslation('pay');
  const usdt = order.payee?.kind === 'usdtWallet' || productById(order.productId)?.resourceKind === 'usdtWallet';
  const utrPart = order.payerUtr ? (
    <Notice
      kind="success"
      testId="pay-confirmation"
      title={t('utr.submittedTitle')}
      body={
        <>
          <div>{t('utr.submittedBody', { utr: order.payerUtr })}</div>
          {order.payerName && <div>{t('utr.submittedName', { name: order.payerName })}</div>}
        </>
      }
    />
  ) : (
    <UtrForm orderCode={order.orderCode} usdt={usdt} askName={order.payerNameRequired} reload={props.reload} />
  );
  const awaiting = order.state === ORDER_STATE.allocated && remaining !== 0;

  if (awaiting) {
    return (
      <>
        {remaining !== null && (
          <div className="pay-row pay-countdown-row">
            <span>{t('countdown')}</span>
            <span
              className={`pay-countdown${remaining < 60_000 ? ' pay-countdown-late' : ''}`}
              data-testid="pay-countdown"
            >
              {formatCountdown(remaining)}
            </span>
          </div>
        )}
        <ScriptView orderCode={order.orderCode} />
        {order.payee && (
          <section>
            <h2>{t('payTo')}</h2>
            <Notice kind="info" title={t('exactAmount')} />
            <PayeeDetails payee={order.payee} orderCode={order.orderCode} />
          </section>
        )}
        <section>
          <h2>{t('utr.title')}</h2>
          {utrPart}
        </section>
      </>
    );
  }
  if (order.state === ORDER_STATE.allocated || order.state === ORDER_STATE.timedOut) {
    // Timed out (by the server, or the countdown ran out first): a late payer may still send its UTR.
    return (
      <>
        <StateResult kind="warning" name="timedOut" testId="pay-state-timedOut" />
        {!order.payerUtr && <p>{t('utr.lateHint')}</p>}
        {utrPart}
      </>
    );
  }
  if ((PAID_STATES as readonly number[]).includes(order.state)) {
    return <StateResult kind="success" name="paid" testId="pay-state-paid" />;
  }
  if (order.state === ORDER_STATE.rejected) {
    return <StateResult kind="error" name="rejected" testId="pay-state-rejected" />;
  }
  if (order.state === ORDER_STATE.reversed) {
    return <StateResult kind="error" name="reversed" testId="pay-state-reversed" />;
  }
  // Created (not allocated yet) or allocation failed: nothing to pay to.
  return <StateResult kind="info" name="unavailable" testId="pay-state-unavailable" />;
}

/** The amount to send (the exact USDT count for a USDT wallet), its currency, the order and the merchant. */
function Summary({ order }: { order: LoadedOrder }) {
  const { t } = useTranslation('pay');
  // A USDT payer sends the exact count (it tells the order apart), not the order's amount.
  const usdt =
    order.payee?.kind === 'usdtWallet' && order.payee.usdtCount !== undefined
      ? usdtText(order.payee.usdtCount)
      : undefined;
  return (
    <div className="pay-summary">
      <div className="pay-secondary">{t('amount')}</div>
      <div className="pay-amount">
        {usdt === undefined ? (
          <>
            <span data-testid="pay-amount">{formatMoney(order.amount)}</span>{' '}
            <span className="pay-currency" data-testid="pay-currency">
              {order.currency}
            </span>
          </>
        ) : (
          <span data-testid="pay-amount">{`${usdt} USDT`}</span>
        )}
      </div>
      {usdt !== undefined && (
        <div className="pay-small" data-testid="pay-order-amount">
          {t('orderAmount')}: {formatMoney(order.amount)} {order.currency}
        </div>
      )}
      <div className="pay-small" data-testid="pay-merchant">
        {t('merchant')}: {order.merchantName}
      </div>
      <div className="pay-small pay-wrap">
        {t('orderCode')}: <span data-testid="pay-order-code">{order.orderCode}</span>
      </div>
      {order.subject && (
        <div className="pay-small">
          {t('subject')}: {order.subject}
        </div>
      )}
    </div>
  );
}

const isNotFound = (error: unknown) =>
  error instanceof ApiError &&
  ([Code.notFound, Code.orderNotFound, Code.invalidInput] as number[]).includes(error.code);

/**
 * The payer page /pay/<orderCode> (public, its own entry pay.html, outside the console): the amount
 * and currency, the merchant, what to pay to, the countdown on the server's clock, the UTR form and
 * the way back to the merchant, on a phone, in three languages. It shows nothing but this order. Test
 * hooks: `pay-amount`, `pay-currency`, `pay-merchant`, `pay-countdown`, `pay-field-<name>`,
 * `pay-copy-<name>`, `pay-utr-input`, `pay-utr-submit`, `pay-confirmation`, `pay-state-<state>`,
 * `pay-return-link`.
 */
export default function PayPage({ orderCode }: { orderCode: string }) {
  const { t } = useTranslation('pay');
  const order = usePayerOrder(orderCode);
  const remaining = useRemaining(order.data);
  const expired = order.data?.state === ORDER_STATE.allocated && remaining === 0;
  const { refetch } = order;
  useEffect(() => {
    // The countdown ran out: ask the server what became of the order.
    if (expired) void refetch();
  }, [expired, refetch]);

  let content: ReactNode;
  if (order.isLoading) {
    content = (
      <div className="pay-loading" role="status">
        <span className="pay-spinner" aria-hidden="true" />
        <span className="pay-visually-hidden">{t('loading')}</span>
      </div>
    );
  } else if (order.error) {
    content = isNotFound(order.error) ? (
      <StateResult kind="warning" name="notFound" testId="pay-state-notFound" />
    ) : (
      <section className="pay-result pay-result-error">
        <h2>{t('state.loadFailed', { message: payerErrorText(t, order.error) })}</h2>
        <button type="button" className="pay-button" onClick={() => void refetch()}>
          {t('action.retry')}
        </button>
      </section>
    );
  } else if (order.data) {
    content = (
      <>
        <Summary order={order.data} />
        <OrderBody order={order.data} remaining={remaining} reload={refetch} />
        {order.data.returnUrl && (
          <a className="pay-button pay-block pay-return" href={order.data.returnUrl} data-testid="pay-return-link">
            {t('action.returnToMerchant')}
          </a>
        )}
      </>
    );
  }

  return (
    <div className="pay-page">
      <header className="pay-header">
        <h1>{t('title')}</h1>
        <LanguageSwitch className="pay-language" />
      </header>
      <main className="pay-card">{content}</main>
    </div>
  );
}
