import {
  type CodeValue,
  codeCatalogue,
  createOrderRequest,
  endpoints,
  MERCHANT_GUIDE_PATH,
  PRODUCTS,
  SIGN_TYPES,
  type SignType,
} from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Flex,
  Form,
  Input,
  Radio,
  Row,
  type FormRule as Rule,
  Select,
  Space,
  Tag,
  Typography,
} from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { merchantApiBase } from '../../shared/merchants/api';
import { useProductName } from '../../shared/products/productName';
import { useSession } from '../../shared/session/session';
import {
  apiAmountOf,
  apiUnitsPerMajor,
  maskedSigningString,
  newMchOrderNo,
  requestBody,
  requestParams,
  signRequest,
} from './signing';

const CHANNEL_FIELDS = ['userName', 'cardNumber', 'ifscCode', 'bankName', 'vpa', 'mode', 'address'] as const;
const MORE_FIELDS = ['notifyUrl', 'returnUrl', 'subject', 'body', 'clientIp'] as const;
type TextField = (typeof CHANNEL_FIELDS)[number] | (typeof MORE_FIELDS)[number] | 'extra' | 'mchId' | 'mchOrderNo';
type BodyFormat = 'json' | 'form';

interface TestForm extends Partial<Record<TextField, string>> {
  productId: number;
  amount: string;
  baseUrl: string;
  signType: SignType;
  format: BodyFormat;
}

/** One request as built, signed and (when sent) answered. Never holds the secret. */
interface Exchange {
  url: string;
  format: BodyFormat;
  params: Record<string, string>;
  signingString: string;
  signature: string;
  sent: boolean;
  answer?: { status: number; text: string; json: { code?: unknown; msg?: unknown; data?: unknown } | null };
  networkError?: string;
}

