import { useEffect } from 'react';
import type { Session } from '../core';
import { sessionRetryDelayMs } from './session-retry-delay';

/**
 * While the session is `unavailable` and no GET /me is on its way: asks again by itself after a wait that grows with
 * each failure (sessionRetryDelayMs, or the server's Retry-After), and at once when the browser comes back online
 * (an outage that was the network's). Tied to what shows the outage, so nothing is left ticking once it is gone.
 */
export function useSessionRetry(session: Session): void {
  const { outage, refresh } = session;
  const failures = outage?.failures ?? 0;
  const checking = outage?.checking ?? false;
  const retryAfterSeconds = outage?.error.retryAfterSeconds ?? null;

  useEffect(() => {
    if (failures === 0 || checking) return undefined;
    // By itself, not for the person: the outage's end must not restart the idle clock of an unattended page.
    const retry = () => void refresh({ background: true });
    const timer = window.setTimeout(retry, sessionRetryDelayMs(failures, retryAfterSeconds));
    window.addEventListener('online', retry);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('online', retry);
    };
  }, [failures, checking, retryAfterSeconds, refresh]);
}
