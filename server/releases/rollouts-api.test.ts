/**
 * Progressive rollouts through the whole app over HTTP: starting a plan (who may, what is refused), the plan advanced
 * by the server while the judge says the canary is no worse (with a clock the test gives, and with short steps in
 * real time), rolled back when it is worse, stopped by a change made by other means, and an operator's pause,
 * resume, promote and abort, each audited once.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { instantInUtc, VIEWER_ROLE, type AuditEntry, type RemoteReleasesPayload, type RolloutPlan } from '../../shared';
import { addOperator, addUser, createTestApp, signedInAgent, type TestApp } from '../../testing/server/test-app';
import { startDescriptorOrigin, type DescriptorOrigin } from '../../testing/server/released-remote';
import { waitUntil } from '../../testing/server/wait-until';
import { getFreePort } from '../../testing/system/free-port';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { FILES_UNCONFIRMED } from './release-files-refusal';
import { RELEASE_REFUSALS } from './release-refusals';
import type { CanaryHealth, CanaryJudgement } from './rollout-plans';
import { RolloutPlanStore } from './rollout-plan-store';
import { ReleaseStore } from './release-store';

jest.setTimeout(60_000);

const DESCRIPTOR = { name: 'team_billing', components: ['InvoiceBanner'] };
const MINUTE = 60_000;

let origin: DescriptorOrigin;
let originUrl: string;
let declared: TempDir;
let testApp: TestApp;
/** What the test's judge says of every canary; set per test. */
let health: CanaryHealth | CanaryJudgement;
const judged: Array<{ remote: string; version: string; since: number; minVisitors: number }> = [];

beforeAll(async () => {
  // The releases' files; the hosts' REMOTES_CONFIG below is this test's own, not the origin's.
  origin = await startDescriptorOrigin(DESCRIPTOR);
  originUrl = origin.url;
  declared = makeTempDir('slots-rollouts-declared-');
  // Entries on a port nothing listens on (a refused connection): declared, never made releases; team_billing's team
  // may roll it out.
  const down = `http://127.0.0.1:${await getFreePort()}`;
  const remotes = [
    { name: 'team_billing', entry: `${down}/team_billing/mf-manifest.json`, teamRollouts: true },
    { name: 'team_other', entry: `${down}/team_other/remoteEntry.js`, components: ['OtherWidget'] },
  ];
  fs.writeFileSync(path.join(declared.path, 'remotes.json'), JSON.stringify({ remotes }));
});
afterAll(async () => {
  declared.remove();
  await origin.close();
});

/** An app whose team_billing has v1 active and v2 published; `pollMs` is also how often it looks for a step due. */
async function start(pollMs = 600_000): Promise<TestApp> {
  const started = await createTestApp({
    env: { REMOTES_CONFIG: path.join(declared.path, 'remotes.json') },
    // Publishing fetches each release's manifest from the origin: generous, for a busy machine (500 ms failed there).
    remoteDescriptorTimeoutMs: 10_000,
    releasePollMs: pollMs,
  });
  await addOperator(started.app);
  const token = (await started.app.releases.teamTokens.create('team_billing', null)).token;
  for (const version of ['v1', 'v2']) {
    await request(started.app.handler)
      .post('/api/remotes/team_billing/releases')
      .set('Authorization', `Bearer ${token}`)
      .send({ version, entry: `${originUrl}/${version}/mf-manifest.json` })
      .expect(201);
  }
  await started.app.releases.service.activate('team_billing', 'v1', 'admin', 'activate');
  started.app.releases.judgeRolloutsWith({
    canaryHealth: (remote, version, step) => {
      judged.push({ remote, version, ...step });
      return health;
    },
  });
  return started;
}

beforeEach(() => {
  health = 'no-worse';
  judged.length = 0;
});
afterEach(async () => {
  // The origin is the file's: a test failing before it puts its files back must not fail the next ones too.
  origin.missing.clear();
  origin.unanswered.clear();
  await testApp?.close();
});

