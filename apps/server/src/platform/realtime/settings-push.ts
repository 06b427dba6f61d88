import { ROLES, type Role, SETTINGS, SETTINGS_TOPIC, type SettingsEvent } from '@paydesk/contract';
import type { SettingsStore } from '../settings.js';
import type { RealtimeHub } from './hub.js';

/**
 * Pushes the `settings` topic to this process's open consoles whenever the store hears a change (each
 * process hears every committed setX, its own included, on the settings NOTIFY channel, so each tells
 * only its own sockets: no second NOTIFY, no repeat per process). The key goes only to the roles that
 * may read it on the config page; the others learn only that something changed, which is all they need
 * to read getInfo again. Returns the way to stop.
 */
export function pushSettingChanges(settings: SettingsStore, hub: RealtimeHub): () => void {
  return settings.onChange((key) => {
    const readers: readonly Role[] = key ? SETTINGS[key].readRoles : [];
    if (key && readers.length > 0) hub.deliverHere(SETTINGS_TOPIC, { key } satisfies SettingsEvent, { roles: readers });
    const others = ROLES.filter((role) => !readers.includes(role));
    if (others.length > 0) hub.deliverHere(SETTINGS_TOPIC, {} satisfies SettingsEvent, { roles: others });
  });
}
