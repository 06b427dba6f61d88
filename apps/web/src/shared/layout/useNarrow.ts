import { useSyncExternalStore } from 'react';

/** Narrower than antd's md breakpoint (768 px): a phone. */
const PHONE_QUERY = '(max-width: 767.98px)';

/** The media query list, where the browser has one (tests' DOM does not: they count as wide). */
const phoneMedia = () => (typeof window.matchMedia === 'function' ? window.matchMedia(PHONE_QUERY) : null);

function subscribe(onChange: () => void) {
  const media = phoneMedia();
  media?.addEventListener('change', onChange);
  return () => media?.removeEventListener('change', onChange);
}

/** Whether the screen is a phone's; follows rotation and resizing. */
export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, () => phoneMedia()?.matches ?? false);
}
