import {
  Code,
  codeCatalogue,
  endpoints,
  ORDER_STATE,
  type OrderUploadAnswer,
  type OrderUploadRowResult,
} from '@paydesk/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Space, Table, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/http';
import {
  newUploadKey,
  orderKeys,
  uploadErrorText,
  uploadFileProblem,
  uploadOrders,
  uploadProblemText,
  uploadTemplate,
} from './api';

type Outcome = 'created' | 'existing' | 'allocationFailed' | 'refused';

function outcomeOf(r: OrderUploadRowResult): Outcome {
  if (r.code === Code.allocationFailed || r.state === ORDER_STATE.allocationFailed) return 'allocationFailed';
  if (r.code !== Code.success) return 'refused';
  return r.created ? 'created' : 'existing';
}
const OUTCOME_COLOR: Record<Outcome, string> = {
  created: 'success',
  existing: 'processing',
  allocationFailed: 'warning',
  refused: 'error',
};

/** The per-row results: created, already existing, allocation failed, refused with the reason. */
function UploadResults({ answer }: { answer: OrderUploadAnswer }) {
  const { t, i18n } = useTranslation('orders');
  const message = (r: OrderUploadRowResult) => {
    if (r.code === Code.success) return '';
    const key = `server:code.${r.code}`;
    const label = i18n.exists(key) ? i18n.t(key) : '';
    // The server's own text adds what the label cannot (the field, the allowed range) when it differs.
    const catalogue = codeCatalogue[r.code as keyof typeof codeCatalogue]?.message;
    const detail = r.msg !== catalogue ? r.msg : '';
    return [label, detail].filter(Boolean).join(': ') || r.msg;
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {answer.replayed && (
        <Alert type="info" showIcon title={t('upload.replayed')} data-testid="order-upload-replayed" />
      )}
      <Typography.Text strong data-testid="order-upload-summary">
        {t('upload.summary', answer)}
      </Typography.Text>
      <Table<OrderUploadRowResult>
        data-testid="order-upload-results"
        size="small"
        rowKey="row"
        pagination={answer.results.length > 50 ? { pageSize: 50, showSizeChanger: false } : false}
        dataSource={answer.results}
        scroll={{ x: 'max-content', y: 360 }}
        columns={[
          { title: t('upload.column.row'), dataIndex: 'row', key: 'row', width: 64 },
          { title: t('upload.column.mchOrderNo'), dataIndex: 'mchOrderNo', key: 'mchOrderNo' },
          {
            title: t('upload.column.result'),
            key: 'result',
            render: (_: unknown, r) => {
              const outcome = outcomeOf(r);
              return (
                <Tag color={OUTCOME_COLOR[outcome]} data-testid={`order-upload-result-${r.row}`}>
                  {t(`upload.result.${outcome}`)}
                </Tag>
              );
            },
          },
          { title: t('upload.column.orderCode'), dataIndex: 'orderCode', key: 'orderCode' },
          {
            title: t('upload.column.message'),
            key: 'message',
            render: (_: unknown, r) => <span data-testid={`order-upload-message-${r.row}`}>{message(r)}</span>,
          },
        ]}
      />
    </Space>
  );
}

/**
 * The merchant's "upload orders" button and dialog (spec sections 5, 7, 8), shown when
 * orderUploadFlag allows it: choose a .csv (checked here: name, type, size), download the template,
 * send, then a result per row; the order lists refresh. Choosing a file makes a new upload key, so
 * sending the same choice twice answers the first result and creates nothing twice.
 * Test hooks: `order-upload-open`, `order-upload-template`, `order-upload-file` (the file input's
 * wrapper), `order-upload-send`, `order-upload-error`, `order-upload-summary`, `order-upload-results`,
 * `order-upload-result-<row>`, `order-upload-message-<row>`, `order-upload-replayed`.
 */
export function OrderUploadButton() {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<{ file: File; key: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const flag = useQuery({
    queryKey: orderKeys.uploadFlag,
    queryFn: () => call(endpoints.orders.orderUploadFlag, {}),
    staleTime: 60_000,
  });
  const send = useMutation({
    mutationFn: (c: { file: File; key: string }) => uploadOrders(c.file, c.key),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: orderKeys.lists }),
  });
  const limits = flag.data;
  if (!limits?.allowed) return null;

  const choose = (file: File) => {
    const reason = uploadFileProblem(file, limits.maxBytes);
    send.reset();
    if (reason) {
      setChosen(null);
      setProblem(uploadProblemText(i18n, reason));
    } else {
      setProblem(null);
      setChosen({ file, key: newUploadKey() });
    }
  };
  const close = () => {
    setOpen(false);
    setChosen(null);
    setProblem(null);
    send.reset();
  };
  const failure = send.error ? uploadErrorText(i18n, send.error) : null;
  const template = `data:text/csv;charset=utf-8,${encodeURIComponent(
    uploadTemplate(limits.columns, limits.productIds[0] ?? 1001),
  )}`;

  return (
    <>
      <Button data-testid="order-upload-open" onClick={() => setOpen(true)}>
        {t('upload.button')}
      </Button>
      {open && (
        <Modal
          open
          width={880}
          title={t('upload.title')}
          onCancel={close}
          footer={[
            <Button key="close" onClick={close}>
              {t('upload.close')}
            </Button>,
            <Button
              key="send"
              type="primary"
              data-testid="order-upload-send"
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
              {t('upload.hint', {
                columns: limits.columns.join(', '),
                required: limits.requiredColumns.join(', '),
                maxRows: limits.maxRows,
                maxMb: limits.maxBytes / 1_048_576,
              })}
            </Typography.Paragraph>
            <Space wrap>
              <span data-testid="order-upload-file">
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
              <Typography.Link href={template} download="orders-template.csv" data-testid="order-upload-template">
                {t('upload.template')}
              </Typography.Link>
            </Space>
            {chosen && (
              <Typography.Text data-testid="order-upload-chosen">
                {t('upload.chosen', { name: chosen.file.name })}
              </Typography.Text>
            )}
            {(problem || failure) && (
              <Alert
                type="error"
                showIcon
                data-testid="order-upload-error"
                title={problem ?? failure?.text}
                description={problem ? undefined : failure?.detail}
              />
            )}
            {send.data && <UploadResults answer={send.data} />}
          </Space>
        </Modal>
      )}
    </>
  );
}
