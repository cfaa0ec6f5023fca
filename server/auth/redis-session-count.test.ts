/**
 * Redis has no index to count from: the count reads the sessions a batch at a time, never all of them in one answer
 * (parsing 100,000 sessions at once held the server for about half a second).
 */
import path from 'node:path';
import type { RedisStore } from 'connect-redis';
import type { SessionData } from 'express-session';
import pino from 'pino';
import type { RedisClientType } from 'redis';
import { describeWithCommand } from '../../testing/describe-with-command';
import { RedisServerProcess } from '../../testing/system/redis-server-process';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { credentialStampOf } from './user-store';
import { createRedisSessionStorage } from '../storage/redis-session-storage';
import type { SessionStorage } from '../storage/session-storage';
import { SqliteEngine } from '../storage/sqlite-engine';
import { redisSessionCount, SESSION_KEYS_PER_READ } from './redis-session-count';

jest.setTimeout(30_000);

const SESSIONS = 2 * SESSION_KEYS_PER_READ + 500;

describeWithCommand(
  'redis-server',
  ['--version'],
  'redis-server',
)('redisSessionCount', () => {
  let redis: RedisServerProcess;
  let dir: TempDir;
  let engine: SqliteEngine;
  let sessions: SessionStorage;
  beforeAll(async () => {
    redis = await RedisServerProcess.start();
  });
  afterAll(() => redis.stop());
  beforeEach(async () => {
    dir = makeTempDir('slots-redis-count-');
    engine = SqliteEngine.open(path.join(dir.path, 'app.db'));
    // Thousands of sessions are stored at once: on a loaded two-core machine one answer took over the 2 s deadline,
    // which is not what this test is about.
    sessions = createRedisSessionStorage({
      url: redis.url,
      logger: pino({ level: 'silent' }),
      commandTimeoutMs: 15_000,
    });
    await sessions.ready();
  });
  afterEach(async () => {
    await sessions.close();
    await engine.close();
    dir.remove();
  });

  /** Stores SESSIONS sessions of one account, signed in with its stamp, through the session store. */
  async function storeSessions(): Promise<void> {
    const { id } = await engine.db
      .insertInto('users')
      .values({ username: 'ada', display_name: 'Ada', password_hash: 'hash-of-ada', created_at: 0, updated_at: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const data = {
      cookie: { originalMaxAge: 3_600_000, expires: new Date(Date.now() + 3_600_000) },
      passport: { user: { id, credentials: credentialStampOf('hash-of-ada', null) } },
    } as unknown as SessionData;
    const { store } = sessions;
    await Promise.all(
      Array.from(
        { length: SESSIONS },
        (_, n) =>
          new Promise<void>((resolve, reject) => {
            store.set(`session-${n}`, data, (error?: unknown) => (error ? reject(error as Error) : resolve()));
          }),
      ),
    );
  }

  it('reads the sessions in batches of SESSION_KEYS_PER_READ, and counts them all', async () => {
    await storeSessions();
    const reads = jest.spyOn(sessions.redisClient as RedisClientType, 'mGet');

    expect(await redisSessionCount(sessions.store as RedisStore, engine)()).toBe(SESSIONS);
    const batches = reads.mock.calls.map(([keys]) => (Array.isArray(keys) ? keys.length : 1));
    expect(batches.reduce((sum, size) => sum + size, 0)).toBe(SESSIONS);
    expect(Math.max(...batches)).toBeLessThanOrEqual(SESSION_KEYS_PER_READ);
  });

  it('stops reading once its scrape gave it up', async () => {
    await storeSessions();
    const client = sessions.redisClient as RedisClientType;
    const read = client.mGet.bind(client);
    const scrapeOver = new AbortController();
    // The scrape's deadline passes while Redis answers the first batch.
    const reads = jest.spyOn(client, 'mGet').mockImplementation((keys) => {
      scrapeOver.abort();
      return read(keys);
    });
    await expect(redisSessionCount(sessions.store as RedisStore, engine)(scrapeOver.signal)).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(reads).toHaveBeenCalledTimes(1);
  });
});
