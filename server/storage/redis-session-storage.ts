import { RedisStore } from 'connect-redis';
import type { Logger } from 'pino';
import { createClient } from 'redis';
import type { SessionStorage } from './session-storage';
import { REDIS_ANSWER_DEADLINE_MS } from './redis-answer-deadline';
import { hidePassword } from './hidden-password';
import { withinDeadline } from './within-deadline';
import { REDIS_DISCONNECTED_MESSAGE, SessionStoreUnavailableError } from './session-store-unavailable';

export interface RedisSessionStorageOptions {
  url: string;
  logger: Logger;
  /** Key prefix of the session entries. */
  prefix?: string;
  /** How long /readyz waits for PING. */
  pingTimeoutMs?: number;
  /**
   * How long a session lookup or save may wait for Redis's answer on an open connection (then the request gets a 503):
   * a Redis frozen with its connection open. REDIS_ANSWER_DEADLINE_MS by default, the deadline the sign-in counters on
   * the same client keep too. With the connection lost (Redis stopped, refusing), the lookup fails at once.
   */
  commandTimeoutMs?: number;
  /** How long ready() waits for the first connection before failing the start. */
  connectTimeoutMs?: number;
  /** How long close() lets the commands in flight finish before dropping the connection. */
  closeTimeoutMs?: number;
}

/**
 * Sessions in Redis (connect-redis 9 with the redis 5 client), so several server instances share them.
 * The client connects at once; requests that arrive before it is connected wait in the client's offline queue.
 */
export function createRedisSessionStorage(options: RedisSessionStorageOptions): SessionStorage {
  const commandTimeoutMs = options.commandTimeoutMs ?? REDIS_ANSWER_DEADLINE_MS;
  const client = createClient({
    url: options.url,
    socket: { reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2_000) },
    // While Redis is away, a command waiting to be sent fails after this long instead of queueing for ever...
    commandOptions: { timeout: commandTimeoutMs },
    // ...and while it is frozen, the commands sent and never answered are bounded: past this many, new ones fail.
    commandsQueueMaxLength: 10_000,
  });
  let lastErrorLogged = 0;
  // The reconnects' last error: what a start that timed out says was in the way (refused, a name not found).
  let lastError: unknown = null;
  // When the connection was lost (null while connected, and before the first connection): an outage is said once
  // each way, its start and its end, as a remote's is, so an operator reading the log sees when sessions failed.
  let lostAt: number | null = null;
  let connectedOnce = false;
  client.on('error', (error: unknown) => {
    lastError = error;
    const now = Date.now();
    if (connectedOnce && lostAt === null) {
      lostAt = now;
      lastErrorLogged = now;
      options.logger.error(
        { err: error },
        'Redis stopped answering: signed-in requests and sign-ins answer 503 until it answers again (retrying)',
      );
      return;
    }
    // A down Redis reports an error on every reconnect attempt; one line every 10 s is enough.
    if (now - lastErrorLogged > 10_000) {
      lastErrorLogged = now;
      options.logger.error({ err: error }, 'redis client error');
    }
  });
  client.on('ready', () => {
    if (lostAt !== null) {
      const seconds = Math.round((Date.now() - lostAt) / 100) / 10;
      options.logger.info({ downForMs: Date.now() - lostAt }, `Redis answers again, after ${seconds} s`);
    }
    lostAt = null;
    connectedOnce = true;
  });
  const connecting = client.connect().then(
    () => undefined,
    (error: unknown) => {
      options.logger.error({ err: error }, 'redis connection failed');
      throw error;
    },
  );
  // ready() reports the failure; an unobserved rejection must not crash the process meanwhile.
  connecting.catch(() => undefined);

  const store = new RedisStoreWithDeadline(
    { client, prefix: options.prefix ?? 'slots:sess:' },
    commandTimeoutMs,
    // Lost after it was had: the client is reconnecting. Before the first connection (ready() waits for it), commands
    // wait in the offline queue.
    () => connectedOnce && !client.isReady,
  );
  const pingTimeoutMs = options.pingTimeoutMs ?? 1_000;

  return {
    kind: 'redis',
    store,
    redisClient: client,
    ready: () =>
      withinDeadline(connecting, options.connectTimeoutMs ?? 10_000).catch((error: unknown) => {
        const said = (value: unknown) => (value instanceof Error ? value.message : String(value));
        const cause = lastError !== null && lastError !== error ? ` (the last attempt: ${said(lastError)})` : '';
        throw new Error(
          `Could not connect to Redis at ${hidePassword(options.url, 'the configured REDIS_URL')}: ${said(error)}${cause}`,
        );
      }),
    check: async () => {
      if (!client.isReady) return { redis: 'failing' };
      try {
        await withinDeadline(client.ping(), pingTimeoutMs);
        return { redis: 'ok' };
      } catch {
        return { redis: 'failing' };
      }
    },
    close: async () => {
      if (client.isReady) {
        try {
          // QUIT after the commands in flight; a Redis that stopped answering (paused, network gone) would keep
          // the shutdown waiting for ever, so it gets a bounded time.
          await withinDeadline(client.close(), options.closeTimeoutMs ?? 1_000);
          return;
        } catch {
          // fall through to destroy
        }
      }
      // Not connected (still retrying): stop the retries at once.
      if (client.isOpen) client.destroy();
    },
    get closed() {
      return !client.isOpen;
    },
    displayName: `Redis at ${hidePassword(options.url, 'REDIS_URL')}`,
  };
}

