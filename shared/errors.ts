import type { PlacementProblem, PlacementsDraft } from './placements';
import type { ResourceRecord, RestorableRecord } from './resource-record';

/** Error codes and statuses of every JSON error the server sends. */
export const ERROR_STATUS = {
  invalid_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  /**
   * A sign-in naming a tenant (`POST /login`'s `tenant`) the account is not in: no session is made. Asked again
   * without `tenant`, it starts in the account's first tenant.
   */
  not_in_tenant: 403,
  /**
   * A sign-in with the right password for a disabled account: no session is made. Only the right password is told
   * (it proves nothing to a guesser); a wrong one is answered as any wrong password, 401 `unauthenticated`.
   */
  account_disabled: 403,
  not_found: 404,
  method_not_allowed: 405,
  /** The request did not arrive whole within REQUEST_TIMEOUT_MS (or its headers within HEADERS_TIMEOUT_MS). */
  request_timeout: 408,
  conflict: 409,
  /** A change asked by a page that shows another tenant than the session's now (PAGE_TENANT_HEADER). */
  tenant_changed: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  /** The request's headers are larger than the server reads (Node's limit, 16 KiB by default). */
  headers_too_large: 431,
  too_many_requests: 429,
  internal: 500,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    /** Per-field messages of a rejected record or form. */
    fields?: Record<string, string>;
    /** A release refused: the placements it would break, one line each (releases.ts ReleaseProblems). */
    problems?: string[];
    /** A placements publish or rollback refused: each problem with the slot it is about (placements.ts). */
    placementProblems?: PlacementProblem[];
    /** A placements draft save refused (409): who saved the draft since, and when (its new `updatedAt`). */
    savedDraft?: Pick<PlacementsDraft, 'updatedBy' | 'updatedAt'>;
    /** A record not found (404) because it was deleted: which, and until when it can be restored. */
    deletedRecord?: RestorableRecord;
    /** A record save refused (409) because a field of its UNCHANGED_FIELDS_KEY holds another value: the record now. */
    storedRecord?: ResourceRecord;
  };
}

/** Fixed messages that clients and tests may rely on. */
export const ERROR_MESSAGES = {
  unauthenticated: 'Sign in to continue.',
  invalidCredentials: 'Invalid username or password.',
  accountDisabled: 'This account is disabled, so signing in again will not help. Ask an administrator to enable it.',
  forbiddenTenant: 'You do not belong to that tenant.',
  crossSite: 'Cross-site request refused.',
  notFound: 'Not found.',
  internal: 'Something went wrong on the server.',
  tooManyAttempts: 'Too many sign-in attempts. Try again later.',
  tooManyTokenChecks: 'Too many requests with an unknown team token from this address. Try again later.',
  payloadTooLarge: 'Request body too large.',
  unsupportedMediaType: 'Send JSON with Content-Type: application/json.',
  malformedJson: 'Request body is not valid JSON.',
  jsonNotObject: 'Request body must be a JSON object.',
  undecodablePath: 'The request path is not valid percent-encoding.',
  notHttp: 'The request is not valid HTTP/1.1.',
  noHost: 'An HTTP/1.1 request needs a Host header.',
  requestTimeout: 'The request did not arrive in time.',
  headersTooLarge: 'The request headers are too large.',
  unavailable: 'The service is temporarily unavailable. Try again shortly.',
  signInBusy: 'Too many sign-ins at this moment. Try again in a few seconds.',
} as const;

/**
 * The message of a sign-in refused (403 `not_in_tenant`) for a tenant the account is not in: it landed in the
 * account's first tenant, saying nothing, and the user then worked there taking it for the one they asked for.
 */
export function notInTenantMessage(tenant: string): string {
  return (
    `Your account is not in tenant "${tenant}" (removed from it, or never added): nothing was signed in. ` +
    'Sign in without a tenant to work in your first one, or ask an administrator to add you to it.'
  );
}

/**
 * The 403 of a team token (or any bearer token) sent without a session to a route that only staff use: what a team
 * token does, naming its two routes, and that everything else needs a staff sign-in. Said instead of
 * `unauthenticated`'s "Sign in to continue.", which sent a team's CI looking for a sign-in it will never have.
 * `remote`: the route's, when its path names one (the releases API); else `<name>`.
 */
export function teamTokenNotServedMessage(remote?: string): string {
  const name = remote ?? '<name>';
  return (
    `A team token only publishes its remote's releases (POST /api/remotes/${name}/releases) and, where the ` +
    `operators allow it ("teamRollouts" in the remote's REMOTES_CONFIG entry), starts and steers its progressive ` +
    `rollouts (/api/remotes/${name}/rollouts). Every other route is for staff signed in with a session (POST ` +
    '/login), never for a token: activating a release, rolling back and canaries are done by an operator on the ' +
    'Releases page (/releases), or with a request signed in as one.'
  );
}

/**
 * The 403 of a state-changing request from a page at another address than PUBLIC_URL's (or ALLOWED_ORIGINS') when
 * the page calls itself this server's own: a name made to point at the server (DNS rebinding), or staff who opened the
 * product at an address the operators did not declare. The address the request named is not repeated: it is the
 * sender's to choose.
 */
export function undeclaredAddressMessage(publicOrigin: string): string {
  return (
    `This product's pages are at ${publicOrigin} (PUBLIC_URL): a change sent from a page at another address is ` +
    'refused. Open the product at that address, or ask the operators to list the other one in ALLOWED_ORIGINS.'
  );
}

/**
 * The 503 of a sign-out whose session could not be ended on the server (its session store not answering): the
 * browser forgot it (the answer clears the cookie), and the stored session ends once unused for the idle limit.
 */
export function signOutNotEndedMessage(idleMinutes: number): string {
  const unused = idleMinutes === 1 ? 'a minute' : `${idleMinutes} minutes`;
  return (
    'This browser is signed out, but the server could not end your session now (where sessions are kept is not ' +
    `answering). It ends on its own after ${unused} unused.`
  );
}

/**
 * A 413's message naming the route's limit and, when known, the body's size (both in KiB, rounded up):
 * `Request body too large: this request carries at most 16 KiB of JSON (this one: 20 KiB).`
 */
export function payloadTooLargeMessage(limitBytes: number, sizeBytes?: number): string {
  const kib = (bytes: number) => `${Math.ceil(bytes / 1024)} KiB`;
  const size = sizeBytes !== undefined && sizeBytes > limitBytes ? ` (this one: ${kib(sizeBytes)})` : '';
  return `Request body too large: this request carries at most ${kib(limitBytes)} of JSON${size}.`;
}

export function isErrorBody(value: unknown): value is ErrorBody {
  if (value === null || typeof value !== 'object') return false;
  const error = (value as { error?: unknown }).error;
  return (
    error !== null &&
    typeof error === 'object' &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string'
  );
}
