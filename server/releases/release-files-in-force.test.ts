/**
 * A release's files asked again when it is put in force (activated, rolled back to, given as a canary), and the files
 * a publish refuses that no browser could load, through the whole app over HTTP with the team's origin answering over
 * real HTTP: a folder deleted since the release was published, an origin too slow (and `"force": true` for the
 * incident), an entry script answered by an HTML page, a manifest of another remote.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { REMOTE_DESCRIPTOR_FILE, type AuditEntry, type RemoteDescriptor } from '../../shared';
import { fakeManifest } from '../../testing/fake-manifest';
import { addOperator, createTestApp, signedInAgent, type TestApp } from '../../testing/server/test-app';
import {
  startHttpFixtureServer,
  type FixtureHandler,
  type HttpFixtureServer,
} from '../../testing/system/http-fixture-server';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { FILES_UNCONFIRMED } from './release-files-refusal';
import { RELEASE_REFUSALS } from './release-refusals';

const TIMEOUT_MS = 500;
const DESCRIPTOR = { name: 'team_billing', components: ['InvoiceBanner'] };

/**
 * The team's origin: `/<version>/<file>` of every version folder, but those deleted (404), deleted from a storage
 * such as S3 that may not list its folder to the reader (403), or silent (no answer).
 */
let origin: HttpFixtureServer;
let deleted: Set<string>;
let forbidden: Set<string>;
let silent: Set<string>;
/** Version -> the manifest its folder serves, in place of the build's. */
let manifests: Map<string, unknown>;
/** Version -> how its entry script is answered, in place of a script (an origin's fallback page). */
let entryAnswers: Map<string, { type: string; body: string }>;
let declared: TempDir;
let testApp: TestApp;
let operator: Awaited<ReturnType<typeof signedInAgent>>;

const entryOf = (version: string) => `${origin.url}/${version}/mf-manifest.json`;

/** How the team's origins answer (the one of most releases, and another one where a test starts it). */
const serve: FixtureHandler = (req, res) => {
  const [, version = '', file = ''] = /^\/([\w.-]+)\/(.+)$/.exec(req.url ?? '') ?? [];
  if (silent.has(version)) return;
  if (forbidden.has(version)) return void res.writeHead(403).end();
  const manifest = manifests.get(version) ?? fakeManifest('team_billing', ['InvoiceBanner']);
  const answer = deleted.has(version)
    ? undefined
    : file === REMOTE_DESCRIPTOR_FILE
      ? { type: 'application/json', body: JSON.stringify(DESCRIPTOR) }
      : file === 'mf-manifest.json'
        ? { type: 'application/json', body: JSON.stringify(manifest) }
        : file === 'remoteEntry.js'
          ? (entryAnswers.get(version) ?? { type: 'text/javascript', body: 'var team_billing = {};' })
          : undefined;
  if (answer === undefined) res.writeHead(404).end();
  else res.writeHead(200, { 'Content-Type': answer.type }).end(answer.body);
};

beforeEach(async () => {
  deleted = new Set();
  forbidden = new Set();
  silent = new Set();
  manifests = new Map();
  entryAnswers = new Map();
  origin = await startHttpFixtureServer(serve);
  declared = makeTempDir('slots-release-files-');
  // Declared with its own entry down (port 1): releases are what serve it.
  const remotes = [{ name: 'team_billing', entry: 'http://127.0.0.1:1/team_billing/mf-manifest.json' }];
  fs.writeFileSync(path.join(declared.path, 'remotes.json'), JSON.stringify({ remotes }));
  testApp = await createTestApp({
    env: { REMOTES_CONFIG: path.join(declared.path, 'remotes.json') },
    remoteDescriptorTimeoutMs: TIMEOUT_MS,
  });
  await addOperator(testApp.app);
  operator = await signedInAgent(testApp.app);
});
afterEach(async () => {
  await testApp.close();
  await origin.close();
  declared.remove();
});

