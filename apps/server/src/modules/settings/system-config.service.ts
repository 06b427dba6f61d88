import {
  canWriteSetting,
  type Role,
  SETTING_KEYS,
  SETTINGS,
  type SettingAnswer,
  type SettingDef,
  type SettingEntry,
  type SettingKey,
  type SettingValue,
  settingReadAnswer,
} from '@paydesk/contract';
import type { Db, Tx } from '../../db/client.js';
import { type Actor, writeAudit } from '../../platform/audit.js';
import { canonicalJson } from '../../platform/canonical-json.js';
import type { Clock } from '../../platform/clock.js';
import type { SettingsStore } from '../../platform/settings.js';
import { accountNamesOf } from '../users/account-names.js';

/** What getX answers for a value: {enable} for a switch, only {set} for a secret, {value} otherwise. */
export function answerOf<K extends SettingKey>(key: K, value: SettingValue<K>): SettingAnswer<K> {
  const def: SettingDef = SETTINGS[key];
  if (def.type.kind === 'switch') return { enable: value as boolean } as SettingAnswer<K>;
  if (def.type.kind === 'secret') return { set: value !== null } as SettingAnswer<K>;
  return { value } as SettingAnswer<K>;
}

/**
 * The global config calls (spec section 7, system-config): read a key or all of them as the caller's
 * role may (readRoles and writeRoles are checked by the endpoints' access), and change one: written,
 * audited with its before and after (a secret as set or not set) in one transaction, then every
 * process follows (SettingsStore).
 */
/** A key's own check of a change, inside its transaction (e.g. one that must not lock the caller out). */
export type SettingGuards = { [K in SettingKey]?: (value: SettingValue<K>, actor: Actor, tx: Tx) => Promise<void> };

export class SystemConfigService {
  constructor(private readonly deps: { db: Db; clock: Clock; settings: SettingsStore; guards?: SettingGuards }) {}

  async get<K extends SettingKey>(key: K): Promise<SettingAnswer<K>> {
    return answerOf(key, await this.deps.settings.get(key));
  }

  async set<K extends SettingKey>(key: K, value: SettingValue<K>, actor: Actor): Promise<SettingAnswer<K>> {
    await this.deps.db.transaction(async (tx) => {
      await this.deps.guards?.[key]?.(value, actor, tx);
      const before = (await this.deps.settings.readAll(tx))[key];
      await this.deps.settings.write(tx, key, value, actor.userId);
      await writeAudit(
        tx,
        actor,
        {
          action: 'systemConfig.set',
          target: `setting:${key}`,
          before: answerOf(key, before),
          after: answerOf(key, value),
        },
        this.deps.clock.now(),
      );
    });
    this.deps.settings.forget();
    return this.get(key);
  }

  /** Every key the role may read, in the registry's order, with who changed it last. */
  async list(role: Role): Promise<SettingEntry[]> {
    const values = await this.deps.settings.values();
    const stored = await this.deps.settings.stored();
    const byKey = new Map(stored.map((s) => [s.key, s]));
    const accounts = await accountNamesOf(
      this.deps.db,
      stored.map((s) => s.updatedBy),
    );
    return SETTING_KEYS.filter((key) => settingReadAnswer(key, role) !== 'none').map((key) => {
      const value = values[key] as unknown;
      const row = byKey.get(key);
      return {
        key,
        ...answerOf(key, value as SettingValue<typeof key>),
        changed: canonicalJson(value) !== canonicalJson(SETTINGS[key].default),
        updatedAt: row ? row.updatedAt.toISOString() : null,
        updatedBy: row?.updatedBy ? (accounts.get(row.updatedBy) ?? null) : null,
        writable: canWriteSetting(key, role),
      };
    });
  }
}
