import { RedisStore } from 'connect-redis';
import type { Logger } from 'pino';
import { createClient } from 'redis';
import type { SessionStorage } from './session-storage';

export interface RedisSessionStorageOptions {
  url: string;
  logger: Logger;
  /** Key prefix of the session entries. */
  prefix?: string;
  /** How long /readyz waits for PING. */
  pingTimeoutMs?: number;
  /** How long any command may wait, connected or not. */
  commandTimeoutMs?: number;
  /** How long ready() waits for the first connection before failing the start. */
  connectTimeoutMs?: number;
}

/**
 * Sessions in Redis (connect-redis 9 with the redis 5 client), so several server instances share them.
 * The client connects at once; requests that arrive before it is connected wait in the client's offline queue.
 */
export function createRedisSessionStorage(options: RedisSessionStorageOptions): SessionStorage {
  const client = createClient({
    url: options.url,
    socket: { reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, 2_000) },
    // While Redis is away, a session lookup fails after this long (503) instead of hanging the request.
    commandOptions: { timeout: options.commandTimeoutMs ?? 2_000 },
  });
  let lastErrorLogged = 0;
  client.on('error', (error: unknown) => {
    // A down Redis reports an error on every reconnect attempt; one line every 10 s is enough.
    const now = Date.now();
    if (now - lastErrorLogged > 10_000) {
      lastErrorLogged = now;
      options.logger.error({ err: error }, 'redis client error');
    }
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

  const store = new RedisStore({ client, prefix: options.prefix ?? 'slots:sess:' });
  const pingTimeoutMs = options.pingTimeoutMs ?? 1_000;

  return {
    kind: 'redis',
    store,
    redisClient: client,
    ready: () =>
      withTimeout(connecting, options.connectTimeoutMs ?? 10_000).catch((error: unknown) => {
        throw new Error(
          `Could not connect to Redis at ${redactUrl(options.url)}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }),
    check: async () => {
      if (!client.isReady) return { redis: 'failing' };
      try {
        await withTimeout(client.ping(), pingTimeoutMs);
        return { redis: 'ok' };
      } catch {
        return { redis: 'failing' };
      }
    },
    close: async () => {
      if (client.isReady) {
        try {
          // QUIT after the commands in flight.
          await client.close();
          return;
        } catch {
          // fall through to destroy
        }
      }
      // Not connected (still retrying): stop the retries at once.
      if (client.isOpen) client.destroy();
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The URL without its password, for messages and logs. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the configured REDIS_URL';
  }
}
