import i18next from 'i18next';
import { LANGUAGE_KEY, startI18n } from './core';
import { initialLanguage, LANGUAGES } from './language';
import type { Locales } from './types';

/**
 * Starts i18next in the console's language (spec section 1) with `namespaces`. The console starts
 * with the sign-in pages' texts and adds the rest, with the dates' locales, along with the signed-in
 * shell (app/consoleTexts.ts), so the login page downloads no list's texts.
 */
export function startConsoleI18n(browserLanguage: string, namespaces: Record<string, Locales>) {
  return startI18n(initialLanguage(browserLanguage, localStorage.getItem(LANGUAGE_KEY)), namespaces);
}

/** Adds namespaces not loaded yet, in every language. */
export function addNamespaces(namespaces: Record<string, Locales>) {
  for (const [ns, locales] of Object.entries(namespaces)) {
    if (i18next.hasResourceBundle(LANGUAGES[0], ns)) continue;
    for (const lang of LANGUAGES) i18next.addResourceBundle(lang, ns, locales[lang]);
  }
}
