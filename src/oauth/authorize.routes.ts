import type { MikroORM } from '@mikro-orm/postgresql';
import type { NextFunction, Request, Response, Router } from 'express';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { MemberService, normalizeEmail } from '../members/member.service.js';
import { attemptAll, type AttemptLimiter } from './brute-force.js';
import { renderErrorPage, renderSignInPage, sendPage, type SignInPage } from './authorize-page.js';
import { checkAuthorizationRequest, errorRedirect, type AuthorizationParams } from './authorize-request.js';
import { csrfTokenValid, issueCsrfToken } from './csrf.js';
import type { OAuthEndpoints } from './oauth-endpoints.js';
import type { GrantHolder, OAuthStore } from './oauth-store.js';

export interface AuthorizeRouteDeps {
  orm: MikroORM;
  clock: Clock;
  logger: Logger;
  store: OAuthStore;
  /** The OAuth library's servers, loaded on first use. */
  endpoints: OAuthEndpoints;
  signInLimits: { perIp: AttemptLimiter; perAccountIp: AttemptLimiter; perAccount: AttemptLimiter };
  /** Mark the CSRF cookie Secure (the public URL is https). */
  secureCookies: boolean;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** GET shows the sign-in and consent page; POST signs the member in and answers the client. */
export function mountAuthorizeRoutes(router: Router, deps: AuthorizeRouteDeps): void {
  const { store, endpoints } = deps;

  const showPage = (res: Response, status: number, page: Omit<SignInPage, 'csrfToken'>) =>
    sendPage(res, status, renderSignInPage({ ...page, csrfToken: issueCsrfToken(res, deps.secureCookies) }));

  /**
   * The library validates the request once more, stores the code and builds the redirect (with the code,
   * or with an OAuth error such as invalid_scope when the member's role may not grant `admin`).
   */
  const issueCode = async (
    req: Request,
    params: AuthorizationParams,
    holder: GrantHolder,
  ): Promise<string> => {
    const { library, servers } = await endpoints.load();
    const response = library.libraryResponse();
    try {
      await servers.authorize.authorize(library.libraryRequest(req, params), response, {
        authenticateHandler: { handle: () => holder },
      });
    } catch (error) {
      if (!endpoints.isOAuthError(error) || error.code >= 500 || !response.get('location')) {
        deps.logger.error({ err: error, requestId: req.requestId }, 'authorization failed');
        return errorRedirect(
          params.redirect_uri!,
          'server_error',
          'An internal error occurred',
          params.state,
        );
      }
    }
    return String(response.get('location'));
  };

  router.get('/oauth/authorize', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const check = await checkAuthorizationRequest(store, req.query as Record<string, unknown>);
      if (check.kind === 'page') return sendPage(res, check.status, renderErrorPage(check.message));
      if (check.kind === 'redirect') return res.redirect(302, check.location);
      showPage(res, 200, check);
    } catch (error) {
      next(error);
    }
  });

  router.post('/oauth/authorize', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      if (!csrfTokenValid(req, body.csrf_token)) {
        return sendPage(
          res,
          403,
          renderErrorPage(
            'This sign-in form expired or was not sent from this site. Start again from the application.',
          ),
        );
      }
      const check = await checkAuthorizationRequest(store, body);
      if (check.kind === 'page') return sendPage(res, check.status, renderErrorPage(check.message));
      if (check.kind === 'redirect') return res.redirect(302, check.location);
      const { client, params } = check;
      if (body.decision === 'deny') {
        return res.redirect(
          302,
          errorRedirect(params.redirect_uri!, 'access_denied', 'The member denied the request', params.state),
        );
      }

      const email = text(body.email);
      const ip = req.ip ?? '';
      const accountKey = `${client.organizationId}:${normalizeEmail(email)}`;
      const accountIpKey = `${accountKey}|${ip}`;
      // Counted before the password is checked, so parallel guesses cannot slip past the limits.
      const allowed = await attemptAll([
        [deps.signInLimits.perIp, ip],
        [deps.signInLimits.perAccountIp, accountIpKey],
        [deps.signInLimits.perAccount, accountKey],
      ]);
      if (!allowed.allowed) {
        res.set('Retry-After', String(allowed.retryAfterSeconds));
        const minutes = Math.ceil(allowed.retryAfterSeconds / 60);
        return showPage(res, 429, {
          ...check,
          email,
          error: `Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        });
      }
      const members = new MemberService({
        em: deps.orm.em.fork(),
        scope: { organizationId: client.organizationId },
        clock: deps.clock,
      });
      // The same message whether the email is unknown or the password wrong (no account enumeration).
      const member = await members.verifyCredentials(email, text(body.password));
      if (!member)
        return showPage(res, 401, { ...check, email, error: 'The email or password is incorrect.' });
      // A success clears this address's failures at the account, and gives back its own point only at
      // the account-wide counter (failures from elsewhere still count there).
      await Promise.all([
        deps.signInLimits.perAccountIp.clear(accountIpKey),
        deps.signInLimits.perAccount.forgive(accountKey),
      ]);

      res.redirect(302, await issueCode(req, params, { memberId: member.id, role: member.role }));
    } catch (error) {
      next(error);
    }
  });
}
