/**
 * Baseline for `GET /meta`: a bare express-session + passport app on the same session store the server uses (the
 * project's SqliteSessionStore on its migrated SQLite file, connect-redis on Redis, or connect-pg-simple on PostgreSQL), whose `/meta` sends a
 * constant JSON body (the bytes the real server answered) to a signed-in session. What the real server does beyond
 * this (user and tenant lookup, timeouts, security headers, logging, building the payload) is what the ratio shows.
 *
 * Env: PORT, HOST, SESSION_STORE (`sqlite` | `redis` | `postgres`), DATABASE_PATH (sqlite), REDIS_URL (redis),
 * DATABASE_URL (postgres), BODY_FILE.
 * `POST /login` signs in a constant user, so the bench can get a session cookie; it is not measured.
 */
import { readFileSync } from 'node:fs';
import connectPgSimple from 'connect-pg-simple';
import { RedisStore } from 'connect-redis';
import express from 'express';
import session, { type Store } from 'express-session';
import passport from 'passport';
import { Pool } from 'pg';
import { createClient } from 'redis';
import { AppDatabase } from '../../server/storage/app-database';
import { SqliteSessionStore } from '../../server/storage/sqlite-session-store';
import { requiredEnv } from './required-env';

const IDLE_MS = 30 * 60 * 1000;
// The shape the server's sessions carry (Express.User), constant: the baseline does no user lookup.
const BENCH_USER: Express.User = Object.freeze({
  id: 1,
  username: 'bench',
  displayName: 'Bench',
  credentialStamp: 'bench',
  roles: [],
  grantedPermissions: [],
});

async function openStore(): Promise<{ store: Store; close: () => Promise<void> }> {
  const kind = requiredEnv('SESSION_STORE');
  if (kind === 'sqlite') {
    const database = AppDatabase.open(requiredEnv('DATABASE_PATH'));
    const store = new SqliteSessionStore(database.db, { fallbackTtlMs: IDLE_MS, cleanupIntervalMs: 0 });
    return { store, close: async () => database.close() };
  }
  if (kind === 'redis') {
    const client = createClient({ url: requiredEnv('REDIS_URL') });
    await client.connect();
    return { store: new RedisStore({ client, prefix: 'bench:sess:' }), close: () => client.close() };
  }
  if (kind === 'postgres') {
    // A pool of the server's default size (DATABASE_POOL_SIZE 10, pg's default too); the table is the store's own.
    const pool = new Pool({ connectionString: requiredEnv('DATABASE_URL'), max: 10 });
    const PostgresStore = connectPgSimple(session);
    const store = new PostgresStore({ pool, createTableIfMissing: true, pruneSessionInterval: false });
    return { store, close: () => pool.end() };
  }
  throw new Error(`SESSION_STORE must be sqlite, redis or postgres, got ${JSON.stringify(kind)}.`);
}

async function main(): Promise<void> {
  const body = readFileSync(requiredEnv('BODY_FILE'));
  const { store, close } = await openStore();

  const authenticator = new passport.Authenticator();
  authenticator.serializeUser((user, done) => done(null, user.id));
  authenticator.deserializeUser((_id: unknown, done) => done(null, BENCH_USER));

  const app = express();
  app.use(
    session({
      store,
      secret: 'bench-baseline-secret',
      name: 'bench.sid',
      resave: false,
      saveUninitialized: false,
      cookie: { httpOnly: true, sameSite: 'lax', secure: 'auto', path: '/', maxAge: IDLE_MS },
    }),
  );
  app.use(authenticator.session());
  app.post('/login', (req, res, next) => {
    req.login(BENCH_USER, (error: unknown) => (error ? next(error) : res.json({ ok: true })));
  });
  app.get('/meta', (req, res) => {
    if (!req.user) {
      res.status(401).json({ error: { code: 'unauthenticated', message: 'Sign in to continue.' } });
      return;
    }
    res.set({ 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'private, no-store' }).send(body);
  });
  app.get('/readyz', (_req, res) => {
    res.json({ status: 'ok' });
  });

  const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
  process.on('SIGTERM', () => {
    server.close(() => {
      close().finally(() => process.exit(0));
    });
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
