import session from 'express-session';
import type { SessionData } from 'express-session';
import type BetterSqlite3 from 'better-sqlite3';

export interface SqliteSessionStoreOptions {
  /** Lifetime of a session whose cookie has no expiry (a browser-session cookie). */
  fallbackTtlMs: number;
  /** How often expired rows are deleted; 0 turns the timer off. */
  cleanupIntervalMs: number;
  now?: () => number;
}

type Callback = (err?: unknown) => void;

/**
 * express-session store on the server's SQLite file (table `sessions`), so a restart keeps everyone signed in.
 * A row past its expiry is never returned, whether or not the periodic cleanup has removed it yet.
 */
export class SqliteSessionStore extends session.Store {
  private readonly now: () => number;
  private readonly fallbackTtlMs: number;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly statements: {
    get: BetterSqlite3.Statement<[string, number], string>;
    set: BetterSqlite3.Statement<[string, string, number]>;
    touch: BetterSqlite3.Statement<[number, string]>;
    destroy: BetterSqlite3.Statement<[string]>;
    clear: BetterSqlite3.Statement<[]>;
    length: BetterSqlite3.Statement<[number], number>;
    all: BetterSqlite3.Statement<[number], { sid: string; sess: string }>;
    deleteExpired: BetterSqlite3.Statement<[number]>;
  };

  constructor(db: BetterSqlite3.Database, options: SqliteSessionStoreOptions) {
    super();
    this.now = options.now ?? Date.now;
    this.fallbackTtlMs = options.fallbackTtlMs;
    this.statements = {
      get: db.prepare<[string, number], string>('SELECT sess FROM sessions WHERE sid = ? AND expires_at > ?').pluck(),
      set: db.prepare(
        `INSERT INTO sessions (sid, sess, expires_at) VALUES (?, ?, ?)
         ON CONFLICT (sid) DO UPDATE SET sess = excluded.sess, expires_at = excluded.expires_at`,
      ),
      touch: db.prepare('UPDATE sessions SET expires_at = ? WHERE sid = ?'),
      destroy: db.prepare('DELETE FROM sessions WHERE sid = ?'),
      clear: db.prepare('DELETE FROM sessions'),
      length: db.prepare<[number], number>('SELECT COUNT(*) FROM sessions WHERE expires_at > ?').pluck(),
      all: db.prepare('SELECT sid, sess FROM sessions WHERE expires_at > ?'),
      deleteExpired: db.prepare('DELETE FROM sessions WHERE expires_at <= ?'),
    };
    if (options.cleanupIntervalMs > 0) {
      this.timer = setInterval(() => {
        try {
          this.deleteExpired();
        } catch (error) {
          this.emit('error', error);
        }
      }, options.cleanupIntervalMs);
      this.timer.unref();
    }
  }

  override get(sid: string, callback: (err: unknown, session?: SessionData | null) => void): void {
    this.run(callback, () => {
      const text = this.statements.get.get(sid, this.now());
      return text === undefined ? null : (JSON.parse(text) as SessionData);
    });
  }

  override set(sid: string, data: SessionData, callback?: Callback): void {
    this.run(callback, () => {
      this.statements.set.run(sid, JSON.stringify(data), this.expiryOf(data));
    });
  }

  override touch(sid: string, data: SessionData, callback?: () => void): void {
    this.run(callback, () => {
      this.statements.touch.run(this.expiryOf(data), sid);
    });
  }

  override destroy(sid: string, callback?: Callback): void {
    this.run(callback, () => {
      this.statements.destroy.run(sid);
    });
  }

  override clear(callback?: Callback): void {
    this.run(callback, () => {
      this.statements.clear.run();
    });
  }

  override length(callback: (err: unknown, length?: number) => void): void {
    this.run(callback, () => this.statements.length.get(this.now()) ?? 0);
  }

  override all(callback: (err: unknown, sessions?: { [sid: string]: SessionData } | null) => void): void {
    this.run(callback, () => {
      const sessions: { [sid: string]: SessionData } = Object.create(null) as { [sid: string]: SessionData };
      for (const row of this.statements.all.all(this.now())) sessions[row.sid] = JSON.parse(row.sess) as SessionData;
      return sessions;
    });
  }

  /** Deletes the rows past their expiry; returns how many. */
  deleteExpired(): number {
    return this.statements.deleteExpired.run(this.now()).changes;
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private expiryOf(data: SessionData): number {
    const expires = data.cookie?.expires;
    if (expires) {
      const time = new Date(expires).getTime();
      if (Number.isFinite(time)) return time;
    }
    return this.now() + this.fallbackTtlMs;
  }

  /** better-sqlite3 is synchronous; express-session wants callbacks, called after the current tick. */
  private run<T>(callback: ((err: unknown, value?: T) => void) | undefined, work: () => T): void {
    let value: T;
    try {
      value = work();
    } catch (error) {
      if (callback) process.nextTick(callback, error);
      return;
    }
    if (callback) process.nextTick(callback, null, value);
  }
}
