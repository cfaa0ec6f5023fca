import { ServerResponse } from 'node:http';
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

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  startDraining(now = Date.now()): void {
    this.drainingSince ??= now;
  }

  /**
   * Mount first. Decides when the answer's headers are written, not when the request arrived, so a request that
   * was already running when the shutdown began is also answered with `Connection: close`.
   *
   * The check sits in `writeHead` of the response prototype (Express gives each app its own), installed on the first
   * request, rather than in a wrapper made for every response: per request it costs one lookup.
   */
  readonly connectionCloser: RequestHandler = (_req, res, next) => {
    const prototype = Object.getPrototypeOf(res) as { writeHead: WriteHead } | null;
    // Node's own prototype is shared by every server of the process: outside Express, watch this response only.
    if (prototype === null || prototype === ServerResponse.prototype) this.watch(res);
    else if (!this.watched.has(prototype)) this.watch(prototype);
    next();
  };

  private watch(target: { writeHead: WriteHead }): void {
    this.watched.add(target);
    const lifecycle = this;
    const writeHead = target.writeHead;
    target.writeHead = function (this: ServerResponse, ...args: unknown[]) {
      if (lifecycle.draining && !this.headersSent) this.setHeader('Connection', 'close');
      return (writeHead as (...args: unknown[]) => ServerResponse).apply(this, args);
    } as WriteHead;
  }
}
