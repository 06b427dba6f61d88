import { routeByPath } from '@paydesk/contract';
import { Dropdown, type MenuProps, Modal, Tabs } from 'antd';
import { useEffect, useState } from 'react';
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

/** The tag tabs bar: one tab per opened page, home first and not closable, a right-click menu. */
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

  return (
    <Tabs
      className="tag-tabs"
      type="editable-card"
      hideAdd
      size="small"
      activeKey={active}
      onChange={(path) => navigate(path)}
      onEdit={(key, action) => action === 'remove' && typeof key === 'string' && close(key)}
      tabBarExtraContent={
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'closeOthers', label: t('tabs.closeOthers'), onClick: () => others(active) },
              { key: 'closeAll', label: t('tabs.closeAll'), onClick: all },
            ],
          }}
        >
          <span className="tag-tabs-more" data-testid="tabs-menu">
            ⋯
          </span>
        </Dropdown>
      }
      items={tabs.map((tab) => ({
        key: tab.path,
        closable: isClosable(tab),
        label: (
          <Dropdown trigger={['contextMenu']} menu={{ items: menuFor(tab) }}>
            <span data-testid={`tab-${tab.name}`}>{t(`routes:route.${tab.name}`)}</span>
          </Dropdown>
        ),
      }))}
    />
  );
}
