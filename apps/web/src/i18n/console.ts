import i18next from 'i18next';
import { LANGUAGE_KEY, startI18n } from './core';
import { initialLanguage, LANGUAGES } from './language';
import type { Locales } from './types';

/**
 * Starts i18next in the console's language (spec section 1) with `namespaces`. The console starts
 * with the sign-in pages' texts and adds the rest, with the dates' locales, along with the signed-in
 * shell (`loadConsoleTexts`), so the login page downloads no list's texts.
 */
export function startConsoleI18n(browserLanguage: string, namespaces: Record<string, Locales>) {
  return startI18n(initialLanguage(browserLanguage, localStorage.getItem(LANGUAGE_KEY)), namespaces);
}

/** Adds every feature's texts and the dates' locales (chunks of their own) before the shell renders. */
export async function loadConsoleTexts(): Promise<void> {
  const [{ NAMESPACES }, { datesFollowLanguage }] = await Promise.all([import('./resources'), import('./dates')]);
  for (const [ns, locales] of Object.entries(NAMESPACES)) {
    if (i18next.hasResourceBundle(LANGUAGES[0], ns)) continue;
    for (const lang of LANGUAGES) i18next.addResourceBundle(lang, ns, locales[lang]);
  }
  datesFollowLanguage();
}
