import type { Attributes } from '@opentelemetry/api';
import { UndiciInstrumentation, type UndiciRequest } from '@opentelemetry/instrumentation-undici';
// The keys whose values the incoming requests' spans redact, and the function that does it: the HTTP
// instrumentation's own (its version is pinned in package.json: these modules are not part of its public interface).
import { DEFAULT_QUERY_STRINGS_TO_REDACT } from '@opentelemetry/instrumentation-http/build/src/internal-types';
import { redactQueryString } from '@opentelemetry/instrumentation-http/build/src/utils';

/**
 * The spans of the requests the server sends with `fetch` (a remote's descriptor, a release's files): Node's `fetch`
 * is undici, which node:http's instrumentation does not see, so without this a trace showed the request that waited
 * on a remote's origin but not the wait. A span of kind CLIENT named by the method (`GET`), under the span active
 * when `fetch` was called, with the stable HTTP client attributes (`url.full`, `server.address`, `server.port`,
 * `http.response.status_code`, `error.type`…), and its own `traceparent` sent in place of the caller's.
 *
 * Only under a span (`requireParentforSpans`), as the pg instrumentation's queries: the descriptor poll, every few
 * seconds on every host, would otherwise send a trace of its own each time; those requests still carry a trace of
 * their own in `traceparent` (outgoingTraceHeaders, request-trace.ts). Under a request sampled out, the span is the
 * request's own (sparingTracer): nothing is recorded, and the request's trace is sent on, marked not sampled.
 *
 * A query's signatures are redacted in `url.full` and `url.query` as they are in the incoming requests' spans (a
 * release's files may be served from signed addresses): `sig`, `Signature`, `X-Amz-Signature`… read `REDACTED`.
 */
export function createFetchInstrumentation(): UndiciInstrumentation {
  return new UndiciInstrumentation({ requireParentforSpans: true, startSpanHook: redactedUrlAttributes });
}

/**
 * No `url.query` for a request without a query: the instrumentation writes an empty one, where the semantic conventions
 * and the incoming requests' spans leave it out (an attribute given as undefined is not set).
 */
const NO_QUERY: Attributes = { 'url.query': undefined };

/** `url.full` and `url.query` with the signatures of the query redacted; no `url.query` for a request without one. */
export function redactedUrlAttributes(request: Pick<UndiciRequest, 'origin' | 'path'>): Attributes {
  if (!request.path.includes('?')) return NO_QUERY;
  const url = new URL(request.path, request.origin);
  const query = redactQueryString(url.searchParams, [...DEFAULT_QUERY_STRINGS_TO_REDACT]);
  if (query === '') return { 'url.full': url.href, ...NO_QUERY };
  url.search = query;
  // Without its `?`, as the semantic conventions and the incoming requests' spans write it (the instrumentation's
  // own keeps it).
  return { 'url.full': url.href, 'url.query': query };
}
