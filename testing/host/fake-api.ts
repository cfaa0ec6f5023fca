import { BACKGROUND_READ_HEADER } from '../../shared';
import { createApiClient, type ApiClient, type ResponseLike } from '../../host/loader/api-client';

export interface FakeResponse {
  status?: number;
  body?: unknown;
  /**
   * The body as sent, in place of `body`, for one that may not be JSON (a proxy's HTML page, an empty body, JSON cut
   * short): read as `Response.json()` reads it, which rejects for such a body.
   */
  text?: string;
}

export type FakeRoute = FakeResponse | ((request: RecordedRequest) => FakeResponse | Promise<FakeResponse>);

export interface RecordedRequest {
  method: string;
  path: string;
  body: unknown;
  /** Present (true) for a read the page made by itself (BACKGROUND_READ_HEADER): it keeps no session alive. */
  background?: true;
}

export interface FakeApi {
  client: ApiClient;
  requests: RecordedRequest[];
  /**
   * `METHOD /path` -> answer; replaced or added at any time. `METHOD /path?*` answers that path whatever its query,
   * where the query is not what a test is about (the request's `path` keeps it, for a test that is).
   */
  routes: Map<string, FakeRoute>;
  count(method: string, path: string): number;
}

/**
 * The HTTP edge of the host, faked: an ApiClient (the real one) over a fetch that answers from a route table and
 * records every request, so tests assert what was asked and how often.
 */
export function createFakeApi(routes: Record<string, FakeRoute> = {}): FakeApi {
  const table = new Map<string, FakeRoute>(Object.entries(routes));
  const requests: RecordedRequest[] = [];
  const client = createApiClient(async (url, init) => {
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const request: RecordedRequest = { method, path: url, body };
    if (init.headers[BACKGROUND_READ_HEADER] === '1') request.background = true;
    requests.push(request);
    const route = table.get(`${method} ${url}`) ?? table.get(`${method} ${url.split('?')[0]}?*`);
    const answer: FakeResponse =
      route === undefined
        ? { status: 404, body: { error: { code: 'not_found', message: 'Not found.' } } }
        : typeof route === 'function'
          ? await route(request)
          : route;
    const status = answer.status ?? 200;
    const json = async () => (answer.text === undefined ? answer.body : (JSON.parse(answer.text) as unknown));
    const response: ResponseLike = { ok: status >= 200 && status < 300, status, json };
    return response;
  });
  return {
    client,
    requests,
    routes: table,
    count: (method, path) => requests.filter((request) => request.method === method && request.path === path).length,
  };
}

/** A proxy's HTML error page, answered with `status` where the server's JSON was expected. */
export function proxyPage(status = 200): FakeResponse {
  return { status, text: '<!DOCTYPE html><html><body><h1>Bad Gateway</h1></body></html>' };
}

export const UNAUTHENTICATED: FakeResponse = {
  status: 401,
  body: { error: { code: 'unauthenticated', message: 'Sign in to continue.' } },
};
