import express, { type RequestHandler, type Router } from 'express';
import type passport from 'passport';
import { ERROR_MESSAGES, isPlainObject, notInTenantMessage, type TenantSwitchRequest } from '../../shared';
import { HttpError } from '../http/http-error';
import { jsonRoute } from '../http/json-route';
import { isPageNavigation } from '../http/page-navigation';
import { requireJsonBody } from '../http/require-json-body';
import { currentTenant, NO_TENANT_MESSAGE, tenantContext } from './current-tenant';
import type { TenantStore } from '../tenants/tenant-store';
import { LOCAL_STRATEGY } from './create-passport';
import { AccountDisabledError } from './credential-checker';
import { parseLoginRequest } from './login-request';
import { reportPasswordCheck } from './login-rate-limit/login-throttle';
import { mePayload } from './me-payload';
import { requireSession } from './require-session';
import { addSessionTimeRoutes, sessionTimeOf } from './session-time';
import { forgetSessionInBrowser, signOutNotEnded } from './session-cookie';
import type { StaffUser } from './staff-user';

export interface AuthRouterOptions {
  authenticator: passport.Authenticator;
  tenants: TenantStore;
  now: () => number;
  /** The session limits, for `GET /session` and `POST /session` (see session-time.ts). */
  idleMs: number;
  absoluteMs: number;
  bodyLimitBytes: number;
  /** Run after the body is parsed and before the password is checked (e.g. a sign-in rate limit). */
  beforeLogin?: readonly RequestHandler[];
}

export const TENANT_REQUEST_MESSAGE = 'Send a JSON object: { "tenant": "<tenant id>" }.';

/**
 * `POST /login`, `POST /logout`, `GET /me`, `POST /tenant`, `GET` and `POST /session`. Expects express-session and
 * passport to be mounted before it (for `/login` and `/logout`: before their POSTs). `GET /login` is left to the host
 * shell (its sign-in page), and so is a browser opening `/logout`.
 */
export function createAuthRouter(options: AuthRouterOptions): Router {
  const router = express.Router();
  const json = requireJsonBody(options.bodyLimitBytes);

  const login: RequestHandler = (req, res, next) => {
    const credentials = parseLoginRequest(req.body);
    req.body = credentials;
    const authenticate = options.authenticator.authenticate(
      LOCAL_STRATEGY,
      (error: unknown, user: StaffUser | false | null) => {
        if (error instanceof AccountDisabledError) {
          // The right password: not a guess, so not counted as a failure (the person, told, stops trying); nor a
          // sign-in, so the failures before it still count.
          reportPasswordCheck(res, 'disabled');
          req.log.info({ user: error.username, client: req.ip }, 'sign-in refused: account disabled');
          next(error);
          return;
        }
        if (error) {
          next(error);
          return;
        }
        // The sign-in limits learn the outcome now, not from the answer: a client that gives up meanwhile changes
        // nothing (a correct password is never counted as a failure).
        reportPasswordCheck(res, user ? 'signed-in' : 'wrong');
        // One answer for an unknown account and a wrong password.
        if (!user) {
          // The log tells an operator whose password is being guessed, and from where (the sign-in metric only
          // counts); the answer does not tell the caller whether the account exists.
          req.log.warn({ username: credentials.username, client: req.ip }, 'sign-in refused');
          next(new HttpError('unauthenticated', ERROR_MESSAGES.invalidCredentials));
          return;
        }
        options.tenants.membershipsOf(user.id).then((memberships) => {
          // The tenant the page asks for (it showed it when its session ended): one the account is not in is refused,
          // rather than signed in to its first tenant without a word, the user then working there taking it for the
          // one asked (the host asks again without it, and says why: session-store.ts).
          const context = tenantContext(user, memberships, credentials.tenant);
          if (!context) {
            next(new HttpError('forbidden', NO_TENANT_MESSAGE));
            return;
          }
          if (credentials.tenant !== undefined && context.current.id !== credentials.tenant) {
            req.log.info(
              { user: user.username, client: req.ip, tenant: credentials.tenant },
              'sign-in refused: not in that tenant',
            );
            next(new HttpError('not_in_tenant', notInTenantMessage(credentials.tenant)));
            return;
          }
          // passport regenerates the session here: whatever session id the browser had before is not the new one.
          req.logIn(user, (loginError: unknown) => {
            if (loginError) {
              next(loginError);
              return;
            }
            const now = options.now();
            req.session.createdAt = now;
            req.session.lastSeenAt = now;
            req.session.tenant = context.current.id;
            req.log.info({ user: user.username, client: req.ip, tenant: context.current.id }, 'signed in');
            res.json(mePayload(user, context, sessionTimeOf(req, options)));
          });
        }, next);
      },
    );
    authenticate(req, res, next);
  };

  const logout: RequestHandler = (req, res, next) => {
    const user = (req.user as StaffUser | undefined)?.username;
    const done = () => {
      if (user !== undefined) req.log.info({ user, client: req.ip }, 'signed out');
      forgetSessionInBrowser(req, res);
      res.status(204).end();
    };
    if (!req.session) {
      done();
      return;
    }
    req.session.destroy((error: unknown) => {
      if (!error) return done();
      req.log.error({ err: error }, 'sign-out could not end the stored session');
      next(signOutNotEnded(req, res, options.idleMs));
    });
  };

  const me: RequestHandler = async (req, res) => {
    res.json(mePayload(req.user as StaffUser, await currentTenant(req, options.tenants), sessionTimeOf(req, options)));
  };

  const switchTenant: RequestHandler = async (req, res) => {
    const wanted = parseTenantRequest(req.body).tenant;
    const user = req.user as StaffUser;
    const memberships = await options.tenants.membershipsOf(user.id);
    if (memberships.tenants.length === 0) throw new HttpError('forbidden', NO_TENANT_MESSAGE);
    if (!memberships.tenants.some((tenant) => tenant.id === wanted)) {
      throw new HttpError('forbidden', ERROR_MESSAGES.forbiddenTenant);
    }
    // The answer carries the role and permissions of the new tenant: the shell follows them at once.
    const context = tenantContext(user, memberships, wanted)!;
    req.session.tenant = context.current.id;
    res.json(mePayload(user, context, sessionTimeOf(req, options)));
  };

  jsonRoute(
    router,
    '/login',
    { POST: [...json, ...(options.beforeLogin ?? []), login] },
    { passThrough: ['GET', 'HEAD'] },
  );
  // Sign-out is a POST; a browser opening /logout gets the host's sign-out page (which asks before signing out), not
  // a JSON 405 shown raw. API clients still get the 405.
  router.get('/logout', (req, _res, next) => {
    if (isPageNavigation(req)) next('router');
    else next();
  });
  jsonRoute(router, '/logout', { POST: logout });
  jsonRoute(router, '/me', { GET: [requireSession, me] });
  jsonRoute(router, '/tenant', { POST: [requireSession, ...json, switchTenant] });
  addSessionTimeRoutes(router, options);
  return router;
}

function parseTenantRequest(body: unknown): TenantSwitchRequest {
  if (!isPlainObject(body) || typeof body.tenant !== 'string' || body.tenant === '') {
    throw HttpError.invalidRequest(TENANT_REQUEST_MESSAGE, { tenant: 'Give the id of a tenant.' });
  }
  return { tenant: body.tenant };
}