// The callbacks take connect-redis's own shapes (a session, a count, nothing).
type StoreCallback = (error: any, value?: any) => void;

/** What a session lookup or save meets while the client has lost its connection (the request gets a 503). */

/**
 * connect-redis's store whose answers come within a deadline. The client's command timeout covers only the wait
 * before a command is sent: a command sent to a Redis that stopped answering (paused, host or network gone while the
 * connection stays open) would wait for ever, and the staff request with it. Past the deadline the request gets
 * its error (a 503) and a late answer is dropped. With the connection known to be lost (Redis stopped or refusing),
 * nothing is sent: a command would only wait in the offline queue for the whole deadline, every signed-in request
 * with it, before the same 503 (the sign-in counters on the same client fail at once so too).
 */
class RedisStoreWithDeadline extends RedisStore {
  constructor(
    options: ConstructorParameters<typeof RedisStore>[0],
    private readonly deadlineMs: number,
    private readonly disconnected: () => boolean,
  ) {
    super(options);
  }

  override get(sid: string, callback?: StoreCallback) {
    return this.refusedWhileDisconnected(callback) ?? super.get(sid, this.withDeadline(callback));
  }

  override set(sid: string, data: Parameters<RedisStore['set']>[1], callback?: StoreCallback) {
    return this.refusedWhileDisconnected(callback) ?? super.set(sid, data, this.withDeadline(callback));
  }

  override touch(sid: string, data: Parameters<RedisStore['touch']>[1], callback?: StoreCallback) {
    return this.refusedWhileDisconnected(callback) ?? super.touch(sid, data, this.withDeadline(callback));
  }

  override destroy(sid: string, callback?: StoreCallback) {
    return this.refusedWhileDisconnected(callback) ?? super.destroy(sid, this.withDeadline(callback));
  }

  /** While disconnected: the command's failure, told to `callback` as the store's own failures are (null otherwise). */
  private refusedWhileDisconnected(callback: StoreCallback | undefined): Promise<void> | null {
    if (!this.disconnected()) return null;
    const error = new SessionStoreUnavailableError(REDIS_DISCONNECTED_MESSAGE);
    if (!callback) return Promise.reject(error);
    return Promise.resolve().then(() => callback(error));
  }

  private withDeadline(callback: StoreCallback | undefined): StoreCallback | undefined {
    if (!callback) return undefined;
    let answered = false;
    const timer = setTimeout(() => {
      answered = true;
      callback(new SessionStoreUnavailableError(`Redis did not answer within ${this.deadlineMs} ms`));
    }, this.deadlineMs);
    timer.unref();
    return (error, value) => {
      if (answered) return;
      answered = true;
      clearTimeout(timer);
      callback(error, value);
    };
  }
}
