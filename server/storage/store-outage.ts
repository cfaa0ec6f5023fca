import { isDatabaseUnavailable, unavailableReason } from './database-unavailable';
import { isSessionStoreUnavailable } from './session-store-unavailable';

/**
 * The fields of a warning about a store's write that failed beside a request (a limiter giving back a point): when
 * the store is out (the database or the session store not answering), only the reason, since the outage itself is
 * logged once each way with its error; otherwise the whole error, whose stack says where it came from.
 */
export function storeFailureFields(error: unknown): { reason: string } | { err: unknown } {
  if (isSessionStoreUnavailable(error)) return { reason: error.message };
  if (isDatabaseUnavailable(error)) return { reason: unavailableReason(error) };
  return { err: error };
}
