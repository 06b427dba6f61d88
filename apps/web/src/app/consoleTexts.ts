import { addNamespaces } from '../i18n/console';

/** Adds every feature's texts and the dates' locales (chunks of their own) before the shell renders. */
export async function loadConsoleTexts(): Promise<void> {
  const [{ NAMESPACES }, { datesFollowLanguage }] = await Promise.all([import('./locales'), import('../i18n/dates')]);
  addNamespaces(NAMESPACES);
  datesFollowLanguage();
}