const COLLECTION_PRODUCTS = PRODUCTS.filter((p) => p.direction === 'collection');
const URL_RE = /^https?:\/\/[^\s/?#]+(?::\d+)?(?:\/[^\s]*)?$/;

/** The page's query keys (its own: the merchant record and product settings it reads for defaults). */
const apiTestKeys = {
  mine: ['apiTest', 'mine'] as const,
  products: (userId: number) => ['apiTest', 'products', userId] as const,
};

function Block(props: { title: string; testId: string; children: ReactNode; extra?: ReactNode }) {
  return (
    <div style={{ marginBottom: 16 }}>
      <Flex justify="space-between" align="center">
        <Typography.Text strong>{props.title}</Typography.Text>
        {props.extra}
      </Flex>
      <pre
        data-testid={props.testId}
        style={{
          margin: '4px 0 0',
          padding: 12,
          background: '#f6f8fa',
          borderRadius: 6,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
          fontSize: 13,
        }}
      >
        {props.children}
      </pre>
    </div>
  );
}

/**
 * The merchant's API test page (/order/test/merchant, issue 6 item 8): choose the product, the amount
 * in major units (sent x100, or x10000 for 1045), the channel fields and the base address; paste the
 * secret (kept in this component's state only: never stored, logged or sent); the page builds the
 * parameters, shows the signing string with the secret masked, signs (HMAC-SHA256 or MD5, as the
 * merchant's sign type says), sends the request and shows the request, the signature and the answer,
 * with the payer page link on success. Test hooks: `apitest-form`, `apitest-secret`, `apitest-send`,
 * `apitest-preview`, `apitest-request`, `apitest-signing-string`, `apitest-signature`,
 * `apitest-answer`, `apitest-answer-code`, `apitest-pay-url`.
 */
export default function ApiTestPage() {
  const { t, i18n } = useTranslation(['apiTest', 'common']);
  const { message } = App.useApp();
  const productName = useProductName();
  const { user } = useSession();
  const [form] = Form.useForm<TestForm>();
  const [secret, setSecret] = useState('');
  const [secretMissing, setSecretMissing] = useState(false);
  const [exchange, setExchange] = useState<Exchange | null>(null);
  const [busy, setBusy] = useState(false);
  const [signError, setSignError] = useState<string | null>(null);

  const mine = useQuery({ queryKey: apiTestKeys.mine, queryFn: () => call(endpoints.merchants.getMine, {}) });
  const userId = user?.userId ?? 0;
  const settings = useQuery({
    queryKey: apiTestKeys.products(userId),
    enabled: userId > 0,
    queryFn: () => call(endpoints.products.getUserProductsForUser, { userId }),
  });
  const enabled = new Set((settings.data ?? []).filter((s) => s.enabled).map((s) => s.productId));

  useEffect(() => {
    // The merchant's own number and sign type are the defaults; what the user typed already stays.
    if (!mine.data) return;
    if (!form.isFieldTouched('mchId')) form.setFieldValue('mchId', mine.data.merchantNo);
    if (!form.isFieldTouched('signType')) form.setFieldValue('signType', mine.data.signType);
  }, [mine.data, form]);

  const productId = Form.useWatch('productId', form) ?? 1001;
  const amount = Form.useWatch('amount', form);
  const signType = Form.useWatch('signType', form);
  const times = apiUnitsPerMajor(productId);
  const decimals = String(times).length - 1;
  const apiAmount = apiAmountOf(amount, productId);

  /** A field checked by the contract's own schema (what the server checks), with the page's message. */
  const contractRule = (name: TextField, messageKey: string): Rule => ({
    validator: (_rule, value: string | undefined) =>
      !value?.trim() || createOrderRequest.shape[name].safeParse(value.trim()).success
        ? Promise.resolve()
        : Promise.reject(new Error(t(`error.${messageKey}`))),
  });
  const urlRule = (name: 'notifyUrl' | 'returnUrl') => contractRule(name, 'url');

  const textItem = (name: TextField, rules: Rule[], extra?: ReactNode) => (
    <Col xs={24} md={12} xl={8} key={name}>
      <Form.Item name={name} label={t(`field.${name}`)} rules={rules} extra={extra}>
        <Input allowClear data-testid={`apitest-${name}`} />
      </Form.Item>
    </Col>
  );

  async function run(send: boolean) {
    let values: TestForm;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    if (!secret) {
      setSecretMissing(true);
      return;
    }
    setSignError(null);
    setBusy(true);
    try {
      const params = requestParams({
        mchId: values.mchId,
        productId: String(values.productId),
        mchOrderNo: values.mchOrderNo,
        amount: apiAmountOf(values.amount, values.productId) ?? '',
        ...Object.fromEntries(
          [...MORE_FIELDS, 'extra' as const, ...CHANNEL_FIELDS].map((k) => [k, values[k]] as const),
        ),
      });
      const signature = await signRequest(params, secret, values.signType);
      const url = `${values.baseUrl.trim().replace(/\/+$/, '')}${endpoints.orders.create.path}`;
      const next: Exchange = {
        url,
        format: values.format,
        params: { ...params, sign: signature },
        signingString: maskedSigningString(params),
        signature,
        sent: send,
      };
      setExchange(next);
      if (!send) return;
      try {
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': values.format === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
          },
          // The merchant API authenticates by signature: no console cookie goes with it.
          credentials: 'omit',
          body: requestBody(next.params, values.format),
        });
        const text = await res.text();
        let json: NonNullable<Exchange['answer']>['json'] = null;
        try {
          json = JSON.parse(text) as typeof json;
        } catch {
          json = null;
        }
        setExchange({ ...next, answer: { status: res.status, text, json } });
      } catch (error) {
        setExchange({ ...next, networkError: error instanceof Error ? error.message : String(error) });
      }
    } catch (error) {
      setSignError(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  }

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      void message.success(t('action.copied'));
    } catch {
      void message.error(t('common:error.copyFailed'));
    }
  };
  const copyButton = (text: string) => (
    <Button size="small" type="link" onClick={() => void copy(text)}>
      {t('action.copy')}
    </Button>
  );

  const answerCode = exchange?.answer?.json?.code;
  const answerData = exchange?.answer?.json?.data as { payUrl?: unknown } | null | undefined;
  const payUrl = answerCode === 200 && typeof answerData?.payUrl === 'string' ? answerData.payUrl : null;
  const requestText = exchange
    ? [
        `POST ${exchange.url}`,
        `Content-Type: ${exchange.format === 'json' ? 'application/json' : 'application/x-www-form-urlencoded'}`,
        '',
        exchange.format === 'json'
          ? JSON.stringify(exchange.params, null, 2)
          : requestBody(exchange.params, exchange.format),
      ].join('\n')
    : '';

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card>
        <Typography.Paragraph type="secondary">
          {t('intro', { path: endpoints.orders.create.path })}{' '}
          <Typography.Link href={MERCHANT_GUIDE_PATH} target="_blank" underline data-testid="api-test-guide">
            {t('guide')}
          </Typography.Link>
        </Typography.Paragraph>
        {mine.isError && (
          <Alert
            type="warning"
            showIcon
            title={t('hint.mineFailed', { message: errorText(i18n, mine.error) })}
            style={{ marginBottom: 16 }}
          />
        )}
        <Form<TestForm>
          form={form}
          layout="vertical"
          data-testid="apitest-form"
          initialValues={{
            productId: 1001,
            mchOrderNo: newMchOrderNo(),
            amount: '100.00',
            // ApiUrl when set (what merchants are told to call), else the console's own address.
            baseUrl: merchantApiBase(user?.apiUrl),
            signType: 'HMAC-SHA256',
            format: 'json',
            subject: 'API test',
          }}
        >
          <Typography.Title level={5}>{t('section.order')}</Typography.Title>
          <Row gutter={16}>
            <Col xs={24} md={12} xl={8}>
              <Form.Item
                name="productId"
                label={t('field.productId')}
                rules={[{ required: true, message: t('error.productRequired') }]}
              >
                <Select
                  data-testid="apitest-product"
                  options={COLLECTION_PRODUCTS.map((p) => ({
                    value: p.id,
                    label: `${p.id} ${productName(p.id)}${settings.data && !enabled.has(p.id) ? t('hint.notEnabled') : ''}`,
                  }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={8}>
              <Form.Item
                name="amount"
                label={t('field.amount')}
                extra={
                  <span data-testid="apitest-amount-api">
                    {apiAmount ? t('hint.amount', { times, api: apiAmount }) : t('hint.amountUnits', { times })}
                  </span>
                }
                rules={[
                  {
                    validator: (_rule, value: string | undefined) =>
                      apiAmountOf(value, form.getFieldValue('productId') ?? 1001) !== null
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('error.amount', { decimals }))),
                  },
                ]}
                dependencies={['productId']}
              >
                <Input inputMode="decimal" data-testid="apitest-amount" />
              </Form.Item>
            </Col>
            {textItem('mchId', [{ required: true, message: t('error.mchId') }, contractRule('mchId', 'mchId')])}
            <Col xs={24} md={12} xl={8}>
              <Form.Item label={t('field.mchOrderNo')} htmlFor="mchOrderNo" required>
                <Space.Compact style={{ width: '100%' }}>
                  <Form.Item
                    name="mchOrderNo"
                    noStyle
                    rules={[
                      { required: true, message: t('error.mchOrderNo') },
                      contractRule('mchOrderNo', 'mchOrderNo'),
                    ]}
                  >
                    <Input data-testid="apitest-mchOrderNo" />
                  </Form.Item>
                  <Button
                    data-testid="apitest-new-order-no"
                    onClick={() => form.setFieldValue('mchOrderNo', newMchOrderNo())}
                  >
                    {t('action.newOrderNo')}
                  </Button>
                </Space.Compact>
              </Form.Item>
            </Col>
          </Row>

          <Typography.Title level={5}>{t('section.channel')}</Typography.Title>
          <Row gutter={16}>{CHANNEL_FIELDS.map((name) => textItem(name, [contractRule(name, name)]))}</Row>

          <Typography.Title level={5}>{t('section.more')}</Typography.Title>
          <Row gutter={16}>
            {textItem('notifyUrl', [urlRule('notifyUrl')])}
            {textItem('returnUrl', [urlRule('returnUrl')])}
            {textItem('subject', [contractRule('subject', 'subject')])}
            {textItem('body', [contractRule('body', 'body')])}
            {textItem('clientIp', [contractRule('clientIp', 'clientIp')])}
            {textItem('extra', [contractRule('extra', 'extra')], t('hint.extra'))}
          </Row>

          <Typography.Title level={5}>{t('section.signing')}</Typography.Title>
          <Row gutter={16}>
            <Col xs={24} md={12} xl={8}>
              <Form.Item
                name="baseUrl"
                label={t('field.baseUrl')}
                extra={t('hint.baseUrl')}
                rules={[
                  {
                    validator: (_rule, value: string | undefined) =>
                      URL_RE.test((value ?? '').trim())
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('error.baseUrl'))),
                  },
                ]}
              >
                <Input data-testid="apitest-baseUrl" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={8}>
              <Form.Item
                label={t('field.secret')}
                htmlFor="apitest-secret"
                required
                extra={t('hint.secret')}
                validateStatus={secretMissing ? 'error' : undefined}
                help={secretMissing ? t('error.secretRequired') : undefined}
              >
                {/* Component state only: not a form field, so nothing else ever holds the secret. */}
                <Input.Password
                  value={secret}
                  onChange={(e) => {
                    setSecret(e.target.value);
                    setSecretMissing(false);
                  }}
                  autoComplete="off"
                  id="apitest-secret"
                  data-testid="apitest-secret"
                />
              </Form.Item>
            </Col>
            <Col xs={24} md={12} xl={8}>
              <Form.Item
                name="signType"
                label={t('field.signType')}
                extra={signType === 'MD5' ? t('hint.md5') : undefined}
              >
                <Radio.Group data-testid="apitest-signType" options={SIGN_TYPES.map((s) => ({ value: s, label: s }))} />
              </Form.Item>
              <Form.Item name="format" label={t('field.format')}>
                <Radio.Group
                  data-testid="apitest-format"
                  options={[
                    { value: 'json', label: 'JSON' },
                    { value: 'form', label: 'application/x-www-form-urlencoded' },
                  ]}
                />
              </Form.Item>
            </Col>
          </Row>
          <Space wrap>
            <Button type="primary" loading={busy} data-testid="apitest-send" onClick={() => void run(true)}>
              {t('action.send')}
            </Button>
            <Button disabled={busy} data-testid="apitest-preview" onClick={() => void run(false)}>
              {t('action.preview')}
            </Button>
          </Space>
        </Form>
      </Card>

      {signError && <Alert type="error" showIcon title={t('error.signFailed', { message: signError })} />}

      {exchange && (
        <Card data-testid="apitest-result">
          {!exchange.sent && <Alert type="info" showIcon title={t('result.notSent')} style={{ marginBottom: 16 }} />}
          <Block
            title={t('section.signingString')}
            testId="apitest-signing-string"
            extra={copyButton(exchange.signingString)}
          >
            {exchange.signingString}
          </Block>
          <Block title={t('section.signature')} testId="apitest-signature" extra={copyButton(exchange.signature)}>
            {exchange.signature}
          </Block>
          <Block title={t('section.request')} testId="apitest-request" extra={copyButton(requestText)}>
            {requestText}
          </Block>
          {exchange.networkError && (
            <Alert
              type="error"
              showIcon
              title={t('error.network', { url: exchange.url, message: exchange.networkError })}
            />
          )}
          {exchange.answer && (
            <>
              <Space wrap style={{ marginBottom: 8 }}>
                <Typography.Text strong>{t('section.answer')}</Typography.Text>
                <Tag>{t('result.status', { status: exchange.answer.status })}</Tag>
                {typeof answerCode === 'number' && (
                  <Tag color={answerCode === 200 ? 'success' : 'error'} data-testid="apitest-answer-code">
                    {t('result.code', { code: answerCode })}
                  </Tag>
                )}
                {typeof answerCode === 'number' && answerCode !== 200 && codeCatalogue[answerCode as CodeValue] && (
                  <Typography.Text type="secondary">
                    {t('result.meaning', { message: i18n.t(`server:code.${answerCode as CodeValue}`) })}
                  </Typography.Text>
                )}
              </Space>
              {payUrl && (
                <Alert
                  type="success"
                  showIcon
                  style={{ marginBottom: 8 }}
                  title={
                    <Space wrap>
                      {t('result.payUrl')}
                      <Typography.Link href={payUrl} target="_blank" data-testid="apitest-pay-url">
                        {payUrl}
                      </Typography.Link>
                    </Space>
                  }
                />
              )}
              <Block title="" testId="apitest-answer">
                {exchange.answer.json ? JSON.stringify(exchange.answer.json, null, 2) : exchange.answer.text}
              </Block>
              {!exchange.answer.json && <Typography.Text type="warning">{t('result.notJson')}</Typography.Text>}
            </>
          )}
        </Card>
      )}
    </Space>
  );
}