const PLAN = {
  version: 'v2',
  steps: [
    { share: 5, minutes: 10 },
    { share: 25, minutes: 10, visitors: 40 },
    { share: 100, minutes: 0 },
  ],
};

/** team_billing in a releases list's answer. */
function billingListed(answer: { body: unknown }) {
  return (answer.body as RemoteReleasesPayload).remotes.find((remote) => remote.remote === 'team_billing');
}

async function planNow(): Promise<RolloutPlan> {
  return (await testApp.app.releases.rollouts.current('team_billing'))!;
}

async function rolloutTrail(): Promise<Array<[string, string]>> {
  const trail: AuditEntry[] = await testApp.app.releases.store.history('team_billing');
  return trail
    .filter((entry) => entry.action.startsWith('rollout-'))
    .reverse()
    .map((entry) => [entry.action, entry.actor]);
}

describe('starting a rollout plan', () => {
  it('answers 201 to an operator, 401 without a session or token, 403 to a viewer, 400 naming the problem', async () => {
    testApp = await start();
    const { app } = testApp;
    await request(app.handler).post('/api/remotes/team_billing/rollouts').send(PLAN).expect(401);
    await request(app.handler).get('/api/remotes/team_billing/rollouts/current').expect(401);
    await addUser(app, 'watcher', 'watcher-password-1', ['acme']);
    await app.users.setRole('watcher', VIEWER_ROLE);
    const viewer = await signedInAgent(app, 'watcher', 'watcher-password-1');
    await viewer.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(403);

    const operator = await signedInAgent(app);
    const unknown = await operator
      .post('/api/remotes/team_billing/rollouts')
      .send({ ...PLAN, version: 'v9' })
      .expect(400);
    expect(unknown.body.error.message).toBe('Remote "team_billing" has no release "v9"; its releases: v2, v1.');
    const badStep = await operator
      .post('/api/remotes/team_billing/rollouts')
      .send({
        version: 'v2',
        steps: [
          { share: 50, minutes: 10 },
          { share: 20, minutes: 10 },
        ],
      })
      .expect(400);
    expect(badStep.body.error.message).toMatch(/^steps\[1\]\.share must be a whole number above 50/);
    const notLast = await operator
      .post('/api/remotes/team_billing/rollouts')
      .send({
        version: 'v2',
        steps: [
          { share: 5, minutes: 10 },
          { share: 50, minutes: -1 },
        ],
      })
      .expect(400);
    expect(notLast.body.error.message).toMatch(/^steps\[1\]\.minutes must be a number from 0/);
    await operator.post('/api/remotes/team_billing/rollouts').send({ version: 'v1', steps: PLAN.steps }).expect(400);
    expect(await app.releases.store.rollout('team_billing')).toMatchObject({ active: 'v1', canary: null });

    const started = await operator.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(201);
    expect(started.body).toMatchObject({ version: 'v2', step: 0, share: 5, state: 'running', startedBy: 'admin' });
    const current = await operator.get('/api/remotes/team_billing/rollouts/current').expect(200);
    expect(current.body).toEqual(started.body);
    // The first step's share is the canary's at once, served by this host.
    expect(await app.releases.store.rollout('team_billing')).toMatchObject({
      active: 'v1',
      canary: { version: 'v2', percent: 5, tenants: [] },
    });
    expect(app.releases.snapshot.rollout('team_billing')?.canary?.percent).toBe(5);
    // One plan at a time.
    const second = await operator.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(400);
    expect(second.body.error.message).toMatch(/has a rollout plan of "v2" running at step 1 of 3 \(5 %\)/);
    expect(await rolloutTrail()).toEqual([['rollout-start', 'admin']]);
  });

  it('names the rollout it was chosen on: a canary started since is refused (409), never replaced unseen', async () => {
    testApp = await start();
    const { app } = testApp;
    await addOperator(app, 'bea');
    const ana = await signedInAgent(app);
    const bea = await signedInAgent(app, 'bea');
    // Ana's page shows v1 active and no canary; Bea then starts a canary of v2 at 20 %.
    const shown = { active: 'v1', canary: '' };
    await bea.post('/api/remotes/team_billing/canary').send({ version: 'v2', percent: 20 }).expect(200);
    const [beaChange] = await app.releases.store.history('team_billing');
    const refused = await ana.post('/api/remotes/team_billing/rollouts').query(shown).send(PLAN).expect(409);
    expect(refused.body.error).toMatchObject({ code: 'conflict' });
    expect(refused.body.error.message).toBe(
      'The rollout of "team_billing" moved since it was shown (v1 active, no canary): now v1 active, a canary of v2 ' +
        `to 20 % (changed by bea at ${instantInUtc(beaChange!.at)}). Nothing was changed: look at it again before ` +
        'choosing.',
    );
    expect(await app.releases.store.rollout('team_billing')).toMatchObject({ canary: { version: 'v2', percent: 20 } });
    expect(await app.releases.rollouts.current('team_billing')).toBeUndefined();

    // Moved by another host between this one's check and its transaction: refused there too, naming who.
    const read = ReleaseStore.prototype.rollout;
    const stale = jest.spyOn(ReleaseStore.prototype, 'rollout').mockImplementationOnce(async function (
      this: ReleaseStore,
      remote: string,
    ) {
      return { ...(await read.call(this, remote)), canary: null };
    });
    const raced = await ana.post('/api/remotes/team_billing/rollouts').query(shown).send(PLAN).expect(409);
    stale.mockRestore();
    expect(raced.body.error.message).toContain(`(changed by bea at ${instantInUtc(beaChange!.at)})`);
    expect(await app.releases.rollouts.current('team_billing')).toBeUndefined();

    // Shown the canary, the plan replaces it; half of the rollout seen is a 400.
    await ana.post('/api/remotes/team_billing/rollouts').query({ active: 'v1' }).send(PLAN).expect(400);
    await ana.post('/api/remotes/team_billing/rollouts').query({ active: 'v1', canary: 'v2' }).send(PLAN).expect(201);
  });

  it('takes the team token of a remote whose REMOTES_CONFIG entry says "teamRollouts": true, and no other', async () => {
    testApp = await start();
    const { app } = testApp;
    const post = (remote: string, token: string) =>
      request(app.handler).post(`/api/remotes/${remote}/rollouts`).set('Authorization', `Bearer ${token}`).send(PLAN);
    const billing = (await app.releases.teamTokens.create('team_billing', null)).token;
    const other = (await app.releases.teamTokens.create('team_other', null)).token;
    await post('team_billing', 'slt_nothing_here').expect(401);
    await post('team_billing', other).expect(403);
    const refused = await post('team_other', other).expect(403);
    expect(refused.body.error.message).toMatch(/"teamRollouts"/);
    const started = await post('team_billing', billing).expect(201);
    expect(started.body.startedBy).toMatch(/^token:/);
    await request(app.handler)
      .post('/api/remotes/team_billing/rollouts/current/pause')
      .set('Authorization', `Bearer ${billing}`)
      .expect(200);
    expect((await planNow()).state).toBe('paused');
  });

  it("serves a signed-in operator's session whatever Authorization header rides along, as the rest of the API", async () => {
    testApp = await start();
    const { app } = testApp;
    const operator = await signedInAgent(app);
    const other = (await app.releases.teamTokens.create('team_other', null)).token;
    for (const header of ['Basic cHJveHk6c2VjcmV0', 'Bearer slt_nothing_here', `Bearer ${other}`]) {
      await operator.get('/api/remotes/team_billing/rollouts/current').set('Authorization', header).expect(404);
    }
    const started = await operator
      .post('/api/remotes/team_billing/rollouts')
      .set('Authorization', 'Bearer slt_nothing_here')
      .send(PLAN)
      .expect(201);
    expect(started.body.startedBy).toBe('admin');
    await operator
      .post('/api/remotes/team_billing/rollouts/current/pause')
      .set('Authorization', 'Bearer slt_nothing_here')
      .expect(200);
    expect((await rolloutTrail()).map(([, actor]) => actor)).toEqual(['admin', 'admin']);
    // A signed-in viewer is the viewer, even holding the remote's token: 403, as for its session alone.
    await addUser(app, 'watcher', 'watcher-password-1', ['acme']);
    await app.users.setRole('watcher', VIEWER_ROLE);
    const viewer = await signedInAgent(app, 'watcher', 'watcher-password-1');
    const billing = (await app.releases.teamTokens.create('team_billing', null)).token;
    await viewer
      .post('/api/remotes/team_billing/rollouts/current/resume')
      .set('Authorization', `Bearer ${billing}`)
      .expect(403);
  });
});

