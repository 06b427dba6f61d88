import { endpoints, ROLES, type Role } from '@paydesk/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { messageKeys, useRecipientOptions } from './api';

interface SendForm {
  title: string;
  content: string;
  roles?: Role[];
  userIds?: number[];
}

/**
 * Staff broadcast (superAdmin, admin, customerService): a title and a content to every live account of
 * the chosen roles and to the chosen accounts. The account list is fetched only once the modal opens.
 */
export function SendMessageModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t, i18n } = useTranslation(['messages', 'common']);
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<SendForm>();
  const options = useRecipientOptions(open);
  const send = useMutation({
    mutationFn: (v: SendForm) =>
      call(endpoints.messages.send, {
        title: v.title.trim(),
        content: v.content.trim(),
        ...(v.roles?.length ? { roles: v.roles } : {}),
        ...(v.userIds?.length ? { userIds: v.userIds } : {}),
      }),
    onSuccess: (sent) => {
      void message.success(t('send.sent', { count: sent.recipients }));
      // The sender may be one of the recipients.
      void queryClient.invalidateQueries({ queryKey: messageKeys.all });
      form.resetFields();
      onClose();
    },
    onError: (e) => void message.error(errorText(i18n, e)),
  });

  const atLeastOneRecipient = () => ({
    validator: () => {
      const { roles, userIds } = form.getFieldsValue(['roles', 'userIds']) as SendForm;
      return (roles?.length ?? 0) > 0 || (userIds?.length ?? 0) > 0
        ? Promise.resolve()
        : Promise.reject(new Error(t('send.recipientRequired')));
    },
  });

  return (
    <Modal
      open={open}
      title={t('send.title')}
      okText={t('send.submit')}
      cancelText={t('common:action.cancel')}
      confirmLoading={send.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'message-send-submit' }}
      destroyOnHidden
    >
      <Form<SendForm> form={form} name="sendMessage" layout="vertical" onFinish={(v) => send.mutate(v)}>
        <Form.Item
          name="title"
          label={t('send.messageTitle')}
          rules={[{ required: true, whitespace: true, message: t('send.titleRequired') }]}
        >
          <Input maxLength={100} showCount data-testid="message-send-title" />
        </Form.Item>
        <Form.Item
          name="content"
          label={t('send.content')}
          rules={[{ required: true, whitespace: true, message: t('send.contentRequired') }]}
        >
          <Input.TextArea rows={5} maxLength={5000} showCount data-testid="message-send-content" />
        </Form.Item>
        <Form.Item name="roles" label={t('send.roles')} dependencies={['userIds']} rules={[atLeastOneRecipient]}>
          <Select<Role[]>
            mode="multiple"
            allowClear
            data-testid="message-send-roles"
            placeholder={t('send.rolesHint')}
            options={ROLES.map((r) => ({ value: r, label: t(`common:role.${r}`) }))}
          />
        </Form.Item>
        <Form.Item name="userIds" label={t('send.accounts')} dependencies={['roles']} rules={[atLeastOneRecipient]}>
          <Select<number[]>
            mode="multiple"
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            data-testid="message-send-accounts"
            placeholder={t('send.accountsHint')}
            loading={options.isFetching}
            options={(options.data ?? [])
              .filter((o) => !o.deleted)
              .map((o) => ({
                value: o.id,
                label: `${o.account} (${o.nickname}) · ${t(`common:role.${o.role}`)}`,
              }))}
          />
        </Form.Item>
        {options.isError && (
          <Alert
            type="warning"
            showIcon
            title={t('send.accountsFailed', { message: errorText(i18n, options.error) })}
          />
        )}
      </Form>
    </Modal>
  );
}
