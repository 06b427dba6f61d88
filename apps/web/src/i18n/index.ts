import { startConsoleI18n } from './console';
import { datesFollowLanguage } from './dates';
import type { Locales } from './types';

export { changeLanguage, currentLanguage, LANGUAGE_KEY } from './core';

/**
 * The namespaces setupI18n loads. i18n sits below the features whose texts these are, so it cannot
 * import them: the test setup registers app/locales.ts's list first (the console itself starts with
 * the sign-in texts and adds the rest with the shell: app/consoleTexts.ts).
 */
const NAMESPACES: Record<string, Locales> = {};

export function registerNamespaces(namespaces: Record<string, Locales>) {
  Object.assign(NAMESPACES, namespaces);
}

/** Starts i18next with every registered namespace in the console's language (spec section 1); dates follow it. */
export function setupI18n(browserLanguage = navigator.language) {
  const i18n = startConsoleI18n(browserLanguage, NAMESPACES);
  datesFollowLanguage();
  return i18n;
}
