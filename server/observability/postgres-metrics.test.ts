/**
 * `/metrics` of an app on PostgreSQL: the pool's connections (open, idle, waiting) and its maximum, and the sessions
 * stored, counted in the shared sessions table (every host sees the same count).
 */
import request from 'supertest';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { parsePrometheusText, sampleValue } from '../../testing/server/prometheus-text';
import type { PostgresEngine } from '../storage/postgres-engine';
import { addUser, createTestApp, signedInAgent, type TestApp } from '../../testing/server/test-app';

const TOKEN = 'metrics-token-for-the-tests-0123';
const POOL_SIZE = 4;

describeWithPostgres()('metrics of an app on PostgreSQL', () => {
  const postgres = usePostgresDatabases('metrics', { poolSize: POOL_SIZE, statementTimeoutMs: 2000 });
  const apps: TestApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  async function scrape(app: TestApp['app']) {
    const response = await request(app.handler).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    return parsePrometheusText(response.text);
  }

  it('gives the pool’s connections and maximum, and the sessions stored by every host', async () => {
    const storage = await postgres.create();
    const first = await createTestApp({ storage, metrics: { token: TOKEN } });
    apps.push(first);
    const second = await createTestApp({ storage, metrics: { token: TOKEN } });
    apps.push(second);
    await addUser(first.app, 'ada', 'correct horse battery', ['acme']);
    await signedInAgent(first.app, 'ada', 'correct horse battery');
    await signedInAgent(second.app, 'ada', 'correct horse battery');

    const families = await scrape(first.app);
    expect(sampleValue(families, 'slots_db_pool_max_connections')).toBe(POOL_SIZE);
    const open = sampleValue(families, 'slots_db_pool_connections', { state: 'open' });
    expect(open).toBeGreaterThanOrEqual(1);
    expect(open).toBeLessThanOrEqual(POOL_SIZE);
    expect(sampleValue(families, 'slots_db_pool_connections', { state: 'idle' })).toBeLessThanOrEqual(open);
    // Both sign-ins, whichever host took them.
    expect(sampleValue(families, 'slots_sessions_active')).toBe(2);
    expect(sampleValue(await scrape(second.app), 'slots_sessions_active')).toBe(2);
  });

  it('still answers when the pool is exhausted, showing the queries waiting, without the session count', async () => {
    const testApp = await createTestApp({ storage: await postgres.create(), metrics: { token: TOKEN } });
    apps.push(testApp);
    const engine = testApp.app.storage as PostgresEngine;
    const held = await Promise.all(Array.from({ length: POOL_SIZE }, () => engine.pool.connect()));
    // Queued behind the held connections for as long as the scrape takes: it may give up waiting meanwhile.
    const queued = engine.pool.query('SELECT 1').catch(() => undefined);
    try {
      const families = await scrape(testApp.app);
      expect(sampleValue(families, 'slots_db_pool_connections', { state: 'open' })).toBe(POOL_SIZE);
      expect(sampleValue(families, 'slots_db_pool_connections', { state: 'idle' })).toBe(0);
      expect(sampleValue(families, 'slots_db_pool_connections', { state: 'waiting' })).toBeGreaterThanOrEqual(1);
      expect(families.get('slots_sessions_active')?.samples ?? []).toEqual([]);
      // The readiness check waited for a connection as long as any query may (its statement timeout): failing.
      expect(sampleValue(families, 'slots_readiness_check', { check: 'database' })).toBe(0);
    } finally {
      for (const client of held) client.release();
      await queued;
    }
  });
});
