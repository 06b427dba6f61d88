import { Code, endpoints, ORDER_STATE, PAID_STATES, productById, utrSchema } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Form, Input, Result, Spin, Typography } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { LanguageSwitch } from '../../app/layout/LanguageSwitch';
import { errorText } from '../../shared/api/errorText';
import { ApiError, call } from '../../shared/api/http';
import { formatMoney } from '../../shared/format/money';
import { type LoadedOrder, payKeys, usePayerOrder } from './api';
import { formatCountdown, remainingMs, usdtText } from './countdown';
import { PayeeDetails } from './PayeeDetails';

/** The time left on the server's clock, ticking every second on the phone's. */
function useRemaining(order: LoadedOrder | undefined): number | null {
  const [phoneNow, setPhoneNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setPhoneNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return order ? remainingMs(order, Math.max(phoneNow, order.receivedAt)) : null;
}

/** The form for the payment's UTR (a transaction hash for USDT), checked as the server checks it. */
function UtrForm(props: { orderCode: string; usdt: boolean }) {
  const { t, i18n } = useTranslation('pay');
  const queryClient = useQueryClient();
  const submit = useMutation({
    mutationFn: (utr: string) => call(endpoints.orders.payerSubmitUtr, { orderCode: props.orderCode, utr }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: payKeys.order(props.orderCode) }),
    onError: (error) => {
      // The order moved on meanwhile (paid, rejected): show what it is now.
      if (error instanceof ApiError && error.code === Code.businessRule) {
        void queryClient.invalidateQueries({ queryKey: payKeys.order(props.orderCode) });
      }
    },
  });
  const key = (k: string) => (props.usdt ? `hash${k[0]!.toUpperCase()}${k.slice(1)}` : k);
  const failure =
    submit.error instanceof ApiError && submit.error.code === Code.businessRule
      ? t('utr.notAwaiting')
      : submit.error
        ? t('utr.failed', { message: errorText(i18n, submit.error) })
        : null;
  return (
    <Form<{ utr: string }>
      layout="vertical"
      requiredMark={false}
      onFinish={(v) => submit.mutate(v.utr.trim())}
      data-testid="pay-utr-form"
    >
      <Form.Item
        name="utr"
        label={t(`utr.${key('label')}`)}
        rules={[
          { required: true, whitespace: true, message: t(`utr.${key('required')}`) },
          {
            validator: (_rule, value: string | undefined) =>
              !value?.trim() || utrSchema.safeParse(value).success
                ? Promise.resolve()
                : Promise.reject(new Error(t(`utr.${key('invalid')}`))),
          },
        ]}
      >
        <Input
          size="large"
          placeholder={t(`utr.${key('placeholder')}`)}
          autoComplete="off"
          maxLength={128}
          data-testid="pay-utr-input"
        />
      </Form.Item>
      {failure && <Alert type="error" showIcon title={failure} style={{ marginBottom: 12 }} />}
      <Button
        type="primary"
        htmlType="submit"
        size="large"
        block
        loading={submit.isPending}
        data-testid="pay-utr-submit"
      >
        {t('utr.submit')}
      </Button>
    </Form>
  );
}

/** The payer's reference was received: the page waits for the confirmation (it refreshes by itself). */
function Submitted({ utr }: { utr: string }) {
  const { t } = useTranslation('pay');
  return (
    <Alert
      type="success"
      showIcon
      data-testid="pay-confirmation"
      title={t('utr.submittedTitle')}
      description={t('utr.submittedBody', { utr })}
    />
  );
}

function StateResult(props: { status: 'success' | 'warning' | 'error' | 'info'; name: string; testId: string }) {
  const { t } = useTranslation('pay');
  return (
    <Result
      status={props.status}
      title={t(`state.${props.name}Title`)}
      subTitle={t(`state.${props.name}Body`)}
      data-testid={props.testId}
      style={{ padding: '16px 0' }}
    />
  );
}

