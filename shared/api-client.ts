/*
 * Above 300 lines for one reason: one client, whose request (its headers: the page's tenant, a background read, a
 * create's key) and whose reading of every answer (a payload, the server's error, or one the client tells itself)
 * share the request's context, and whose contract (ApiError's fields, the headers) the host and the remote kit read.
 */
import { ERROR_STATUS, isErrorBody, type ErrorCode } from './errors';
import type { PlacementsDraft } from './placements';
import type { ResourceRecord, RestorableRecord } from './resource-record';
import { RECORD_CREATION_KEY_HEADER } from './resource-wire';

/**
 * The one JSON client of the product's API, for the host and for remote components (the remote kit ships it).
 * shared/ has no DOM types, so the little of `fetch` it uses is declared here; the browser's `fetch`,
 * `AbortSignal` and `Response` fit these shapes, and tests can answer with plain objects.
 */

/** The part of an `AbortSignal` the client reads. */
export interface AbortSignalLike {
  readonly aborted: boolean;
}

/** The request the client hands to fetch: always JSON, always with the session cookie of the page's origin. */
export interface RequestInitLike {
  method: string;
  credentials: 'same-origin';
  cache: 'no-store';
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignalLike;
}

/** The part of `Response` the client reads. */
export interface ResponseLike {
  ok: boolean;
  status: number;
  /** Read for `Retry-After` and SESSION_TENANT_HEADER only; absent in tests that do not need them. */
  headers?: { get(name: string): string | null };
  /** The body as JSON; rejects for a body that is none (empty, not JSON, cut off), as `Response.json()` does. */
  json(): Promise<unknown>;
}

export type FetchLike = (url: string, init: RequestInitLike) => Promise<ResponseLike>;

/**
 * The header a page sends with every change it asks for (not with reads): the tenant it shows. The session's tenant
 * is one for all the tabs of a browser; after a switch in another tab the server refuses the change (409
 * `tenant_changed`) rather than make it in a tenant the page does not show.
 */
export const PAGE_TENANT_HEADER = 'X-Page-Tenant';

/**
 * The header of every answer the server made in a signed-in session's tenant: that tenant's id. A page's read
 * answered in another tenant than the one it shows (switched in another tab, or the account was removed from the
 * page's tenant, when the server falls back to the account's first) would show that tenant's data under the page's
 * name: the client refuses it instead (ApiClientOptions.onTenantMoved).
 */
export const SESSION_TENANT_HEADER = 'X-Session-Tenant';

/**
 * The header of a read the page makes by itself (a timer's refresh of what it shows), not for the person using it
 * (ReadOptions.background): the server does not count it as use of the session, so a page left open is signed out at
 * the idle limit like any other, after the usual warning.
 */
export const BACKGROUND_READ_HEADER = 'X-Background-Read';

export interface ReadOptions {
  /** A read made by the page itself, not by the person (BACKGROUND_READ_HEADER): it does not keep the session alive. */
  background?: boolean;
}

export interface CreateOptions {
  /**
   * Makes the create once (RECORD_CREATION_KEY_HEADER): the same key sent again with the same body answers what the
   * first made, so a create whose answer was lost can be sent again safely. A new random key per thing to create
   * (128 bits from crypto.getRandomValues, in hex: crypto.randomUUID is missing from a page served over plain HTTP
   * from another address than localhost), kept until its create answers.
   */
  idempotencyKey?: string;
}

/** What a failed request says when the server gave no error of its own (staff read it on the page). */
export const API_CLIENT_MESSAGES = {
  unreachable: 'Could not reach the server: check the connection, then try again.',
  noAnswer: (status: number) => `The server could not answer (status ${status}): try again in a moment.`,
  /** A success whose body is no JSON: a proxy's HTML page, an empty body, or a body cut off in flight. */
  unreadable: 'The answer of the server was cut off or was not JSON: try again in a moment.',
  /** The same for a change: it may have been made, and trying it again could make it twice. */
  unreadableChange:
    'The answer of the server was cut off or was not JSON: the change may have been made. Reload to check before ' +
    'trying again.',
  /** A read answered in another tenant than the page shows (SESSION_TENANT_HEADER): the page follows the session. */
  tenantMoved: 'Your session works in another tenant now: this page is following it.',
} as const;

export interface ApiClientOptions {
  /** The tenant the page shows, sent as PAGE_TENANT_HEADER with each change; null or absent: not sent. */
  pageTenant?: () => string | null;
  /**
   * Called when a read was answered in another tenant than `pageTenant` said when it was asked
   * (SESSION_TENANT_HEADER), or a change was refused for it (409 `tenant_changed`): the session works elsewhere now.
   * Such a read is not handed over (it rejects with a 409 `tenant_changed`, API_CLIENT_MESSAGES.tenantMoved), so no
   * other tenant's data shows under the page's name; the page follows the session, and what it shows is read again
   * in the session's tenant. When it returns a promise (the page asking who is signed in, and where), the read waits
   * for it: if `pageTenant` is then the tenant it was asked in (a switch there and back in another tab, answered in
   * between), it is asked once again instead of failing.
   */
  onTenantMoved?: () => void;
}

