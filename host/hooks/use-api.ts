import { useCallback, useEffect, useState } from 'react';
import { ApiError, useApiClient, useSession } from '../core';

export type ApiState<T> =
  | { status: 'loading'; data: null; error: null }
  | { status: 'ready'; data: T; error: null }
  | { status: 'error'; data: null; error: ApiError };

/**
 * GET a JSON resource for a page; `null` path fetches nothing. A 401 means the session ended: the session is
 * forgotten, and the route guard sends the user to sign in.
 */
export function useApi<T>(path: string | null): ApiState<T> & { reload(): void } {
  const client = useApiClient();
  const { expire } = useSession();
  const [revision, setRevision] = useState(0);
  const [state, setState] = useState<{ key: string; value: ApiState<T> } | null>(null);
  const key = `${path}#${revision}`;

  useEffect(() => {
    if (path === null) return undefined;
    const controller = new AbortController();
    client.get<T>(path, controller.signal).then(
      (data) => setState({ key, value: { status: 'ready', data, error: null } }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const apiError = error instanceof ApiError ? error : new ApiError(0, 'network', String(error));
        if (apiError.status === 401) expire();
        setState({ key, value: { status: 'error', data: null, error: apiError } });
      },
    );
    return () => controller.abort();
  }, [client, path, key, expire]);

  const reload = useCallback(() => setRevision((value) => value + 1), []);
  const value: ApiState<T> = state?.key === key ? state.value : { status: 'loading', data: null, error: null };
  return { ...value, reload };
}

/**
 * A page's "Try again" when it made several requests: asks again for every one that failed, not only the one whose
 * error it shows (after an outage both failed, and retrying one left the page on the other's error).
 */
export function reloadFailed(...requests: ReadonlyArray<{ status: ApiState<unknown>['status']; reload(): void }>) {
  return (): void => {
    for (const request of requests) if (request.status === 'error') request.reload();
  };
}
