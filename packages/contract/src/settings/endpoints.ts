import { z } from 'zod';
import { defineEndpoint, type Endpoint } from '../common/endpoint.js';
import {
  SETTING_KEYS,
  SETTINGS,
  type SettingDef,
  type SettingKey,
  type SettingType,
  type SettingValue,
  settingBodySchema,
  settingValueSchema,
} from './registry.js';

/**
 * The system-config calls of spec section 7, one pair per key of the registry: `GET getX` answers the
 * key as its setX body does ({enable} for a switch, {value} otherwise; a secret only {set}), and
 * `POST setX` changes it with the second-level password and answers the same. Who may call each is the
 * key's readRoles and writeRoles. `list` (ours) answers every key at once for the global config page.
 */
const BASE = '/v1.0/system-config';

type AnswerOf<T extends SettingType, V> = T extends { kind: 'switch' }
  ? { enable: boolean }
  : T extends { kind: 'secret' }
    ? { set: boolean }
    : { value: V };
/** What getX and setX answer for a key. */
export type SettingAnswer<K extends SettingKey> = AnswerOf<(typeof SETTINGS)[K]['type'], SettingValue<K>>;
/** What setX takes for a key. */
export type SettingBody<K extends SettingKey> = z.input<ReturnType<typeof settingBodySchema<K>>>;

/** The answer's schema of a key. */
export function settingAnswerSchema<K extends SettingKey>(key: K): z.ZodType<SettingAnswer<K>> {
  const def: SettingDef = SETTINGS[key];
  const schema =
    def.type.kind === 'switch'
      ? z.object({ enable: z.boolean() })
      : def.type.kind === 'secret'
        ? z.object({ set: z.boolean() })
        : z.object({ value: settingValueSchema(key) });
  return schema as unknown as z.ZodType<SettingAnswer<K>>;
}

/** The body of setX that puts a key back to its default: the example of each setX. */
export function defaultBodyOf<K extends SettingKey>(key: K): SettingBody<K> {
  const def: SettingDef = SETTINGS[key];
  return (def.type.kind === 'switch' ? { enable: def.default } : { value: def.default }) as SettingBody<K>;
}

type GetEndpoint<K extends SettingKey> = Endpoint<
  z.ZodObject<Record<string, never>, z.core.$strict>,
  z.ZodType<SettingAnswer<K>>,
  'json'
>;
type SetEndpoint<K extends SettingKey> = Endpoint<z.ZodType<SettingBody<K>>, z.ZodType<SettingAnswer<K>>, 'json'>;

/** One entry of the list: the answer of getX, with who changed it last and whether the caller may. */
export const settingEntrySchema = z.object({
  key: z.enum(SETTING_KEYS as [SettingKey, ...SettingKey[]]),
  /** A switch's enable, a secret's set, another type's value (as getX answers). */
  enable: z.boolean().optional(),
  set: z.boolean().optional(),
  value: z.unknown().optional(),
  /** False while the key has its default (never changed, or put back). */
  changed: z.boolean(),
  updatedAt: z.string().nullable(),
  /** The account that changed it last. */
  updatedBy: z.string().nullable(),
  /** Whether the caller may change it (its role is among the key's writeRoles). */
  writable: z.boolean(),
});
export type SettingEntry = z.infer<typeof settingEntrySchema>;

const listEndpoint = defineEndpoint({
  method: 'GET',
  path: `${BASE}/list`,
  summary: 'Every system setting the caller may read, with its value (a secret: only whether it is set)',
  input: z.strictObject({}),
  output: z.object({ list: z.array(settingEntrySchema) }),
  example: {},
  access: [...new Set(SETTING_KEYS.flatMap((key) => (SETTINGS[key] as SettingDef).readRoles))],
  token2: false,
  scope: 'none',
});

function getEndpoint<K extends SettingKey>(key: K): GetEndpoint<K> {
  const def: SettingDef = SETTINGS[key];
  return defineEndpoint({
    method: 'GET',
    path: `${BASE}/get${key}`,
    summary: `The system setting ${key}${def.type.kind === 'secret' ? ' (only whether it is set)' : ''}`,
    input: z.strictObject({}) as z.ZodObject<Record<string, never>, z.core.$strict>,
    output: settingAnswerSchema(key),
    example: {},
    access: def.readRoles,
    token2: false,
    scope: 'none',
  });
}

function setEndpoint<K extends SettingKey>(key: K): SetEndpoint<K> {
  const def: SettingDef = SETTINGS[key];
  return defineEndpoint({
    method: 'POST',
    path: `${BASE}/set${key}`,
    summary: `Change the system setting ${key} (audited; every server process follows within a second)`,
    input: settingBodySchema(key) as unknown as z.ZodType<SettingBody<K>>,
    output: settingAnswerSchema(key),
    example: defaultBodyOf(key),
    access: def.writeRoles,
    token2: true,
    scope: 'none',
  });
}

export type SystemConfigEndpoints = { list: typeof listEndpoint } & {
  [K in SettingKey as `get${K}`]: GetEndpoint<K>;
} & {
  [K in SettingKey as `set${K}`]: SetEndpoint<K>;
};

export const systemConfigEndpoints = {
  list: listEndpoint,
  ...Object.fromEntries(
    SETTING_KEYS.flatMap((key) => [
      [`get${key}`, getEndpoint(key)],
      [`set${key}`, setEndpoint(key)],
    ]),
  ),
} as SystemConfigEndpoints;

/** The getX endpoint of a key. */
export function getSettingEndpoint<K extends SettingKey>(key: K): GetEndpoint<K> {
  return (systemConfigEndpoints as unknown as Record<string, GetEndpoint<K>>)[`get${key}`]!;
}
/** The setX endpoint of a key. */
export function setSettingEndpoint<K extends SettingKey>(key: K): SetEndpoint<K> {
  return (systemConfigEndpoints as unknown as Record<string, SetEndpoint<K>>)[`set${key}`]!;
}
