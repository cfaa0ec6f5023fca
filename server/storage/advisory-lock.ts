/**
 * PostgreSQL's session-level advisory locks, as the hosts of one database take them for a start-up task one of them
 * does while the others wait: the schema steps (postgres-migrate.ts) and the search words' indexing
 * (PostgresEngine.whileLocked). A wait has no deadline; what a host says while it waits names who holds the lock.
 */
import type { Client } from 'pg';

/** Who holds the lock a host waits for, as PostgreSQL's own views tell (null: gone meanwhile). */
export interface AdvisoryLockHolder {
  pid: number;
  /** Its `application_name`: `slots-server migrations` for a host of this server, `psql` for a shell. */
  application: string;
  /** Its client's address; null for a local socket, or when the database account may not see it. */
  client: string | null;
}

/** Told when the lock is held by another session: once before waiting, once after taking it. */
export interface AdvisoryLockWait {
  waiting(holder: AdvisoryLockHolder | null): void;
  taken(waitedMs: number): void;
  /**
   * Aborted when the start stops (a signal, a port taken: server/process/start-progress.ts): a wait for the lock
   * ends at once, its connection ended (which lets go of whatever it held), rejecting with the abort's reason; the
   * work under the lock stops at its next safe point (a step or a batch committed).
   */
  signal?: AbortSignal;
}

/** The backend holding an advisory lock on this database (a bigint key: classid its high half, objid its low). */
const LOCK_HOLDER_SQL = `
  SELECT l.pid, COALESCE(a.application_name, '') AS application, host(a.client_addr) AS client
  FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
  WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
    AND l.classid::bigint = ($1::bigint >> 32) AND l.objid::bigint = ($1::bigint & 4294967295)
  LIMIT 1`;

/**
 * Takes the session-level advisory lock `key` on `client`, waiting without a deadline when another session holds it;
 * `lockWait` hears of such a wait, before (naming the holder) and after.
 */
export async function takeAdvisoryLock(
  client: Client,
  key: number,
  lockWait: AdvisoryLockWait | undefined,
): Promise<void> {
  const signal = lockWait?.signal;
  // PostgreSQL notices a client gone only when it answers, so its backend would stay queued for the lock, take it
  // when let go, and only then end: checked every second, it ends within a second of its client (PostgreSQL 14 and
  // later; an older one refuses the setting, and its backend leaves when the lock comes). Set before the lock is
  // tried, for the session: a process that exits at once while its work under the lock runs (a second signal during
  // a stop) left a backend holding the lock and applying a step, or queued for a table's lock in that step, until it
  // next answered.
  if (signal) await client.query("SET client_connection_check_interval = '1s'").catch(() => undefined);
  const tried = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [key]);
  if (tried.rows[0]?.locked) return;
  const holder = await client
    .query<{ pid: number; application: string; client: string | null }>(LOCK_HOLDER_SQL, [key])
    .then((result) => result.rows[0] ?? null);
  lockWait?.waiting(holder && { pid: Number(holder.pid), application: holder.application, client: holder.client });
  const started = Date.now();
  // The wait has no deadline; a stop ends it by ending the waiting connection: the start does not wait for a lock
  // it will not use.
  const endWait = () => void client.end().catch(() => undefined);
  signal?.throwIfAborted();
  signal?.addEventListener('abort', endWait, { once: true });
  try {
    await client.query('SELECT pg_advisory_lock($1)', [key]);
  } catch (error) {
    signal?.throwIfAborted();
    throw error;
  } finally {
    signal?.removeEventListener('abort', endWait);
  }
  // Stopped as the lock came: the connection may be ended already, and the work is not to begin.
  signal?.throwIfAborted();
  lockWait?.taken(Date.now() - started);
}

/** The holder as a waiting host's line names it: `PostgreSQL backend 4711 (application "psql", from 10.0.0.5)`. */
export function lockHolderWords(holder: AdvisoryLockHolder | null): string {
  if (holder === null) return 'a session';
  const from = holder.client ? `, from ${holder.client}` : '';
  return `PostgreSQL backend ${holder.pid} (application "${holder.application}"${from})`;
}
