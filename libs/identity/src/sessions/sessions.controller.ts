import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { DomainError, extractCredentials, LastModified, SESSION_COOKIE, SkipAuth } from '@app/api';
import { AppConfig } from '@app/config';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { presentUser } from '../users/user.presenter';
import { UsersRepository } from '../users/users.repository';
import { ACCOUNT_LOCKED_MESSAGE } from '../lockout/account-lockout';
import { ProtectedPath } from '../throttle/protected-path-throttle.guard';
import { AuthenticateWithPasswordUseCase } from '../use-cases/authenticate-with-password.use-case';
import { SessionStore } from './session.store';

interface SignInBody {
  user?: { login?: unknown; password?: unknown };
  login?: unknown;
  password?: unknown;
}

/**
 * Web sign-in (outside /api/v4, as GitLab's `/users/sign_in`): sets the `_service_session`
 * cookie that the API accepts. Writes made with the cookie alone also need the session's
 * CSRF token in `X-CSRF-Token`, returned here.
 */
@Controller('users')
export class SessionsController {
  constructor(
    private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly sessions: SessionStore,
    private readonly authenticateWithPassword: AuthenticateWithPasswordUseCase,
  ) {}

  /**
   * A protected path (at most 10 requests a minute per IP by default). Wrong passwords count
   * against the account: the 10th locks it for 10 minutes, and while it is locked every attempt
   * is answered 401 `Your account is locked.`
   */
  @Post('sign_in')
  @SkipAuth()
  @ProtectedPath()
  async signIn(@Body() body: SignInBody, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    const login = body?.user?.login ?? body?.login;
    const password = body?.user?.password ?? body?.password;
    if (typeof login !== 'string' || login === '') throw DomainError.missing('user[login]');
    if (typeof password !== 'string' || password === '') throw DomainError.missing('user[password]');
    const result = await this.authenticateWithPassword.execute({ login, password });
    if (result.outcome === 'locked') {
      reply.status(401);
      return { message: ACCOUNT_LOCKED_MESSAGE };
    }
    if (result.outcome !== 'authenticated') throw DomainError.unauthorized();
    const user = result.user;
    const { cookie, session, maxAgeSeconds } = await this.sessions.create(user.id);
    reply.setCookie(SESSION_COOKIE, cookie, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.http.externalUrl.startsWith('https:'),
      maxAge: maxAgeSeconds,
    });
    reply.header('X-CSRF-Token', session.csrfToken);
    reply.status(201);
    return { ...presentUser(user, user.isAdmin ? 'admin' : 'self', this.config.http.externalUrl), csrf_token: session.csrfToken };
  }

  /**
   * The signed-in user and the session's CSRF token, for a page loaded after the sign-in (the
   * web console). Readable by same-origin scripts only: no CORS header is ever sent.
   */
  @Get('session')
  @SkipAuth()
  async current(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<unknown> {
    const cookie = request.cookies?.[SESSION_COOKIE];
    const session = cookie ? await this.sessions.find(cookie) : null;
    const user = session ? await this.users.findById(session.userId) : null;
    if (!session || !user || user.state !== 'active') throw DomainError.unauthorized();
    reply.header('Cache-Control', 'no-store');
    return { ...presentUser(user, user.isAdmin ? 'admin' : 'self', this.config.http.externalUrl), csrf_token: session.csrfToken };
  }

  /**
   * Ends the session of the cookie. Like every other write made with the session cookie, it needs
   * the session's CSRF token in `X-CSRF-Token` (otherwise any site could sign the user out):
   * without it, 401 and the session stays. Without a session there is nothing to end: 204.
   */
  @Delete('sign_out')
  @LastModified.notApplicable("ends the caller's web session, no API resource")
  @SkipAuth()
  @HttpCode(204)
  async signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    const cookie = request.cookies?.[SESSION_COOKIE];
    const session = cookie ? await this.sessions.find(cookie) : null;
    if (session) {
      const presented = extractCredentials(request).csrfToken;
      if (!SessionStore.csrfMatches(session, presented)) throw DomainError.unauthorized();
      await this.sessions.destroy(cookie!);
    }
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
  }
}
