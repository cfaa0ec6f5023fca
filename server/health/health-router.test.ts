import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { isErrorBody } from '../../shared';
import { createTestApp, FAST_HASH, TEST_SECRET, type TestApp } from '../../testing/server/test-app';
import { makeTempDir } from '../../testing/temp-dir';
import { createApp } from '../app';
import { APP_NOT_READY } from './served-before-ready';

describe('GET /healthz and /readyz', () => {
  let testApp: TestApp;

  beforeEach(async () => {
    testApp = await createTestApp();
  });

  afterEach(async () => {
    await testApp.close();
  });

  it('/healthz says the process is alive', async () => {
    const response = await request(testApp.app.handler).get('/healthz');
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({ status: 'ok' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('/readyz checks the database', async () => {
    const response = await request(testApp.app.handler).get('/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok', checks: { database: 'ok' } });
  });

  it('/readyz answers 503 when the database does not answer, while /healthz stays 200', async () => {
    testApp.app.database.close();
    const response = await request(testApp.app.handler).get('/readyz');
    expect(response.status).toBe(503);
    expect(response.body).toMatchObject({ status: 'unavailable', checks: { database: 'failing' } });
    expect(isErrorBody(response.body)).toBe(true);
    expect(response.body.error.code).toBe('unavailable');
    expect((await request(testApp.app.handler).get('/healthz')).status).toBe(200);
  });

  it('/readyz includes the checks given to the app', async () => {
    await testApp.close();
    let draining = false;
    testApp = await createTestApp({ readinessChecks: [async () => ({ draining: draining ? 'failing' : 'ok' })] });
    expect((await request(testApp.app.handler).get('/readyz')).body).toEqual({
      status: 'ok',
      checks: { database: 'ok', draining: 'ok' },
    });
    draining = true;
    const response = await request(testApp.app.handler).get('/readyz');
    expect(response.status).toBe(503);
    expect(response.body.checks).toEqual({ database: 'ok', draining: 'failing' });
  });

  it("/readyz: a check given to the app under a server's check name never hides the server's failing one", async () => {
    await testApp.close();
    testApp = await createTestApp({ readinessChecks: [async () => ({ database: 'ok' })] });
    expect((await request(testApp.app.handler).get('/readyz')).status).toBe(200);
    testApp.app.database.close();
    const response = await request(testApp.app.handler).get('/readyz');
    expect(response.status).toBe(503);
    expect(response.body.checks).toMatchObject({ database: 'failing' });
  });

  it('both answer 405 to other methods', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const response = await request(testApp.app.handler).delete(path);
      expect(response.status).toBe(405);
      expect(response.body.error.code).toBe('method_not_allowed');
    }
  });
});

describe('an app served before ready()', () => {
  it('says so once in the log, and /readyz answers 503 (started: failing) until ready() has finished', async () => {
    const dir = makeTempDir('slots-not-ready-');
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
    const app = createApp({
      databasePath: path.join(dir.path, 'app.db'),
      sessionSecret: TEST_SECRET,
      nodeEnv: 'test',
      logger,
      passwordHashParams: FAST_HASH,
      distDir: path.join(dir.path, 'dist'),
      sessionCleanupIntervalMs: 0,
    });
    try {
      // An entry that forgot `await app.ready()`: its slots were never checked, nothing in force was loaded.
      const early = await request(app.handler).get('/readyz');
      expect(early.status).toBe(503);
      expect(early.body.checks).toMatchObject({ started: 'failing' });
      await request(app.handler).get('/slots');
      expect(warnings.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual([APP_NOT_READY]);

      await app.ready();
      const ready = await request(app.handler).get('/readyz');
      expect([ready.status, ready.body.checks]).toEqual([200, { database: 'ok' }]);
    } finally {
      await app.close();
      dir.remove();
    }
  });
});
