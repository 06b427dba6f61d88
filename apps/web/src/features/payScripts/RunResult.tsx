import type { PayScriptFetch } from '@paydesk/contract';
import { Alert, Descriptions, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** What one run gave: the outcome, its duration, the result or the error, the outbound calls and the log. */
export interface RunData {
  version: number;
  ok: boolean;
  output: unknown;
  error: string | null;
  durationMs: number;
  fetches: PayScriptFetch[];
  logs: string[];
  /** A record's input (a test run's answer has none: the user just typed it). */
  input?: unknown;
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** Monospace, wrapping long lines (a URL, a one-line body), scrolling past a screen's height. */
export const CODE_STYLE = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  fontSize: 12,
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-all',
  maxHeight: 320,
  overflow: 'auto',
  margin: 0,
  padding: 8,
  background: 'rgba(0, 0, 0, 0.04)',
  borderRadius: 6,
} as const;

/** JSON or text, monospace, scrolling inside its own named, focusable region. */
export function Code(props: { label: string; text: string; testId?: string }) {
  const { fontFamily, fontSize, whiteSpace, wordBreak, ...box } = CODE_STYLE;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard
    <section tabIndex={0} aria-label={props.label} style={box}>
      <pre style={{ fontFamily, fontSize, whiteSpace, wordBreak, margin: 0 }} data-testid={props.testId}>
        {props.text}
      </pre>
    </section>
  );
}

export function OutcomeTag(props: { ok: boolean; testId?: string }) {
  const { t } = useTranslation('payScripts');
  return (
    <Tag color={props.ok ? 'success' : 'error'} data-testid={props.testId}>
      {props.ok ? t('result.ok') : t('result.error')}
    </Tag>
  );
}

/**
 * A run as the test-run dialog and the call record show it. Test hooks: `<testId>-outcome`,
 * `<testId>-duration`, `<testId>-error`, `<testId>-output`, `<testId>-input`, `<testId>-fetches`,
 * `<testId>-logs`.
 */
export function RunResult(props: { run: RunData; testId: string }) {
  const { t } = useTranslation('payScripts');
  const { run, testId } = props;
  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid={testId}>
      <Space wrap>
        <OutcomeTag ok={run.ok} testId={`${testId}-outcome`} />
        <Typography.Text data-testid={`${testId}-duration`}>
          {t('result.duration', { ms: run.durationMs })}
        </Typography.Text>
        <Typography.Text type="secondary">{t('result.version', { version: run.version })}</Typography.Text>
      </Space>
      {run.error && (
        <Alert
          type="error"
          showIcon
          message={t('result.errorTitle')}
          description={<span data-testid={`${testId}-error`}>{run.error}</span>}
        />
      )}
      {run.input !== undefined && (
        <>
          <Typography.Text strong>{t('result.input')}</Typography.Text>
          <Code label={t('result.input')} text={json(run.input)} testId={`${testId}-input`} />
        </>
      )}
      {run.output !== null && run.output !== undefined && (
        <>
          <Typography.Text strong>{t('result.output')}</Typography.Text>
          <Code label={t('result.output')} text={json(run.output)} testId={`${testId}-output`} />
        </>
      )}
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('result.fetches')}>
          <div data-testid={`${testId}-fetches`}>
            {run.fetches.length === 0
              ? t('result.noFetches')
              : run.fetches.map((f, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a run's calls are listed once, in order
                  <div key={i}>
                    <Typography.Text code>{f.method}</Typography.Text>{' '}
                    <span style={{ wordBreak: 'break-all' }}>{f.url}</span> {f.status !== null && <Tag>{f.status}</Tag>}
                    {t('result.duration', { ms: f.durationMs })}
                    {f.error && <Typography.Text type="danger"> {f.error}</Typography.Text>}
                  </div>
                ))}
          </div>
        </Descriptions.Item>
      </Descriptions>
      {run.logs.length > 0 && (
        <>
          <Typography.Text strong>{t('result.logs')}</Typography.Text>
          <Code label={t('result.logs')} text={run.logs.join('\n')} testId={`${testId}-logs`} />
        </>
      )}
    </Space>
  );
}
