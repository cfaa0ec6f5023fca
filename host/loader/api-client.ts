import { isErrorBody, type ErrorCode } from '../../shared';

/** The part of `Response` the client reads, so tests can answer with plain objects. */
export interface ResponseLike {
  ok: boolean;
  status: number;
  /** Read for `Retry-After` only; absent in tests that do not need it. */
  headers?: { get(name: string): string | null };
  json(): Promise<unknown>;
}

export type FetchLike = (url: string, init: RequestInit) => Promise<ResponseLike>;

/**
 * A failed API call: the server's `{ error: { code, message, fields? } }`, or a network failure (status 0).
 * `retryAfterSeconds`: the server's `Retry-After` (a 429 says how long to wait), when it sent one.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'network',
    message: string,
    readonly fields: Readonly<Record<string, string>> = {},
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiClient {
  get<T>(path: string, signal?: AbortSignal): Promise<T>;
  post<T>(path: string, body?: unknown, signal?: AbortSignal): Promise<T>;
  put<T>(path: string, body: unknown, signal?: AbortSignal): Promise<T>;
}

/** `Retry-After` in seconds; the HTTP-date form is not used by this server and counts as absent. */
function retryAfterSeconds(response: ResponseLike): number | null {
  const value = response.headers?.get('Retry-After');
  if (value === null || value === undefined || !/^\d+$/.test(value.trim())) return null;
  return Number(value.trim());
}

/**
 * JSON over fetch with the session cookie. Payloads are typed by the shared contract (the server is the other
 * half of it); the payloads the page structure depends on (slots, remotes) are also checked where they are used.
 */
export function createApiClient(fetchImpl?: FetchLike): ApiClient {
  const doFetch: FetchLike = fetchImpl ?? ((url, init) => window.fetch(url, init));

  async function request<T>(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const init: RequestInit = { method, credentials: 'same-origin', headers, cache: 'no-store' };
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    if (signal) init.signal = signal;

    let response: ResponseLike;
    try {
      response = await doFetch(path, init);
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ApiError(0, 'network', `Could not reach the server (${method} ${path}).`);
    }
    const payload: unknown = response.status === 204 ? undefined : await response.json().catch(() => undefined);
    if (!response.ok) {
      if (isErrorBody(payload)) {
        const { code, message, fields } = payload.error;
        throw new ApiError(response.status, code, message, fields ?? {}, retryAfterSeconds(response));
      }
      throw new ApiError(response.status, 'internal', `${method} ${path} failed with status ${response.status}.`);
    }
    return payload as T;
  }

  return {
    get: (path, signal) => request('GET', path, undefined, signal),
    post: (path, body, signal) => request('POST', path, body, signal),
    put: (path, body, signal) => request('PUT', path, body, signal),
  };
}
