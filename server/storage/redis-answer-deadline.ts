// A file of its own so the sign-in limits can read it without loading the Redis client on a server without Redis.
/**
 * How long a request waits for Redis's answer before it gets a 503 `unavailable`, Redis connected or not: the
 * session store and the sign-in counters share one client, so they give up after the same time.
 */
export const REDIS_ANSWER_DEADLINE_MS = 2_000;
