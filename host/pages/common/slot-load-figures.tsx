import { useEffect, useState } from 'react';
import { SLOT_STATS_PATH, type SlotLoadStats, type SlotStatsPayload } from '../../../shared';
import { useApiClient } from '../../core';

/** How often an open page asks for the figures again: a new failure shows within a minute. */
const REFRESH_MS = 20_000;

/**
 * The slot load statistics of the last hour, asked again every 20 s; null until the first answer. A failed reading
 * keeps the figures shown (the page's own requests say when the session ended).
 */
export function useSlotLoadStats(): SlotStatsPayload | null {
  const client = useApiClient();
  const [stats, setStats] = useState<SlotStatsPayload | null>(null);
  useEffect(() => {
    const read = (background: boolean) =>
      void client
        .get<SlotStatsPayload>(`${SLOT_STATS_PATH}?window=1h`, undefined, { background })
        .then(setStats, () => {});
    read(false);
    // The refreshes are the page's, not the person's: they must not keep an unattended page signed in.
    const timer = setInterval(() => read(true), REFRESH_MS);
    return () => clearInterval(timer);
  }, [client]);
  return stats;
}

/** One slot's figures on the release its remote serves the viewer now; undefined without loads. */
export function currentSlotStats(
  payload: SlotStatsPayload | null,
  slot: { remote: string | null; location: string; component: string },
): SlotLoadStats | undefined {
  if (payload === null || slot.remote === null) return undefined;
  const release = payload.served[slot.remote];
  return payload.stats.find(
    (row) =>
      row.remote === slot.remote &&
      row.release === release &&
      row.location === slot.location &&
      row.component === slot.component,
  );
}

/** A release's figures over every location and component; undefined without loads. */
export function releaseStats(payload: SlotStatsPayload | null, remote: string, release: string) {
  return payload?.releases.find((row) => row.remote === remote && row.release === release);
}

/** "12.5 % of 80" (failed or timed out, of the loads not hidden), or a dash. */
export function FailureRate({ stats }: { stats: SlotLoadStats | undefined }) {
  if (stats?.failureRate == null) return <>—</>;
  const judged = stats.loads - stats.hidden;
  return (
    <span data-failure-rate={stats.failureRate.toFixed(3)}>
      {(stats.failureRate * 100).toFixed(1)} % of {judged}
    </span>
  );
}

/** "p95 480 ms", or a dash. */
export function LoadTime({ stats }: { stats: SlotLoadStats | undefined }) {
  if (stats?.p95Ms == null) return <>—</>;
  return <span data-p95-ms={stats.p95Ms}>{stats.p95Ms} ms</span>;
}
