import { ERROR_MESSAGES } from '../../shared';
import { HttpError } from '../http/http-error';

/**
 * How many password checks run at once, and how many may wait. A check is scrypt with 128 MiB of memory on libuv's
 * thread pool, which also reads the files the server sends: a burst of failed sign-ins must neither take every
 * thread of that pool nor grow the memory without bound. Two at once leave the pool's other two threads to the file
 * system (Node starts four); the waiting room holds a few seconds of work, and a check beyond it is answered at once
 * with 503 and `Retry-After` instead of queueing.
 */
export interface PasswordCheckLimits {
  concurrent: number;
  queued: number;
}

export const DEFAULT_PASSWORD_CHECK_LIMITS: Readonly<PasswordCheckLimits> = Object.freeze({
  concurrent: 2,
  queued: 16,
});

/** Seconds a refused sign-in is asked to wait: the queue drains in about that time. */
export const PASSWORD_CHECKS_RETRY_AFTER_SECONDS = 2;

/** A sign-in refused because the password checks are all taken: 503, with the seconds to wait. */
export class PasswordChecksBusyError extends HttpError {
  readonly retryAfterSeconds = PASSWORD_CHECKS_RETRY_AFTER_SECONDS;

  constructor() {
    super('unavailable', ERROR_MESSAGES.signInBusy);
    this.name = 'PasswordChecksBusyError';
  }
}

/** A counting semaphore with a bounded queue, for password checks. */
export class PasswordCheckGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limits: PasswordCheckLimits = DEFAULT_PASSWORD_CHECK_LIMITS) {
    if (limits.concurrent < 1 || limits.queued < 0) throw new Error('PasswordCheckGate needs concurrent >= 1.');
  }

  /** Checks running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Runs `check` when a place is free; throws PasswordChecksBusyError at once when the queue is full too. */
  async run<T>(check: () => Promise<T>): Promise<T> {
    if (this.running >= this.limits.concurrent) {
      if (this.waiting.length >= this.limits.queued) throw new PasswordChecksBusyError();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await check();
    } finally {
      const next = this.waiting.shift();
      // The place passes straight to the next waiter; only when nobody waits does it become free.
      if (next) next();
      else this.running -= 1;
    }
  }
}