describe('a running plan', () => {
  it('advances a step once its time is up and the canary is no worse, and activates the release at 100 %', async () => {
    testApp = await start();
    const { app } = testApp;
    const operator = await signedInAgent(app);
    await operator.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(201);
    const begun = Date.parse((await planNow()).stepStartedAt);
    const rollouts = app.releases.rollouts;

    // Before its ten minutes: held, though no worse.
    await rollouts.check(begun + 9 * MINUTE);
    expect(await planNow()).toMatchObject({ step: 0, share: 5 });
    // Worse is not the verdict while unknown (too few visitors): held past its time.
    health = 'unknown';
    await rollouts.check(begun + 11 * MINUTE);
    expect(await planNow()).toMatchObject({ step: 0, state: 'running' });
    health = 'no-worse';
    await rollouts.check(begun + 11 * MINUTE);
    expect(await planNow()).toMatchObject({ step: 1, share: 25, state: 'running' });
    expect(app.releases.snapshot.rollout('team_billing')?.canary?.percent).toBe(25);
    // The judge is asked for the step's visitors, since the step began.
    await rollouts.check(begun + 12 * MINUTE);
    const stepBegun = Date.parse((await planNow()).stepStartedAt);
    expect(judged.at(-1)).toEqual({ remote: 'team_billing', version: 'v2', since: stepBegun, minVisitors: 40 });
    await rollouts.check(stepBegun + 10 * MINUTE);
    expect(await planNow()).toMatchObject({ step: 2, share: 100, state: 'done' });
    expect(await app.releases.store.rollout('team_billing')).toMatchObject({ active: 'v2', canary: null });
    expect(await rolloutTrail()).toEqual([
      ['rollout-start', 'admin'],
      ['rollout-step', 'rollout'],
      ['rollout-step', 'rollout'],
    ]);
    const [last] = await app.releases.store.history('team_billing');
    expect(last?.after).toMatchObject({ active: 'v2', reason: 'step 3 of 3 (100 %): the release activated' });
  });

  it('advances by itself in real time with short steps, on the timer every host runs', async () => {
    testApp = await start(50);
    const operator = await signedInAgent(testApp.app);
    const steps = [
      { share: 10, minutes: 0.002 },
      { share: 50, minutes: 0.002 },
      { share: 100, minutes: 0 },
    ];
    await operator.post('/api/remotes/team_billing/rollouts').send({ version: 'v2', steps }).expect(201);
    await waitUntil(async () => (await planNow()).state === 'done', 20_000);
    expect(await testApp.app.releases.store.rollout('team_billing')).toMatchObject({ active: 'v2', canary: null });
    expect((await rolloutTrail()).map(([action]) => action)).toEqual(['rollout-start', 'rollout-step', 'rollout-step']);
  });

  it('is rolled back when the judge says the canary is worse, audited once as auto-rollback', async () => {
    testApp = await start(50);
    const operator = await signedInAgent(testApp.app);
    await operator.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(201);
    health = 'worse';
    await waitUntil(async () => (await planNow()).state === 'rolled-back', 20_000);
    expect(await testApp.app.releases.store.rollout('team_billing')).toMatchObject({ active: 'v1', canary: null });
    await testApp.app.releases.rollouts.check();
    expect(await rolloutTrail()).toEqual([
      ['rollout-start', 'admin'],
      ['rollout-rolled-back', 'auto-rollback'],
    ]);
    expect((await planNow()).reason).toMatch(/worse than its stable release at step 1 of 3/);
    expect(billingListed(await operator.get('/api/remotes/releases').expect(200))?.automaticRollbacks).toEqual([
      { version: 'v2', at: expect.any(String), reason: expect.stringMatching(/worse/) },
    ]);
    // The page's notice of an automatic rollback, and the plan as it ended, in the releases list.
    const listed = (await operator.get('/api/remotes/releases').expect(200)).body as RemoteReleasesPayload;
    const billing = listed.remotes.find((remote) => remote.remote === 'team_billing');
    expect(billing?.automaticRollback).toMatchObject({ version: 'v2', reason: expect.stringMatching(/worse/) });
    expect(billing?.plan).toMatchObject({ version: 'v2', state: 'rolled-back' });
  });

  it('says what the judge measured when it rolls back, in the plan, the audit and the page', async () => {
    testApp = await start();
    const operator = await signedInAgent(testApp.app);
    await operator.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(201);
    const measured =
      'canary v2: 4 of 4 visitors (100.0 %) saw a failure, where stable v1: 0 of 12 (0.0 %) on the same slots: more ' +
      'than 5.0 points worse at 99 % confidence (z = 3.10); most of all InvoiceBanner at header-banner (4 of 4 visitors failed)';
    health = { health: 'worse', reason: measured };
    await testApp.app.releases.rollouts.check();
    const reason = `the canary was worse than its stable release at step 1 of 3 (5 %): ${measured}`;
    expect(await planNow()).toMatchObject({ state: 'rolled-back', reason });
    const [audited] = await testApp.app.releases.store.history('team_billing');
    expect(audited).toMatchObject({ action: 'rollout-rolled-back', after: { reason } });
    const listed = billingListed(await operator.get('/api/remotes/releases').expect(200));
    expect(listed?.automaticRollback?.reason).toBe(reason);
  });

  it('says in the releases list how many visitors a step held for them has and needs', async () => {
    testApp = await start();
    const operator = await signedInAgent(testApp.app);
    await operator.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(201);
    const listedPlan = async () => billingListed(await operator.get('/api/remotes/releases').expect(200))?.plan;
    expect(await listedPlan()).not.toHaveProperty('waitingForVisitors');
    health = { health: 'unknown', visitors: { visitors: 2, needed: 10 } };
    await testApp.app.releases.rollouts.check(Date.now() + 11 * MINUTE);
    expect(await listedPlan()).toMatchObject({ step: 0, waitingForVisitors: { visitors: 2, needed: 10 } });
    // Once the visitors came, and the step moved on, nothing is said of visitors any more.
    health = 'no-worse';
    await testApp.app.releases.rollouts.check(Date.now() + 11 * MINUTE);
    expect(await listedPlan()).toMatchObject({ step: 1 });
    expect(await listedPlan()).not.toHaveProperty('waitingForVisitors');
  });

  it('holds a plan whose judge throws, and advances it once the judge answers', async () => {
    testApp = await start();
    const operator = await signedInAgent(testApp.app);
    await operator.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(201);
    const { rollouts } = testApp.app.releases;
    let broken = true;
    rollouts.judgeWith({
      canaryHealth: () => {
        if (broken) throw new Error('the slot events cannot be read');
        return 'no-worse';
      },
    });
    await rollouts.check(Date.now() + 11 * MINUTE);
    expect(await planNow()).toMatchObject({ step: 0, state: 'running' });
    broken = false;
    await rollouts.check(Date.now() + 11 * MINUTE);
    expect(await planNow()).toMatchObject({ step: 1, state: 'running' });
  });

  it('stops when an operator gives its canary tenants: the next step would drop them', async () => {
    testApp = await start();
    const operator = await signedInAgent(testApp.app);
    await operator.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(201);
    // The same release at the step's share: the plan's canary but for the tenant added.
    await operator
      .post('/api/remotes/team_billing/canary')
      .send({ version: 'v2', percent: 5, tenants: ['acme'] })
      .expect(200);
    await testApp.app.releases.rollouts.check(Date.now() + 60 * MINUTE);
    expect(await planNow()).toMatchObject({
      state: 'stopped',
      step: 0,
      reason:
        'the rollout was changed by other means at step 1 of 3 (5 %): now active v1, canary v2 at 5 % and 1 tenant',
    });
    expect(await testApp.app.releases.store.rollout('team_billing')).toMatchObject({
      canary: { version: 'v2', percent: 5, tenants: ['acme'] },
    });
    expect(await rolloutTrail()).toEqual([
      ['rollout-start', 'admin'],
      ['rollout-stop', 'rollout'],
    ]);
  });

  it('stops when its rollout is changed by other means (the canary ended by an operator)', async () => {
    testApp = await start();
    const operator = await signedInAgent(testApp.app);
    await operator.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(201);
    await operator.delete('/api/remotes/team_billing/canary').expect(200);
    await testApp.app.releases.rollouts.check(Date.now() + 60 * MINUTE);
    await testApp.app.releases.rollouts.check(Date.now() + 60 * MINUTE);
    expect(await planNow()).toMatchObject({ state: 'stopped', step: 0 });
    expect(await testApp.app.releases.store.rollout('team_billing')).toMatchObject({ active: 'v1', canary: null });
    expect(await rolloutTrail()).toEqual([
      ['rollout-start', 'admin'],
      ['rollout-stop', 'rollout'],
    ]);
  });
});

