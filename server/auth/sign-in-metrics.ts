import type { RequestHandler } from 'express';
import type { ErrorCode } from '../../shared';
import { ANSWERED_ERROR_CODE } from '../http/error-handler';
import type { MetricsRegistry } from '../observability/metrics-registry';

/** What a `POST /login` came to, by its answer's status (shared/errors.ts gives each refusal its status). */
export const SIGN_IN_OUTCOMES: Readonly<Record<number, string>> = Object.freeze({
  200: 'signed-in',
  400: 'invalid-request',
  401: 'refused',
  403: 'no-tenant',
  413: 'invalid-request',
  415: 'invalid-request',
  429: 'throttled',
  503: 'unavailable',
});

/**
 * The refusals told apart by their code where they share a status: a 403 is an account in no tenant unless it is one
 * of these. A disabled account's right password is not a guess (it counts for no alert); a tenant the account is not
 * in is a page asking again after its account left it.
 */
export const SIGN_IN_OUTCOMES_BY_CODE: Readonly<Partial<Record<ErrorCode, string>>> = Object.freeze({
  account_disabled: 'disabled',
  not_in_tenant: 'not-in-tenant',
});

/**
 * `slots_sign_ins_total{outcome}` and `slots_sign_outs_total`, counted from the answers of `POST /login` and
 * `POST /logout`: a burst of `refused` is someone guessing passwords, of `throttled` the limits holding them off.
 * Mount on those two paths; the sign-in code itself stays unaware of metrics.
 */
export function createSignInMetrics(metrics: MetricsRegistry): { login: RequestHandler; logout: RequestHandler } {
  const signIns = metrics.counter({
    name: 'slots_sign_ins_total',
    help:
      'Sign-in attempts (POST /login) by outcome: signed-in, refused, throttled, no-tenant, not-in-tenant, disabled, ' +
      'invalid-request, unavailable, error.',
    labelNames: ['outcome'] as const,
  });
  // Every outcome's series from the first scrape: an increase counts from a series' first sample, so a burst of
  // refusals right after a start, its series appearing at 25, would count nothing (SlotsSignInsRefusedSurge).
  const outcomes = [...Object.values(SIGN_IN_OUTCOMES), ...Object.values(SIGN_IN_OUTCOMES_BY_CODE), 'error'];
  for (const outcome of new Set(outcomes)) signIns.inc({ outcome }, 0);
  const signOuts = metrics.counter({ name: 'slots_sign_outs_total', help: 'Sign-outs (POST /logout) answered.' });
  return {
    login: (req, res, next) => {
      if (req.method === 'POST') {
        res.once('finish', () => {
          const code = res.locals[ANSWERED_ERROR_CODE] as ErrorCode | undefined;
          const byCode = code === undefined ? undefined : SIGN_IN_OUTCOMES_BY_CODE[code];
          signIns.inc({ outcome: byCode ?? SIGN_IN_OUTCOMES[res.statusCode] ?? 'error' });
        });
      }
      next();
    },
    logout: (req, res, next) => {
      if (req.method === 'POST') res.once('finish', () => res.statusCode < 300 && signOuts.inc());
      next();
    },
  };
}