/**
 * A failed API call: the server's `{ error: { code, message, fields? } }`, or one the client tells itself: a network
 * failure (`network`, status 0), a failed status without an error body (`internal`, that status), or a success whose
 * body could not be read as JSON (`unreadable`, that status), never given out as a payload.
 * `retryAfterSeconds`: the server's `Retry-After` (a 429 says how long to wait), when it sent one.
 * `problems`: the lines of a refused release or activation (what would break), when the server listed them.
 * `request`: which request failed (`GET /me`), for logs and developers; the message is for the people using the page.
 * `deletedRecord`: a record not found because it was deleted, still restorable (ErrorBody `deletedRecord`).
 * `savedDraft`: a placements draft save refused because the draft was saved since: by whom and when (ErrorBody
 * `savedDraft`), for the page to say in its own words and the reader's time zone.
 * `storedRecord`: a record save refused because a field it changed was saved since (`UNCHANGED_FIELDS_KEY`): the
 * record as stored now (ErrorBody `storedRecord`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'network' | 'unreadable',
    message: string,
    readonly fields: Readonly<Record<string, string>> = {},
    readonly retryAfterSeconds: number | null = null,
    readonly problems: readonly string[] = [],
    readonly request: string | null = null,
    readonly deletedRecord: RestorableRecord | null = null,
    readonly savedDraft: Pick<PlacementsDraft, 'updatedBy' | 'updatedAt'> | null = null,
    readonly storedRecord: ResourceRecord | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiClient {
  get<T>(path: string, signal?: AbortSignalLike, options?: ReadOptions): Promise<T>;
  post<T>(path: string, body?: unknown, signal?: AbortSignalLike, options?: CreateOptions): Promise<T>;
  put<T>(path: string, body: unknown, signal?: AbortSignalLike): Promise<T>;
  delete<T>(path: string, signal?: AbortSignalLike): Promise<T>;
}

/**
 * The `problems` of an error body: beside `error` (`{ error, problems }`) or inside it; lines that are not strings
 * are left out.
 */
function problemsOf(payload: unknown): string[] {
  const body = payload as { problems?: unknown; error?: { problems?: unknown } };
  const problems = Array.isArray(body.problems) ? body.problems : body.error?.problems;
  return Array.isArray(problems) ? problems.filter((line): line is string => typeof line === 'string') : [];
}

/** The `deletedRecord` of an error body, when it has that shape; null otherwise. */
function deletedRecordOf(payload: unknown): RestorableRecord | null {
  const deleted = (payload as { error: { deletedRecord?: Partial<RestorableRecord> | null } }).error.deletedRecord;
  const { resource, id, restorableUntil } = deleted ?? {};
  return typeof resource === 'string' && typeof id === 'number' && typeof restorableUntil === 'number'
    ? { resource, id, restorableUntil }
    : null;
}

/** The `savedDraft` of an error body, when it has that shape; null otherwise. */
function savedDraftOf(payload: unknown): Pick<PlacementsDraft, 'updatedBy' | 'updatedAt'> | null {
  const saved = (payload as { error?: { savedDraft?: unknown } }).error?.savedDraft;
  if (typeof saved !== 'object' || saved === null) return null;
  const { updatedBy, updatedAt } = saved as Partial<PlacementsDraft>;
  const stringOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';
  return stringOrNull(updatedBy) && stringOrNull(updatedAt) ? { updatedBy, updatedAt } : null;
}

/** The `storedRecord` of an error body, when it is a record (an object with a numeric id); null otherwise. */
function storedRecordOf(payload: unknown): ResourceRecord | null {
  const stored = (payload as { error?: { storedRecord?: unknown } }).error?.storedRecord;
  return typeof stored === 'object' && stored !== null && typeof (stored as { id?: unknown }).id === 'number'
    ? (stored as ResourceRecord)
    : null;
}

/** `Retry-After` in seconds; the HTTP-date form is not used by this server and counts as absent. */
function retryAfterSeconds(response: ResponseLike): number | null {
  const value = response.headers?.get('Retry-After');
  if (value === null || value === undefined || !/^\d+$/.test(value.trim())) return null;
  return Number(value.trim());
}

/** What a body that is no JSON reads as: distinct from every JSON value, `null` included. */
const UNREADABLE = Symbol('unreadable body');

