import { ERROR_MESSAGES } from '../../shared';
import { HttpError } from '../http/http-error';

/**
 * How many password checks run at once, and how many may wait. A check is scrypt with 128 MiB of memory on libuv's
 * thread pool, which also reads the files the server sends: a burst of failed sign-ins must neither take every
 * thread of that pool nor grow the memory without bound. Two at once leave the pool's other two threads to the file
 * system (Node starts four); the waiting room holds a few seconds of work, and a check beyond it is answered at once
 * with 503 and `Retry-After` instead of queueing.
 *
 * The places are shared fairly between clients (their address, an IPv6 one by its /64: http/client-key.ts): one
 * client holds at most `perClient` of them, running or waiting (its next sign-in is answered 429 at once), and when
 * the waiting room is full a newcomer holding fewer places than the client holding the most takes the last place
 * that client waits in (answered 503). An outside test kept about twenty failed sign-ins in flight from one address
 * and every other client's sign-in, a correct password included, was answered 503 for as long as it went on.
 */
export interface PasswordCheckLimits {
  concurrent: number;
  queued: number;
  perClient: number;
}

export const DEFAULT_PASSWORD_CHECK_LIMITS: Readonly<PasswordCheckLimits> = Object.freeze({
  concurrent: 2,
  queued: 16,
  perClient: 4,
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

export const SIGN_IN_SHARE_MESSAGE =
  'Too many sign-ins from your address at this moment. Wait for the answers to those sent, then try again.';

/** A sign-in refused because its client holds its share of the password checks already: 429, with the seconds to wait. */
export class PasswordChecksShareError extends HttpError {
  readonly retryAfterSeconds = PASSWORD_CHECKS_RETRY_AFTER_SECONDS;

  constructor() {
    super('too_many_requests', SIGN_IN_SHARE_MESSAGE);
    this.name = 'PasswordChecksShareError';
  }
}

/** A check waiting for a place, and how to start or refuse it. */
interface Waiter {
  client: string;
  start: () => void;
  refuse: (error: Error) => void;
}

/** A counting semaphore with a bounded queue shared fairly between clients, for password checks. */
export class PasswordCheckGate {
  private running = 0;
  private readonly waiting: Waiter[] = [];
  /** Places held per client, running or waiting. */
  private readonly held = new Map<string, number>();

  constructor(private readonly limits: PasswordCheckLimits = DEFAULT_PASSWORD_CHECK_LIMITS) {
    if (limits.concurrent < 1 || limits.queued < 0 || limits.perClient < 1) {
      throw new Error('PasswordCheckGate needs concurrent >= 1, queued >= 0 and perClient >= 1.');
    }
  }

  /** Checks running and waiting now. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /**
   * Runs `check` for `client` when a place is free. Throws at once PasswordChecksShareError when the client holds
   * its share, PasswordChecksBusyError when every place is taken and none can be taken back; a waiting check whose
   * place a client with fewer is given is refused with PasswordChecksBusyError.
   */
  async run<T>(client: string, check: () => Promise<T>): Promise<T> {
    const holds = this.held.get(client) ?? 0;
    if (holds >= this.limits.perClient) throw new PasswordChecksShareError();
    if (this.running >= this.limits.concurrent) {
      if (this.waiting.length >= this.limits.queued && !this.takeBackPlaceFor(holds)) {
        throw new PasswordChecksBusyError();
      }
      this.hold(client, 1);
      try {
        await new Promise<void>((start, refuse) => this.waiting.push({ client, start, refuse }));
      } catch (error) {
        this.hold(client, -1);
        throw error;
      }
    } else {
      this.hold(client, 1);
      this.running += 1;
    }
    try {
      return await check();
    } finally {
      this.hold(client, -1);
      const next = this.waiting.shift();
      // The place passes straight to the next waiter; only when nobody waits does it become free.
      if (next) next.start();
      else this.running -= 1;
    }
  }

  /**
   * Refuses the last waiting check of the client holding the most places, if that is more than one above `holds`
   * (the newcomer's): whether a waiting place was freed.
   */
  private takeBackPlaceFor(holds: number): boolean {
    let most: string | undefined;
    for (const waiter of this.waiting) {
      if (most === undefined || this.held.get(waiter.client)! > this.held.get(most)!) most = waiter.client;
    }
    if (most === undefined || this.held.get(most)! <= holds + 1) return false;
    const last = this.waiting.findLastIndex((waiter) => waiter.client === most);
    const [taken] = this.waiting.splice(last, 1);
    taken!.refuse(new PasswordChecksBusyError());
    return true;
  }

  private hold(client: string, change: 1 | -1): void {
    const holds = (this.held.get(client) ?? 0) + change;
    if (holds === 0) this.held.delete(client);
    else this.held.set(client, holds);
  }
}
