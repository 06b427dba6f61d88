import { type endpoints, SETTING_KEYS, type SettingKey, type SettingValue } from '@paydesk/contract';
import type { Handlers } from '../../platform/context.js';
import type { SystemConfigService } from './system-config.service.js';

/** The value a setX body carries: {enable} of a switch, {value} of every other type. */
const bodyValue = (body: { enable?: boolean; value?: unknown }) => ('enable' in body ? body.enable : body.value);

export function systemConfigHandlers(config: SystemConfigService) {
  const perKey = Object.fromEntries(
    SETTING_KEYS.flatMap((key: SettingKey) => [
      [`get${key}`, () => config.get(key)],
      [
        `set${key}`,
        (body: { enable?: boolean; value?: unknown }, ctx: { actor: Parameters<SystemConfigService['set']>[2] }) =>
          config.set(key, bodyValue(body) as SettingValue<typeof key>, ctx.actor),
      ],
    ]),
  );
  return {
    ...perKey,
    list: async (_input, ctx) => ({ list: await config.list(ctx.role) }),
  } as Handlers<typeof endpoints.systemConfig>;
}