/** What the order asks of the payer now: pay (with the countdown and the UTR form), or its outcome. */
function OrderBody({ order, remaining }: { order: LoadedOrder; remaining: number | null }) {
  const { t } = useTranslation('pay');
  const usdt = order.payee?.kind === 'usdtWallet' || productById(order.productId)?.resourceKind === 'usdtWallet';
  const utrPart = order.payerUtr ? (
    <Submitted utr={order.payerUtr} />
  ) : (
    <UtrForm orderCode={order.orderCode} usdt={usdt} />
  );
  const awaiting = order.state === ORDER_STATE.allocated && remaining !== 0;

  if (awaiting) {
    return (
      <>
        {remaining !== null && (
          <Flex justify="space-between" align="center" style={{ margin: '4px 0 12px' }}>
            <Typography.Text>{t('countdown')}</Typography.Text>
            <Typography.Text
              strong
              data-testid="pay-countdown"
              style={{
                fontSize: 20,
                fontVariantNumeric: 'tabular-nums',
                color: remaining < 60_000 ? '#cf1322' : undefined,
              }}
            >
              {formatCountdown(remaining)}
            </Typography.Text>
          </Flex>
        )}
        {order.payee && (
          <>
            <Typography.Title level={5} style={{ marginTop: 8 }}>
              {t('payTo')}
            </Typography.Title>
            <Alert type="info" title={t('exactAmount')} style={{ marginBottom: 8 }} />
            <PayeeDetails payee={order.payee} orderCode={order.orderCode} />
          </>
        )}
        <Typography.Title level={5} style={{ marginTop: 16 }}>
          {t('utr.title')}
        </Typography.Title>
        {utrPart}
      </>
    );
  }
  if (order.state === ORDER_STATE.allocated || order.state === ORDER_STATE.timedOut) {
    // Timed out (by the server, or the countdown ran out first): a late payer may still send its UTR.
    return (
      <>
        <StateResult status="warning" name="timedOut" testId="pay-state-timedOut" />
        {!order.payerUtr && <Typography.Paragraph>{t('utr.lateHint')}</Typography.Paragraph>}
        {utrPart}
      </>
    );
  }
  if ((PAID_STATES as readonly number[]).includes(order.state)) {
    return <StateResult status="success" name="paid" testId="pay-state-paid" />;
  }
  if (order.state === ORDER_STATE.rejected) {
    return <StateResult status="error" name="rejected" testId="pay-state-rejected" />;
  }
  if (order.state === ORDER_STATE.reversed) {
    return <StateResult status="error" name="reversed" testId="pay-state-reversed" />;
  }
  // Created (not allocated yet) or allocation failed: nothing to pay to.
  return <StateResult status="info" name="unavailable" testId="pay-state-unavailable" />;
}

const isNotFound = (error: unknown) =>
  error instanceof ApiError &&
  ([Code.notFound, Code.orderNotFound, Code.invalidInput] as number[]).includes(error.code);

/**
 * The payer page /pay/<orderCode> (public, outside the console's shell): the amount, what to pay to,
 * the countdown on the server's clock, the UTR form and the way back to the merchant, on a phone, in
 * three languages. It shows nothing but this order. Test hooks: `pay-amount`, `pay-countdown`,
 * `pay-field-<name>`, `pay-copy-<name>`, `pay-utr-input`, `pay-utr-submit`, `pay-confirmation`,
 * `pay-state-<state>`, `pay-return-link`.
 */
export default function PayPage() {
  const { t, i18n } = useTranslation('pay');
  const orderCode = useParams().orderCode ?? '';
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
      <Flex justify="center" style={{ padding: 48 }}>
        <Spin />
      </Flex>
    );
  } else if (order.isError) {
    content = isNotFound(order.error) ? (
      <StateResult status="warning" name="notFound" testId="pay-state-notFound" />
    ) : (
      <Result
        status="error"
        title={t('state.loadFailed', { message: errorText(i18n, order.error) })}
        extra={<Button onClick={() => void refetch()}>{t('action.retry')}</Button>}
      />
    );
  } else if (order.data) {
    const data = order.data;
    // A USDT payer sends the exact count (it tells the order apart), not the order's amount.
    const usdt =
      data.payee?.kind === 'usdtWallet' && data.payee.usdtCount !== undefined
        ? usdtText(data.payee.usdtCount)
        : undefined;
    content = (
      <>
        <div style={{ textAlign: 'center', marginBottom: 8 }}>
          <Typography.Text type="secondary">{t('amount')}</Typography.Text>
          <div data-testid="pay-amount" style={{ fontSize: 32, fontWeight: 600, lineHeight: 1.3 }}>
            {usdt === undefined ? formatMoney(data.amount) : `${usdt} USDT`}
          </div>
          {usdt !== undefined && (
            <div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="pay-order-amount">
                {t('orderAmount')}: {formatMoney(data.amount)}
              </Typography.Text>
            </div>
          )}
          <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-all' }}>
            {t('orderCode')}: <span data-testid="pay-order-code">{data.orderCode}</span>
          </Typography.Text>
          {data.subject && (
            <div>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t('subject')}: {data.subject}
              </Typography.Text>
            </div>
          )}
        </div>
        <OrderBody order={data} remaining={remaining} />
        {data.returnUrl && (
          <Button block href={data.returnUrl} data-testid="pay-return-link" style={{ marginTop: 16 }}>
            {t('action.returnToMerchant')}
          </Button>
        )}
      </>
    );
  }

  return (
    <div style={{ minHeight: '100vh', background: '#f0f2f5', padding: '12px 12px 24px', boxSizing: 'border-box' }}>
      <div style={{ maxWidth: 480, margin: '0 auto' }}>
        <Flex justify="space-between" align="center" style={{ marginBottom: 8 }}>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('title')}
          </Typography.Title>
          <LanguageSwitch />
        </Flex>
        <Card styles={{ body: { padding: 16 } }}>{content}</Card>
      </div>
    </div>
  );
}
