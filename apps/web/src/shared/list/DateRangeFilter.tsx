import { DatePicker } from 'antd';
import type { RangePickerProps } from 'antd/es/date-picker';
import type { Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { platformNow } from '../format/time';

type Range = [Dayjs, Dayjs];

/**
 * The ranges a date filter offers in one click: today, yesterday, the last 7 days (today included)
 * and this month. Computed when picked, so a page left open overnight still means today, and on the
 * platform's clock (the server reads the range there), whatever the browser's own time zone.
 */
export function dateRangePresets(
  t: TFunction,
  now: () => Dayjs = platformNow,
): Array<{ label: string; value: () => Range }> {
  return [
    { label: t('common:list.presetToday'), value: () => [now().startOf('day'), now().endOf('day')] },
    {
      label: t('common:list.presetYesterday'),
      value: () => [now().subtract(1, 'day').startOf('day'), now().subtract(1, 'day').endOf('day')],
    },
    {
      label: t('common:list.presetLast7Days'),
      value: () => [now().subtract(6, 'day').startOf('day'), now().endOf('day')],
    },
    { label: t('common:list.presetThisMonth'), value: () => [now().startOf('month'), now().endOf('month')] },
  ];
}

/** Every list's date range filter: a range with times, and its presets in the reader's language. */
export function DateRangeFilter(props: RangePickerProps) {
  const { t } = useTranslation('common');
  return <DatePicker.RangePicker showTime presets={dateRangePresets(t)} {...props} />;
}
