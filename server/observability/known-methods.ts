/**
 * The HTTP methods OpenTelemetry's conventions name as they are (the HTTP instrumentation's `KNOWN_METHODS`). Any other
 * is one value in a metric's label (`_OTHER`) and a span's name (`HTTP`): over HTTP/2 a client may send any token as
 * its method (Node's HTTP/1.1 parser takes a fixed list), and each new one would otherwise be a new series of every
 * route's histogram, a scrape's size and the server's memory growing with what anyone sends.
 */
export const KNOWN_METHODS: ReadonlySet<string> = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'CONNECT',
  'OPTIONS',
  'TRACE',
  'PATCH',
  'QUERY',
]);

/** A request's method as a metric's label: itself when known, else `_OTHER`. */
export function methodLabel(method: string | undefined): string {
  return method !== undefined && KNOWN_METHODS.has(method) ? method : '_OTHER';
}

/** A request's method as the first word of its span's name: itself when known, else `HTTP`. */
export function methodInSpanName(method: string | undefined): string {
  return method === undefined ? 'GET' : KNOWN_METHODS.has(method) ? method : 'HTTP';
}
