import http from 'node:http';
import { getFreePort, releasePort } from './free-port';

export interface RecordedRequest {
  method: string;
  /** Path and query, as received. */
  url: string;
  /** The W3C `traceparent` it came with, if any (the server passes its trace on to the remotes it asks). */
  traceparent?: string;
  /** The W3C `baggage` it came with, if any. */
  baggage?: string;
}

export interface HttpFixtureServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Every request received so far, in order. */
  readonly requests: readonly RecordedRequest[];
  /**
   * Closes the server and every open connection, including requests it never answered; its port is given back
   * (see free-port.ts: it stays refused as long as the range allows).
   */
  close(): Promise<void>;
}

export type FixtureHandler = (request: http.IncomingMessage, response: http.ServerResponse) => void;

/**
 * A plain Node HTTP server on a free port of 127.0.0.1 that records what it is asked. The base of the test doubles
 * that stand in for a remote's host (a second origin, a broken or silent remote).
 *
 * Its port comes from this worker's block below the ephemeral range (see free-port.ts), not from `listen(0)`: a test
 * that closes it to have an origin go down gets a refused connection, where another test's server running alongside
 * could take an ephemeral port the moment it was freed (and answer 404 for the origin that was down).
 */
export async function startHttpFixtureServer(handler: FixtureHandler): Promise<HttpFixtureServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((request, response) => {
    // Node joins a header sent twice with ", ": two traceparents read as no valid one.
    const { traceparent, baggage } = request.headers;
    requests.push({
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      ...(typeof traceparent === 'string' ? { traceparent } : {}),
      ...(typeof baggage === 'string' ? { baggage } : {}),
    });
    handler(request, response);
  });
  const port = await getFreePort();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port }, () => {
      resolve({
        url: `http://127.0.0.1:${port}`,
        port,
        requests,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => {
              releasePort(port);
              done();
            });
          }),
      });
    });
  });
}

/** Headers that let a page on another origin fetch the answer (the MF runtime fetches manifests with CORS). */
export const CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'Cross-Origin-Resource-Policy': 'cross-origin',
});
