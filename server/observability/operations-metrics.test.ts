/**
 * `/metrics` says what an operator alerts on besides requests and remotes: each readiness check (a dependency's
 * outage is a series, not only a 503 of `/readyz`) and the re-reads of REMOTES_CONFIG taken or refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { parsePrometheusText, sampleValue } from '../../testing/server/prometheus-text';
import { createTestApp, type TestApp } from '../../testing/server/test-app';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { RELEASE_SCHEMA_VERSION } from '../storage/migrations';

const TOKEN = 'metrics-token-for-the-tests-0123';

let dir: TempDir;
let testApp: TestApp;
let searchIndex: 'ok' | 'failing';
/** How long the search check takes to answer, as a check of a frozen store does before it says failing. */
let searchDelayMs = 0;

beforeEach(async () => {
  dir = makeTempDir('slots-operations-metrics-');
  fs.writeFileSync(path.join(dir.path, 'remotes.json'), JSON.stringify({ remotes: [] }));
  searchIndex = 'ok';
  searchDelayMs = 0;
  testApp = await createTestApp({
    env: { REMOTES_CONFIG: path.join(dir.path, 'remotes.json') },
    metrics: { token: TOKEN },
    readinessChecks: [
      async () => {
        await new Promise((resolve) => setTimeout(resolve, searchDelayMs));
        return { search: searchIndex };
      },
    ],
  });
});
afterEach(async () => {
  await testApp.close();
  dir.remove();
});

async function scrape() {
  const answer = await request(testApp.app.handler).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
  return parsePrometheusText(answer.text);
}

it('shows each readiness check, 1 passing and 0 failing, as /readyz asks them', async () => {
  let families = await scrape();
  expect(sampleValue(families, 'slots_readiness_check', { check: 'database' })).toBe(1);
  expect(sampleValue(families, 'slots_readiness_check', { check: 'search' })).toBe(1);
  // The checks /readyz reports only while they fail are series from the first scrape: 1 while absent.
  expect(sampleValue(families, 'slots_readiness_check', { check: 'started' })).toBe(1);
  expect(sampleValue(families, 'slots_readiness_check', { check: 'draining' })).toBe(1);
  expect((await request(testApp.app.handler).get('/readyz').expect(200)).body.checks).toEqual({
    database: 'ok',
    search: 'ok',
  });
  searchIndex = 'failing';
  families = await scrape();
  expect(sampleValue(families, 'slots_readiness_check', { check: 'search' })).toBe(0);
  expect(sampleValue(families, 'slots_readiness_check', { check: 'database' })).toBe(1);
  // A check that says failing after its own deadline (a frozen Redis: about a second) still reads 0, not nothing.
  searchDelayMs = 1200;
  families = await scrape();
  expect(sampleValue(families, 'slots_readiness_check', { check: 'search' })).toBe(0);
});

it('reads draining 0 once a shutdown began, the same series that read 1', async () => {
  expect(sampleValue(await scrape(), 'slots_readiness_check', { check: 'draining' })).toBe(1);
  testApp.app.lifecycle.startDraining();
  expect(sampleValue(await scrape(), 'slots_readiness_check', { check: 'draining' })).toBe(0);
});

it('counts the re-reads of REMOTES_CONFIG taken and refused, from zero', async () => {
  const reloads = async () => {
    const families = await scrape();
    return ['taken', 'refused'].map((outcome) =>
      sampleValue(families, 'slots_remotes_config_reloads_total', { outcome }),
    );
  };
  expect(await reloads()).toEqual([0, 0]);
  fs.writeFileSync(path.join(dir.path, 'remotes.json'), '{ "remotes": [');
  await expect(testApp.app.reloadRemotesConfig()).resolves.toBe(false);
  fs.writeFileSync(path.join(dir.path, 'remotes.json'), JSON.stringify({ remotes: [] }));
  await expect(testApp.app.reloadRemotesConfig()).resolves.toBe(true);
  await expect(testApp.app.reloadRemotesConfig()).resolves.toBe(true);
  expect(await reloads()).toEqual([2, 1]);
});

it('says which release the host runs: slots_build_info with its revision and the schema it brings', async () => {
  const families = await scrape();
  // Run from its sources here, never built: the revision is unknown (a build records it, scripts/build-identity.ts).
  expect(
    sampleValue(families, 'slots_build_info', { revision: 'unknown', schema: String(RELEASE_SCHEMA_VERSION) }),
  ).toBe(1);
});
