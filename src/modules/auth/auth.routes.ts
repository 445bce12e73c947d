import type { CookieOptions, Response } from 'express';
import type { AuthConfig } from './auth.env';
import { defineRoute, type RouteDefinition } from '../../platform/http/route';
import {
  acceptInviteBody,
  accessTokenResponse,
  confirmEmailQuery,
  emailBody,
  loginBody,
  meResponse,
  okResponse,
  registerBody,
  registeredResponse,
  resetPasswordBody,
  sessionResponse,
} from './auth.schemas';
import { authMessages, type AuthService, type IssuedSession, type RegisterInput } from './auth.service';

export const REFRESH_COOKIE = 'refresh_token';

interface Credentials {
  email: string;
  password: string;
}

export function authRoutes(auth: AuthService, config: AuthConfig): RouteDefinition[] {
  const cookieOptions: CookieOptions = {
    httpOnly: true,
    sameSite: 'strict',
    secure: config.env === 'production',
    path: '/api/auth',
  };

  function sendSession(res: Response, session: IssuedSession): void {
    res.cookie(REFRESH_COOKIE, session.refreshToken, {
      ...cookieOptions,
      maxAge: config.refreshTokenTtlDays * 24 * 3600 * 1000,
    });
    res.json({ access_token: session.accessToken, user: session.user });
  }

  const refreshCookie = (cookies: Record<string, unknown> | undefined): string | undefined => {
    const value = cookies?.[REFRESH_COOKIE];
    return typeof value === 'string' && value ? value : undefined;
  };

  const tags = ['Authentication'];
  return [
    defineRoute<Credentials>({
      method: 'post',
      path: '/api/auth/login',
      summary: 'Sign in',
      description:
        'Sets the `refresh_token` cookie (HttpOnly, SameSite=Strict, path /api/auth, Secure in production). ' +
        '401 for an unknown e-mail or a wrong password (same time either way), 403 for an unconfirmed e-mail.',
      tags,
      access: { kind: 'public' },
      caller: 'visitor',
      rateLimit: { scope: 'login', accountField: 'email' },
      request: { body: loginBody },
      responses: {
        200: { description: 'Signed in', schema: sessionResponse },
        401: { description: authMessages.invalidCredentials },
        403: { description: authMessages.emailNotConfirmed },
      },
      async handler({ body, res }) {
        sendSession(res, await auth.login(body.email, body.password));
      },
    }),
    defineRoute<RegisterInput>({
      method: 'post',
      path: '/api/auth/register',
      // A retry is refused (409: the e-mail is taken), so nothing is created twice; there is no hotel yet to keep a key under.
      idempotency: { none: 'a second registration of the e-mail is refused (409)' },
      summary: 'Register a hotel and its owner',
      description:
        'Creates the hotel, its owner (hotel_admin, unconfirmed) and three draft rental objects in one transaction, ' +
        'then e-mails the confirmation link. The password needs 8 characters, a Latin or Cyrillic letter and at most 72 bytes.',
      tags,
      access: { kind: 'public' },
      caller: 'visitor',
      rateLimit: { scope: 'register', accountField: 'email' },
      request: { body: registerBody },
      responses: {
        201: { description: 'Registered; confirmation e-mail on its way', schema: registeredResponse },
        409: { description: authMessages.emailTaken },
      },
      async handler({ body, res }) {
        await auth.register(body);
        res.status(201).json({ ok: true, message: authMessages.registered });
      },
    }),
    defineRoute<unknown, { token?: string }>({
      method: 'get',
      path: '/api/auth/confirm-email',
      summary: 'Confirm the e-mail address (link from the e-mail)',
      tags,
      access: { kind: 'public' },
      caller: 'visitor',
      request: { query: confirmEmailQuery },
      responses: {
        302: {
          description: 'Redirect to the application',
          headers: {
            Location: '{app_url}/login?confirmed=1, ?error=invalid_token or ?error=token_expired',
          },
        },
      },
      async handler({ query, res }) {
        const outcome = await auth.confirmEmail(query.token);
        const search = outcome === 'confirmed' ? 'confirmed=1' : `error=${outcome}`;
        res.redirect(302, `${config.appUrl}/login?${search}`);
      },
    }),
    defineRoute<{ email: string }>({
      method: 'post',
      path: '/api/auth/resend-confirmation',
      summary: 'Send the confirmation link again',
      description: 'Always 200; only an existing unconfirmed account gets a new link (valid 24 hours).',
      tags,
      access: { kind: 'public' },
      caller: 'visitor',
      rateLimit: { scope: 'resend-confirmation', accountField: 'email' },
      request: { body: emailBody },
      responses: { 200: { description: 'Accepted', schema: okResponse } },
      async handler({ body, res }) {
        await auth.requestAccountEmail('confirmation', body.email);
        res.json({ ok: true });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/refresh',
      summary: 'New access token from the refresh cookie',
      description: 'Re-reads the role and hotel from storage. An inactive or deleted account loses its session.',
      tags,
      access: { kind: 'public' },
      caller: 'visitor',
      responses: {
        200: { description: 'A new access token', schema: accessTokenResponse },
        401: {
          description: `${authMessages.noRefreshToken} | ${authMessages.invalidRefreshToken} | ${authMessages.inactiveAccount}`,
        },
      },
      async handler({ req, res }) {
        try {
          res.json({ access_token: await auth.refresh(refreshCookie(req.cookies)) });
        } catch (error) {
          if ((error as { code?: string }).code === 'account_inactive') res.clearCookie(REFRESH_COOKIE, cookieOptions);
          throw error;
        }
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/logout',
      summary: 'Sign out',
      tags,
      access: { kind: 'public' },
      caller: 'visitor',
      responses: { 200: { description: 'Signed out; cookie cleared', schema: okResponse } },
      async handler({ req, res }) {
        await auth.logout(refreshCookie(req.cookies));
        res.clearCookie(REFRESH_COOKIE, cookieOptions);
        res.json({ ok: true });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/logout-everywhere',
      summary: 'Sign out on every device',
      description:
        "Ends every refresh session of the account and voids every access token issued so far (the account's open " +
        "realtime connections are closed with code 4003). Clears this client's cookie.",
      tags,
      access: { kind: 'authenticated' },
      responses: { 200: { description: 'Signed out everywhere; cookie cleared', schema: okResponse } },
      async handler({ auth: token, res }) {
        await auth.logoutEverywhere(token!.sub);
        res.clearCookie(REFRESH_COOKIE, cookieOptions);
        res.json({ ok: true });
      },
    }),
    defineRoute<{ email: string }>({
      method: 'post',
      path: '/api/auth/forgot-password',
      summary: 'E-mail a password reset link',
      description: 'Always 200; only an existing confirmed account gets a link (valid 1 hour).',
      tags,
      access: { kind: 'public' },
      caller: 'visitor',
      rateLimit: { scope: 'forgot-password', accountField: 'email' },
      request: { body: emailBody },
      responses: { 200: { description: 'Accepted', schema: okResponse } },
      async handler({ body, res }) {
        await auth.requestAccountEmail('reset', body.email);
        res.json({ ok: true });
      },
    }),
    defineRoute<{ token: string; password: string }>({
      method: 'post',
      path: '/api/auth/reset-password',
      summary: 'Set a new password with a reset link',
      description: 'Signs the account out of every session.',
      tags,
      access: { kind: 'public' },
      caller: 'visitor',
      request: { body: resetPasswordBody },
      responses: { 200: { description: 'Password replaced', schema: okResponse } },
      async handler({ body, res }) {
        await auth.resetPassword(body.token, body.password);
        res.json({ ok: true });
      },
    }),
    defineRoute<{ token: string; password: string }>({
      method: 'post',
      path: '/api/auth/accept-invite',
      summary: 'Accept a staff invitation and sign in',
      tags,
      access: { kind: 'public' },
      caller: 'visitor',
      request: { body: acceptInviteBody },
      responses: { 200: { description: 'Account activated and signed in', schema: sessionResponse } },
      async handler({ body, res }) {
        sendSession(res, await auth.acceptInvite(body.token, body.password));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/auth/me',
      summary: 'The signed-in account',
      tags,
      access: { kind: 'authenticated', closedAccountsToo: true },
      responses: {
        200: { description: 'The account, or null when it no longer exists or is inactive', schema: meResponse },
      },
      async handler({ auth: token, res }) {
        res.json(await auth.me(token!));
      },
    }),
  ];
}