/**
 * The JSON of an answer (nothing for a 204), or UNREADABLE. `json()` rejects for an empty body, one that is not JSON
 * (a proxy's HTML page, whatever its status) and one cut off in flight (a browser cuts the page's requests when it
 * navigates away, without the page's signal). The page's own abort cuts the body too: let through as it is, as an
 * abort of the fetch itself.
 */
async function readBody(response: ResponseLike, signal: AbortSignalLike | undefined): Promise<unknown> {
  if (response.status === 204) return undefined;
  try {
    return await response.json();
  } catch (error) {
    if (signal?.aborted) throw error;
    return UNREADABLE;
  }
}

/**
 * The runtime's own fetch (browsers; Node since 18), looked up at each request so that a stub a test installs
 * later is the one called. Declared structurally: shared/ compiles without the DOM types.
 */
const globalFetch: FetchLike = (url, init) => (globalThis as unknown as { fetch: FetchLike }).fetch(url, init);

/**
 * JSON over fetch with the session cookie. Relative paths resolve against the page, so a remote component's calls
 * reach the host's server (and its session) wherever the remote's files are served from. Payloads are typed by the
 * shared contract (the server is the other half of it); the payloads the page structure depends on (slots,
 * remotes) are also checked where they are used.
 */
export function createApiClient(fetchImpl: FetchLike = globalFetch, options: ApiClientOptions = {}): ApiClient {
  async function request<T>(
    method: string,
    path: string,
    body: unknown,
    signal?: AbortSignalLike,
    readOptions: ReadOptions & CreateOptions = {},
    askedAgain = false,
  ): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (readOptions.background) headers[BACKGROUND_READ_HEADER] = '1';
    if (readOptions.idempotencyKey !== undefined) headers[RECORD_CREATION_KEY_HEADER] = readOptions.idempotencyKey;
    const read = method === 'GET' || method === 'HEAD';
    const pageTenant = options.pageTenant?.() ?? null;
    if (pageTenant !== null && !read) headers[PAGE_TENANT_HEADER] = pageTenant;
    const init: RequestInitLike = { method, credentials: 'same-origin', headers, cache: 'no-store' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    if (signal) init.signal = signal;

    /** A failure the client tells itself, naming the request (for logs) apart from the message (for people). */
    const failure = (status: number, code: ApiError['code'], message: string, retryAfter: number | null = null) =>
      new ApiError(status, code, message, {}, retryAfter, [], `${method} ${path}`);

    let response: ResponseLike;
    try {
      response = await fetchImpl(path, init);
    } catch (error) {
      if (signal?.aborted) throw error;
      throw failure(0, 'network', API_CLIENT_MESSAGES.unreachable);
    }
    // Errors too: a record of the page's tenant is "not found" in the one the session fell back to.
    const answeredIn = response.headers?.get(SESSION_TENANT_HEADER) ?? null;
    if (read && pageTenant !== null && answeredIn !== null && answeredIn !== pageTenant) {
      const followed: unknown = options.onTenantMoved?.();
      // Still the page's tenant once the page has followed the session: the session is back there (or never left it
      // for long), so what was asked is asked again, once.
      if (followed instanceof Promise && !askedAgain) {
        await followed;
        if (!signal?.aborted && (options.pageTenant?.() ?? null) === pageTenant) {
          return request(method, path, body, signal, readOptions, true);
        }
      }
      throw failure(ERROR_STATUS.tenant_changed, 'tenant_changed', API_CLIENT_MESSAGES.tenantMoved);
    }
    const payload = await readBody(response, signal);
    if (!response.ok) {
      if (isErrorBody(payload)) {
        const { code, message, fields } = payload.error;
        // A change refused for being asked in a tenant the session has left: the page follows the session too (its
        // unsaved work kept), as after a read answered in another tenant.
        if (code === 'tenant_changed' && !read) options.onTenantMoved?.();
        throw new ApiError(
          response.status,
          code,
          message,
          fields ?? {},
          retryAfterSeconds(response),
          problemsOf(payload),
          null,
          deletedRecordOf(payload),
          savedDraftOf(payload),
          storedRecordOf(payload),
        );
      }
      throw failure(
        response.status,
        'internal',
        API_CLIENT_MESSAGES.noAnswer(response.status),
        retryAfterSeconds(response),
      );
    }
    if (payload === UNREADABLE) {
      throw failure(
        response.status,
        'unreadable',
        read ? API_CLIENT_MESSAGES.unreadable : API_CLIENT_MESSAGES.unreadableChange,
      );
    }
    return payload as T;
  }

  return {
    get: (path, signal, options) => request('GET', path, undefined, signal, options),
    post: (path, body, signal, options) => request('POST', path, body, signal, options),
    put: (path, body, signal) => request('PUT', path, body, signal),
    delete: (path, signal) => request('DELETE', path, undefined, signal),
  };
}
