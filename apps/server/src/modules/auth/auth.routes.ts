import { type endpoints, pageSizeOf } from '@paydesk/contract';
import type { FastifyReply } from 'fastify';
import type { Handlers } from '../../platform/context.js';
import type { AuthService } from './auth.service.js';

/**
 * The spec's token cookie: 1 day. It only authenticates GET downloads (CSV exports, a link the browser
 * follows); the console keeps the token from the login answer and sends it as the `token` header. So
 * no script needs the cookie: HttpOnly keeps an injected script from reading it, SameSite=Strict keeps
 * other sites' links from carrying it, Secure when the request came over https (`protocol` follows
 * X-Forwarded-Proto when TRUST_PROXY is set).
 */
function cookieOptions(reply: FastifyReply) {
  return { path: '/', sameSite: 'strict', httpOnly: true, secure: reply.request.protocol === 'https' } as const;
}

function setTokenCookie(reply: FastifyReply, token: string, maxAgeSeconds: number) {
  reply.setCookie('token', token, { ...cookieOptions(reply), maxAge: maxAgeSeconds });
}

export function authHandlers(auth: AuthService, sessionLifetimeMinutes: number) {
  return {
    login: async (input, ctx) => {
      const result = await auth.login(input, { ip: ctx.ip, userAgent: ctx.userAgent });
      setTokenCookie(ctx.reply, result.token, sessionLifetimeMinutes * 60);
      return result;
    },
    login2: (input, ctx) => auth.login2(ctx.user, input, ctx.actor),
    getInfo: (_input, ctx) => auth.getInfo(ctx.user, ctx.token2Valid),
    logout: async (_input, ctx) => {
      await auth.logout(ctx.user, ctx.actor);
      ctx.reply.clearCookie('token', cookieOptions(ctx.reply));
      return null;
    },
    getSessions: (input, ctx) =>
      auth.getSessions(ctx.user, ctx.scope, {
        pageIndex: input?.pageIndex ?? 1,
        pageSize: input ? pageSizeOf(input) : 20,
        account: input?.account,
      }),
    exportSessions: (input, ctx) => auth.exportSessions(ctx.user, ctx.scope, input),
    forceLogout: async (input, ctx) => {
      await auth.forceLogout(ctx.user, ctx.role, ctx.scope, input.token, ctx.actor);
      return null;
    },
    clearSignInLock: async (input, ctx) => {
      await auth.clearSignInLock(ctx.user, input.userId, ctx.actor);
      return null;
    },
    bindUser: async (input, ctx) => {
      await auth.bindUser(ctx.user, input, ctx.actor);
      return null;
    },
    bindUserForProfile: (input, ctx) => auth.bindUserForProfile(ctx.user, input, ctx.actor),
    unbind: async (input, ctx) => {
      await auth.unbind(ctx.user, input, ctx.actor);
      return null;
    },
    unbindForProfile: async (input, ctx) => {
      await auth.unbindForProfile(ctx.user, input, ctx.actor);
      return null;
    },
    confirmBind: async (input, ctx) => {
      await auth.confirmBind(ctx.user, input, ctx.actor);
      return null;
    },
    confirmBindForProfile: async (input, ctx) => {
      await auth.confirmBindForProfile(ctx.user, input, ctx.actor);
      return null;
    },
    enableGoogleVerify: async (input, ctx) => {
      await auth.setUserFlag(ctx.user, input.userId, 'enableGoogleVerify', input.enableGoogleVerify, ctx.actor);
      return null;
    },
    setAllowModify: async (input, ctx) => {
      await auth.setUserFlag(ctx.user, input.userId, 'allowModify', input.allowModify, ctx.actor);
      return null;
    },
  } satisfies Handlers<typeof endpoints.auth>;
}
