/** Why a command was not sent: Redis's connection is lost and being made again. */
export const REDIS_DISCONNECTED_MESSAGE = 'Redis is not connected (reconnecting)';

/**
 * A session store that does not answer for a known reason: its connection lost (Redis stopped, refusing, being
 * reconnected) or its answer past the deadline (Redis frozen). The request is answered 503, and the outage is logged
 * once each way by the store itself (redis-session-storage.ts), so each request's line is a warning without a stack,
 * where an unexpected failure of the store is logged whole (session-chain.ts).
 */
export class SessionStoreUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'SessionStoreUnavailableError';
  }
}

export function isSessionStoreUnavailable(error: unknown): error is SessionStoreUnavailableError {
  return error instanceof SessionStoreUnavailableError;
}
