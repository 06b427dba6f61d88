import { endpoints } from '@paydesk/contract';
import { Alert, Form, Input, Modal } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call, configureHttp } from '../../shared/api/http';
import { setToken2 } from '../../shared/api/session-storage';
import { signInErrorText } from './signInError';

interface Pending {
  code: 1024 | 1025;
  resolve(): void;
  reject(error: Error): void;
}

/**
 * The second-level password dialog (spec section 8): opened by the HTTP client on 1024/1025; success
 * stores token2 and lets the client retry; a failure shows 'login failed, ' and the server message.
 */
export function SecondLevelDialog() {
  const { t, i18n } = useTranslation('common');
  const [form] = Form.useForm<{ password: string; logInReason: string }>();
  const [pending, setPending] = useState<Pending | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const waiting = useRef<Pending[]>([]);

  useEffect(() => {
    configureHttp({
      requestToken2: (code) =>
        new Promise<void>((resolve, reject) => {
          // Calls that hit 1024 together share one dialog.
          const entry = { code, resolve, reject };
          waiting.current.push(entry);
          setPending((p) => p ?? entry);
        }),
    });
  }, []);

  const settle = (ok: boolean) => {
    for (const p of waiting.current) ok ? p.resolve() : p.reject(new Error(t('secondLevel.needed')));
    waiting.current = [];
    setPending(null);
    setError(null);
    form.resetFields();
  };

  const submit = async () => {
    const values = await form.validateFields();
    setBusy(true);
    try {
      const granted = await call(endpoints.auth.login2, values);
      setToken2(granted.token2);
      settle(true);
    } catch (e) {
      // Spec section 5: the second-level password is cleared from the form on submit.
      form.setFieldValue('password', '');
      setError(t('secondLevel.failed', { message: signInErrorText(i18n, e as Error, { secondLevel: true }) }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={pending !== null}
      title={t('secondLevel.title')}
      okText={t('action.ok')}
      cancelText={t('action.cancel')}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={() => settle(false)}
      destroyOnHidden
      forceRender
      // Asked for by a call made from inside another dialog (a proposal, a credentials modal): it
      // must open above that dialog, not behind it.
      zIndex={2000}
    >
      <Alert type="warning" showIcon title={t('secondLevel.needed')} className="dialog-alert" />
      <Form form={form} name="secondLevel" layout="vertical" onFinish={() => void submit()}>
        <Form.Item
          name="password"
          label={t('secondLevel.password')}
          rules={[{ required: true, message: t('secondLevel.passwordRequired') }]}
        >
          <Input.Password autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="logInReason"
          label={t('secondLevel.reason')}
          rules={[{ required: true, whitespace: true, message: t('secondLevel.reasonRequired') }]}
        >
          <Input maxLength={200} />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} />}
    </Modal>
  );
}
