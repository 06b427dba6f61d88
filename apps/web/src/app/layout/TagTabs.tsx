import { CloseOutlined, EllipsisOutlined } from '@ant-design/icons';
import { routeByPath } from '@paydesk/contract';
import { Button, Dropdown, type MenuProps, Modal, theme } from 'antd';
import type { CSSProperties } from 'react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { closeAll, closeOthers, closeTab, HOME_TAB, isClosable, openTab, type Tab } from '../tabs';

const STORAGE_KEY = 'tagTabs';

function restore(): Tab[] {
  try {
    const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? '[]') as Tab[];
    return openTab(
      saved.filter((t) => routeByPath(t.path)),
      HOME_TAB,
    );
  } catch {
    return [HOME_TAB];
  }
}

/** The tag tabs bar: one tab per opened page, home first and not closable, a right-click menu, one bar menu. */
export function TagTabs() {
  const { t } = useTranslation(['common', 'routes']);
  const location = useLocation();
  const navigate = useNavigate();
  const [tabs, setTabs] = useState<Tab[]>(restore);
  const active = location.pathname;

  useEffect(() => {
    const route = routeByPath(active);
    if (route && !route.hideInMenu) setTabs((current) => openTab(current, { path: route.path, name: route.name }));
  }, [active]);
  useEffect(() => sessionStorage.setItem(STORAGE_KEY, JSON.stringify(tabs)), [tabs]);
  const { token } = theme.useToken();
  // The active page's tab scrolls into view when the bar is wider than the screen (called when a
  // link becomes the active one).
  const showActive = useCallback(
    (link: HTMLAnchorElement | null) => link?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' }),
    [],
  );

  /** Runs `action` at once, or after the confirmation when a closed page asks for it. */
  const confirmThen = (closing: Tab[], action: () => void) => {
    if (!closing.some((tab) => routeByPath(tab.path)?.confirmClose)) return action();
    Modal.confirm({
      title: t('tabs.confirmClose'),
      content: t('tabs.confirmCloseContent'),
      okText: t('action.ok'),
      cancelText: t('action.cancel'),
      onOk: action,
    });
  };

  const close = (path: string) =>
    confirmThen(
      tabs.filter((tab) => tab.path === path),
      () => {
        const result = closeTab(tabs, path, active);
        setTabs(result.tabs);
        if (result.next !== active) navigate(result.next);
      },
    );
  const others = (path: string) =>
    confirmThen(
      tabs.filter((tab) => isClosable(tab) && tab.path !== path),
      () => {
        setTabs(closeOthers(tabs, path));
        if (path !== active) navigate(path);
      },
    );
  const all = () =>
    confirmThen(tabs.filter(isClosable), () => {
      const result = closeAll(tabs);
      setTabs(result.tabs);
      navigate(result.next);
    });

  const menuFor = (tab: Tab): MenuProps['items'] => [
    { key: 'close', label: t('tabs.close'), disabled: !isClosable(tab), onClick: () => close(tab.path) },
    { key: 'closeOthers', label: t('tabs.closeOthers'), onClick: () => others(tab.path) },
    { key: 'closeAll', label: t('tabs.closeAll'), onClick: all },
  ];

  const label = (tab: Tab) => t(`routes:route.${tab.name}`);
  /** The bar's one menu: every open page (the bar scrolls when they do not fit), then the close actions. */
  const barMenu: MenuProps['items'] = [
    ...tabs.map((tab) => ({ key: `open:${tab.path}`, label: label(tab), onClick: () => navigate(tab.path) })),
    { type: 'divider' },
    { key: 'closeOthers', label: t('tabs.closeOthers'), onClick: () => others(active) },
    { key: 'closeAll', label: t('tabs.closeAll'), onClick: all },
  ];

  // The open pages are links to them, not an ARIA tab list: there are no tab panels, and a tab list may
  // hold nothing but tabs (the close buttons and the menu would break it).
  return (
    <nav
      className="tag-tabs"
      aria-label={t('tabs.label')}
      style={{ '--tag-primary': token.colorPrimary } as CSSProperties}
    >
      <ul className="tag-tabs-list">
        {tabs.map((tab) => (
          <li key={tab.path} className={tab.path === active ? 'tag-tab tag-tab-active' : 'tag-tab'}>
            <Dropdown trigger={['contextMenu']} menu={{ items: menuFor(tab) }}>
              <a
                href={tab.path}
                aria-current={tab.path === active ? 'page' : undefined}
                ref={tab.path === active ? showActive : undefined}
                data-testid={`tab-${tab.name}`}
                onClick={(e) => {
                  e.preventDefault();
                  navigate(tab.path);
                }}
              >
                {label(tab)}
              </a>
            </Dropdown>
            {isClosable(tab) && (
              <button
                type="button"
                className="tag-tab-close"
                aria-label={t('tabs.closeTab', { name: label(tab) })}
                data-testid={`close-tab-${tab.name}`}
                onClick={() => close(tab.path)}
              >
                <CloseOutlined />
              </button>
            )}
          </li>
        ))}
      </ul>
      <Dropdown trigger={['click']} menu={{ items: barMenu }}>
        <Button
          type="text"
          size="small"
          icon={<EllipsisOutlined />}
          aria-label={t('tabs.more')}
          data-testid="tabs-menu"
        />
      </Dropdown>
    </nav>
  );
}
