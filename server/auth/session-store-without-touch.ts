import session, { type SessionData, type Store } from 'express-session';

type Callback = (error?: unknown) => void;

/**
 * A session store as express-session should see it: the same sessions, without `touch`, so a request that changed
 * nothing costs no write (express-session would otherwise move the stored expiry on every such answer: an UPDATE in
 * SQLite, an EXPIRE in Redis). Nothing is lost: enforceSessionTimeouts changes the session (`lastSeenAt`) whenever
 * the idle deadline moves by a step, and that save moves the stored expiry with it, so the store keeps a session as
 * long as the idle timeout does, to within that step.
 *
 * It delegates to the real store rather than changing it, so every store (SQLite, Redis, PostgreSQL) gets the same.
 */
export class SessionStoreWithoutTouch extends session.Store {
  constructor(private readonly store: Store) {
    super();
    // express-session watches these to know whether the store can be used.
    store.on('connect', () => this.emit('connect'));
    store.on('disconnect', () => this.emit('disconnect'));
  }

  override get(sid: string, callback: (error: unknown, session?: SessionData | null) => void): void {
    this.store.get(sid, callback);
  }

  override set(sid: string, data: SessionData, callback?: Callback): void {
    this.store.set(sid, data, callback);
  }

  override destroy(sid: string, callback?: Callback): void {
    this.store.destroy(sid, callback);
  }
}
