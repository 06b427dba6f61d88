import type { ThemeConfig } from 'antd';

/**
 * The console's antd theme. Contrast is set here, once, not per element (docs/architecture.md,
 * accessibility): every text colour below reaches 4.5:1 on white, on the grey page background and
 * on its own light tint (a tag, an alert); antd's defaults do not (its blue link 4.1:1, grey hints
 * 3.4:1, red danger buttons 3.3:1, green tags 3.4:1, "no data" 1.8:1). Tags take the status colours
 * ('success', 'warning', 'error', 'processing'), which follow these tokens; the preset ones ('green',
 * 'orange') do not reach 4.5:1.
 */
export const THEME: ThemeConfig = {
  token: {
    colorPrimary: '#1765d8',
    colorInfo: '#1765d8',
    colorLink: '#1765d8',
    // Hover darkens (antd's default lightens, to 3.6:1): a hovered or tapped link stays readable.
    colorPrimaryHover: '#0f4fb0',
    colorLinkHover: '#0f4fb0',
    colorSuccess: '#237804',
    colorSuccessBg: '#f6ffed',
    colorSuccessBorder: '#b7eb8f',
    colorWarning: '#ad4e00',
    colorWarningBg: '#fff7e6',
    colorWarningBorder: '#ffd591',
    colorError: '#cf1322',
    // Labels, hints, empty-list texts and statistic titles (colorTextDescription follows it).
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
  },
  components: {
    // "No data" in an empty table is drawn in the disabled grey: here it is read, not disabled.
    Table: { colorTextDisabled: 'rgba(0, 0, 0, 0.6)' },
    // The dark side menu's items: antd's 65 % white reaches 4.5:1 on the menu's own dark blue, but axe
    // reads only 4.1:1 on the group titles of the phone drawer (360 px); 80 % reaches it on both.
    Menu: { darkItemColor: 'rgba(255, 255, 255, 0.8)' },
  },
};
