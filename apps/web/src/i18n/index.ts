import { startConsoleI18n } from './console';
import { datesFollowLanguage } from './dates';
import { NAMESPACES } from './resources';

export { changeLanguage, currentLanguage, LANGUAGE_KEY } from './core';

/** Starts i18next with every namespace in the console's language (spec section 1); dates follow it. */
export function setupI18n(browserLanguage = navigator.language) {
  const i18n = startConsoleI18n(browserLanguage, NAMESPACES);
  datesFollowLanguage();
  return i18n;
}
