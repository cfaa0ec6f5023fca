import type { Page, Request } from 'playwright-core';

export interface LoggedRequest {
  method: string;
  url: string;
  /** Path and query relative to the URL's origin, e.g. `/slots`. */
  path: string;
  origin: string;
  /** HTTP status once the response arrived; undefined while pending or when the request failed. */
  status?: number;
  /** Why the request failed (network error, aborted), when it did. */
  failure?: string;
}

export interface LoggedConsoleMessage {
  type: string;
  text: string;
  /** The arguments as JSON values (objects included), resolved once the page handed them over. */
  args: Promise<unknown[]>;
}

export interface PageLog {
  /** Every request the page made, in order (including ones that failed or never got an answer). */
  readonly requests: readonly LoggedRequest[];
  readonly console: readonly LoggedConsoleMessage[];
  /** Uncaught errors in the page. */
  readonly pageErrors: readonly string[];
  /** Requests whose method and path match, e.g. `hasRequest('GET', '/slots')`. */
  requestsTo(method: string, pathOrPattern: string | RegExp): LoggedRequest[];
  /** Console messages of the given types (all when omitted) whose text matches. */
  consoleMatching(pattern: RegExp, types?: readonly string[]): LoggedConsoleMessage[];
  /** Forgets what was recorded so far, e.g. before a navigation whose traffic alone matters. */
  clear(): void;
}

/** Starts recording the network requests, console messages and uncaught errors of `page`. */
export function recordPage(page: Page): PageLog {
  const requests: LoggedRequest[] = [];
  const consoleMessages: LoggedConsoleMessage[] = [];
  const pageErrors: string[] = [];
  const entries = new WeakMap<Request, LoggedRequest>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    const entry: LoggedRequest = {
      method: request.method(),
      url: request.url(),
      path: url.pathname + url.search,
      origin: url.origin,
    };
    entries.set(request, entry);
    requests.push(entry);
  });
  page.on('response', (response) => {
    const entry = entries.get(response.request());
    if (entry) entry.status = response.status();
  });
  page.on('requestfailed', (request) => {
    const entry = entries.get(request);
    if (entry) entry.failure = request.failure()?.errorText ?? 'failed';
  });
  page.on('console', (message) =>
    consoleMessages.push({
      type: message.type(),
      text: message.text(),
      // The page may navigate away before the values are read; what cannot be read is left out.
      args: Promise.all(message.args().map((arg) => arg.jsonValue().catch(() => undefined))),
    }),
  );
  page.on('pageerror', (error) => pageErrors.push(`${error.name}: ${error.message}`));
  return {
    requests,
    console: consoleMessages,
    pageErrors,
    requestsTo: (method, pathOrPattern) =>
      requests.filter(
        (request) =>
          request.method === method &&
          (typeof pathOrPattern === 'string'
            ? request.path.split('?')[0] === pathOrPattern
            : pathOrPattern.test(request.path)),
      ),
    consoleMatching: (pattern, types) =>
      consoleMessages.filter((message) => (!types || types.includes(message.type)) && pattern.test(message.text)),
    clear: () => {
      requests.length = 0;
      consoleMessages.length = 0;
      pageErrors.length = 0;
    },
  };
}
