import { ServerResponse } from 'node:http';
import type { Http2ServerResponse } from 'node:http2';
import type { RequestHandler } from 'express';

type WriteHead = ServerResponse['writeHead'];

/**
 * Whether this process is taking new work. Once draining (shutdown began), /readyz answers 503 so the load balancer
 * stops sending traffic, and every answer asks the client to close its connection so it reconnects elsewhere.
 */
export class ServerLifecycle {
  private drainingSince: number | null = null;
  /** Response prototypes whose writeHead already checks this lifecycle. */
  private readonly watched = new WeakSet<object>();
  private readonly cutListeners: Array<() => void> = [];

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  startDraining(now = Date.now()): void {
    this.drainingSince ??= now;
  }

  /**
   * Runs `listener` when the shutdown's timeout is reached, just before the requests still in flight are cut (the
   * request log's line for each of them: once cut, the process may end before their connections report it).
   */
  beforeCut(listener: () => void): void {
    this.cutListeners.push(listener);
  }

  /** Called by the shutdown as it is about to cut the requests still in flight (process/graceful-shutdown.ts). */
  cuttingRequests(): void {
    for (const listener of this.cutListeners) listener();
  }

  /**
   * Makes every answer of an Express app carry `Connection: close` once draining: call it with `app.response` when the
   * app is made. Decided when the answer's headers are written, not when the request arrived, so a request that was
   * already running when the shutdown began is also answered that way. The check sits in `writeHead` of the app's
   * response prototype, so it costs requests nothing until then: no middleware, no wrapper per response.
   */
  closeConnectionsOf(responsePrototype: { writeHead: WriteHead }): void {
    if (!this.watched.has(responsePrototype)) this.watch(responsePrototype);
  }

  /**
   * The same as middleware, for an app made elsewhere: mount it first. It installs the check on the response
   * prototype of the first request it sees (Express gives each app its own).
   */
  readonly connectionCloser: RequestHandler = (_req, res, next) => {
    const prototype = Object.getPrototypeOf(res) as { writeHead: WriteHead } | null;
    // Node's own prototype is shared by every server of the process: outside Express, watch this response only.
    if (prototype === null || prototype === ServerResponse.prototype) this.watch(res);
    else this.closeConnectionsOf(prototype);
    next();
  };

  private watch(target: { writeHead: WriteHead }): void {
    this.watched.add(target);
    const lifecycle = this;
    const writeHead = target.writeHead;
    target.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      if (lifecycle.draining && !this.headersSent) askClientToReconnect(this);
      return (writeHead as (...args: unknown[]) => ServerResponse).apply(this, args);
    } as WriteHead;
  }
}

/**
 * Asks the client of this answer to send its next requests on a new connection: `Connection: close` over HTTP/1.x;
 * over HTTP/2, which has no such header, a GOAWAY on the connection (its streams in flight, this one included, still
 * finish; new ones go to a new connection).
 */
export function askClientToReconnect(res: ServerResponse | Http2ServerResponse): void {
  const session = (res as Partial<Http2ServerResponse>).stream?.session;
  if (session === undefined) {
    res.setHeader('Connection', 'close');
    return;
  }
  if (!session.closed && !session.destroyed) session.close();
}
