import {
  BellOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  UserOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { endpoints, isStaff, menuRoutesFor, type RouteDef, routeByPath } from '@paydesk/contract';
import { useQuery } from '@tanstack/react-query';
import {
  App,
  Badge,
  Breadcrumb,
  Button,
  Drawer,
  Dropdown,
  FloatButton,
  Layout,
  Menu,
  type MenuProps,
  Space,
  Tooltip,
} from 'antd';
import { Suspense, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { NewOrderNotifier } from '../../features/orders/NewOrderNotifier';
import { call } from '../../shared/api/http';
import { errorCount, onErrorCount } from '../../shared/errors/logger';
import { LanguageSwitch } from '../../shared/layout/LanguageSwitch';
import { useNarrow } from '../../shared/layout/useNarrow';
import { useSession } from '../../shared/session/session';
import { pageOf } from '../pages';
import { DemoHistoryBanner } from './DemoHistoryBanner';
import { breadcrumbGroup, menuTree } from './menuTree';
import { PageBoundary } from './PageBoundary';
import { PayPasswordBanner } from './PayPasswordBanner';
import { ServiceBanner } from './ServiceBanner';
import { TagTabs } from './TagTabs';

const { Sider, Header, Content } = Layout;
/** Spec section 2: menu width 256, collapsed 64. */
export const MENU_WIDTH = 256;
export const MENU_COLLAPSED_WIDTH = 64;

/** The side menu's routes: what the role may open and what exists (STYLE: absent, not a placeholder). */
export function visibleMenuRoutes(user: { access: Parameters<typeof menuRoutesFor>[0]; agent: boolean }): RouteDef[] {
  return menuRoutesFor(user.access, user).filter((r) => pageOf(r.name));
}

/** The name the page's h1 shows: its route's, or the 404 page's where the router shows that. */
function titleOf(route: RouteDef | undefined): string {
  if (route?.name === 'error401' || (route && pageOf(route.name))) return route.name;
  return 'error404';
}

function useFullscreen() {
  const subscribe = (cb: () => void) => {
    document.addEventListener('fullscreenchange', cb);
    return () => document.removeEventListener('fullscreenchange', cb);
  };
  const on = useSyncExternalStore(subscribe, () => document.fullscreenElement !== null);
  const toggle = () => void (on ? document.exitFullscreen() : document.documentElement.requestFullscreen());
  return { on, toggle };
}

export function Shell() {
  const { t } = useTranslation(['common', 'routes']);
  const { user, logout } = useSession();
  const { modal } = App.useApp();
  const location = useLocation();
  const navigate = useNavigate();
  const [collapsed, setCollapsed] = useState(false);
  // On a phone (narrower than antd's md, 768 px) the menu is a drawer over the page, closed by
  // default, so the page gets the whole width; the header keeps only what fits.
  const narrow = useNarrow();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const fullscreen = useFullscreen();
  const scriptErrors = useSyncExternalStore(onErrorCount, errorCount);
  const unread = useQuery({
    queryKey: ['messages', 'unreadCount'],
    queryFn: () => call(endpoints.messages.unreadCount),
    enabled: Boolean(user),
  });
  if (!user) return null;
  const unreadCount = unread.data?.count ?? 0;

  const routes = visibleMenuRoutes(user);
  type MenuItem = NonNullable<MenuProps['items']>[number];
  const leaf = (r: RouteDef): MenuItem => ({
    key: r.path,
    label: <span data-testid={`menu-item-${r.name}`}>{t(`routes:route.${r.name}`)}</span>,
  });
  const tree = menuTree(routes);
  const items: MenuItem[] = tree.map((entry) =>
    'route' in entry
      ? leaf(entry.route)
      : { key: `group:${entry.group}`, label: t(`routes:menu.${entry.group}`), children: entry.routes.map(leaf) },
  );
  const current = routeByPath(location.pathname);
  const crumbGroup = current && breadcrumbGroup(tree, current);
  const openGroup = current ? [`group:${current.group}`] : [];
  // Merchants and suppliers find the support contact (the global setting ContactInfo) here when one is set.
  const contact = !isStaff(user.access) && user.contactInfo.trim() !== '' ? user.contactInfo : null;
  const userMenu: MenuProps['items'] = [
    ...(contact
      ? [
          {
            key: 'contact',
            label: <span data-testid="contact-menu-item">{t('contact.title')}</span>,
            onClick: () =>
              void modal.info({
                title: t('contact.title'),
                content: (
                  <div className="contact-info" data-testid="contact-info">
                    {contact}
                  </div>
                ),
                okText: t('action.ok'),
              }),
          },
        ]
      : []),
    { key: 'messages', label: t('header.messages'), onClick: () => navigate('/message_page') },
    { key: 'logout', label: t('header.logout'), onClick: () => void logout(), danger: true },
  ];

  const menu = (
    <Menu
      theme="dark"
      mode="inline"
      items={items}
      selectedKeys={[location.pathname]}
      defaultOpenKeys={openGroup}
      forceSubMenuRender
      onClick={({ key }) => {
        setDrawerOpen(false);
        navigate(key);
      }}
    />
  );
  const menuOpen = narrow ? drawerOpen : !collapsed;

  return (
    <Layout className={narrow ? 'shell shell-narrow' : 'shell'}>
      {narrow ? (
        <Drawer
          placement="left"
          open={drawerOpen}
          onClose={() => setDrawerOpen(false)}
          size={MENU_WIDTH}
          closable={false}
          aria-label={t('header.menu')}
          className="shell-drawer"
          styles={{ body: { padding: 0 } }}
        >
          <div data-testid="side-menu">
            {user.showLogo && <div className="shell-logo">{user.systemFlag}</div>}
            {menu}
          </div>
        </Drawer>
      ) : (
        <Sider
          width={MENU_WIDTH}
          collapsedWidth={MENU_COLLAPSED_WIDTH}
          collapsible
          collapsed={collapsed}
          onCollapse={setCollapsed}
          trigger={null}
          className="shell-sider"
          data-testid="side-menu"
        >
          {user.showLogo && (
            <div className="shell-logo">{collapsed ? user.systemFlag.slice(0, 2) : user.systemFlag}</div>
          )}
          {menu}
        </Sider>
      )}
      <Layout>
        <Header className="shell-header">
          <Space>
            <Button
              type="text"
              aria-label={menuOpen ? t('header.collapse') : t('header.expand')}
              data-testid="menu-toggle"
              icon={menuOpen ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
              onClick={() => (narrow ? setDrawerOpen((o) => !o) : setCollapsed((c) => !c))}
            />
            {/* On a phone the tab under the header names the page. */}
            {!narrow && (
              <Breadcrumb
                items={
                  current
                    ? [
                        ...(crumbGroup ? [{ title: t(`routes:menu.${crumbGroup}`) }] : []),
                        { title: t(`routes:route.${current.name}`) },
                      ]
                    : []
                }
              />
            )}
          </Space>
          <Space size={narrow ? 'small' : 'middle'}>
            <Tooltip title={t('header.scriptErrors')}>
              <Badge count={scriptErrors} size="small" data-testid="error-badge">
                <Button
                  type="text"
                  aria-label={t('header.scriptErrors')}
                  icon={<WarningOutlined />}
                  onClick={() => navigate('/error_logger_page')}
                  disabled={!routeByPath('/error_logger_page')}
                />
              </Badge>
            </Tooltip>
            <LanguageSwitch />
            {!narrow && (
              <Tooltip title={fullscreen.on ? t('header.exitFullscreen') : t('header.fullscreen')}>
                <Button
                  type="text"
                  aria-label={fullscreen.on ? t('header.exitFullscreen') : t('header.fullscreen')}
                  icon={fullscreen.on ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
                  onClick={fullscreen.toggle}
                  data-testid="fullscreen"
                />
              </Tooltip>
            )}
            {/* The unread count sits on its own bell, drawn inside the button so no edge can cut it. */}
            <Badge count={unreadCount} size="small" offset={[-6, 6]} data-testid="unread-badge">
              <Button
                type="text"
                aria-label={
                  unreadCount > 0
                    ? `${t('header.messages')} (${t('header.unread', { count: unreadCount })})`
                    : t('header.messages')
                }
                icon={<BellOutlined />}
                onClick={() => navigate('/message_page')}
                data-testid="messages-button"
              />
            </Badge>
            <Dropdown menu={{ items: userMenu }} trigger={['click']}>
              {narrow ? (
                <Button type="text" aria-label={user.name} icon={<UserOutlined />} data-testid="user-menu" />
              ) : (
                <Button type="text" icon={<UserOutlined />} data-testid="user-menu">
                  {`${user.name} · ${t(`role.${user.access}`)}`}
                </Button>
              )}
            </Dropdown>
          </Space>
        </Header>
        <ServiceBanner />
        <DemoHistoryBanner />
        <PayPasswordBanner profilePath={routes.find((r) => r.group === 'profile')?.path} />
        <TagTabs />
        <Content className="shell-content">
          {/* Every page's one h1: the route's name, as the menu and the tab call it. */}
          <h1 className="page-title" data-testid="page-title">
            {t(`routes:route.${titleOf(current)}`)}
          </h1>
          <PageBoundary key={location.pathname}>
            <Suspense fallback={<div className="page-loading" />}>
              <Outlet />
            </Suspense>
          </PageBoundary>
        </Content>
      </Layout>
      {/* Spec section 2: back to top after 100 px of scroll. */}
      <FloatButton.BackTop visibilityHeight={100} />
      <NewOrderNotifier />
    </Layout>
  );
}
