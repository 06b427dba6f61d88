import { waitFor } from '@testing-library/react';

/**
 * Waits until an antd Select shows `title` as chosen. After clicking an option, the next step must
 * not start before this: under load a click can land while the dropdown is still opening or closing,
 * and the form would then go on with the field empty (a flaky test, not a bug of the page).
 */
export function chosen(title: string | RegExp): Promise<void> {
  const matches = (shown: string | null) =>
    shown !== null && (typeof title === 'string' ? shown === title : title.test(shown));
  return waitFor(() => {
    // The select shows its value in an element titled with it; the open dropdown's options are
    // titled too, but sit in the dropdown, outside the select.
    const shown = [...document.querySelectorAll('.ant-select [title]')].some(
      (el) => matches(el.getAttribute('title')) && !el.closest('.ant-select-dropdown'),
    );
    if (!shown) throw new Error(`'${String(title)}' is not chosen`);
  });
}
