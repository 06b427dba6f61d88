import { endpoints } from '@paydesk/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Form, Input, Radio, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { useMay } from './api';
import { type ExchangeData, ExchangeView } from './Exchange';

type Source = 'test' | 'order' | 'merchant';
interface SendTestForm {
  source: Source;
  url: string;
  orderCode?: string;
  mchId?: string;
}

const sendTestInput = endpoints.callbacks.sendTest.input;

/** The request of the form: only the field its source needs, trimmed. */
function requestOf(values: SendTestForm) {
  return {
    url: (values.url ?? '').trim(),
    ...(values.source === 'order' ? { orderCode: (values.orderCode ?? '').trim() } : {}),
    ...(values.source === 'merchant' ? { mchId: (values.mchId ?? '').trim() } : {}),
  };
}

/**
 * System management › order send test (/system/orderSendTest and its read-only variant): POST a
 * signed callback to any http/https address now and show the exchange: the request body, the status,
 * the answer, the duration, the error and whose key signed it. The notification is a sample signed
 * with the test key, an order's own notification (its merchant's key) or a sample of a merchant (its
 * key). Fields are checked by the contract's own schema before sending. Only the roles the contract
 * lists send; others (and the read-only route) see the form disabled with the reason.
 * Test hooks: `sendtest-form`, `sendtest-source`, `sendtest-url`, `sendtest-orderCode`,
 * `sendtest-mchId`, `sendtest-send`, `sendtest-result`, `sendtest-verdict`, `sendtest-error`, and
 * `sendtest-exchange-*` (ExchangeView).
 */
export default function SendTestPage() {
  const { t, i18n } = useTranslation(['callbacks', 'common']);
  const [form] = Form.useForm<SendTestForm>();
  const maySend = useMay(endpoints.callbacks.sendTest);
  const source = Form.useWatch('source', form) ?? 'test';
  const send = useMutation({
    mutationFn: (values: SendTestForm) => call(endpoints.callbacks.sendTest, requestOf(values)),
  });

  /** A field checked as the server checks it (the contract's schema), with the page's message. */
  const contractRule = (field: 'url' | 'orderCode' | 'mchId') => ({
    validator: (_rule: unknown, _value: unknown) => {
      const parsed = sendTestInput.safeParse(requestOf(form.getFieldsValue(true) as SendTestForm));
      const bad = !parsed.success && parsed.error.issues.some((i) => i.path[0] === field);
      return bad ? Promise.reject(new Error(t(`validation.${field}`))) : Promise.resolve();
    },
  });

  const result: ExchangeData | undefined = send.data;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} className="page">
      <Card>
        <Typography.Paragraph type="secondary">{t('sendTest.intro')}</Typography.Paragraph>
        {!maySend && (
          <Alert
            type="info"
            showIcon
            title={t('sendTest.notAllowed')}
            style={{ marginBottom: 16 }}
            data-testid="sendtest-not-allowed"
          />
        )}
        <Form<SendTestForm>
          form={form}
          layout="vertical"
          disabled={!maySend}
          data-testid="sendtest-form"
          initialValues={{ source: 'test', url: '' }}
          onFinish={(values) => send.mutate(values)}
        >
          <Form.Item name="source" label={t('sendTest.source')}>
            <Radio.Group data-testid="sendtest-source">
              <Space orientation="vertical">
                <Radio value="test" data-testid="sendtest-source-test">
                  {t('sendTest.sourceTest')}
                </Radio>
                <Radio value="order" data-testid="sendtest-source-order">
                  {t('sendTest.sourceOrder')}
                </Radio>
                <Radio value="merchant" data-testid="sendtest-source-merchant">
                  {t('sendTest.sourceMerchant')}
                </Radio>
              </Space>
            </Radio.Group>
          </Form.Item>
          <Row gutter={16}>
            <Col xs={24} lg={12}>
              <Form.Item name="url" label={t('sendTest.url')} required rules={[contractRule('url')]}>
                <Input allowClear placeholder={t('sendTest.urlPlaceholder')} data-testid="sendtest-url" />
              </Form.Item>
            </Col>
            {source === 'order' && (
              <Col xs={24} md={12} lg={6}>
                <Form.Item
                  name="orderCode"
                  label={t('sendTest.orderCode')}
                  required
                  validateFirst
                  rules={[{ required: true, message: t('validation.orderCode') }, contractRule('orderCode')]}
                >
                  <Input allowClear data-testid="sendtest-orderCode" />
                </Form.Item>
              </Col>
            )}
            {source === 'merchant' && (
              <Col xs={24} md={12} lg={6}>
                <Form.Item
                  name="mchId"
                  label={t('sendTest.mchId')}
                  required
                  validateFirst
                  rules={[{ required: true, message: t('validation.mchId') }, contractRule('mchId')]}
                >
                  <Input allowClear data-testid="sendtest-mchId" />
                </Form.Item>
              </Col>
            )}
          </Row>
          <Button type="primary" htmlType="submit" loading={send.isPending} data-testid="sendtest-send">
            {t('sendTest.send')}
          </Button>
        </Form>
      </Card>
      {send.isError && (
        <Alert
          type="error"
          showIcon
          data-testid="sendtest-error"
          title={t('sendTest.failed', { message: errorText(i18n, send.error) })}
        />
      )}
      {result && !send.isPending && (
        <Card title={t('sendTest.result')} data-testid="sendtest-result">
          <Alert
            type={result.succeeded ? 'success' : 'warning'}
            showIcon
            style={{ marginBottom: 16 }}
            data-testid="sendtest-verdict"
            title={result.succeeded ? t('sendTest.delivered') : t('sendTest.notDelivered')}
          />
          <ExchangeView testId="sendtest-exchange" exchange={result} />
        </Card>
      )}
    </Space>
  );
}