async function publish(version: string, status = 201, entry = entryOf(version)): Promise<request.Response> {
  const { token } = await testApp.app.releases.teamTokens.create('team_billing', null);
  return request(testApp.app.handler)
    .post('/api/remotes/team_billing/releases')
    .set('Authorization', `Bearer ${token}`)
    .send({ version, entry })
    .expect(status);
}

/** The entry every visitor's page loads team_billing from. */
async function servedEntry(): Promise<string | undefined> {
  const { remotes } = (await request(testApp.app.handler).get('/api/remotes').expect(200)).body as {
    remotes: RemoteDescriptor[];
  };
  return remotes.find((remote) => remote.name === 'team_billing')?.entry;
}

/**
 * The files of a release asked since the `from`th request: not the descriptor, which the server asks for the remote's
 * status once a release is in force (at its own pace).
 */
const filesAsked = (from: number) =>
  origin.requests
    .slice(from)
    .map((each) => each.url)
    .filter((url) => !url.endsWith(REMOTE_DESCRIPTOR_FILE));

/** The release in force, in the database (not this host's copy). */
const inDatabase = () => testApp.app.releases.store.rollout('team_billing');
const history = () => testApp.app.releases.store.history('team_billing');

describe('putting a release in force', () => {
  beforeEach(async () => {
    for (const version of ['1.0.0', '2.0.0', '4.0.0']) await publish(version);
    await operator.post('/api/remotes/team_billing/activate').send({ version: '4.0.0' }).expect(200);
  });

  it('refuses a rollback, an activation and a canary of a release whose folder was deleted, and changes nothing', async () => {
    deleted.add('1.0.0');
    const entriesBefore = await history();
    // What to deploy where, as a publish refused for the same file says it.
    const refusal =
      `Release "1.0.0" of "team_billing" cannot be loaded: its mf-manifest.json cannot be read: ${entryOf('1.0.0')} ` +
      `answered 404. Nothing changed: release "4.0.0" stays in force. Deploy the release's files (the whole dist/ ` +
      `folder of its build) to ${origin.url}/1.0.0/ again, so that ${entryOf('1.0.0')} answers, then try again. ` +
      RELEASE_REFUSALS.orAnotherRelease;
    for (const [action, body] of [
      ['rollback', { version: '1.0.0' }],
      ['activate', { version: '1.0.0' }],
      ['canary', { version: '1.0.0', percent: 10 }],
    ] as const) {
      const refused = await operator.post(`/api/remotes/team_billing/${action}`).send(body).expect(400);
      expect(refused.body).toEqual({ error: { code: 'invalid_request', message: refusal } });
    }
    expect(await inDatabase()).toEqual({ remote: 'team_billing', active: '4.0.0', canary: null });
    expect(await history()).toEqual(entriesBefore);
    expect(await servedEntry()).toBe(entryOf('4.0.0'));

    // A release whose files are there is put in force as before, after its two files were asked.
    const asked = origin.requests.length;
    await operator.post('/api/remotes/team_billing/rollback').send({ version: '2.0.0' }).expect(200);
    expect(filesAsked(asked)).toEqual(['/2.0.0/mf-manifest.json', '/2.0.0/remoteEntry.js']);
    expect(await servedEntry()).toBe(entryOf('2.0.0'));
  });

  it('refuses putting in force a release whose storage answers 403, saying the file may be missing and where it goes', async () => {
    forbidden.add('2.0.0');
    await operator.post('/api/remotes/team_billing/canary').send({ version: '1.0.0', percent: 10 }).expect(200);
    const refusal =
      `Release "2.0.0" of "team_billing" cannot be loaded: its mf-manifest.json cannot be read: ${entryOf('2.0.0')} ` +
      'answered 403. Nothing changed: release "4.0.0" stays in force, with its canary "1.0.0". The file may be ' +
      'missing: a storage such as S3 answers 403 for a file it does not hold when it may not list its folder to the ' +
      "reader. If it is not there any more, deploy the release's files (the whole dist/ folder of its build) to " +
      `${origin.url}/2.0.0/ again, so that ${entryOf('2.0.0')} answers, then try again; if it is, have the storage ` +
      "let anyone read the release's files, as the pages load them without credentials. " +
      RELEASE_REFUSALS.orAnotherRelease;
    for (const [action, body] of [
      ['rollback', { version: '2.0.0' }],
      ['activate', { version: '2.0.0' }],
      ['canary', { version: '2.0.0', percent: 10 }],
    ] as const) {
      const refused = await operator.post(`/api/remotes/team_billing/${action}`).send(body).expect(400);
      expect(refused.body).toEqual({ error: { code: 'invalid_request', message: refusal } });
    }
    expect(await inDatabase()).toMatchObject({ active: '4.0.0', canary: { version: '1.0.0' } });
  });

  it('refuses one whose entry script is now the origin’s fallback page, naming the canary that stays', async () => {
    await operator.post('/api/remotes/team_billing/canary').send({ version: '2.0.0', percent: 10 }).expect(200);
    entryAnswers.set('1.0.0', { type: 'text/html; charset=utf-8', body: '<!doctype html><div id="root"></div>' });
    const refused = await operator.post('/api/remotes/team_billing/rollback').send({ version: '1.0.0' }).expect(400);
    expect(refused.body.error.message).toBe(
      'Release "1.0.0" of "team_billing" cannot be loaded: the remote entry script "remoteEntry.js" its ' +
        `mf-manifest.json names cannot be loaded: ${origin.url}/1.0.0/remoteEntry.js answered 200 with Content-Type ` +
        "text/html: a page, not a script (is it missing from the folder, answered by the origin's fallback page?). " +
        `Nothing changed: release "4.0.0" stays in force, with its canary "2.0.0". ${RELEASE_REFUSALS.unloadableRelease}`,
    );
    expect(await inDatabase()).toMatchObject({ active: '4.0.0', canary: { version: '2.0.0' } });
  });

  it('goes ahead when the origin does not answer the server (too slow, or down), audited as unconfirmed', async () => {
    silent.add('1.0.0');
    const asked = origin.requests.length;
    const back = await operator.post('/api/remotes/team_billing/rollback').send({ version: '1.0.0' }).expect(200);
    // One timeout, not two: the entry script is not asked after the manifest went unanswered.
    expect(filesAsked(asked)).toEqual(['/1.0.0/mf-manifest.json']);
    expect(back.body).toEqual({ remote: 'team_billing', active: '1.0.0', canary: null });
    expect(await servedEntry()).toBe(entryOf('1.0.0'));
    const [entry] = (await operator.get('/api/remotes/team_billing/history').expect(200)).body.entries as AuditEntry[];
    expect(entry).toMatchObject({
      action: 'rollback',
      actor: 'admin',
      before: { active: '4.0.0', canary: null },
      after: {
        active: '1.0.0',
        canary: null,
        reason:
          `${FILES_UNCONFIRMED}: its mf-manifest.json cannot be read: ${entryOf('1.0.0')} did not answer within ` +
          `${TIMEOUT_MS} ms`,
      },
    });

    // A release on another origin, down by the time it is put in force (its connection refused).
    const elsewhere = await startHttpFixtureServer(serve);
    await publish('5.0.0', 201, `${elsewhere.url}/5.0.0/mf-manifest.json`);
    await elsewhere.close();
    await operator.post('/api/remotes/team_billing/activate').send({ version: '5.0.0' }).expect(200);
    expect((await history())[0]?.after).toEqual({
      active: '5.0.0',
      canary: null,
      reason:
        `${FILES_UNCONFIRMED}: its mf-manifest.json cannot be read: ${elsewhere.url}/5.0.0/mf-manifest.json: ` +
        `connect ECONNREFUSED 127.0.0.1:${elsewhere.port}`,
    });
    // Files that answer: nothing more is recorded.
    await operator.post('/api/remotes/team_billing/activate').send({ version: '2.0.0' }).expect(200);
    expect((await history())[0]?.after).toEqual({ active: '2.0.0', canary: null });
  });

  it('asks nothing to roll a canary back to the active release, nor for a change refused before', async () => {
    await operator.post('/api/remotes/team_billing/canary').send({ version: '2.0.0', percent: 10 }).expect(200);
    // The active release's origin silent now: everyone outside the canary loads that release already, and ending the
    // canary asks nothing either (DELETE …/canary); rolling the canary back in an incident waits for no origin.
    silent.add('4.0.0');
    const asked = origin.requests.length;
    const back = await operator.post('/api/remotes/team_billing/rollback').send({ version: '4.0.0' }).expect(200);
    expect(back.body).toEqual({ remote: 'team_billing', active: '4.0.0', canary: null });
    // A rollback that goes forward, a canary of the active release: refused by the rollout, the origin unasked.
    await operator.post('/api/remotes/team_billing/activate').send({ version: '1.0.0' }).expect(200);
    const asking = origin.requests.length;
    await operator.post('/api/remotes/team_billing/rollback').send({ version: '2.0.0' }).expect(400);
    await operator.post('/api/remotes/team_billing/canary').send({ version: '1.0.0', percent: 5 }).expect(400);
    expect(filesAsked(asking)).toEqual([]);
    expect(filesAsked(asked)).toEqual(['/1.0.0/mf-manifest.json', '/1.0.0/remoteEntry.js']);
  });
});

