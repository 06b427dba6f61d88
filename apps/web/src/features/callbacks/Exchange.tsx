import type { CallbackOrderType, CallbackState } from '@paydesk/contract';
import { Descriptions, Flex, Segmented, Tag, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../shared/format/time';

const STATE_COLOR: Record<CallbackState, string> = {
  pending: 'processing',
  succeeded: 'success',
  failed: 'error',
  cancelled: 'default',
};

/** A callback's state as a coloured tag in the user's language. */
export function CallbackStateTag({ state, testId }: { state: CallbackState; testId?: string }) {
  const { t } = useTranslation('callbacks');
  return (
    <Tag color={STATE_COLOR[state]} data-testid={testId}>
      {t(`state.${state}`)}
    </Tag>
  );
}

/** Which kind of order a callback notifies: a collection order or a payout. */
export function OrderTypeTag({ type, testId }: { type: CallbackOrderType; testId?: string }) {
  const { t } = useTranslation('callbacks');
  return (
    <Tag color={type === 'payout' ? 'purple' : 'blue'} data-testid={testId}>
      {t(`orderType.${type}`)}
    </Tag>
  );
}

/**
 * The state of a callback's order in the reader's language: a collection order's by the orders texts,
 * a payout's (completed, cancelled or rejected: the states that are notified) by this area's; the code
 * when neither has a text.
 */
export function useOrderStateText(): (type: CallbackOrderType, state: number) => string {
  const { i18n } = useTranslation('callbacks');
  return (type, state) => {
    const key = type === 'payout' ? `callbacks:payoutState.${state}` : `orders:state.${state}`;
    return i18n.exists(key) ? i18n.t(key) : String(state);
  };
}

/** Whether an attempt counted as delivered: a green or red tag. */
export function SucceededTag({ succeeded, testId }: { succeeded: boolean; testId?: string }) {
  const { t } = useTranslation('callbacks');
  return (
    <Tag color={succeeded ? 'success' : 'error'} data-testid={testId}>
      {succeeded ? t('yes') : t('no')}
    </Tag>
  );
}

/** An HTTP status, or "no answer" when the merchant's server never answered. */
export function statusText(t: (key: string) => string, status: number | null): string {
  return status === null ? t('noStatus') : String(status);
}

const preStyle = {
  margin: '4px 0 0',
  padding: 12,
  background: '#f6f8fa',
  borderRadius: 6,
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-all',
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  fontSize: 13,
  maxHeight: 360,
  overflow: 'auto',
} as const;

/** Text shown as it is, monospace, in a scrolling block. */
export function Monospace(props: { testId: string; children: ReactNode }) {
  return (
    <pre data-testid={props.testId} style={preStyle}>
      {props.children}
    </pre>
  );
}

/** A form body (`a=1&b=2`) as one decoded `name=value` per line; the raw text when it is not one. */
export function formFields(body: string): string {
  try {
    return [...new URLSearchParams(body)].map(([k, v]) => `${k}=${v}`).join('\n');
  } catch {
    return body;
  }
}

/** The form body sent: its fields one per line, or the raw text exactly as sent. */
function RequestBody({ body, testId }: { body: string; testId: string }) {
  const { t } = useTranslation('callbacks');
  const [view, setView] = useState<'fields' | 'raw'>('fields');
  return (
    <div>
      <Flex justify="space-between" align="center">
        <Typography.Text strong>{t('exchange.request')}</Typography.Text>
        <Segmented
          size="small"
          value={view}
          onChange={(v) => setView(v as 'fields' | 'raw')}
          options={[
            { value: 'fields', label: t('exchange.fields') },
            { value: 'raw', label: t('exchange.raw') },
          ]}
          data-testid={`${testId}-request-view`}
        />
      </Flex>
      <Monospace testId={`${testId}-request`}>
        {body === '' ? t('exchange.emptyBody') : view === 'fields' ? formFields(body) : body}
      </Monospace>
    </div>
  );
}

/** What one delivery (or a test) sent and what came back. */
export interface ExchangeData {
  url: string;
  httpMethod: string;
  requestBody: string;
  responseStatus: number | null;
  responseBody: string | null;
  error: string | null;
  succeeded: boolean;
  durationMs: number;
  /** Send test only: whose key signed it. */
  signedWith?: string;
  /** Recorded attempts only: when it was made. */
  createdAt?: string;
}

/**
 * One exchange with a merchant's server: address, method, status, whether it counted as delivered,
 * duration, error, then the request body (fields or raw) and the answer, monospace. Test hooks under
 * `testId`: `-status`, `-succeeded`, `-signed-with`, `-error`, `-request`, `-response`.
 */
export function ExchangeView({ exchange: x, testId }: { exchange: ExchangeData; testId: string }) {
  const { t } = useTranslation('callbacks');
  return (
    <Flex vertical gap={12} data-testid={testId}>
      <Descriptions column={{ xs: 1, md: 2 }} size="small" bordered>
        <Descriptions.Item label={t('column.url')} span="filled">
          <Typography.Text copyable style={{ wordBreak: 'break-all' }}>
            {x.url}
          </Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('column.httpMethod')}>{x.httpMethod}</Descriptions.Item>
        <Descriptions.Item label={t('column.responseStatus')}>
          <span data-testid={`${testId}-status`}>{statusText(t, x.responseStatus)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('column.succeeded')}>
          <SucceededTag succeeded={x.succeeded} testId={`${testId}-succeeded`} />
        </Descriptions.Item>
        <Descriptions.Item label={t('column.durationMs')}>{t('duration', { ms: x.durationMs })}</Descriptions.Item>
        {x.signedWith !== undefined && (
          <Descriptions.Item label={t('sendTest.signedWith')} span="filled">
            <span data-testid={`${testId}-signed-with`}>{x.signedWith}</span>
          </Descriptions.Item>
        )}
        {x.createdAt !== undefined && (
          <Descriptions.Item label={t('column.attemptAt')} span="filled">
            {formatTime(x.createdAt)}
          </Descriptions.Item>
        )}
        {x.error !== null && (
          <Descriptions.Item label={t('column.error')} span="filled">
            <Typography.Text type="danger" data-testid={`${testId}-error`}>
              {x.error}
            </Typography.Text>
          </Descriptions.Item>
        )}
      </Descriptions>
      <RequestBody body={x.requestBody} testId={testId} />
      <div>
        <Typography.Text strong>{t('exchange.response')}</Typography.Text>
        <Monospace testId={`${testId}-response`}>
          {x.responseBody === null
            ? t('exchange.noResponse')
            : x.responseBody === ''
              ? t('exchange.emptyBody')
              : x.responseBody}
        </Monospace>
      </div>
    </Flex>
  );
}
