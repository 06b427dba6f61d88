import { SETTING_AREA_TEXTS, SETTINGS, type SettingDef, type SettingEntry, type TextLocale } from '@paydesk/contract';
import { App, Button, Popconfirm, Space, Switch, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../shared/api/errorText';
import { formatTime } from '../../shared/format/time';
import { useSetSetting } from './api';
import { descriptionOf, fieldTexts, labelOf, typeOf, valueText } from './values';

const testData = (id: string) => ({ 'data-testid': id }) as Record<`data-${string}`, string>;

/** Who changed the entry and when, or that it holds its default. */
function ChangedLine({ entry }: { entry: SettingEntry }) {
  const { t } = useTranslation('systemConfig');
  const at = entry.updatedAt ? formatTime(entry.updatedAt) : null;
  const changed =
    at === null ? null : entry.updatedBy ? t('changedBy', { account: entry.updatedBy, at }) : t('changedAt', { at });
  return (
    <Typography.Text type="secondary" className="config-row-changed" data-testid={`config-changed-${entry.key}`}>
      {[entry.changed ? null : t('defaultValue'), changed].filter(Boolean).join(' · ')}
    </Typography.Text>
  );
}

/** The current value as read: one line, or a structured value's fields one per line. */
function CurrentValue({ entry }: { entry: SettingEntry }) {
  const { t, i18n } = useTranslation('systemConfig');
  const type = typeOf(entry.key);
  return (
    <div className="config-row-value" data-testid={`config-value-${entry.key}`}>
      <Typography.Text type="secondary">{t('current')}</Typography.Text>
      {type.kind === 'structured' ? (
        <ul className="config-fields">
          {fieldTexts(entry.key, entry.value as Record<string, number>, i18n.language).map((f) => (
            <li key={f.field}>
              {f.label}: <strong>{f.value}</strong>
            </li>
          ))}
        </ul>
      ) : type.kind === 'secret' ? (
        <Tag color={entry.set ? 'green' : 'default'}>{valueText(entry, i18n.language, t)}</Tag>
      ) : (
        <strong className="config-value-text">{valueText(entry, i18n.language, t)}</strong>
      )}
    </div>
  );
}

/** A switch's control: turned after a confirmation. */
function SwitchControl({ entry, label }: { entry: SettingEntry; label: string }) {
  const { t, i18n } = useTranslation('systemConfig');
  const { message } = App.useApp();
  const change = useSetSetting();
  const on = entry.enable === true;
  return (
    <Popconfirm
      title={t(on ? 'confirmOff' : 'confirmOn', { label })}
      okText={t('common:action.ok')}
      cancelText={t('common:action.cancel')}
      okButtonProps={testData('config-confirm')}
      onConfirm={() =>
        change
          .mutateAsync({ key: entry.key, value: !on })
          .then(() => void message.success(t('saved', { label })))
          .catch((e: unknown) => void message.error(t('failed', { label, message: errorText(i18n, e) })))
      }
    >
      <Switch checked={on} loading={change.isPending} aria-label={label} data-testid={`config-switch-${entry.key}`} />
    </Popconfirm>
  );
}

/** A secret's controls: set a new one (a form), clear it (a confirmation). */
function SecretControls({ entry, label, onEdit }: { entry: SettingEntry; label: string; onEdit(): void }) {
  const { t, i18n } = useTranslation('systemConfig');
  const { message } = App.useApp();
  const change = useSetSetting();
  return (
    <Space wrap>
      <Button onClick={onEdit} data-testid={`config-edit-${entry.key}`}>
        {t('secret.setNew')}
      </Button>
      {entry.set && (
        <Popconfirm
          title={t('secret.confirmClear', { label })}
          okText={t('common:action.ok')}
          cancelText={t('common:action.cancel')}
          okButtonProps={{ danger: true, ...testData('config-confirm') }}
          onConfirm={() =>
            change
              .mutateAsync({ key: entry.key, value: null })
              .then(() => void message.success(t('saved', { label })))
              .catch((e: unknown) => void message.error(t('failed', { label, message: errorText(i18n, e) })))
          }
        >
          <Button danger loading={change.isPending} data-testid={`config-clear-${entry.key}`}>
            {t('secret.clear')}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}

/**
 * One setting: its label, key, description, the area that uses it, its current value and who changed
 * it when; and, when the caller may change it here (`editable`), its typed control: a switch at once
 * (after a confirmation), every other type in a form (`onEdit`). Test hooks: `config-row-<key>`,
 * `config-value-<key>`, `config-changed-<key>`, `config-area-<key>`, `config-switch-<key>`,
 * `config-edit-<key>`, `config-clear-<key>`; a confirmation's OK is `config-confirm`.
 */
export function SettingRow(props: {
  entry: SettingEntry;
  /** The caller may change it (entry.writable) and the page is not the read-only one. */
  editable: boolean;
  /** Say who may change a row the caller may not (not on the read-only page, where no one here may). */
  showWriters: boolean;
  onEdit(): void;
}) {
  const { entry, editable, onEdit } = props;
  const { t, i18n } = useTranslation(['systemConfig', 'common']);
  const def: SettingDef = SETTINGS[entry.key];
  const label = labelOf(entry.key, i18n.language);
  const area = SETTING_AREA_TEXTS[def.area][i18n.language as TextLocale] ?? def.area;
  const kind = typeOf(entry.key).kind;
  const writers = def.writeRoles.map((r) => t(`common:role.${r}`)).join(t('listSeparator'));
  return (
    <div className="config-row" data-testid={`config-row-${entry.key}`}>
      <div className="config-row-text">
        <div className="config-row-title">
          <Typography.Text strong>{label}</Typography.Text>
          <Typography.Text code data-testid={`config-key-${entry.key}`}>
            {entry.key}
          </Typography.Text>
          <Tag color={def.wired ? 'blue' : 'default'} data-testid={`config-area-${entry.key}`}>
            {t('usedBy', { area: def.wired ? area : t('notBuilt', { area }) })}
          </Tag>
        </div>
        <Typography.Paragraph type="secondary" className="config-row-description">
          {descriptionOf(entry.key, i18n.language)}
        </Typography.Paragraph>
        <CurrentValue entry={entry} />
        <ChangedLine entry={entry} />
      </div>
      <div className="config-row-control">
        {editable && kind === 'switch' && <SwitchControl entry={entry} label={label} />}
        {editable && kind === 'secret' && <SecretControls entry={entry} label={label} onEdit={onEdit} />}
        {editable && kind !== 'switch' && kind !== 'secret' && (
          // No space between two CJK characters (antd's default): the label must hold the visible text.
          <Button
            onClick={onEdit}
            data-testid={`config-edit-${entry.key}`}
            aria-label={`${t('change')}: ${label}`}
            autoInsertSpace={false}
          >
            {t('change')}
          </Button>
        )}
        {!editable && props.showWriters && (
          <Typography.Text type="secondary" className="config-row-writers">
            {t('writers', { roles: writers })}
          </Typography.Text>
        )}
      </div>
    </div>
  );
}
