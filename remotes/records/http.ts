import { isErrorBody } from '../kit';

/**
 * The API calls team_records' components make themselves. Relative URLs resolve against the host page, so they
 * reach the host's server (and its session cookie) wherever this remote's files are served from.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export async function requestJson<T>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
  if (signal) init.signal = signal;
  if (body !== undefined) {
    init.headers = { Accept: 'application/json', 'Content-Type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const payload: unknown = response.status === 204 ? undefined : await response.json().catch(() => undefined);
  if (!response.ok) {
    const message = isErrorBody(payload)
      ? payload.error.message
      : `${method} ${path} failed with status ${response.status}.`;
    throw new HttpError(response.status, message);
  }
  return payload as T;
}
