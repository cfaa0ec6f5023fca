import type { RequestHandler, Response } from 'express';

/**
 * Whether this process is taking new work. Once draining (shutdown began), /readyz answers 503 so the load balancer
 * stops sending traffic, and every answer asks the client to close its connection so it reconnects elsewhere.
 */
export class ServerLifecycle {
  private drainingSince: number | null = null;

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  startDraining(now = Date.now()): void {
    this.drainingSince ??= now;
  }

  /**
   * Mount first. Decides when the answer's headers are written, not when the request arrived, so a request that
   * was already running when the shutdown began is also answered with `Connection: close`.
   */
  readonly connectionCloser: RequestHandler = (_req, res, next) => {
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => Response;
    res.writeHead = ((...args: unknown[]) => {
      if (this.draining && !res.headersSent) res.setHeader('Connection', 'close');
      return writeHead(...args);
    }) as Response['writeHead'];
    next();
  };
}
