import { endpoints, MAX_IP_WHITELIST, type MerchantRow, SIGN_TYPES, type SignType } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Input, Modal, Radio, Select, Switch } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../shared/api/http';
import { NewAccountFields } from '../../shared/forms/AccountFields';
import { isTooWide, looksLikeIpOrCidr, merchantKeys, whitelistEntries } from '../../shared/merchants/api';

export interface MerchantFormValues {
  mode: 'newAccount' | 'linkAccount';
  name: string;
  account?: string;
  nickname?: string;
  password?: string;
  userId?: number;
  signType: SignType;
  ipWhitelistText?: string;
  notifyUrl?: string;
  callbackEnabled: boolean;
  remark?: string;
}

function isHttpUrl(v: string): boolean {
  try {
    const url = new URL(v);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Create (no row: both account modes) or edit (a row) a merchant, with the spec's validation texts.
 * `autoCreateOff`: the server refused a new account, so only linking is offered. Test hooks:
 * `merchant-form` and `merchant-form-<field>` (mode, name, account, nickname, password, userId,
 * signType, ipWhitelist, notifyUrl, callbackEnabled, remark).
 */
export function MerchantFormModal(props: {
  row: MerchantRow | null;
  pending: boolean;
  autoCreateOff: boolean;
  onSubmit(values: MerchantFormValues): void;
  onClose(): void;
}) {
  const { t } = useTranslation(['merchants', 'common']);
  const [form] = Form.useForm<MerchantFormValues>();
  const editing = props.row !== null;
  const mode = Form.useWatch('mode', form) ?? (props.autoCreateOff ? 'linkAccount' : 'newAccount');
  const unused = useQuery({
    queryKey: merchantKeys.unusedAccounts,
    queryFn: () => call(endpoints.users.getUnusedUserOptions, { role: 'merchant' }),
    enabled: !editing && mode === 'linkAccount',
  });
  // The server refused a new account (AutoCreateRelateMerchant off): switch the open form to linking.
  useEffect(() => {
    if (props.autoCreateOff && !editing) form.setFieldValue('mode', 'linkAccount');
  }, [props.autoCreateOff, editing, form]);
  const row = props.row;
  return (
    <Modal
      open
      title={row ? t('form.editTitle', { name: row.name }) : t('form.createTitle')}
      okText={t('common:action.save')}
      cancelText={t('common:action.cancel')}
      okButtonProps={{ 'data-testid': 'merchant-form-submit' } as Record<`data-${string}`, string>}
      confirmLoading={props.pending}
      onOk={() => form.submit()}
      onCancel={props.onClose}
      width={560}
    >
      <Form<MerchantFormValues>
        form={form}
        layout="vertical"
        data-testid="merchant-form"
        initialValues={
          row
            ? {
                mode: 'linkAccount',
                name: row.name,
                signType: row.signType,
                ipWhitelistText: row.ipWhitelist.join('\n'),
                notifyUrl: row.notifyUrl ?? '',
                callbackEnabled: row.callbackEnabled,
                remark: row.remark,
              }
            : {
                mode: props.autoCreateOff ? 'linkAccount' : 'newAccount',
                signType: 'HMAC-SHA256',
                callbackEnabled: true,
              }
        }
        onFinish={(values) => props.onSubmit({ ...values, mode: values.mode ?? mode })}
      >
        {!editing && (
          <>
            {props.autoCreateOff && (
              <Alert type="info" showIcon message={t('form.autoCreateOff')} style={{ marginBottom: 16 }} />
            )}
            <Form.Item name="mode" label={t('form.mode')}>
              <Radio.Group data-testid="merchant-form-mode">
                <Radio value="newAccount" disabled={props.autoCreateOff} data-testid="merchant-form-mode-new">
                  {t('form.newAccount')}
                </Radio>
                <Radio value="linkAccount" data-testid="merchant-form-mode-link">
                  {t('form.linkAccount')}
                </Radio>
              </Radio.Group>
            </Form.Item>
          </>
        )}
        <Form.Item
          name="name"
          label={t('form.name')}
          rules={[
            { required: true, whitespace: true, message: t('rule.nameRequired') },
            { max: 64, message: t('rule.nameRequired') },
          ]}
        >
          <Input autoComplete="off" data-testid="merchant-form-name" />
        </Form.Item>
        {!editing && mode === 'newAccount' && (
          <NewAccountFields
            testIdPrefix="merchant-form"
            texts={{
              account: t('form.account'),
              accountRequired: t('rule.accountRequired'),
              nickname: t('form.nickname'),
              nicknameHint: t('form.nicknameHint'),
              password: t('form.password'),
            }}
          />
        )}
        {!editing && mode === 'linkAccount' && (
          <Form.Item
            name="userId"
            label={t('form.userId')}
            rules={[{ required: true, message: t('rule.userIdRequired') }]}
          >
            <Select
              data-testid="merchant-form-userId"
              placeholder={t('form.userIdPlaceholder')}
              loading={unused.isLoading}
              showSearch
              optionFilterProp="label"
              options={(unused.data ?? []).map((u) => ({ value: u.id, label: `${u.account} (${u.nickname})` }))}
            />
          </Form.Item>
        )}
        <Form.Item name="signType" label={t('form.signType')}>
          <Select
            data-testid="merchant-form-signType"
            options={SIGN_TYPES.map((s) => ({
              value: s,
              label: s === 'HMAC-SHA256' ? t('form.signTypeDefault') : t('form.signTypeLegacy'),
            }))}
          />
        </Form.Item>
        <Form.Item
          name="ipWhitelistText"
          label={t('form.ipWhitelist')}
          extra={t('form.ipWhitelistHint')}
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const entries = whitelistEntries(value);
                if (entries.length > MAX_IP_WHITELIST) throw new Error(t('rule.ipTooMany'));
                const bad = entries.find((e) => !looksLikeIpOrCidr(e));
                if (bad) throw new Error(t('rule.ipInvalid', { entry: bad }));
                const wide = entries.find(isTooWide);
                if (wide) throw new Error(t('rule.ipTooWide', { entry: wide }));
              },
            },
          ]}
        >
          <Input.TextArea rows={3} data-testid="merchant-form-ipWhitelist" />
        </Form.Item>
        <Form.Item
          name="notifyUrl"
          label={t('form.notifyUrl')}
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const v = (value ?? '').trim();
                if (v !== '' && (v.length > 512 || !isHttpUrl(v))) throw new Error(t('rule.notifyUrl'));
              },
            },
          ]}
        >
          <Input autoComplete="off" data-testid="merchant-form-notifyUrl" />
        </Form.Item>
        <Form.Item name="callbackEnabled" label={t('form.callbackEnabled')} valuePropName="checked">
          <Switch data-testid="merchant-form-callbackEnabled" />
        </Form.Item>
        <Form.Item name="remark" label={t('form.remark')}>
          <Input.TextArea rows={2} maxLength={256} data-testid="merchant-form-remark" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
