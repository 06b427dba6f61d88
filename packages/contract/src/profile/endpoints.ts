import { z } from 'zod';
import { nicknameSchema, passwordSchema } from '../auth/schemas.js';
import { defineEndpoint } from '../common/endpoint.js';
import { ALL_ROLES } from '../common/roles.js';

const ok = z.null();
/** Guessing a password through a stolen session is slowed down like sign-in is. */
const PASSWORD_LIMIT = { max: 20, timeWindowMs: 60_000 };

/** Texts the console shows for the personal centre's refusals. */
export const PROFILE_TEXTS = {
  modifyNotAllowed: 'your account may not change its own nickname; ask an administrator',
  oldPasswordIncorrect: 'old password is incorrect',
  passwordIncorrect: 'password is incorrect',
  samePassword: 'the new password must differ from the current one',
  payPasswordSameAsSignIn: 'the second-level password must differ from the sign-in password',
} as const;

/**
 * The personal centre: the caller changes its own account. Nickname (like the authenticator, see
 * bindUserForProfile) is gated by the account's allowModify flag; passwords are not, so that an
 * account can always secure itself.
 */
export const profileEndpoints = {
  updateNickname: defineEndpoint({
    method: 'POST',
    path: '/v1.0/profile/updateNickname',
    summary: 'Change one’s own nickname; only when the account’s allowModify is on (else 403)',
    input: z.strictObject({ nickname: nicknameSchema }),
    output: ok,
    example: { nickname: 'Night shift lead' },
    access: ALL_ROLES,
    token2: false,
    scope: 'self',
  }),
  changePassword: defineEndpoint({
    method: 'POST',
    path: '/v1.0/profile/changePassword',
    summary:
      'Change one’s own sign-in password (old one required; 1001 when wrong); ends one’s other sessions. ' +
      'Allowed even when allowModify is off: an account may always secure itself.',
    input: z.strictObject({ oldPassword: z.string().min(1).max(128), newPassword: passwordSchema }),
    output: ok,
    example: { oldPassword: 'demo1234', newPassword: 'night2024' },
    access: ALL_ROLES,
    token2: false,
    scope: 'self',
    rateLimit: PASSWORD_LIMIT,
  }),
  changePayPassword: defineEndpoint({
    method: 'POST',
    path: '/v1.0/profile/changePayPassword',
    summary:
      'Set one’s own second-level password, proving identity with the sign-in password; replacing an ' +
      'existing one also needs token2 (1024/1025: the current second-level password), setting the first ' +
      'one does not (login2 would ask for the sign-in password, or, under EnablePayPassword, refuse). Ends ' +
      'the token2 of one’s other sessions. Allowed even when allowModify is off: an account may always secure itself.',
    input: z.strictObject({ password: z.string().min(1).max(128), newPayPassword: passwordSchema }),
    output: ok,
    example: { password: 'demo1234', newPayPassword: 'secure2024' },
    access: ALL_ROLES,
    // Checked by the service: needed only to replace an existing second-level password.
    token2: false,
    scope: 'self',
    rateLimit: PASSWORD_LIMIT,
  }),
} as const;