describe("an operator's actions on the plan", () => {
  it('pause holds it, resume lets it go, promote activates at once, each audited once', async () => {
    testApp = await start();
    const { app } = testApp;
    const operator = await signedInAgent(app);
    await operator.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(201);
    const action = (name: string) => operator.post(`/api/remotes/team_billing/rollouts/current/${name}`);
    expect((await action('pause').expect(200)).body).toMatchObject({ state: 'paused', step: 0 });
    await action('pause').expect(200);
    // Paused: held however long it has been.
    await app.releases.rollouts.check(Date.now() + 60 * MINUTE);
    expect(await planNow()).toMatchObject({ state: 'paused', step: 0 });
    expect((await action('resume').expect(200)).body).toMatchObject({ state: 'running', step: 0 });
    await action('resume').expect(200);
    await action('jump').expect(404);
    expect((await action('promote').expect(200)).body).toMatchObject({ state: 'promoted', step: 0 });
    expect(await app.releases.store.rollout('team_billing')).toMatchObject({ active: 'v2', canary: null });
    const again = await action('promote').expect(400);
    expect(again.body.error.message).toMatch(/is promoted: nothing to promote/);
    expect(await rolloutTrail()).toEqual([
      ['rollout-start', 'admin'],
      ['rollout-pause', 'admin'],
      ['rollout-resume', 'admin'],
      ['rollout-promote', 'admin'],
    ]);
  });

  it('promote asks the release’s files first, as an activation does: gone from its origin, nothing changes', async () => {
    testApp = await start();
    const { app } = testApp;
    const operator = await signedInAgent(app);
    await operator.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(201);
    origin.missing.add('/v2/mf-manifest.json');
    const refused = await operator.post('/api/remotes/team_billing/rollouts/current/promote').expect(400);
    // What to deploy where, as a publish refused for the same file says it.
    expect(refused.body.error.message).toBe(
      `Release "v2" of "team_billing" cannot be loaded: its mf-manifest.json cannot be read: ${originUrl}/v2/` +
        'mf-manifest.json answered 404. Nothing changed: release "v1" stays in force, with its canary "v2". Deploy ' +
        `the release's files (the whole dist/ folder of its build) to ${originUrl}/v2/ again, so that ${originUrl}/` +
        `v2/mf-manifest.json answers, then try again. ${RELEASE_REFUSALS.orAnotherRelease}`,
    );
    expect(await planNow()).toMatchObject({ state: 'running', step: 0 });
    expect(await app.releases.store.rollout('team_billing')).toMatchObject({ active: 'v1', canary: { version: 'v2' } });
    expect(await rolloutTrail()).toEqual([['rollout-start', 'admin']]);
    // Back on its origin: promoted.
    origin.missing.clear();
    await operator.post('/api/remotes/team_billing/rollouts/current/promote').expect(200);
    expect(await app.releases.store.rollout('team_billing')).toMatchObject({ active: 'v2', canary: null });
  });

  it('start asks the release’s files first, as a canary does: gone from its origin, no plan, told what to deploy', async () => {
    testApp = await start();
    const operator = await signedInAgent(testApp.app);
    origin.missing.add('/v2/remoteEntry.js');
    const refused = await operator.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(400);
    expect(refused.body.error.message).toBe(
      'Release "v2" of "team_billing" cannot be loaded: the remote entry script "remoteEntry.js" its mf-manifest.json ' +
        `names cannot be loaded: ${originUrl}/v2/remoteEntry.js answered 404. Nothing changed: release "v1" stays in ` +
        `force. Deploy the release's files (the whole dist/ folder of its build) to ${originUrl}/v2/ again, so that ` +
        `${originUrl}/v2/remoteEntry.js answers, then try again. ${RELEASE_REFUSALS.orAnotherRelease}`,
    );
    expect(await testApp.app.releases.rollouts.current('team_billing')).toBeUndefined();
    expect(await testApp.app.releases.store.rollout('team_billing')).toMatchObject({ active: 'v1', canary: null });
  });

  it('promote goes ahead when the release’s origin does not answer, as an activation does, and its trail says so', async () => {
    testApp = await start();
    const { app } = testApp;
    const operator = await signedInAgent(app);
    await operator.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(201);
    // Down for a moment is not gone: refusing would keep a canary the operator judged good from everyone.
    origin.unanswered.add('/v2/mf-manifest.json');
    try {
      await operator.post('/api/remotes/team_billing/rollouts/current/promote').expect(200);
    } finally {
      origin.unanswered.clear();
    }
    expect(await app.releases.store.rollout('team_billing')).toMatchObject({ active: 'v2', canary: null });
    const [promoted] = await app.releases.store.history('team_billing');
    expect(promoted).toMatchObject({
      action: 'rollout-promote',
      actor: 'admin',
      after: {
        active: 'v2',
        canary: null,
        reason:
          `promoted at step 1 of 3 (5 %); ${FILES_UNCONFIRMED}: its mf-manifest.json cannot be read: ` +
          `${originUrl}/v2/mf-manifest.json: read ECONNRESET`,
      },
    });
  });

  it('abort gives everyone the stable release back, audited once; a remote with no plan answers 404', async () => {
    testApp = await start();
    const operator = await signedInAgent(testApp.app);
    await operator.get('/api/remotes/team_billing/rollouts/current').expect(404);
    await operator.post('/api/remotes/team_billing/rollouts/current/abort').expect(404);
    await operator.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(201);
    expect((await operator.post('/api/remotes/team_billing/rollouts/current/abort').expect(200)).body).toMatchObject({
      state: 'aborted',
    });
    await operator.post('/api/remotes/team_billing/rollouts/current/abort').expect(400);
    expect(await testApp.app.releases.store.rollout('team_billing')).toMatchObject({ active: 'v1', canary: null });
    expect(await rolloutTrail()).toEqual([
      ['rollout-start', 'admin'],
      ['rollout-abort', 'admin'],
    ]);
    // A new plan may start once the last one ended.
    await operator.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(201);
  });

  it('names the plan it was chosen on: another plan or state since is refused (409), nothing changed', async () => {
    testApp = await start();
    const { app } = testApp;
    await addOperator(app, 'bea');
    const ana = await signedInAgent(app);
    const bea = await signedInAgent(app, 'bea');
    const shown = (await ana.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(201)).body as RolloutPlan;
    const seen = (plan: RolloutPlan) => ({ version: plan.version, startedAt: plan.startedAt, state: plan.state });
    const act = (agent: typeof ana, action: string, plan: Record<string, string>) =>
      agent.post(`/api/remotes/team_billing/rollouts/current/${action}`).query(plan);

    // A step the server made meanwhile is not a move: the plan advances by itself.
    await app.releases.rollouts.check(Date.now() + 11 * MINUTE);
    expect(await planNow()).toMatchObject({ step: 1, state: 'running' });
    // Bea pauses it (she saw it running); Ana's page still shows it running and she promotes.
    await act(bea, 'pause', seen(shown)).expect(200);
    const paused = await planNow();
    // The refusal says when, readably in UTC (the ISO text was read out as is).
    const [lastChange] = await app.releases.store.history('team_billing');
    const refused = await act(ana, 'promote', seen(shown)).expect(409);
    expect(refused.body.error.code).toBe('conflict');
    expect(refused.body.error.message).toMatch(
      new RegExp(
        `^The rollout plan of "team_billing" moved since it was shown \\(v2 started at ` +
          `${instantInUtc(shown.startedAt)}, running\\): now v2 started at ${instantInUtc(shown.startedAt)}, paused ` +
          `\\(changed by bea at ${instantInUtc(lastChange!.at)}\\)\\. Nothing was changed: look at it again before ` +
          'choosing\\.$',
      ),
    );
    expect(await planNow()).toEqual(paused);
    expect(await app.releases.store.rollout('team_billing')).toMatchObject({ active: 'v1', canary: { version: 'v2' } });
    // Paused by another host between this one's read (still running) and its transaction: refused there too.
    const read = RolloutPlanStore.prototype.plan;
    const stale = jest.spyOn(RolloutPlanStore.prototype, 'plan').mockImplementationOnce(async function (
      this: RolloutPlanStore,
      remote: string,
    ) {
      const plan = await read.call(this, remote);
      return plan && { ...plan, state: 'running' };
    });
    const raced = await act(ana, 'promote', seen(shown)).expect(409);
    stale.mockRestore();
    // Who paused it is named as the first check names them, read once the transaction refused.
    expect(raced.body.error.message).toMatch(
      new RegExp(
        `^The rollout plan of "team_billing" moved since it was shown .* paused \\(changed by bea at ` +
          `${instantInUtc(lastChange!.at)}\\)\\. `,
      ),
    );
    expect(await planNow()).toEqual(paused);

    // Bea aborts it and starts another plan of the same release: Ana's page shows the first, paused.
    await act(bea, 'abort', seen(paused)).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = (await bea.post('/api/remotes/team_billing/rollouts').send(PLAN).expect(201)).body as RolloutPlan;
    expect((await act(ana, 'abort', seen(paused)).expect(409)).body.error.message).toContain(
      `now v2 started at ${instantInUtc(second.startedAt)}, running (changed by bea at`,
    );
    expect(await planNow()).toMatchObject({ startedAt: second.startedAt, state: 'running' });
    // On the plan shown now, the action is made.
    expect((await act(ana, 'promote', seen(second)).expect(200)).body).toMatchObject({ state: 'promoted' });

    // Half of the plan seen is refused, as is a state that is none.
    const half = await act(ana, 'pause', { version: 'v2', startedAt: second.startedAt }).expect(400);
    expect(half.body.error.message).toMatch(/"version", "startedAt", "state" are given together/);
    await act(ana, 'pause', { ...seen(second), state: 'sleeping' }).expect(400);
    expect(await rolloutTrail()).toEqual([
      ['rollout-start', 'admin'],
      ['rollout-step', 'rollout'],
      ['rollout-pause', 'bea'],
      ['rollout-abort', 'bea'],
      ['rollout-start', 'bea'],
      ['rollout-promote', 'admin'],
    ]);
  });
});
