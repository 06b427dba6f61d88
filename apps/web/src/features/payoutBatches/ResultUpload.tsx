import {
  BANK_RESULT_MAX_BYTES,
  BANK_RESULT_MAX_ROWS,
  type EndpointOutput,
  type endpoints,
  type PayoutBatchRow,
  type PayoutBatchRowResult,
} from '@paydesk/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Modal, Space, Table, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import type { RowActionPanelProps } from '../../shared/list/rowActions';
import { resultFileProblem, rowErrorText, uploadResultFile } from './api';

type ResultAnswer = EndpointOutput<typeof endpoints.payoutBatches.uploadResult>;
const OUTCOME_COLOR: Record<PayoutBatchRowResult['outcome'], string> = {
  completed: 'success',
  failed: 'warning',
  refused: 'error',
};

/** What the bank's file did, row by row: completed, failed, or not applied with why. */
function ResultRows({ answer }: { answer: ResultAnswer }) {
  const { t, i18n } = useTranslation('payoutBatches');
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Typography.Text strong data-testid="batch-upload-summary">
        {t('upload.summary', answer)}
      </Typography.Text>
      <Table<PayoutBatchRowResult>
        data-testid="batch-upload-results"
        size="small"
        rowKey="line"
        pagination={answer.results.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
        dataSource={answer.results}
        scroll={{ x: 'max-content', y: 360 }}
        columns={[
          { title: t('upload.column.line'), dataIndex: 'line', key: 'line', width: 64 },
          { title: t('upload.column.payoutCode'), dataIndex: 'payoutCode', key: 'payoutCode' },
          {
            title: t('upload.column.result'),
            dataIndex: 'outcome',
            key: 'outcome',
            render: (outcome: PayoutBatchRowResult['outcome'], r) => (
              <Tag color={OUTCOME_COLOR[outcome]} data-testid={`batch-upload-result-${r.line}`}>
                {t(`upload.outcome.${outcome}`)}
              </Tag>
            ),
          },
          { title: t('upload.column.utr'), dataIndex: 'utr', key: 'utr' },
          {
            title: t('upload.column.message'),
            key: 'message',
            render: (_: unknown, r) => (
              <span data-testid={`batch-upload-message-${r.line}`}>{rowErrorText(i18n, r)}</span>
            ),
          },
        ]}
      />
    </Space>
  );
}

/**
 * Uploading the bank's result file of an exported batch (spec sections 2 and 8): choose a .csv
 * (checked here as the server checks it: 'CSV uploads must be CSV files'), send it, then a result per
 * row; the list reloads after a file was read. A refusal of the whole file (file type, parsing, a
 * template without results) says why in the reader's language.
 * Test hooks: `batch-upload`, `batch-upload-file` (the file input's wrapper), `batch-upload-chosen`,
 * `batch-upload-send`, `batch-upload-error`, `batch-upload-summary`, `batch-upload-results`,
 * `batch-upload-result-<line>`, `batch-upload-message-<line>`.
 */
export function ResultUploadPanel({ row, onClose, onDone }: RowActionPanelProps<PayoutBatchRow>) {
  const { t, i18n } = useTranslation(['payoutBatches', 'common']);
  const [chosen, setChosen] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: (file: File) => uploadResultFile(row.id, file),
    onSuccess: () => onDone(),
  });

  const choose = (file: File) => {
    const reason = resultFileProblem(file);
    send.reset();
    setChosen(reason ? null : file);
    setProblem(reason ? t(`server:reason.${reason}`) : null);
  };
  const failure = send.error ? errorText(i18n, send.error) : null;

  return (
    <Modal
      open
      width={880}
      title={t('upload.title', { id: row.id })}
      onCancel={onClose}
      data-testid="batch-upload"
      footer={[
        <Button key="close" onClick={onClose}>
          {t('upload.close')}
        </Button>,
        <Button
          key="send"
          type="primary"
          data-testid="batch-upload-send"
          disabled={!chosen || send.isSuccess}
          loading={send.isPending}
          onClick={() => chosen && send.mutate(chosen)}
        >
          {t('upload.send')}
        </Button>,
      ]}
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('upload.hint', { maxMb: BANK_RESULT_MAX_BYTES / 1_048_576, maxRows: BANK_RESULT_MAX_ROWS })}
        </Typography.Paragraph>
        <span data-testid="batch-upload-file">
          {/* No `accept` filter: antd would drop another type silently; the user is told why instead. */}
          <Upload
            showUploadList={false}
            beforeUpload={(file) => {
              choose(file);
              return false;
            }}
          >
            <Button>{t('upload.choose')}</Button>
          </Upload>
        </span>
        {chosen && (
          <Typography.Text data-testid="batch-upload-chosen">
            {t('upload.chosen', { name: chosen.name })}
          </Typography.Text>
        )}
        {(problem || failure) && (
          <Alert type="error" showIcon data-testid="batch-upload-error" title={problem ?? failure} />
        )}
        {send.data && <ResultRows answer={send.data} />}
      </Space>
    </Modal>
  );
}
