import { ACCOUNT_PATTERN } from '@paydesk/contract';
import { Form, Input } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Spec section 5: a password contains both digits and letters (the server also wants 8+). */
export const PASSWORD_PATTERN = /^(?=.*[A-Za-z])(?=.*\d).+$/;

/**
 * The sign-in account of a console account: required, digits and English letters, at most 32.
 * Test hook `<testIdPrefix>-account`. The label and the empty-field text are the caller's.
 */
export function AccountItem(props: {
  testIdPrefix: string;
  label: ReactNode;
  requiredMessage: string;
  /** The form field; `account` unless told. */
  name?: string;
}) {
  const { t } = useTranslation('common');
  return (
    <Form.Item
      name={props.name ?? 'account'}
      label={props.label}
      rules={[
        { required: true, whitespace: true, message: props.requiredMessage },
        { pattern: ACCOUNT_PATTERN, message: t('accountForm.accountCharset') },
        { max: 32, message: t('accountForm.accountLength') },
      ]}
    >
      <Input autoComplete="off" data-testid={`${props.testIdPrefix}-account`} />
    </Form.Item>
  );
}

/**
 * The sign-in password of a console account: digits and letters, at least 8; required unless told.
 * Test hook `<testIdPrefix>-password`.
 */
export function PasswordItem(props: {
  testIdPrefix: string;
  label: ReactNode;
  extra?: ReactNode;
  /** Whether it must be given (an edit may leave it empty); true unless told. */
  required?: boolean;
}) {
  const { t } = useTranslation('common');
  return (
    <Form.Item
      name="password"
      label={props.label}
      extra={props.extra}
      rules={[
        { required: props.required ?? true, message: t('accountForm.passwordStrength') },
        { pattern: PASSWORD_PATTERN, message: t('accountForm.passwordStrength') },
        { min: 8, message: t('accountForm.passwordLength') },
      ]}
    >
      <Input.Password autoComplete="new-password" data-testid={`${props.testIdPrefix}-password`} />
    </Form.Item>
  );
}

/**
 * A new sign-in account of a party (merchant, supplier): account, an optional nickname (the hint says
 * what an empty one means), password. Test hooks `<testIdPrefix>-account|nickname|password`.
 */
export function NewAccountFields(props: {
  testIdPrefix: string;
  texts: { account: string; accountRequired: string; nickname: string; nicknameHint: string; password: string };
}) {
  const { testIdPrefix, texts } = props;
  return (
    <>
      <AccountItem testIdPrefix={testIdPrefix} label={texts.account} requiredMessage={texts.accountRequired} />
      <Form.Item name="nickname" label={texts.nickname} extra={texts.nicknameHint}>
        <Input autoComplete="off" maxLength={64} data-testid={`${testIdPrefix}-nickname`} />
      </Form.Item>
      <PasswordItem testIdPrefix={testIdPrefix} label={texts.password} />
    </>
  );
}
