/**
 * A server entry stopped while its PostgreSQL is frozen (SIGSTOP: connections open, nothing answers): what the tests
 * of such a stop share. The entry runs with a short shutdown deadline and a statement timeout far above it, so the
 * last slot counts' write (counted in memory, written by the close) waits on the frozen database past the deadline.
 */
import type { SlotLoadEvent } from '../../shared';
import { POSTGRES_STOPPED_MESSAGE } from '../../server/storage/postgres-outage-log';
import type { PostgresServer } from './postgres-server';
import type { EntryRun } from './server-entry-run';
import { waitUntil } from './wait-until';

/** The entry's settings over the database's: a 1 s shutdown, and a statement timeout far above it. */
export const FROZEN_STOP_ENV = Object.freeze({
  SESSION_SECRET: 'a-session-secret-of-enough-characters',
  DEMO_PASSWORD: 'entry-demo-password',
  SHUTDOWN_TIMEOUT_MS: '1000',
  // Far above the shutdown's bound: the last counts' write waits this long for the frozen database.
  DATABASE_STATEMENT_TIMEOUT_MS: '40000',
});

/** A signed-out visitor's load of the demo's banner: counted in memory, written at the latest on close. */
export const BANNER_LOAD: SlotLoadEvent = {
  remote: 'team_marketing',
  component: 'MaintenanceNotice',
  location: 'header-banner',
  outcome: 'rendered',
  phase: null,
  kind: null,
  loadMs: 140,
  startMs: 200,
};

/** Freezes `server` under the running entry and waits until the entry has logged the outage (30 s at most). */
export async function freezeUntilOutageLogged(server: PostgresServer, started: EntryRun): Promise<void> {
  server.freeze();
  // Again: a backend forked for a new connection of the pool just before the postmaster stopped is stopped too.
  await new Promise((resolve) => setTimeout(resolve, 200));
  server.freeze();
  await waitUntil(
    async () => started.logLines<{ msg: string }>().some(({ msg }) => msg === POSTGRES_STOPPED_MESSAGE),
    30_000,
    'the outage logged',
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}\n${started.output()}`);
  });
}
