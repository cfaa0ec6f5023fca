import { RLWrapperTimeouts, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** The counter operations RLWrapperTimeouts runs through `_run`: what it hands on to the limiter it wraps. */
type LimiterOperation = 'consume' | 'penalty' | 'reward' | 'get' | 'set' | 'block' | 'delete';

/**
 * rate-limiter-flexible's RLWrapperTimeouts (a limiter whose calls reject past a deadline), with a deadline that never
 * holds the process: its own timer is not unref'd, so a shutdown while Redis does not answer waited up to the whole
 * deadline for it. Only `_run`, through which RLWrapperTimeouts (rate-limiter-flexible 11) runs every operation, is
 * replaced; the test of the sign-in counters in Redis checks that it still is.
 */
export class DeadlineLimiter extends RLWrapperTimeouts {
  constructor(private readonly wrapped: { limiter: RateLimiterAbstract; timeoutMs: number }) {
    super(wrapped);
  }

  /** The call on the wrapped limiter, rejected with RLWrapperTimeouts' own error past the deadline. */
  _run(operation: LimiterOperation, params: unknown[]): Promise<unknown> {
    const { limiter, timeoutMs } = this.wrapped;
    return new Promise((resolve, reject) => {
      const deadline = setTimeout(() => reject(new Error('Operation timed out')), timeoutMs);
      deadline.unref();
      // Cleared with the answer, whatever it is (a limiter that throws at once included).
      Promise.resolve()
        .then(() => Reflect.apply(limiter[operation], limiter, params) as Promise<unknown>)
        .then(resolve, reject)
        .finally(() => clearTimeout(deadline));
    });
  }
}
