import { z } from 'zod';
import { ROLES, roleSchema } from '../common/roles.js';

/** Spec section 5 texts, in English; the console shows them translated by the same words. */
export const USER_TEXTS = {
  requiredFields: 'account, nickname and role cannot be empty',
  accountCharset: 'account accepts only digits and English letters',
  passwordStrength: 'password must contain digits and letters',
  accountExists: 'add failed, check whether the account already exists',
} as const;

/** Spec section 5: account names are digits and English letters only (the console's form checks it too). */
export const ACCOUNT_PATTERN = /^[A-Za-z0-9]+$/;

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);
const blankToUndefined = (v: unknown) => {
  const t = trimmed(v);
  return t === '' || t === null ? undefined : t;
};

/** An authenticator code: six digits, trimmed (spec section 5). */
export const googleCodeSchema = z.preprocess(
  trimmed,
  z
    .string()
    .max(6, 'authenticator code must be 6 digits')
    .regex(/^\d{6}$/, 'authenticator code must be 6 digits'),
);
export const optionalGoogleCodeSchema = z.preprocess(blankToUndefined, googleCodeSchema.optional());

export const accountSchema = z.preprocess(
  trimmed,
  z
    .string(USER_TEXTS.requiredFields)
    .min(1, USER_TEXTS.requiredFields)
    .max(32, 'account is at most 32 characters')
    .regex(ACCOUNT_PATTERN, USER_TEXTS.accountCharset),
);
export const nicknameSchema = z.preprocess(
  trimmed,
  z.string(USER_TEXTS.requiredFields).min(1, USER_TEXTS.requiredFields).max(64, 'nickname is at most 64 characters'),
);
export const passwordSchema = z
  .string(USER_TEXTS.passwordStrength)
  .min(8, 'password must be at least 8 characters')
  .max(128, 'password is at most 128 characters')
  .regex(/[A-Za-z]/, USER_TEXTS.passwordStrength)
  .regex(/\d/, USER_TEXTS.passwordStrength);
export const roleInputSchema = z.preprocess(blankToUndefined, z.enum(ROLES, USER_TEXTS.requiredFields));

/** What a user option list (selects) shows of an account. */
export const userOptionSchema = z.object({
  id: z.number().int(),
  account: z.string(),
  nickname: z.string(),
  role: roleSchema,
  parentId: z.number().int().nullable(),
  deleted: z.boolean(),
});
export type UserOption = z.infer<typeof userOptionSchema>;

/** The signed-in user as getInfo answers it (spec section 3, User). */
export const userInfoSchema = z.object({
  userId: z.number().int(),
  userName: z.string(),
  account: z.string(),
  name: z.string(),
  access: roleSchema,
  /** A supplier's agent: it has no team of its own, so no team pages in its menu. */
  agent: z.boolean(),
  /** Whether this session holds a valid second-level token, and until when. */
  token2Valid: z.boolean(),
  token2ExpiresAt: z.string().nullable(),
  enableGoogleVerify: z.boolean(),
  /** Only while the authenticator binding is unconfirmed; otherwise absent. */
  googleSecret: z.string().optional(),
  /** otpauth:// URI of googleSecret, for the QR code; only while unconfirmed. */
  googleAuthUrl: z.string().optional(),
  confirmBind: z.boolean(),
  allowModify: z.boolean(),
  showLogo: z.boolean(),
  systemFlag: z.string(),
  /** enableService: false while the service is paused (the console shows a banner; staff work on). */
  serviceEnabled: z.boolean(),
  /** AllowPictureQueryOrder: the staff order list offers "find by picture" (orders.pictureQuery). */
  pictureQueryEnabled: z.boolean(),
  /** ContactInfo: the support contact shown to merchants and suppliers; empty when none is set. */
  contactInfo: z.string(),
  /**
   * EnablePayPassword: the second-level check takes only a separately set second-level (pay)
   * password; an account without one (`hasPayPassword` false) is told to set it.
   */
  payPasswordRequired: z.boolean(),
  hasPayPassword: z.boolean(),
  /** ApiUrl: the merchant API's base address shown to merchants; empty: the console's own address. */
  apiUrl: z.string(),
  /**
   * The platform time zone (the server's TIME_ZONE, an IANA name such as 'Asia/Kolkata'). Every time
   * the server reads or writes as text ('YYYY-MM-DD HH:mm:ss', date filters among them) is wall-clock
   * time there, so the console shows times and computes "today" in it, not in the browser's zone.
   */
  timeZone: z.string(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const sessionRowSchema = z.object({
  /** Identifies the session for forceLogout; never the session's secret token. */
  sessionId: z.string(),
  userId: z.number().int(),
  account: z.string(),
  role: roleSchema,
  ip: z.string(),
  userAgent: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  expiresAt: z.string(),
  current: z.boolean(),
});
export type SessionRow = z.infer<typeof sessionRowSchema>;
