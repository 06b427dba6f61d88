import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../i18n/core';
import { LANGUAGES, type Language } from '../../i18n/language';

/**
 * The language choice: a native select (works the same on a phone and with a screen reader, and
 * keeps antd's Select, with its virtual list, out of the login page's and the payer page's downloads).
 */
export function LanguageSwitch({ className = 'language-switch' }: { className?: string }) {
  const { t, i18n } = useTranslation('common');
  return (
    <select
      className={className}
      aria-label={t('language.label')}
      data-testid="language-switch"
      value={i18n.language}
      onChange={(e) => void changeLanguage(e.target.value as Language)}
    >
      {LANGUAGES.map((lang) => (
        <option key={lang} value={lang} lang={lang}>
          {t(`language.${lang}`)}
        </option>
      ))}
    </select>
  );
}
