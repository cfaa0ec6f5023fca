import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { Readable } from 'node:stream';

/** What the requests to remotes' origins are made with: the global `fetch`, or {@link guardedFetch}. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Answers that carry no body, which a `Response` refuses one for. */
const NO_BODY = new Set([204, 205, 304]);

/**
 * A `fetch` for GET requests whose every connection goes where `lookup` says, and nowhere if `literal` refuses an IP
 * written in the URL (Node connects to a literal without a look-up). The address a guard approved is then the one
 * connected to, not a second answer of the DNS (rebinding): a name is resolved once per connection, by the guard,
 * and each connection is fresh (no pooled socket made for another answer). Answers as `fetch` does for what the
 * callers use (status, headers, a streamed body; a redirect is never followed, as with `redirect: 'manual'`), and
 * fails as it does: the signal's reason when it aborts (a `TimeoutError`), else a `TypeError` whose `cause` says why.
 */
export function guardedFetch(lookup: LookupFunction, literal: (hostname: string) => Error | null): FetchLike {
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url);
      const failed = (cause: unknown) => new TypeError('fetch failed', { cause });
      const refused = literal(target.hostname);
      if (refused !== null) {
        reject(failed(refused));
        return;
      }
      const client = target.protocol === 'https:' ? https : http;
      const request = client.request(
        target,
        {
          method: 'GET',
          headers: { ...(init.headers as Record<string, string> | undefined) },
          lookup,
          agent: false,
          ...(init.signal ? { signal: init.signal } : {}),
        },
        (answer) => {
          const headers = new Headers();
          const raw = answer.rawHeaders;
          for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
          const status = answer.statusCode ?? 0;
          if (status < 200 || status > 599) {
            answer.destroy();
            reject(failed(new Error(`answered status ${status}, which is no HTTP answer`)));
            return;
          }
          const body = NO_BODY.has(status) ? null : (Readable.toWeb(answer) as unknown as ReadableStream<Uint8Array>);
          if (body === null) answer.resume();
          resolve(new Response(body, { status, statusText: answer.statusMessage ?? '', headers }));
        },
      );
      request.on('error', (error) => reject(init.signal?.aborted ? (init.signal.reason as Error) : failed(error)));
      request.end();
    });
}
