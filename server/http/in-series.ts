import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Several middleware run in order as one: one router layer (one path match, one mount-path trim) instead of one per
 * handler, for chains that run on every request of a path. An error, passed on or thrown (also from a returned
 * promise), skips the rest and goes to the router, as it would between separate layers.
 */
export function inSeries(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, done) => {
    const run = new SeriesRun(handlers, req, res, done);
    run.next();
  };
}

/** One request's way through the handlers. `next` is bound once, not a closure made (and named) per request. */
class SeriesRun {
  private index = 0;
  readonly next: NextFunction;

  constructor(
    private readonly handlers: readonly RequestHandler[],
    private readonly req: Request,
    private readonly res: Response,
    private readonly done: NextFunction,
  ) {
    this.next = this.step.bind(this) as NextFunction;
  }

  private step(error?: unknown): void {
    if (error !== undefined && error !== null) {
      this.done(error);
      return;
    }
    const handler = this.handlers[this.index++];
    if (handler === undefined) {
      this.done();
      return;
    }
    try {
      const returned: unknown = handler(this.req, this.res, this.next);
      if (returned instanceof Promise) {
        returned.catch((reason: unknown) => {
          this.done(reason ?? new Error('A middleware returned a rejected promise.'));
        });
      }
    } catch (thrown) {
      this.done(thrown);
    }
  }
}
