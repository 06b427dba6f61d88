import { FileSearchOutlined } from '@ant-design/icons';
import { endpoints, type ImageUpload, type Role } from '@paydesk/contract';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Empty, List, Modal, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { formatMoney } from '../../shared/format/money';
import { formatTime } from '../../shared/format/time';
import { ImagePicker } from '../../shared/forms/ImagePicker';
import { OrderStateTag } from './OrderStateTag';

const PICTURE_ROLES = endpoints.orders.pictureQuery.access as readonly string[];

/** Whether the order list offers "find by picture": AllowPictureQueryOrder is on (getInfo) and the role may use it. */
export const pictureQueryOffered = (enabled: boolean | undefined, role: Role | undefined) =>
  Boolean(enabled && role && PICTURE_ROLES.includes(role));

/**
 * "Find by picture" on the staff order list (AllowPictureQueryOrder): pick a picture of the payer's
 * receipt (the common image rule, checked before sending), send it, and see what the server read (UTR
 * candidates, amounts, the text) and the orders it points to; an order's code opens its detail
 * (`onOpen`). Test hooks: `picture-query-open`, `picture-query-file`, `picture-query-send`,
 * `picture-query-error`, `picture-query-utrs`, `picture-query-amounts`, `picture-query-orders`,
 * `picture-query-order-<orderCode>`.
 */
export function PictureQueryButton({ onOpen }: { onOpen: (orderCode: string) => void }) {
  const { t, i18n } = useTranslation('orders');
  const [open, setOpen] = useState(false);
  const [picture, setPicture] = useState<ImageUpload | undefined>(undefined);
  const send = useMutation({
    mutationFn: (receipt: ImageUpload) => call(endpoints.orders.pictureQuery, { receipt }),
  });
  const close = () => {
    setOpen(false);
    setPicture(undefined);
    send.reset();
  };
  const answer = send.data;

  return (
    <>
      <Button icon={<FileSearchOutlined />} data-testid="picture-query-open" onClick={() => setOpen(true)}>
        {t('picture.button')}
      </Button>
      {open && (
        <Modal
          open
          width={720}
          title={t('picture.title')}
          onCancel={close}
          footer={[
            <Button key="close" onClick={close}>
              {t('picture.close')}
            </Button>,
            <Button
              key="send"
              type="primary"
              data-testid="picture-query-send"
              disabled={!picture}
              loading={send.isPending}
              onClick={() => picture && send.mutate(picture)}
            >
              {t('picture.send')}
            </Button>,
          ]}
        >
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
              {t('picture.hint')}
            </Typography.Paragraph>
            <ImagePicker
              value={picture}
              onChange={(next) => {
                setPicture(next);
                send.reset();
              }}
              chooseText={t('picture.choose')}
              removeText={t('picture.remove')}
              alt={t('picture.previewAlt')}
              testId="picture-query-file"
              disabled={send.isPending}
            />
            {send.error && (
              <Alert type="error" showIcon title={errorText(i18n, send.error)} data-testid="picture-query-error" />
            )}
            {answer && (
              <>
                <Descriptions size="small" column={1} bordered>
                  <Descriptions.Item label={t('picture.utrs')}>
                    <span data-testid="picture-query-utrs">
                      {answer.utrs.length ? answer.utrs.map((u) => <Tag key={u}>{u}</Tag>) : t('picture.noneRead')}
                    </span>
                  </Descriptions.Item>
                  <Descriptions.Item label={t('picture.amounts')}>
                    <span data-testid="picture-query-amounts">
                      {answer.amounts.length
                        ? answer.amounts.map((a) => <Tag key={a}>{formatMoney(a)}</Tag>)
                        : t('picture.noneRead')}
                    </span>
                  </Descriptions.Item>
                </Descriptions>
                <details>
                  <summary>{t('picture.text')}</summary>
                  <pre style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', maxHeight: 160, overflow: 'auto' }}>
                    {answer.text}
                  </pre>
                </details>
                <Typography.Text strong>{t(`picture.matchedBy.${answer.matchedBy}`)}</Typography.Text>
                {answer.orders.length === 0 ? (
                  <Empty description={t('picture.noOrders')} />
                ) : (
                  <List
                    data-testid="picture-query-orders"
                    size="small"
                    dataSource={answer.orders}
                    renderItem={(o) => (
                      <List.Item>
                        <Space wrap size={[8, 4]}>
                          <Button
                            type="link"
                            size="small"
                            style={{ paddingInline: 0 }}
                            data-testid={`picture-query-order-${o.orderCode}`}
                            aria-label={t('picture.openOrder', { orderCode: o.orderCode })}
                            onClick={() => {
                              onOpen(o.orderCode);
                              close();
                            }}
                          >
                            {o.orderCode}
                          </Button>
                          <OrderStateTag state={o.state} locked={o.locked} />
                          <span>{formatMoney(o.amount)}</span>
                          <span>{o.merchantName}</span>
                          {(o.payerUtr ?? o.utr) && <span>UTR {o.payerUtr ?? o.utr}</span>}
                          <Typography.Text type="secondary">{formatTime(o.createdAt)}</Typography.Text>
                        </Space>
                      </List.Item>
                    )}
                  />
                )}
              </>
            )}
          </Space>
        </Modal>
      )}
    </>
  );
}
