import type { EndpointInput, endpoints, OrderProfileMetric, OrderProfileStats } from '@paydesk/contract';
import type { TFunction } from 'i18next';

export type OrderProfileFilters = EndpointInput<typeof endpoints.orderProfile.getProfile>;

/** Query keys of the order performance page. */
export const orderProfileKeys = {
  all: ['orderProfile'] as const,
  profile: (filters: OrderProfileFilters) => ['orderProfile', filters] as const,
  merchants: ['orderProfile', 'merchants'] as const,
};

export const PERCENTILE_KEYS = ['p50', 'p90', 'p99'] as const;
export type PercentileKey = (typeof PERCENTILE_KEYS)[number];

/** The field of a stats row that holds one metric at one percentile, e.g. allocate p90 -> allocateP90Ms. */
export function latencyField(metric: OrderProfileMetric, p: PercentileKey) {
  return `${metric}${p.toUpperCase()}Ms` as `${OrderProfileMetric}${Uppercase<PercentileKey>}Ms` &
    keyof OrderProfileStats;
}

/** Milliseconds as people read them: 850 ms, 12.5 s, 3 min 5 s; a dash when there was no sample. */
export function formatDuration(t: TFunction, ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return t('orderProfile:duration.none');
  if (ms < 1000) return t('orderProfile:duration.ms', { value: ms });
  if (ms < 60_000) return t('orderProfile:duration.s', { value: Number((ms / 1000).toFixed(1)) });
  const seconds = Math.round(ms / 1000);
  return t('orderProfile:duration.min', { m: Math.floor(seconds / 60), s: seconds % 60 });
}
