import {
  Code,
  codeCatalogue,
  endpoints,
  ORDER_STATE,
  type OrderUploadAnswer,
  type OrderUploadRowResult,
  type OrderUploadType,
} from '@paydesk/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Modal, Space, Table, Tag, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, ensureToken2 } from '../api/http';
import {
  newUploadKey,
  UPLOAD_FLAG_KEY,
  uploadErrorText,
  uploadFileProblem,
  uploadOrders,
  uploadProblemText,
  uploadTemplate,
} from './upload';

type Outcome = 'created' | 'existing' | 'allocationFailed' | 'refused';

function outcomeOf(orderType: OrderUploadType, r: OrderUploadRowResult): Outcome {
  // Only a collection order can be made and left unallocated (a payout's state 5 is 'rejecting').
  const unallocated = r.code === Code.allocationFailed || r.state === ORDER_STATE.allocationFailed;
  if (orderType === 'collection' && unallocated) return 'allocationFailed';
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
function UploadResults({
  answer,
  testId,
  rowText,
}: {
  answer: OrderUploadAnswer;
  testId: string;
  rowText: (english: string) => string;
}) {
  const { t, i18n } = useTranslation('orders');
  const message = (r: OrderUploadRowResult) => {
    if (r.code === Code.success) return '';
    const key = `server:code.${r.code}`;
    const label = i18n.exists(key) ? i18n.t(key) : '';
    // The server's own text adds what the label cannot (the field, the allowed range) when it differs.
    const catalogue = codeCatalogue[r.code as keyof typeof codeCatalogue]?.message;
    const detail = r.msg !== catalogue ? rowText(r.msg) : '';
    return [label, detail].filter(Boolean).join(': ') || r.msg;
  };
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {answer.replayed && (
        <Alert type="info" showIcon title={t('upload.replayed')} data-testid={`${testId}-replayed`} />
      )}
      <Typography.Text strong data-testid={`${testId}-summary`}>
        {t('upload.summary', answer)}
      </Typography.Text>
      <Table<OrderUploadRowResult>
        data-testid={`${testId}-results`}
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
              const outcome = outcomeOf(answer.orderType, r);
              return (
                <Tag color={OUTCOME_COLOR[outcome]} data-testid={`${testId}-result-${r.row}`}>
                  {t(`upload.result.${outcome}`)}
                </Tag>
              );
            },
          },
          { title: t('upload.column.orderCode'), dataIndex: 'orderCode', key: 'orderCode' },
          {
            title: t('upload.column.message'),
            key: 'message',
            render: (_: unknown, r) => <span data-testid={`${testId}-message-${r.row}`}>{message(r)}</span>,
          },
        ]}
      />
    </Space>
  );
}

const leaveAsIs = (english: string) => english;

/**
 * The merchant's upload button and dialog (spec sections 5, 7, 8) for collection orders (on the order
 * list) or payouts (on the payout list), shown when orderUploadFlag opens that type: choose a .csv
 * (checked here: name, type, size), download the template of the type's columns, send, then a result
 * per row; `onDone` refreshes the page's list. Choosing a file makes a new upload key, so sending the
 * same choice twice answers the first result and creates nothing twice. A payout upload asks for the
 * second-level password first (it holds the merchant's funds, as the payout form does).
 * Texts in the `orders` namespace (`upload.*`, a type's own under `upload.<key>.<orderType>`);
 * `rowText` translates the contract's English field texts of refused rows (the payout page's own).
 * Test hooks, prefixed `order-upload` (collection) or `payout-upload` (payout): `-open`, `-template`,
 * `-file` (the file input's wrapper), `-chosen`, `-send`, `-error`, `-summary`, `-results`,
 * `-result-<row>`, `-message-<row>`, `-replayed`.
 */
export function OrderUploadButton({
  orderType,
  onDone,
  rowText = leaveAsIs,
}: {
  orderType: OrderUploadType;
  onDone: () => unknown;
  rowText?: (english: string) => string;
}) {
  const { t, i18n } = useTranslation(['orders', 'common']);
  const testId = orderType === 'payout' ? 'payout-upload' : 'order-upload';
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<{ file: File; key: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const flag = useQuery({
    queryKey: UPLOAD_FLAG_KEY,
    queryFn: () => call(endpoints.orders.orderUploadFlag, {}),
    staleTime: 60_000,
  });
  const send = useMutation({
    mutationFn: async (c: { file: File; key: string }) => {
      if (orderType === 'payout') await ensureToken2();
      return uploadOrders(c.file, c.key, orderType);
    },
    onSuccess: () => onDone(),
  });
  const limits = flag.data;
  const type = limits?.types[orderType];
  if (!limits || !type?.allowed) return null;

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
    uploadTemplate(orderType, type.columns, type.productIds[0] ?? (orderType === 'payout' ? 2001 : 1001)),
  )}`;

  return (
    <>
      <Button data-testid={`${testId}-open`} onClick={() => setOpen(true)}>
        {t(`upload.button.${orderType}`)}
      </Button>
      {open && (
        <Modal
          open
          width={880}
          title={t(`upload.title.${orderType}`)}
          onCancel={close}
          footer={[
            <Button key="close" onClick={close}>
              {t('upload.close')}
            </Button>,
            <Button
              key="send"
              type="primary"
              data-testid={`${testId}-send`}
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
              {t(`upload.hint.${orderType}`, {
                columns: type.columns.join(', '),
                required: type.requiredColumns.join(', '),
                maxRows: limits.maxRows,
                maxMb: limits.maxBytes / 1_048_576,
              })}
            </Typography.Paragraph>
            <Space wrap>
              <span data-testid={`${testId}-file`}>
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
              <Typography.Link
                href={template}
                download={orderType === 'payout' ? 'payouts-template.csv' : 'orders-template.csv'}
                data-testid={`${testId}-template`}
              >
                {t('upload.template')}
              </Typography.Link>
            </Space>
            {chosen && (
              <Typography.Text data-testid={`${testId}-chosen`}>
                {t('upload.chosen', { name: chosen.file.name })}
              </Typography.Text>
            )}
            {(problem || failure) && (
              <Alert
                type="error"
                showIcon
                data-testid={`${testId}-error`}
                title={problem ?? failure?.text}
                description={problem ? undefined : failure?.detail}
              />
            )}
            {send.data && <UploadResults answer={send.data} testId={testId} rowText={rowText} />}
          </Space>
        </Modal>
      )}
    </>
  );
}
