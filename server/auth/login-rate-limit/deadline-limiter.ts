import { RLWrapperTimeouts, type RateLimiterAbstract } from '../../http/rate-limiter-classes';
import { REDIS_DISCONNECTED_MESSAGE, SessionStoreUnavailableError } from '../../storage/session-store-unavailable';

/** The counter operations RLWrapperTimeouts runs through `_run`: what it hands on to the limiter it wraps. */
type LimiterOperation = 'consume' | 'penalty' | 'reward' | 'get' | 'set' | 'block' | 'delete';

/**
 * rate-limiter-flexible's RLWrapperTimeouts (a limiter whose calls reject past a deadline), with a deadline that never
 * holds the process: its own timer is not unref'd, so a shutdown while Redis does not answer waited up to the whole
 * deadline for it. Only `_run`, through which RLWrapperTimeouts (rate-limiter-flexible 11) runs every operation, is
 * replaced; the test of the sign-in counters in Redis checks that it still is.
 *
 * A Redis that does not answer, or whose connection is lost, rejects with SessionStoreUnavailableError, as the
 * session store's commands do (the counters live in the same Redis): the sign-in is answered 503 with a warning of
 * one line, where a stack per attempt during an outage said nothing more and filled the log.
 */
export class DeadlineLimiter extends RLWrapperTimeouts {
  constructor(
    private readonly wrapped: {
      limiter: RateLimiterAbstract;
      timeoutMs: number;
      /** Whether the client's connection is up (node-redis's `isReady`): a failure while it is not is an outage. */
      connected: () => boolean;
    },
  ) {
    super(wrapped);
  }

  /** The call on the wrapped limiter, rejected past the deadline. */
  _run(operation: LimiterOperation, params: unknown[]): Promise<unknown> {
    const { limiter, timeoutMs, connected } = this.wrapped;
    return new Promise((resolve, reject) => {
      const deadline = setTimeout(
        () => reject(new SessionStoreUnavailableError(`Redis did not answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
      deadline.unref();
      // Cleared with the answer, whatever it is (a limiter that throws at once included).
      Promise.resolve()
        .then(() => Reflect.apply(limiter[operation], limiter, params) as Promise<unknown>)
        .then(resolve, (error: unknown) =>
          reject(connected() ? error : new SessionStoreUnavailableError(REDIS_DISCONNECTED_MESSAGE, { cause: error })),
        )
        .finally(() => clearTimeout(deadline));
    });
  }
}
