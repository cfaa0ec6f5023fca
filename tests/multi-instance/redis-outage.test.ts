/**
 * An instance whose Redis goes away cannot serve sessions, so it must tell the load balancer it is not ready
 * (503 on /readyz) rather than keep taking traffic; when Redis comes back on the same address, it is ready again.
 */
import { startAppServer, type AppServer } from '../../testing/system/app-server';
import { RedisServerProcess } from '../../testing/system/redis-server-process';
import { readinessWithin } from './support/readiness';
import { requestJson } from './support/session-client';

jest.setTimeout(90_000);

describe('readiness follows Redis', () => {
  let redis: RedisServerProcess;
  let server: AppServer;

  beforeAll(async () => {
    redis = await RedisServerProcess.start();
    server = await startAppServer({
      env: { REDIS_URL: redis.url, SESSION_SECRET: 'redis-outage-test-secret-0123456789abcdef' },
    });
  });

  afterAll(async () => {
    await server?.stop();
    await redis?.stop();
  });

  it('reports Redis among its checks while Redis answers', async () => {
    const ready = await requestJson(server.url, '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ok', checks: { redis: 'ok' } });
  });

  it('answers 503 not ready when Redis goes away, and 200 again once it is back', async () => {
    const port = redis.port;
    await redis.kill();

    const down = await readinessWithin(server.url, 503, 10_000);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: 'unavailable', checks: { redis: 'failing' } });

    // Liveness is another question: the process itself is fine and must not be restarted for this.
    expect((await requestJson(server.url, '/healthz')).status).toBe(200);

    redis = await RedisServerProcess.start({ port });
    const back = await readinessWithin(server.url, 200, 15_000);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ status: 'ok', checks: { redis: 'ok' } });
  });
});
