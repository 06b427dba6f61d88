import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../shared/session/session';

/**
 * EnablePayPassword: while second-level checks take only a second-level password set for the account
 * and this account has none, every page says so, with the way to the profile page that sets it (the
 * second-level dialog would refuse its sign-in password): `profilePath`, the profile page the role may
 * open. Gone once it is set. Test hooks: `pay-password-banner`, `pay-password-set`.
 */
export function PayPasswordBanner({ profilePath }: { profilePath: string | undefined }) {
  const { t } = useTranslation('common');
  const { user } = useSession();
  const navigate = useNavigate();
  if (!user?.payPasswordRequired || user.hasPayPassword) return null;
  return (
    <Alert
      banner
      type="warning"
      role="status"
      data-testid="pay-password-banner"
      showIcon
      title={t('payPassword.required')}
      action={
        profilePath && (
          <Button size="small" onClick={() => navigate(profilePath)} data-testid="pay-password-set">
            {t('payPassword.set')}
          </Button>
        )
      }
    />
  );
}