describe('publishing', () => {
  it('refuses an entry script answered by an HTML page, by its type or by its start, and publishes nothing', async () => {
    entryAnswers.set('1.0.0', { type: 'text/html', body: '<!DOCTYPE html><html></html>' });
    const byType = await publish('1.0.0', 400);
    expect(byType.body.error.message).toBe(
      'The release cannot be loaded: the remote entry script "remoteEntry.js" its mf-manifest.json names cannot be ' +
        `loaded: ${origin.url}/1.0.0/remoteEntry.js answered 200 with Content-Type text/html: a page, not a script ` +
        "(is it missing from the folder, answered by the origin's fallback page?).",
    );
    entryAnswers.set('1.0.0', { type: 'text/plain', body: '\n  <html lang="en"><body></body></html>' });
    expect((await publish('1.0.0', 400)).body.error.message).toContain(
      `${origin.url}/1.0.0/remoteEntry.js answered 200 with an HTML document, not a script`,
    );
    expect(testApp.app.releases.snapshot.releases()).toEqual([]);
    entryAnswers.clear();
    await publish('1.0.0');
  });

  it('refuses a manifest naming another remote, naming both, before asking its entry script', async () => {
    manifests.set('1.0.0', fakeManifest('team_other', ['InvoiceBanner']));
    const refused = await publish('1.0.0', 400);
    expect(refused.body.error.message).toBe(
      `The release cannot be loaded: its mf-manifest.json at ${entryOf('1.0.0')} is not the build of remote ` +
        '"team_billing": it has "name" "team_other" and "metaData.globalName" "team_other", while pages load the ' +
        `remote's container by its name: none could load this one (the browser's "Failed to get remoteEntry ` +
        `exports"). Build the release with the remote's name, as the kit does, and publish its manifest unedited.`,
    );
    expect(origin.requests.map((each) => each.url)).not.toContain('/1.0.0/remoteEntry.js');
    expect(await history()).toEqual([]);
  });

  it('refuses such a manifest in a REMOTES_CONFIG entry too: not made a release, nothing activated', async () => {
    manifests.set('9.9.9', fakeManifest('team_other', ['InvoiceBanner']));
    const remotes = [{ name: 'team_billing', entry: entryOf('9.9.9') }];
    fs.writeFileSync(path.join(declared.path, 'remotes.json'), JSON.stringify({ remotes }));
    expect(await testApp.app.reloadRemotesConfig()).toBe(true);
    expect(origin.requests.map((each) => each.url)).toContain('/9.9.9/mf-manifest.json');
    expect(await history()).toEqual([]);
    expect((await inDatabase()).active).toBeNull();
  });
});
