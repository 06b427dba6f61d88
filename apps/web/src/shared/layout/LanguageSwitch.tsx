import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../../i18n';
import { LANGUAGES, type Language } from '../../i18n/language';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation('common');
  return (
    <Select<Language>
      aria-label={t('language.label')}
      data-testid="language-switch"
      value={i18n.language as Language}
      onChange={(lang) => void changeLanguage(lang)}
      options={LANGUAGES.map((lang) => ({ value: lang, label: t(`language.${lang}`) }))}
      style={{ width: 120 }}
      variant="borderless"
    />
  );
}
