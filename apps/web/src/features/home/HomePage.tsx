import { endpoints, isStaff } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, List, Row, Skeleton, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorText } from '../../shared/api/errorText';
import { call } from '../../shared/api/http';
import { formatMoney } from '../../shared/format/money';
import { formatTime } from '../../shared/format/time';
import { fundKeys } from '../../shared/funds/api';
import { MerchantCredentialsCard } from '../../shared/merchants/MerchantCredentialsCard';
import { templateText } from '../../shared/notes/noteText';
import { useSession } from '../../shared/session/session';
import { HomeFigures } from './HomeFigures';
import { WaitingWork } from './WaitingWork';

/**
 * The caller's balances (getTotalBalance): a merchant's or supplier's own; staff see the platform totals
 * over every merchant and supplier, and the platform revenue. Test hooks: `home-balance`,
 * `home-frozen-balance`, `home-revenue`.
 */
function BalanceCards() {
  const { t, i18n } = useTranslation(['home', 'common']);
  const totals = useQuery({
    queryKey: fundKeys.totalBalance,
    queryFn: () => call(endpoints.funds.getTotalBalance, {}),
  });
  if (totals.isPending) return <Skeleton active paragraph={{ rows: 1 }} />;
  if (totals.isError) {
    return (
      <Alert type="error" showIcon title={t('common:list.loadFailed', { message: errorText(i18n, totals.error) })} />
    );
  }
  const data = totals.data;
  const platform = data.kind === 'platform';
  const money = (v: number | null) => formatMoney(v, i18n.language);
  return (
    <Row gutter={16} className="home-balances">
      <Col xs={24} md={8}>
        <Card>
          <div data-testid="home-balance">
            <Statistic
              title={platform ? t('balance.platformBalance') : t('balance.balance')}
              value={money(data.balance)}
            />
          </div>
        </Card>
      </Col>
      <Col xs={24} md={8}>
        <Card>
          <div data-testid="home-frozen-balance">
            <Statistic
              title={platform ? t('balance.platformFrozen') : t('balance.frozenBalance')}
              value={money(data.frozenBalance)}
            />
          </div>
        </Card>
      </Col>
      {platform && (
        <Col xs={24} md={8}>
          <Card>
            <div data-testid="home-revenue">
              <Statistic title={t('balance.revenue')} value={money(data.revenue)} />
            </div>
          </Card>
        </Col>
      )}
    </Row>
  );
}

/**
 * Home for every role: who is signed in, the support contact for merchants and suppliers (the global
 * setting ContactInfo, when set), the balances, the work waiting for this user, today's, yesterday's and
 * the last 7 days' figures with their trend, and the unread messages.
 */
export default function HomePage() {
  const { t, i18n } = useTranslation(['home', 'common']);
  const { user } = useSession();
  const navigate = useNavigate();
  const inbox = useQuery({ queryKey: ['messages', 'init'], queryFn: () => call(endpoints.messages.init) });
  if (!user) return null;
  return (
    <div className="page home-page">
      <Card title={t('welcome', { name: user.name })}>
        <Descriptions column={2}>
          <Descriptions.Item label={t('account')}>{user.account}</Descriptions.Item>
          <Descriptions.Item label={t('role')}>{t(`common:role.${user.access}`)}</Descriptions.Item>
        </Descriptions>
      </Card>
      {!isStaff(user.access) && user.contactInfo.trim() !== '' && (
        <Card title={t('common:contact.title')} size="small">
          <div className="contact-info" data-testid="home-contact">
            {user.contactInfo}
          </div>
        </Card>
      )}
      <BalanceCards />
      <WaitingWork />
      <HomeFigures />
      {user.access === 'merchant' && <MerchantCredentialsCard />}
      <Card
        title={t('unread')}
        extra={<Button onClick={() => navigate('/message_page')}>{t('openInbox')}</Button>}
        className="home-unread"
      >
        {inbox.isPending && <Skeleton active />}
        {inbox.isError && (
          <Alert type="error" showIcon title={t('common:list.loadFailed', { message: errorText(i18n, inbox.error) })} />
        )}
        {inbox.data && (
          <List
            data-testid="home-unread"
            dataSource={inbox.data.unread}
            // A List draws its empty text in the disabled grey (1.8:1): secondary text reads at 7:1.
            locale={{ emptyText: <Typography.Text type="secondary">{t('noUnread')}</Typography.Text> }}
            renderItem={(m) => (
              <List.Item onClick={() => navigate(`/message_page?msg=${m.msg_id}`)} className="clickable">
                <List.Item.Meta
                  title={templateText(i18n, m.title_template, m.title, m.title_texts)}
                  description={formatTime(m.create_time)}
                />
              </List.Item>
            )}
          />
        )}
      </Card>
    </div>
  );
}
