/** `/readyz` follows Redis when sessions live there: 503 JSON as soon as Redis does not answer. */
import path from 'node:path';
import request from 'supertest';
import pino from 'pino';
import { isErrorBody, type HealthPayload } from '../../shared';
import { createApp, type App } from '../../server/app';
import { createTestApp, TEST_SECRET, type TestApp } from '../../testing/server/test-app';
import { makeTempDir } from '../../testing/temp-dir';
import { getFreePort } from '../../testing/system/free-port';
import { RedisServerProcess } from '../../testing/system/redis-server-process';

jest.setTimeout(30_000);

function expectUnavailable(response: request.Response, failing: string): void {
  expect(response.status).toBe(503);
  expect(response.headers['content-type']).toMatch(/application\/json/);
  const body = response.body as HealthPayload;
  expect(body.status).toBe('unavailable');
  expect(body.checks?.[failing]).toBe('failing');
  expect(isErrorBody(response.body)).toBe(true);
}

describe('/readyz with sessions in Redis', () => {
  let redis: RedisServerProcess | undefined;
  let testApp: TestApp | undefined;

  afterEach(async () => {
    await testApp?.close();
    await redis?.stop();
    testApp = undefined;
    redis = undefined;
  });

  it('is ready while Redis answers and answers 503 once Redis is gone, while /healthz stays 200', async () => {
    redis = await RedisServerProcess.start();
    testApp = await createTestApp({ redisUrl: redis.url });
    const ready = await request(testApp.app.handler).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });

    await redis.kill();
    const started = Date.now();
    expectUnavailable(await request(testApp.app.handler).get('/readyz'), 'redis');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await request(testApp.app.handler).get('/healthz')).status).toBe(200);
  });

  it('answers 503 when REDIS_URL points at a port where nothing listens', async () => {
    const dir = makeTempDir();
    const deadPort = await getFreePort();
    let app: App | undefined;
    try {
      app = createApp({
        databasePath: path.join(dir.path, 'app.db'),
        sessionSecret: TEST_SECRET,
        nodeEnv: 'test',
        logger: pino({ level: 'silent' }),
        redisUrl: `redis://127.0.0.1:${deadPort}`,
        distDir: path.join(dir.path, 'dist'),
      });
      expectUnavailable(await request(app.handler).get('/readyz'), 'redis');
    } finally {
      await app?.close();
      dir.remove();
    }
  });
});
