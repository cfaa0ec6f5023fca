import path from 'node:path';
import type { SessionData } from 'express-session';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { AppDatabase } from './app-database';
import { SqliteSessionStore } from './sqlite-session-store';

function call<T>(run: (callback: (error: unknown, value?: T) => void) => void): Promise<T | undefined> {
  return new Promise((resolve, reject) => run((error, value) => (error ? reject(error as Error) : resolve(value))));
}

function sessionExpiringAt(time: number): SessionData {
  return { cookie: { originalMaxAge: 1000, expires: new Date(time) }, tenant: 'acme' } as unknown as SessionData;
}

describe('SqliteSessionStore', () => {
  let dir: TempDir;
  let database: AppDatabase;
  let now: number;
  let store: SqliteSessionStore;

  beforeEach(() => {
    dir = makeTempDir();
    database = AppDatabase.open(path.join(dir.path, 'app.db'));
    now = 1_000_000;
    store = new SqliteSessionStore(database.db, { fallbackTtlMs: 5_000, cleanupIntervalMs: 0, now: () => now });
  });

  afterEach(() => {
    store.close();
    database.close();
    dir.remove();
  });

  it('stores, reads back, counts and destroys a session', async () => {
    await call((cb) => store.set('a', sessionExpiringAt(now + 10_000), cb));
    const read = await call<SessionData | null>((cb) => store.get('a', cb));
    expect(read).toMatchObject({ tenant: 'acme' });
    expect(await call<number>((cb) => store.length(cb))).toBe(1);
    await call((cb) => store.destroy('a', cb));
    expect(await call((cb) => store.get('a', cb))).toBeNull();
  });

  it('never returns a session past its expiry, even before the cleanup ran', async () => {
    await call((cb) => store.set('a', sessionExpiringAt(now + 1_000), cb));
    now += 999;
    expect(await call((cb) => store.get('a', cb))).not.toBeNull();
    now += 1;
    expect(await call((cb) => store.get('a', cb))).toBeNull();
    expect(await call<number>((cb) => store.length(cb))).toBe(0);
  });

  it('touch pushes the expiry', async () => {
    await call((cb) => store.set('a', sessionExpiringAt(now + 1_000), cb));
    await call((cb) => store.touch('a', sessionExpiringAt(now + 5_000), () => cb(null)));
    now += 3_000;
    expect(await call((cb) => store.get('a', cb))).not.toBeNull();
  });

  it('gives a session without cookie expiry the fallback lifetime', async () => {
    await call((cb) => store.set('a', { cookie: { originalMaxAge: null } } as unknown as SessionData, cb));
    now += 4_999;
    expect(await call((cb) => store.get('a', cb))).not.toBeNull();
    now += 1;
    expect(await call((cb) => store.get('a', cb))).toBeNull();
  });

  it('deletes expired rows in the cleanup, and only those', async () => {
    await call((cb) => store.set('old', sessionExpiringAt(now + 100), cb));
    await call((cb) => store.set('new', sessionExpiringAt(now + 10_000), cb));
    now += 200;
    expect(store.deleteExpired()).toBe(1);
    expect(database.db.prepare('SELECT sid FROM sessions').pluck().all()).toEqual(['new']);
    const all = await call<Record<string, SessionData> | null>((cb) => store.all(cb));
    expect(Object.keys(all ?? {})).toEqual(['new']);
    await call((cb) => store.clear(cb));
    expect(await call<number>((cb) => store.length(cb))).toBe(0);
  });

  it('runs the cleanup on its own timer', async () => {
    const timed = new SqliteSessionStore(database.db, { fallbackTtlMs: 5_000, cleanupIntervalMs: 20, now: () => now });
    try {
      await call((cb) => timed.set('old', sessionExpiringAt(now + 100), cb));
      now += 200;
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(database.db.prepare('SELECT COUNT(*) FROM sessions').pluck().get()).toBe(0);
    } finally {
      timed.close();
    }
  });

  it('reports a database failure through the callback', async () => {
    database.close();
    await expect(call((cb) => store.get('a', cb))).rejects.toThrow(/database connection is not open/);
  });
});
