import type { TableRef } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A ref for an antd Table. A wide table scrolls sideways inside antd's box, which takes no
 * attributes: the ref makes that box a named, focusable region so that keyboard users can scroll it
 * too (axe: scrollable-region-focusable). antd may replace the box after it measures the table,
 * hence the observer.
 */
export function useScrollRegion() {
  const { t } = useTranslation('common');
  const label = t('list.region');
  return useCallback(
    (table: TableRef | null) => {
      const root = table?.nativeElement;
      if (!root) return;
      const mark = () => {
        for (const box of root.querySelectorAll('.ant-table-content')) {
          box.setAttribute('tabindex', '0');
          box.setAttribute('role', 'region');
          box.setAttribute('aria-label', label);
        }
      };
      mark();
      const observer = new MutationObserver(mark);
      observer.observe(root, { childList: true, subtree: true });
      return () => observer.disconnect();
    },
    [label],
  );
}
