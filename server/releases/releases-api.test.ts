/**
 * Releases of remotes through the whole app over HTTP, with a remote's origin answering over real HTTP: publishing
 * with team tokens, the check against current placements, activation, rollback, canary, preview, the audit trail,
 * the operator role, and a restart that never asks the origin.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import {
  instantInUtc,
  ERROR_MESSAGES,
  FORM_FIELD_KEYWORD,
  REMOTE_DESCRIPTOR_FILE,
  Slot,
  type AuditEntry,
  type RemoteDescriptor,
  type RemoteRelease,
  type RemoteHistoryPayload,
  type RemoteReleasesPayload,
} from '../../shared';
import { addOperator, addUser, createTestApp, signedInAgent, type TestApp } from '../../testing/server/test-app';
import { fakeManifest } from '../../testing/fake-manifest';
import { getFreePort } from '../../testing/system/free-port';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import type { App } from '../app';
import { Field } from '../resources/field';
import { Resource } from '../resources/resource';
import { RELEASE_REFUSALS } from './release-refusals';

/**
 * A remote's origin: each version folder with a descriptor serves it, a manifest naming `remoteEntry.js` (or the one
 * in `manifests`) and that entry; a path in `missing` answers 404, one in `forbidden` 403 (as S3 answers for an object
 * it does not hold when the reader may not list the bucket).
 */
interface Origin {
  url: string;
  descriptors: Map<string, Record<string, unknown>>;
  manifests: Map<string, unknown>;
  missing: Set<string>;
  forbidden: Set<string>;
  /** The Access-Control-Allow-Origin its manifests answer with; none by default. */
  cors?: string;
  /** The paths asked, in order. */
  asked: string[];
  close(): Promise<void>;
}

async function startOrigin(): Promise<Origin> {
  const origin = {
    descriptors: new Map(),
    manifests: new Map(),
    missing: new Set(),
    forbidden: new Set(),
    asked: [],
  } as unknown as Origin;
  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    origin.asked.push(url);
    const [, version = '', file = ''] = /^\/(\w[\w.-]*)\/(.+)$/.exec(url) ?? [];
    const descriptor = origin.descriptors.get(version);
    const body =
      !descriptor || origin.missing.has(url)
        ? undefined
        : file === REMOTE_DESCRIPTOR_FILE
          ? JSON.stringify(descriptor)
          : file === 'mf-manifest.json'
            ? JSON.stringify(
                origin.manifests.get(version) ??
                  fakeManifest(descriptor.name as string, descriptor.components as string[]),
              )
            : file === 'remoteEntry.js'
              ? `var ${String(descriptor.name)} = {};`
              : undefined;
    const cors = file === 'mf-manifest.json' && origin.cors ? { 'Access-Control-Allow-Origin': origin.cors } : {};
    if (origin.forbidden.has(url)) res.writeHead(403).end('<Error><Code>AccessDenied</Code></Error>');
    else if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, cors).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  origin.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return origin;
}

/** The URL of a port nothing listens on, nor takes meanwhile (see free-port.ts): where an entry that is down points. */
async function deadUrl(): Promise<string> {
  return `http://127.0.0.1:${await getFreePort()}`;
}

const BANNER_SCHEMA = { type: 'object', properties: { amountDue: { type: 'number' } }, required: ['amountDue'] };
const V1 = { name: 'team_billing', components: ['InvoiceBanner'], props: { InvoiceBanner: BANNER_SCHEMA } };
const V2 = {
  name: 'team_billing',
  components: ['InvoiceBanner', 'InvoiceChart'],
  props: { InvoiceBanner: BANNER_SCHEMA },
};
/** Drops InvoiceBanner, which the code places: refused. */
const BREAKING = { name: 'team_billing', components: ['InvoiceChart'] };

/** A form whose slot names its field `titel`: a misspelling of `title`. */
class InvoicesResource extends Resource {
  readonly name = 'invoices';
  readonly label = 'Invoices';
  fields() {
    return [Field.text('title'), Slot.make('InvoiceField', { field: 'titel' }), Field.text('label')];
  }
}

let origin: Origin;
let testApp: TestApp;
let app: App;
/** REMOTES_CONFIG declaring team_billing and team_other (their entries down): releases publish their new versions. */
let declared: TempDir;

const entryOf = (version: string) => `${origin.url}/${version}/mf-manifest.json`;

/** An app placing the billing remote's InvoiceBanner in code, with the operator `admin`. */
async function start(
  dir?: TestApp['dir'],
  allowed?: Parameters<App['allowRemotes']>[0],
  publicOrigin?: string,
  nodeEnv?: 'production',
): Promise<void> {
  testApp = await createTestApp({
    ...(dir ? { dir } : {}),
    ...(publicOrigin ? { publicOrigin } : {}),
    ...(nodeEnv ? { nodeEnv } : {}),
    env: { REMOTES_CONFIG: path.join(declared.path, 'remotes.json') },
    // The declared entries refuse at once; a release published fetches its manifest from the test's origin, which a
    // busy machine can take longer than 500 ms to answer (rollouts-api.test.ts failed so).
    remoteDescriptorTimeoutMs: 5_000,
    configure: (app) => {
      app.registerSlots({ 'global-before-content': Slot.make('InvoiceBanner', { amountDue: 3 }) });
      if (allowed) app.allowRemotes(allowed);
    },
  });
  app = testApp.app;
  if (!dir) {
    await addOperator(app);
  }
}

async function tokenFor(remote: string): Promise<string> {
  return (await app.releases.teamTokens.create(remote, null)).token;
}

function publish(token: string | null, version: string, entry = entryOf(version)) {
  const post = request(app.handler).post('/api/remotes/team_billing/releases').send({ version, entry });
  return token === null ? post : post.set('Authorization', `Bearer ${token}`);
}

async function remotesOf(agent: { get(path: string): request.Test }): Promise<RemoteDescriptor[]> {
  return ((await agent.get('/api/remotes').expect(200)).body as { remotes: RemoteDescriptor[] }).remotes;
}

beforeEach(async () => {
  origin = await startOrigin();
  origin.descriptors.set('v1', V1).set('v2', V2).set('broken', BREAKING);
  declared = makeTempDir('slots-releases-declared-');
  const down = await deadUrl();
  // team_other listed with its components: known, so no remote "not answering" excuses a missing component.
  const remotes = [
    { name: 'team_billing', entry: `${down}/team_billing/mf-manifest.json` },
    { name: 'team_other', entry: `${down}/team_other/remoteEntry.js`, components: ['OtherWidget'] },
  ];
  fs.writeFileSync(path.join(declared.path, 'remotes.json'), JSON.stringify({ remotes }));
  await start();
});
afterEach(async () => {
  await testApp.close();
  await origin.close();
  declared.remove();
});

describe('publishing', () => {
  it('takes a release with its remote token (201), and refuses none, a wrong, a revoked or another remote’s token', async () => {
    const token = await tokenFor('team_billing');
    await publish(null, 'v1').expect(401);
    await publish('slt_nothing_here', 'v1').expect(401);
    await publish(await tokenFor('team_other'), 'v1').expect(403);
    const revoked = await app.releases.teamTokens.create('team_billing', null);
    await app.releases.teamTokens.revoke(revoked.id);
    const refusedRevoked = await publish(revoked.token, 'v1').expect(401);
    expect(refusedRevoked.body.error.message).toMatch(
      new RegExp(
        `^This team token \\(id ${revoked.id}\\) was revoked at \\d{4}-\\d\\d-\\d\\dT.+Ask an operator for a new one`,
      ),
    );
    const expired = await app.releases.teamTokens.create('team_billing', -1);
    const refusedExpired = await publish(expired.token, 'v1').expect(401);
    expect(refusedExpired.body.error.message).toContain(
      `This team token (id ${expired.id}) expired at ${new Date(expired.expiresAt!).toISOString()}.`,
    );
    // A token that is not one of ours, even with a known id, is told nothing more.
    const guessed = `slt_${expired.id}_${'A'.repeat(43)}`;
    expect((await publish(guessed, 'v1').expect(401)).body.error.message).toBe(
      'A valid team token is needed (Authorization: Bearer <token>).',
    );
    // The token is checked before the body is read: without one, whatever is sent is a 401, not a 415.
    const unread = await request(app.handler)
      .post('/api/remotes/team_billing/releases')
      .set('Content-Type', 'text/plain')
      .send('version=v1');
    expect(unread.status).toBe(401);
    expect(unread.body.error.code).toBe('unauthenticated');

    const published = await publish(token, 'v1').expect(201);
    expect(published.body).toMatchObject({
      remote: 'team_billing',
      version: 'v1',
      entry: entryOf('v1'),
      components: ['InvoiceBanner'],
      props: { InvoiceBanner: BANNER_SCHEMA },
      publishedBy: expect.stringMatching(/^token:/),
    });
    // Sent again as it was (a retry after a lost answer): answered as published, 200, nothing recorded again.
    const asked = origin.asked.length;
    expect((await publish(token, 'v1').expect(200)).body).toEqual(published.body);
    expect(origin.asked.length).toBe(asked);
    // Immutable: the same version from another entry is refused (409), naming the one it was published from.
    const other = await publish(token, 'v1', entryOf('v2')).expect(409);
    expect(other.body.error).toEqual({
      code: 'conflict',
      message:
        'Remote "team_billing" already has a release "v1": releases are immutable, publish another version. It was ' +
        `published from ${entryOf('v1')} (by ${published.body.publishedBy} at ${instantInUtc(published.body.publishedAt)}), not ` +
        `${entryOf('v2')}.`,
    });
    expect((await app.releases.store.history('team_billing')).map((entry) => entry.action)).toEqual(['publish']);
    // Publishing activates nothing.
    expect((await remotesOf(request(app.handler))).map((remote) => remote.name)).not.toContain('team_billing');
  });

  it('refuses a publication sent an array, or without a version, saying what it lacks', async () => {
    const token = await tokenFor('team_billing');
    const asArray = await request(app.handler)
      .post('/api/remotes/team_billing/releases')
      .set('Authorization', `Bearer ${token}`)
      .send([{ version: 'v1', entry: entryOf('v1') }])
      .expect(400);
    expect(asArray.body.error.message).toBe(ERROR_MESSAGES.jsonNotObject);
    const noVersion = await request(app.handler)
      .post('/api/remotes/team_billing/releases')
      .set('Authorization', `Bearer ${token}`)
      .send({ entry: entryOf('v1') })
      .expect(400);
    expect(noVersion.body.error.message).toBe(`"version" must be the release's version, a string, none was given.`);
    expect(app.releases.snapshot.releases()).toEqual([]);
  });

  it('keeps the version of the remote kit that built a release, and refuses a descriptor whose kit is no version', async () => {
    origin.descriptors
      .set('v7', { ...V1, kit: '0.8.1' })
      .set('v8', { ...V1, kit: 'latest' })
      .set('v9', { ...V1, kit: '0.9.0-rc.1+branch.3f2a1c' });
    const token = await tokenFor('team_billing');
    expect((await publish(token, 'v7').expect(201)).body.kit).toBe('0.8.1');
    // A kit built from a branch: a pre-release part and build metadata, as semantic versions allow.
    expect((await publish(token, 'v9').expect(201)).body.kit).toBe('0.9.0-rc.1+branch.3f2a1c');
    const refused = await publish(token, 'v8').expect(400);
    expect(refused.body.error.message).toBe(
      `The release's descriptor cannot be read: ${origin.url}/v8/slots-remote.json: "kit" must be the version of ` +
        'the remote kit that built it, like "0.8.1", not "latest".',
    );
    // Published without one (a kit before 0.8.1), a release has none; the list gives each its own.
    await publish(token, 'v1').expect(201);
    const operator = await signedInAgent(app);
    const listed = (await operator.get('/api/remotes/releases').expect(200)).body.remotes[0]
      .releases as RemoteRelease[];
    expect(listed.map(({ version, kit }) => [version, kit ?? null])).toEqual([
      ['v1', null],
      ['v9', '0.9.0-rc.1+branch.3f2a1c'],
      ['v7', '0.8.1'],
    ]);
  });

  it.each([
    ['in development', undefined],
    // Which passes no rebuild announcement on to pages: it took the development server as a release.
    ['in production', 'production' as const],
  ])(
    'refuses a development server (slots-remote dev) as a release %s: its files change at every save',
    async (_, nodeEnv) => {
      if (nodeEnv) {
        await testApp.close();
        // The test's origin is on loopback, which a production server takes releases from once the operators list it.
        const file = path.join(declared.path, 'remotes.json');
        const { remotes } = JSON.parse(fs.readFileSync(file, 'utf8')) as { remotes: Array<{ name: string }> };
        const listed = remotes.map((remote) =>
          remote.name === 'team_billing' ? { ...remote, releaseOrigins: [origin.url] } : remote,
        );
        fs.writeFileSync(file, JSON.stringify({ remotes: listed }));
        await start(undefined, undefined, undefined, nodeEnv);
      }
      origin.descriptors.set('v5', { ...V1, devEvents: '/__slots_dev/events' });
      const token = await tokenFor('team_billing');
      const refused = await publish(token, 'v5').expect(400);
      expect(refused.body.error).toMatchObject({
        message:
          'The entry is a development server (slots-remote dev): its files change at every save, so it is never made ' +
          'a release. Build the remote (npm run build), deploy its dist/ folder, and publish the entry deployed.',
        fields: { entry: 'a development server, never a release' },
      });
      expect(app.releases.snapshot.releases()).toEqual([]);
    },
  );

  it('refuses a release of a remote the operators have not declared (neither REMOTES_CONFIG nor built in)', async () => {
    origin.descriptors.set('new', { name: 'team_new', components: ['NewWidget'] });
    const refused = await request(app.handler)
      .post('/api/remotes/team_new/releases')
      .set('Authorization', `Bearer ${await tokenFor('team_new')}`)
      .send({ version: '1.0.0', entry: entryOf('new') })
      .expect(400);
    expect(refused.body.error).toEqual({
      code: 'invalid_request',
      message:
        'Remote "team_new" is not declared on this server (neither in REMOTES_CONFIG nor built in): a release is a ' +
        "new version of a remote the product knows. Ask the operators to add the remote's REMOTES_CONFIG entry first.",
    });
    expect(origin.asked).toEqual([]);
    expect(app.releases.snapshot.releases()).toEqual([]);
  });

  it('refuses a release whose folder is not deployed, saying to deploy it there first and the URL asked', async () => {
    const token = await tokenFor('team_billing');
    const refused = await publish(token, 'v9').expect(400);
    expect(refused.body.error).toEqual({
      code: 'invalid_request',
      message:
        `The release's descriptor cannot be read: ${origin.url}/v9/slots-remote.json answered 404. Deploy the ` +
        `release's files (the whole dist/ folder of its build) to ${origin.url}/v9/ before publishing it, so that ` +
        `${origin.url}/v9/slots-remote.json answers, then publish again.`,
    });
    expect(app.releases.snapshot.releases()).toEqual([]);
  });

  it('refuses a release whose file its storage answers 403 for, saying it may be missing and to deploy it first', async () => {
    const token = await tokenFor('team_billing');
    const refusal = async (version: string) => (await publish(token, version).expect(400)).body.error.message;
    const mayBeMissing = (url: string) =>
      'The file may be missing: a storage such as S3 answers 403 for a file it does not hold when it may not list ' +
      `its folder to the reader. If it is not uploaded yet, deploy the release's files (the whole dist/ folder of ` +
      `its build) to ${origin.url}/v1/ before publishing it, so that ${url} answers, then publish again; if it is, ` +
      "have the storage let anyone read the release's files, as the pages load them without credentials.";

    for (const file of ['slots-remote.json', 'mf-manifest.json', 'remoteEntry.js']) {
      origin.forbidden.clear();
      origin.forbidden.add(`/v1/${file}`);
      expect(await refusal('v1')).toContain(
        `${origin.url}/v1/${file} answered 403. ${mayBeMissing(`${origin.url}/v1/${file}`)}`,
      );
    }
    origin.forbidden.clear();
    expect(app.releases.snapshot.releases()).toEqual([]);
  });

  it('refuses a release whose manifest or entry script is missing, saying which file and where it was looked for', async () => {
    const token = await tokenFor('team_billing');
    const refusal = async (version: string) => (await publish(token, version).expect(400)).body.error.message;
    const deploy = (url: string) =>
      `Deploy the release's files (the whole dist/ folder of its build) to ${origin.url}/v1/ before publishing it, ` +
      `so that ${url} answers, then publish again.`;

    // A folder holding only slots-remote.json.
    origin.missing.add('/v1/mf-manifest.json');
    expect(await refusal('v1')).toBe(
      `The release cannot be loaded: its mf-manifest.json cannot be read: ${origin.url}/v1/mf-manifest.json ` +
        `answered 404. ${deploy(`${origin.url}/v1/mf-manifest.json`)}`,
    );
    // A manifest naming an entry script that is not there.
    origin.missing.clear();
    origin.missing.add('/v1/remoteEntry.js');
    expect(await refusal('v1')).toBe(
      'The release cannot be loaded: the remote entry script "remoteEntry.js" its mf-manifest.json names cannot be ' +
        `loaded: ${origin.url}/v1/remoteEntry.js answered 404. ${deploy(`${origin.url}/v1/remoteEntry.js`)}`,
    );
    // A JSON file that is no federation manifest.
    origin.missing.clear();
    origin.manifests.set('v1', { name: 'team_billing', exposes: [] });
    expect(await refusal('v1')).toBe(
      `The release cannot be loaded: its mf-manifest.json at ${origin.url}/v1/mf-manifest.json is not a federation ` +
        'manifest naming a remote entry script (metaData.remoteEntry with a file name).',
    );
    // A descriptor naming a component the build does not expose (edited by hand, or another build's).
    const components = origin.descriptors.get('v1')?.components as string[];
    origin.manifests.set('v1', fakeManifest('team_billing', components.slice(1)));
    expect(await refusal('v1')).toBe(
      `The release cannot be loaded: its mf-manifest.json exposes no module for "${components[0]}", which its ` +
        `slots-remote.json names (it exposes ${components.slice(1).join(', ') || 'none'}): the descriptor is not ` +
        "this build's; publish the slots-remote.json built with the bundle.",
    );
    expect(app.releases.snapshot.releases()).toEqual([]);
    expect(await app.releases.store.history('team_billing')).toEqual([]);

    origin.manifests.clear();
    await publish(token, 'v1').expect(201);
    expect(origin.asked.slice(-3)).toEqual([
      `/v1/${REMOTE_DESCRIPTOR_FILE}`,
      '/v1/mf-manifest.json',
      '/v1/remoteEntry.js',
    ]);
  });

  it('refuses a release whose manifest the pages could not read (CORS), once their origin is known (PUBLIC_URL)', async () => {
    await testApp.close();
    await start(undefined, undefined, 'https://Admin.example.com');
    const token = await tokenFor('team_billing');
    expect((await publish(token, 'v1').expect(400)).body.error.message).toBe(
      `The release cannot be loaded: its mf-manifest.json cannot be read: ${origin.url}/v1/mf-manifest.json ` +
        "answers a request from https://admin.example.com (this product's pages, PUBLIC_URL) without " +
        'Access-Control-Allow-Origin, so no page there may read it and every slot of the release would fail: ' +
        `answer that origin (or *) with CORS on ${origin.url}.`,
    );
    expect(await app.releases.store.history('team_billing')).toEqual([]);
    origin.cors = 'https://admin.example.com';
    await publish(token, 'v1').expect(201);
    // Put in force, its files are asked again as they were published: an origin that dropped its CORS since is
    // refused there too, and nothing changes.
    await publish(token, 'v2').expect(201);
    delete origin.cors;
    const operator = await signedInAgent(app);
    const refused = await operator.post('/api/remotes/team_billing/activate').send({ version: 'v2' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toContain(
      `Release "v2" of "team_billing" cannot be loaded: its mf-manifest.json cannot be read: ${origin.url}/v2/` +
        'mf-manifest.json answers a request from https://admin.example.com (this product',
    );
    expect(app.releases.snapshot.rollout('team_billing')?.active ?? null).toBeNull();
  });

  it('looks for the entry script after an absolute publicPath on the entry’s origin, where the runtime loads it from', async () => {
    origin.descriptors.set('assets', V1);
    const manifest = fakeManifest('team_billing', ['InvoiceBanner'], { entryFile: 'remoteEntry.0123abcd.js' });
    manifest.metaData.publicPath = `${origin.url}/assets/`;
    origin.manifests.set('v1', manifest);
    const token = await tokenFor('team_billing');
    const refused = await publish(token, 'v1').expect(400);
    expect(refused.body.error.message).toContain(`${origin.url}/assets/remoteEntry.0123abcd.js answered 404`);
    // A manifest naming the file the folder has.
    manifest.metaData.remoteEntry.name = 'remoteEntry.js';
    await publish(token, 'v1').expect(201);
    expect(origin.asked.at(-1)).toBe('/assets/remoteEntry.js');
  });

  it('refuses, unasked, an entry script after an absolute publicPath on another origin: no page could load it', async () => {
    const cdn = await startOrigin();
    try {
      cdn.descriptors.set('assets', V1);
      const manifest = fakeManifest('team_billing', ['InvoiceBanner']);
      manifest.metaData.publicPath = `${cdn.url}/assets/`;
      origin.manifests.set('v1', manifest);
      const refused = await publish(await tokenFor('team_billing'), 'v1').expect(400);
      expect(refused.body.error.message).toContain(
        `its mf-manifest.json names its remote entry script at ${cdn.url}/assets/remoteEntry.js (after ` +
          `metaData.publicPath), on another origin than the manifest: a page loads this release's scripts from ` +
          `${origin.url} only`,
      );
      expect(cdn.asked).toEqual([]);
    } finally {
      await cdn.close();
    }
  });

  it('refuses an entry the REMOTES_CONFIG rules refuse, and a cross-site cookie request, but not a bearer one', async () => {
    const token = await tokenFor('team_billing');
    const withCredentials = entryOf('v1').replace('http://', 'http://user:secret@');
    const refused = await publish(token, 'v1', withCredentials).expect(400);
    expect(refused.body.error.message).toMatch(/credentials/);
    await publish(token, 'v1').set('Origin', 'https://ci.example.com').expect(201);
    const agent = await signedInAgent(app);
    await agent
      .post('/api/remotes/team_billing/activate')
      .set('Origin', 'https://evil.example.com')
      .send({ version: 'v1' })
      .expect(403);
  });

  it('refuses a release that breaks a current placement, listing the problem', async () => {
    const token = await tokenFor('team_billing');
    await publish(token, 'v1').expect(201);
    // Before any release serves the remote, the code's InvoiceBanner is no release's doing: accepted.
    await publish(token, 'early-broken', entryOf('broken')).expect(201);
    const operator = await signedInAgent(app);
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    const refused = await publish(token, 'broken').expect(400);
    expect(refused.body.error.problems).toEqual([
      expect.stringMatching(/^InvoiceBanner at global-before-content\[0\] \(code/),
    ]);
    // Placements are checked again when a release is put in force: the early one now would break one.
    const activation = await operator
      .post('/api/remotes/team_billing/activate')
      .send({ version: 'early-broken' })
      .expect(400);
    expect(activation.body.error.problems).toHaveLength(1);
    await operator.post('/api/remotes/team_billing/canary').send({ version: 'early-broken', percent: 5 }).expect(400);
  });
  it('counts the placements a refused release would break, each listed once with all its problems', async () => {
    origin.descriptors.set('strict', {
      name: 'team_billing',
      components: ['InvoiceBanner'],
      props: {
        InvoiceBanner: {
          type: 'object',
          properties: { amountDue: { type: 'string' }, currency: { type: 'string' } },
          required: ['amountDue', 'currency'],
        },
      },
    });
    const refused = await publish(await tokenFor('team_billing'), 'strict').expect(400);
    expect(refused.body.error.message).toBe('Release "strict" of "team_billing" would break 1 current placement(s).');
    expect(refused.body.error.problems).toEqual([
      'InvoiceBanner at global-before-content[0] (code, remote "team_billing"): props.currency is required ' +
        '(string); props.amountDue must be string, got 3',
    ]);
  });

  it('refuses a release whose placed component has a pattern the product does not run, naming it', async () => {
    origin.descriptors.set('lookahead', {
      name: 'team_billing',
      components: ['InvoiceBanner'],
      props: {
        InvoiceBanner: {
          type: 'object',
          properties: { amountDue: { type: 'number' }, currency: { type: 'string', pattern: '^(?!XXX)[A-Z]{3}$' } },
        },
      },
    });
    const refused = await publish(await tokenFor('team_billing'), 'lookahead').expect(400);
    expect(refused.body.error.problems).toEqual([
      'InvoiceBanner at global-before-content[0] (code, remote "team_billing"): its props schema\'s pattern ' +
        '"^(?!XXX)[A-Z]{3}$" is not checked: lookaround ((?=…), (?!…), (?<=…), (?<!…)) cannot be run in linear time',
    ]);
  });

  it("refuses a release whose remote would fill a location that does not allow it (the location's allow-list)", async () => {
    // Started again with the location's allow-list (set before ready, as an entry does).
    await testApp.close();
    await start(undefined, { 'global-before-content': ['team_other'] });
    const refused = await publish(await tokenFor('team_billing'), 'v1').expect(400);
    expect(refused.body.error.problems).toEqual([
      expect.stringMatching(
        /^InvoiceBanner at global-before-content\[0\] \(code, remote "team_billing"\): remote "team_billing" may not fill "global-before-content" \(allowed: team_other\)$/,
      ),
    ]);
  });

  it("refuses a release whose form component's schema marks a prop as a field name its form slot misspells", async () => {
    await testApp.close();
    testApp = await createTestApp({
      env: { REMOTES_CONFIG: path.join(declared.path, 'remotes.json') },
      remoteDescriptorTimeoutMs: 5_000,
      configure: (app) => app.registerResource(new InvoicesResource()),
    });
    app = testApp.app;
    const fieldProp = (marked: boolean) => ({
      name: 'team_billing',
      components: ['InvoiceField'],
      formComponents: ['InvoiceField'],
      props: {
        InvoiceField: {
          type: 'object',
          properties: { field: { type: 'string', ...(marked ? { [FORM_FIELD_KEYWORD]: true } : {}) } },
        },
      },
    });
    origin.descriptors.set('plain', fieldProp(false)).set('marked', fieldProp(true));
    const token = await tokenFor('team_billing');
    await publish(token, 'plain').expect(201);
    const refused = await publish(token, 'marked').expect(400);
    expect(refused.body.error.problems).toEqual([
      'InvoiceField at resource form "invoices"[1] (code, remote "team_billing"): props.field must name a field of ' +
        'resource "invoices" (did you mean "title"? its fields: title, label), got "titel"',
    ]);
  });

  it('refuses a release claiming a component another remote provides, on publish and again when put in force', async () => {
    origin.descriptors.set('other', { name: 'team_other', components: ['InvoiceChart'] });
    const billing = await tokenFor('team_billing');
    const operator = await signedInAgent(app);
    // Fine when published: nobody provides InvoiceChart yet.
    await publish(billing, 'v2').expect(201);
    await request(app.handler)
      .post('/api/remotes/team_other/releases')
      .set('Authorization', `Bearer ${await tokenFor('team_other')}`)
      .send({ version: 'other', entry: entryOf('other') })
      .expect(201);
    await operator.post('/api/remotes/team_other/activate').send({ version: 'other' }).expect(200);

    const clash = ['component "InvoiceChart" is already provided by "team_other"'];
    const refused = await publish(billing, 'v3', entryOf('v2')).expect(400);
    expect(refused.body.error.problems).toEqual(clash);
    // Another remote took the name since v2 was published: activation, canary and preview are refused.
    const activation = await operator.post('/api/remotes/team_billing/activate').send({ version: 'v2' }).expect(400);
    expect(activation.body.error.problems).toEqual(clash);
    await operator.post('/api/remotes/team_billing/preview').send({ version: 'v2' }).expect(400);
    await publish(billing, 'v1').expect(201);
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    const canary = await operator
      .post('/api/remotes/team_billing/canary')
      .send({ version: 'v2', percent: 5 })
      .expect(400);
    expect(canary.body.error.problems).toEqual(clash);
  });
});

describe('rollout', () => {
  let operator: Awaited<ReturnType<typeof signedInAgent>>;

  beforeEach(async () => {
    const token = await tokenFor('team_billing');
    await publish(token, 'v1').expect(201);
    await publish(token, 'v2').expect(201);
    operator = await signedInAgent(app);
  });

  it('lets the page load the active release and the canary (CSP) and leaves /slots and its ETag alone', async () => {
    const etag = (await request(app.handler).get('/slots').expect(200)).headers.etag as string;
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    await operator.post('/api/remotes/team_billing/canary').send({ version: 'v2', percent: 50 }).expect(200);
    const page = await request(app.handler).get('/releases');
    const scriptSrc = String(page.headers['content-security-policy'])
      .split(';')
      .find((directive) => directive.startsWith('script-src'));
    expect(scriptSrc?.split(' ')).toContain(origin.url);
    expect((await request(app.handler).get('/slots').expect(200)).headers.etag).toBe(etag);
  });

  it('lets a page load only the releases in force, and a preview in its session’s pages only (CSP)', async () => {
    // Each release on an origin of its own, so the policy tells them apart.
    const [active, canary, preview] = await Promise.all([startOrigin(), startOrigin(), startOrigin()]);
    try {
      const token = await tokenFor('team_billing');
      for (const [version, at] of [
        ['a', active],
        ['c', canary],
        ['p', preview],
      ] as const) {
        at.descriptors.set(version, V2);
        await publish(token, version, `${at.url}/${version}/mf-manifest.json`).expect(201);
      }
      const policyOf = async (agent: { get(path: string): request.Test }) =>
        String((await agent.get('/releases')).headers['content-security-policy']);
      const scriptSrc = (policy: string) => policy.split(';').find((part) => part.startsWith('script-src')) ?? '';

      // Published, never activated: no page loads it, the policy does not allow it.
      for (const at of [active, canary, preview]) expect(await policyOf(request(app.handler))).not.toContain(at.url);
      await operator.post('/api/remotes/team_billing/activate').send({ version: 'a' }).expect(200);
      expect(scriptSrc(await policyOf(request(app.handler)))).toContain(active.url);
      await operator.post('/api/remotes/team_billing/canary').send({ version: 'c', percent: 10 }).expect(200);
      const everyone = await policyOf(request(app.handler));
      expect(scriptSrc(everyone)).toContain(canary.url);
      expect(everyone).not.toContain(preview.url);

      await operator.post('/api/remotes/team_billing/preview').send({ version: 'p' }).expect(200);
      const previewing = await policyOf(operator);
      expect(scriptSrc(previewing)).toContain(preview.url);
      expect(previewing.split(';').find((part) => part.startsWith('connect-src'))).toContain(preview.url);
      // The other directives are those of every page.
      const withoutOrigins = (policy: string) => policy.replaceAll(` ${preview.url}`, '');
      expect(withoutOrigins(previewing)).toBe(everyone);
      expect(await policyOf(await signedInAgent(app))).not.toContain(preview.url);
      expect(await policyOf(request(app.handler))).not.toContain(preview.url);

      // Rolled back: the releases rolled back from (and the canary it ends) are no longer allowed.
      await operator.post('/api/remotes/team_billing/rollback').send({ version: 'v1' }).expect(200);
      const after = await policyOf(request(app.handler));
      expect(scriptSrc(after)).toContain(origin.url);
      expect(after).not.toContain(active.url);
      expect(after).not.toContain(canary.url);
    } finally {
      await Promise.all([active.close(), canary.close(), preview.close()]);
    }
  });

  it('activates, rolls back, and audits every change with who, before and after', async () => {
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v2' }).expect(200);
    expect(await remotesOf(request(app.handler))).toContainEqual(expect.objectContaining({ entry: entryOf('v2') }));
    await operator.post('/api/remotes/team_billing/rollback').send({ version: 'v1' }).expect(200);
    expect(await remotesOf(request(app.handler))).toContainEqual(expect.objectContaining({ entry: entryOf('v1') }));
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v9' }).expect(404);

    await operator.post('/api/remotes/team_billing/canary').send({ version: 'v2', percent: 10 }).expect(200);
    await operator.delete('/api/remotes/team_billing/canary').expect(200);
    const history = (await operator.get('/api/remotes/team_billing/history').expect(200)).body as {
      entries: AuditEntry[];
    };
    expect(history.entries.map((entry) => [entry.action, entry.actor])).toEqual([
      ['canary-end', 'admin'],
      ['canary', 'admin'],
      ['rollback', 'admin'],
      ['activate', 'admin'],
      ['publish', expect.stringMatching(/^token:/)],
      ['publish', expect.stringMatching(/^token:/)],
    ]);
    expect(history.entries[2]).toMatchObject({
      before: { active: 'v2', canary: null },
      after: { active: 'v1', canary: null },
    });
    expect(history.entries[1]?.after).toEqual({ active: 'v1', canary: { version: 'v2', percent: 10, tenants: [] } });

    const releases = await operator.get('/api/remotes/releases').expect(200);
    expect(releases.body.remotes).toEqual([
      expect.objectContaining({
        remote: 'team_billing',
        rollout: { remote: 'team_billing', active: 'v1', canary: null },
      }),
    ]);
  });

  it('works out the rollout of each change once, in the transaction that writes it, and answers that rollout', async () => {
    const changeRollout = app.releases.store.changeRollout.bind(app.releases.store);
    let computed = 0;
    jest.spyOn(app.releases.store, 'changeRollout').mockImplementation((change) => {
      const next = change.next;
      // Counted on the change the service holds: working it out again after the store wrote it counts too.
      if (typeof next === 'function')
        change.next = (before) => {
          computed++;
          return next(before);
        };
      return changeRollout(change);
    });
    const changes = [
      ['activate', { version: 'v2' }, { active: 'v2', canary: null }],
      ['rollback', { version: 'v1' }, { active: 'v1', canary: null }],
      ['canary', { version: 'v2', percent: 10 }, { active: 'v1', canary: { version: 'v2', percent: 10, tenants: [] } }],
    ] as const;
    for (const [action, body, rollout] of changes) {
      computed = 0;
      const answer = await operator.post(`/api/remotes/team_billing/${action}`).send(body).expect(200);
      expect(answer.body).toEqual({ remote: 'team_billing', ...rollout });
      expect(computed).toBe(1);
    }
  });

  it('refuses a change chosen on a rollout that has moved since it was seen (409), changing nothing', async () => {
    await operator.post('/api/remotes/team_billing/activate?active=&canary=').send({ version: 'v2' }).expect(200);
    // Another operator starts a canary; this operator's page still shows v2 alone.
    await operator.post('/api/remotes/team_billing/canary').send({ version: 'v1', percent: 50 }).expect(200);
    const trail = await app.releases.store.history('team_billing');
    const moved =
      /^The rollout of "team_billing" moved since it was shown \(v2 active, no canary\): now v2 active, a canary of v1 to 50 % \(changed by admin at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\)\. Nothing was changed: look at it again before choosing\.$/;
    const stale = '?active=v2&canary=';
    const changes = [
      () => operator.post(`/api/remotes/team_billing/activate${stale}`).send({ version: 'v1' }),
      () => operator.post(`/api/remotes/team_billing/rollback${stale}`).send({ version: 'v1' }),
      () => operator.post(`/api/remotes/team_billing/canary${stale}`).send({ version: 'v1', percent: 10 }),
      () => operator.post(`/api/remotes/team_billing/deactivate${stale}`),
      () => operator.delete(`/api/remotes/team_billing/canary${stale}`),
    ];
    for (const change of changes) {
      const refused = await change().expect(409);
      expect(refused.body.error).toEqual({ code: 'conflict', message: expect.stringMatching(moved) });
    }
    expect(await app.releases.store.history('team_billing')).toEqual(trail);

    // Moved by another host between this one's read and its transaction: refused there too.
    jest
      .spyOn(app.releases.store, 'rollout')
      .mockResolvedValueOnce({ remote: 'team_billing', active: 'v2', canary: null });
    const raced = await operator.post(`/api/remotes/team_billing/activate${stale}`).send({ version: 'v1' }).expect(409);
    expect(raced.body.error.message).toMatch(/^The rollout of "team_billing" moved since it was shown/);
    expect(await app.releases.store.history('team_billing')).toEqual(trail);

    // Half a rollout is no check: refused as such.
    const half = await operator
      .post('/api/remotes/team_billing/activate?active=v1')
      .send({ version: 'v2' })
      .expect(400);
    expect(half.body.error.message).toMatch(/^"active" and "canary" are given together, once each/);

    // Chosen on the rollout as it is: made, the canary ended by it.
    const made = await operator
      .post('/api/remotes/team_billing/activate?active=v2&canary=v1')
      .send({ version: 'v1' })
      .expect(200);
    expect(made.body).toEqual({ remote: 'team_billing', active: 'v1', canary: null });
  });

  it('names the releases there are when asked for one that is not, and says when a remote has none', async () => {
    const missing = await operator.post('/api/remotes/team_billing/activate').send({ version: 'v9' }).expect(404);
    expect(missing.body.error.message).toBe('Remote "team_billing" has no release "v9"; its releases: v2, v1.');
    const unknown = await operator
      .post('/api/remotes/team_bill/canary')
      .send({ version: 'v1', percent: 5 })
      .expect(404);
    expect(unknown.body.error.message).toBe('Remote "team_bill" has no release at all: is its name right?');
  });

  it('refuses an activation, rollback, canary or preview without a version string (400), before looking one up', async () => {
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    for (const action of ['activate', 'rollback', 'canary', 'preview']) {
      for (const body of [{}, { version: 2 }, { version: '' }, { percent: 10 }]) {
        const refused = await operator.post(`/api/remotes/team_billing/${action}`).send(body).expect(400);
        expect(refused.body).toEqual({ error: { code: 'invalid_request', message: RELEASE_REFUSALS.versionRequired } });
      }
    }
    expect(app.releases.snapshot.rollout('team_billing')).toEqual({
      remote: 'team_billing',
      active: 'v1',
      canary: null,
    });
  });

  it('refuses a change sent an array for its object (400), changing nothing', async () => {
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    for (const action of ['activate', 'rollback', 'canary', 'preview', 'rollouts']) {
      const refused = await operator.post(`/api/remotes/team_billing/${action}`).send(['v1']).expect(400);
      expect(refused.body).toEqual({ error: { code: 'invalid_request', message: ERROR_MESSAGES.jsonNotObject } });
    }
    expect(app.releases.snapshot.rollout('team_billing')).toEqual({
      remote: 'team_billing',
      active: 'v1',
      canary: null,
    });
  });

  it('refuses a canary that reaches nobody, or gives the release already active for everyone, and changes nothing', async () => {
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    const entriesBefore = (await app.releases.store.history('team_billing')).length;
    for (const body of [
      { version: 'v2', percent: 0 },
      { version: 'v2', percent: 0, tenants: [] },
    ]) {
      const nobody = await operator.post('/api/remotes/team_billing/canary').send(body).expect(400);
      const message = RELEASE_REFUSALS.canaryOfNobody;
      expect(nobody.body).toEqual({
        error: { code: 'invalid_request', message, fields: { percent: message, tenants: message } },
      });
    }
    const active = await operator
      .post('/api/remotes/team_billing/canary')
      .send({ version: 'v1', percent: 10 })
      .expect(400);
    expect(active.body.error).toEqual({
      code: 'invalid_request',
      message:
        'Release "v1" of "team_billing" is already active for everyone: a canary gives another release to some users.',
    });
    expect(app.releases.snapshot.rollout('team_billing')?.canary).toBeNull();
    expect(await app.releases.store.history('team_billing')).toHaveLength(entriesBefore);
    // A tenant alone is someone: 0 % with a tenant runs.
    await app.tenants.save({ id: 'beta', name: 'Beta' });
    await operator
      .post('/api/remotes/team_billing/canary')
      .send({ version: 'v2', percent: 0, tenants: ['beta'] })
      .expect(200);
  });

  it('rolls back only to a release published before the active one, and says to activate a newer one', async () => {
    const fromNothing = await operator.post('/api/remotes/team_billing/rollback').send({ version: 'v1' }).expect(400);
    expect(fromNothing.body.error.message).toBe(
      'Remote "team_billing" has no release in force to roll back from: use activate to put "v1" in force.',
    );
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    for (const version of ['v2', 'v1']) {
      const forward = await operator.post('/api/remotes/team_billing/rollback').send({ version }).expect(400);
      expect(forward.body.error).toEqual({
        code: 'invalid_request',
        message:
          `Release "${version}" of "team_billing" is not earlier than the active release "v1": a rollback goes back ` +
          'to a release published before it; use activate for a newer one.',
      });
    }
    expect(app.releases.snapshot.rollout('team_billing')?.active).toBe('v1');
    expect((await app.releases.store.history('team_billing')).map((entry) => entry.action)).not.toContain('rollback');

    // A canary running: a rollback to the active release rolls the canary back.
    await operator.post('/api/remotes/team_billing/canary').send({ version: 'v2', percent: 10 }).expect(200);
    await app.releases.snapshot.refresh();
    const back = await operator.post('/api/remotes/team_billing/rollback').send({ version: 'v1' }).expect(200);
    expect(back.body).toMatchObject({ active: 'v1', canary: null });
  });

  it('answers an end of the canary seen, sent again after it ended it, as the first time (a proxy resending the DELETE)', async () => {
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    await operator.post('/api/remotes/team_billing/canary').send({ version: 'v2', percent: 10 }).expect(200);
    const seen = '?active=v1&canary=v2';
    const first = await operator.delete(`/api/remotes/team_billing/canary${seen}`).expect(200);
    expect(first.body).toEqual({ remote: 'team_billing', active: 'v1', canary: null });
    // The same DELETE again, as nginx sends it when the host dropped the connection after ending the canary.
    const again = await operator.delete(`/api/remotes/team_billing/canary${seen}`).expect(200);
    expect(again.body).toEqual(first.body);
    const ends = (await app.releases.store.history('team_billing')).filter((entry) => entry.action === 'canary-end');
    expect(ends).toHaveLength(1);

    // Ended by another operator, it is still a move the caller did not see: 409, naming them.
    await operator.post('/api/remotes/team_billing/canary').send({ version: 'v2', percent: 10 }).expect(200);
    await addOperator(app, 'opal', 'opal-password-123');
    const other = await signedInAgent(app, 'opal', 'opal-password-123');
    await other.delete(`/api/remotes/team_billing/canary${seen}`).expect(200);
    const refused = await operator.delete(`/api/remotes/team_billing/canary${seen}`).expect(409);
    expect(refused.body.error.message).toMatch(/moved since it was shown .* \(changed by opal at /);
  });

  it('ends no canary when none runs: answers the rollout unchanged and records nothing', async () => {
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    const entriesBefore = await app.releases.store.history('team_billing');
    const ended = await operator.delete('/api/remotes/team_billing/canary').expect(200);
    expect(ended.body).toEqual({ remote: 'team_billing', active: 'v1', canary: null });
    expect(await app.releases.store.history('team_billing')).toEqual(entriesBefore);

    // Ended twice (two operators, or after the automatic rollback): one entry, the second DELETE changes nothing.
    await operator.post('/api/remotes/team_billing/canary').send({ version: 'v2', percent: 10 }).expect(200);
    await operator.delete('/api/remotes/team_billing/canary').expect(200);
    await operator.delete('/api/remotes/team_billing/canary').expect(200);
    const actions = (await app.releases.store.history('team_billing')).map((entry) => entry.action);
    expect(actions.filter((action) => action === 'canary-end')).toHaveLength(1);
  });

  it('answers 404 for the history of a remote it knows nothing of, and an empty one for a known remote', async () => {
    const unknown = await operator.get('/api/remotes/nope/history').expect(404);
    expect(unknown.body).toEqual({
      error: {
        code: 'not_found',
        message: 'Remote "nope" has no release, no history and no build on this server: is its name right?',
      },
    });
    // Published releases make a trail; a token alone does too (a team about to publish its first release).
    expect((await operator.get('/api/remotes/team_billing/history').expect(200)).body.entries).toHaveLength(2);
    await app.releases.store.record('team_new', 'token-add', 'cli', null, { id: 'abc', expiresAt: null });
    await operator.get('/api/remotes/team_new/history').expect(200);
  });

  it('answers 404 for ending the canary of, or deactivating, a remote it knows nothing of', async () => {
    for (const name of ['nope', '__proto__']) {
      const ended = await operator.delete(`/api/remotes/${name}/canary`).expect(404);
      expect(ended.body.error.message).toBe(
        `Remote "${name}" has no release, no history and no build on this server: is its name right?`,
      );
      await operator.post(`/api/remotes/${name}/deactivate`).expect(404);
    }
    // A known remote with no canary to end answers its rollout, as ever.
    const known = await operator.delete('/api/remotes/team_billing/canary').expect(200);
    expect(known.body).toMatchObject({ remote: 'team_billing', canary: null });
  });

  it('refuses to take the release in force away when its REMOTES_CONFIG entry does not answer, saying what it got', async () => {
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    const refused = await operator.post('/api/remotes/team_billing/deactivate').expect(400);
    expect(refused.body.error.message).toMatch(
      /^The own build of "team_billing" \(its REMOTES_CONFIG entry http:\/\/127\.0\.0\.1:\d+\/team_billing\/mf-manifest\.json\) does not answer \(down: .*ECONNREFUSED.*\): only a release can serve it now\./,
    );
    expect(app.releases.snapshot.rollout('team_billing')?.active).toBe('v1');
  });

  it('gives a canary to its share of users within a few percent, sticky per user, and to listed tenants', async () => {
    await app.tenants.save({ id: 'beta', name: 'Beta' });
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    await operator
      .post('/api/remotes/team_billing/canary')
      .send({ version: 'v2', percent: 10, tenants: ['beta'] })
      .expect(200);
    const chose = (userId: number, tenant = 'acme') =>
      app.releases.snapshot.choose('team_billing', { userId, tenant })?.version;
    const users = Array.from({ length: 1000 }, (_, index) => index + 1);
    const inCanary = users.filter((userId) => chose(userId) === 'v2');
    expect(inCanary.length).toBeGreaterThanOrEqual(70);
    expect(inCanary.length).toBeLessThanOrEqual(130);
    // Sticky: the same answer on every ask (every page, every host: the hash depends on nothing else).
    expect(users.filter((userId) => chose(userId) === 'v2')).toEqual(inCanary);
    expect(users.every((userId) => chose(userId, 'beta') === 'v2')).toBe(true);
    expect(app.releases.snapshot.choose('team_billing', {})?.version).toBe('v1');
  });

  it('refuses a canary naming a tenant that does not exist, saying which, and changes nothing', async () => {
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    const refused = await operator
      .post('/api/remotes/team_billing/canary')
      .send({ version: 'v2', percent: 0, tenants: ['acme', 'acme-typo'] })
      .expect(400);
    expect(refused.body.error.message).toBe('No tenant "acme-typo"; tenants: acme.');
    // The field at fault, for a form to mark.
    expect(refused.body.error.fields).toEqual({ tenants: 'No tenant "acme-typo"; tenants: acme.' });
    expect(app.releases.snapshot.rollout('team_billing')?.canary).toBeNull();
    // Many tenants: the first ten are named, the others counted.
    for (let index = 1; index <= 11; index++) await app.tenants.save({ id: `t${index}`, name: `T${index}` });
    const many = await operator
      .post('/api/remotes/team_billing/canary')
      .send({ version: 'v2', percent: 0, tenants: ['t99'] })
      .expect(400);
    expect(many.body.error.message).toMatch(/^No tenant "t99"; tenants: (\w+, ){9}\w+ and 2 more\.$/);
  });

  it('previews a release for the operator’s own session only, without an audit entry', async () => {
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    await operator.post('/api/remotes/team_billing/preview').send({ version: 'v2' }).expect(200);
    // Marked as previewed, for the page to say so: to the operator's session only.
    const billingOf = async (agent: { get(path: string): request.Test }) =>
      (await remotesOf(agent)).find((remote) => remote.name === 'team_billing');
    expect(await billingOf(operator)).toMatchObject({ entry: entryOf('v2'), previewedVersion: 'v2' });
    const staff = await billingOf(await signedInAgent(app));
    expect(staff).toMatchObject({ entry: entryOf('v1') });
    expect(staff).not.toHaveProperty('previewedVersion');
    expect(await billingOf(request(app.handler))).toMatchObject({ entry: entryOf('v1') });
    const history = await operator.get('/api/remotes/team_billing/history').expect(200);
    expect((history.body.entries as AuditEntry[]).map((entry) => entry.action)).not.toContain('preview');
    // The active release previewed is said so too: the page offers to stop a preview that is there.
    await operator.post('/api/remotes/team_billing/preview').send({ version: 'v1' }).expect(200);
    expect(await billingOf(operator)).toMatchObject({ entry: entryOf('v1'), previewedVersion: 'v1' });
    await operator.delete('/api/remotes/team_billing/preview').expect(200);
    const ended = await billingOf(operator);
    expect(ended).toMatchObject({ entry: entryOf('v1') });
    expect(ended).not.toHaveProperty('previewedVersion');
  });

  it('keeps a preview to the tenant it was set in, where the account may preview: not in another one', async () => {
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    // An operator in acme only: in globex the account may not manage releases, so previews nothing there.
    await addUser(app, 'olive', 'olive-password-123', ['acme', 'globex']);
    const olive = (await app.users.findByUsername('olive'))!;
    await app.tenants.setMemberships(olive.id, [{ tenant: 'acme', role: 'operator' }, 'globex']);
    const agent = await signedInAgent(app, 'olive', 'olive-password-123');
    const switchTo = (tenant: string) => agent.post('/tenant').send({ tenant }).expect(200);
    await agent.post('/api/remotes/team_billing/preview').send({ version: 'v2' }).expect(200);
    expect(await remotesOf(agent)).toContainEqual(expect.objectContaining({ entry: entryOf('v2') }));
    await switchTo('globex');
    expect(await remotesOf(agent)).toContainEqual(expect.objectContaining({ entry: entryOf('v1') }));
    await agent.post('/api/remotes/team_billing/preview').send({ version: 'v2' }).expect(403);
    // Back where it was set, the preview counts again.
    await switchTo('acme');
    expect(await remotesOf(agent)).toContainEqual(expect.objectContaining({ entry: entryOf('v2') }));
  });

  it('ends a preview once the account may no longer preview, which may still end its own preview', async () => {
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    await addUser(app, 'otto', 'otto-password-123', ['acme']);
    const otto = (await app.users.findByUsername('otto'))!;
    const roleInAcme = (role: 'operator' | 'viewer') => app.tenants.setMemberships(otto.id, [{ tenant: 'acme', role }]);
    await roleInAcme('operator');
    const agent = await signedInAgent(app, 'otto', 'otto-password-123');
    await agent.post('/api/remotes/team_billing/preview').send({ version: 'v2' }).expect(200);
    expect(await remotesOf(agent)).toContainEqual(expect.objectContaining({ entry: entryOf('v2') }));

    // Made a viewer: at the next request the page loads what everyone gets, and the preview is over for good.
    await roleInAcme('viewer');
    expect(await remotesOf(agent)).toContainEqual(expect.objectContaining({ entry: entryOf('v1') }));
    await roleInAcme('operator');
    expect(await remotesOf(agent)).toContainEqual(expect.objectContaining({ entry: entryOf('v1') }));

    // Ending one's own preview changes nothing for anyone else: it takes no permission.
    await agent.post('/api/remotes/team_billing/preview').send({ version: 'v2' }).expect(200);
    await roleInAcme('viewer');
    await agent.post('/api/remotes/team_billing/preview').send({ version: 'v2' }).expect(403);
    expect((await agent.delete('/api/remotes/team_billing/preview').expect(200)).body).toEqual({
      remote: 'team_billing',
      preview: null,
    });
  });

  it('ends a preview rather than fail the remotes list when whether the account may preview cannot be read', async () => {
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    await operator.post('/api/remotes/team_billing/preview').send({ version: 'v2' }).expect(200);
    const memberships = jest.spyOn(app.tenants, 'membershipsOf').mockRejectedValueOnce(new Error('database down'));
    try {
      expect(await remotesOf(operator)).toContainEqual(expect.objectContaining({ entry: entryOf('v1') }));
    } finally {
      memberships.mockRestore();
    }
    expect(await remotesOf(operator)).toContainEqual(expect.objectContaining({ entry: entryOf('v1') }));
  });

  it("shows an operator who may only read releases the canary's tenants of their own, counting the others", async () => {
    await app.tenants.save({ id: 'initech', name: 'Initech' });
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    await operator
      .post('/api/remotes/team_billing/canary')
      .send({ version: 'v2', percent: 0, tenants: ['acme', 'initech'] })
      .expect(200);
    // An operator in acme only (not in globex, no member of initech): reads releases, changes nothing.
    await addUser(app, 'pat', 'pat-password-1234', ['acme', 'globex']);
    const pat = (await app.users.findByUsername('pat'))!;
    await app.tenants.setMemberships(pat.id, [{ tenant: 'acme', role: 'operator' }, 'globex']);
    const reader = await signedInAgent(app, 'pat', 'pat-password-1234');
    const canaryOf = async (agent: { get(path: string): request.Test }) =>
      ((await agent.get('/api/remotes/releases').expect(200)).body as RemoteReleasesPayload).remotes.find(
        (remote) => remote.remote === 'team_billing',
      )?.rollout.canary;

    const shown = { version: 'v2', percent: 0, tenants: ['acme'], otherTenants: 1 };
    expect(await canaryOf(reader)).toEqual(shown);
    const history = (await reader.get('/api/remotes/team_billing/history').expect(200)).body as RemoteHistoryPayload;
    expect(history.entries[0]?.after).toEqual({ active: 'v1', canary: shown });
    expect(JSON.stringify(history)).not.toContain('initech');
    // The operator who may change releases (everywhere) reads every tenant of it.
    expect(await canaryOf(operator)).toEqual({ version: 'v2', percent: 0, tenants: ['acme', 'initech'] });
    const whole = (await operator.get('/api/remotes/team_billing/history').expect(200)).body as RemoteHistoryPayload;
    expect(whole.entries[0]?.after).toEqual({
      active: 'v1',
      canary: { version: 'v2', percent: 0, tenants: ['acme', 'initech'] },
    });
  });

  it('serves a previewed or canary release as itself when it was published at the active one’s address', async () => {
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    // The team deployed again in place (an address without a version in it), with a new component, as v3.
    origin.descriptors.set('v1', V2);
    await publish(await tokenFor('team_billing'), 'v3', entryOf('v1')).expect(201);
    const billing = async (agent: { get(path: string): request.Test }) =>
      (await remotesOf(agent)).find((remote) => remote.name === 'team_billing');
    const v3 = { entry: entryOf('v1'), components: V2.components, releaseTag: expect.stringMatching(/^v3\./) };
    await operator.post('/api/remotes/team_billing/preview').send({ version: 'v3' }).expect(200);
    expect(await billing(operator)).toMatchObject(v3);
    await operator.delete('/api/remotes/team_billing/preview').expect(200);
    await operator.post('/api/remotes/team_billing/canary').send({ version: 'v3', percent: 100 }).expect(200);
    expect(await billing(await signedInAgent(app))).toMatchObject(v3);
    // Anonymous visitors get the active release, with its own tag.
    expect(await billing(request(app.handler))).toMatchObject({
      components: V1.components,
      releaseTag: expect.stringMatching(/^v1\./),
    });
  });
});

describe("the remote's own build", () => {
  let dir: TempDir;
  afterEach(() => dir.remove());

  it('is served again when the release in force is taken away (canary too), checked first and audited', async () => {
    // team_billing declared in REMOTES_CONFIG by its manifest: its own build is what v1's folder describes.
    await testApp.close();
    dir = makeTempDir('slots-own-build-');
    const configFile = path.join(dir.path, 'remotes.json');
    fs.writeFileSync(configFile, JSON.stringify({ remotes: [{ name: 'team_billing', entry: entryOf('v1') }] }));
    testApp = await createTestApp({
      env: { REMOTES_CONFIG: configFile },
      remoteDescriptorTimeoutMs: 5_000,
      configure: (app) => app.registerSlots({ 'global-before-content': Slot.make('InvoiceBanner', { amountDue: 3 }) }),
    });
    app = testApp.app;
    await addOperator(app);
    await app.ready();
    const operator = await signedInAgent(app);
    const entryServed = async () => (await remotesOf(operator)).find((remote) => remote.name === 'team_billing')?.entry;
    expect(await entryServed()).toBe(entryOf('v1'));

    const token = await tokenFor('team_billing');
    await publish(token, 'v2').expect(201);
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v2' }).expect(200);
    expect(await entryServed()).toBe(entryOf('v2'));

    const back = await operator.post('/api/remotes/team_billing/deactivate').expect(200);
    expect(back.body).toEqual({ remote: 'team_billing', active: null, canary: null });
    expect(await entryServed()).toBe(entryOf('v1'));
    const history = (await operator.get('/api/remotes/team_billing/history').expect(200)).body.entries as AuditEntry[];
    expect(history[0]).toEqual(
      expect.objectContaining({
        action: 'deactivate',
        actor: 'admin',
        before: { active: 'v2', canary: null },
        after: { active: null, canary: null },
      }),
    );
    // Nothing in force any more: nothing to take away.
    await operator.post('/api/remotes/team_billing/deactivate').expect(400);
  });
  it('is asked again after a restart, before it is served: it is not down because nothing asked it', async () => {
    await testApp.close();
    dir = makeTempDir('slots-own-build-restart-');
    const configFile = path.join(dir.path, 'remotes.json');
    const config = (remotes: unknown[]) => fs.writeFileSync(configFile, JSON.stringify({ remotes }));
    config([{ name: 'team_billing', entry: entryOf('v1') }]);
    const startOwn = async (appDir?: TempDir) => {
      testApp = await createTestApp({
        ...(appDir ? { dir: appDir } : {}),
        env: { REMOTES_CONFIG: configFile },
        remoteDescriptorTimeoutMs: 5_000,
      });
      app = testApp.app;
    };
    await startOwn();
    await addOperator(app);
    await publish(await tokenFor('team_billing'), 'v2').expect(201);
    await (await signedInAgent(app)).post('/api/remotes/team_billing/activate').send({ version: 'v2' }).expect(200);
    const restart = async () => {
      const appDir = testApp.dir;
      await testApp.close({ keepData: true });
      await startOwn(appDir);
      // Served from the release: the entry was not asked at this start.
      expect(app.remotes.registry.stateOf('team_billing')).toEqual({ status: 'waiting' });
      return signedInAgent(app);
    };

    // Its entry answers 404 now: refused, saying so.
    origin.missing.add(`/v1/${REMOTE_DESCRIPTOR_FILE}`);
    let operator = await restart();
    const missing = await operator.post('/api/remotes/team_billing/deactivate').expect(400);
    expect(missing.body.error.message).toBe(
      `The own build of "team_billing" (its REMOTES_CONFIG entry ${entryOf('v1')}) does not answer (bad-answer: ` +
        `${origin.url}/v1/${REMOTE_DESCRIPTOR_FILE} answered 404): only a release can serve it now. Activate another ` +
        'release instead, or try again once it answers.',
    );

    // It answers: asked, checked and served.
    origin.missing.clear();
    operator = await restart();
    await operator.post('/api/remotes/team_billing/deactivate').expect(200);
    expect((await remotesOf(operator)).find((remote) => remote.name === 'team_billing')?.entry).toBe(entryOf('v1'));

    // No entry in the file any more, nor built in: nothing of its own to serve.
    await operator.post('/api/remotes/team_billing/activate').send({ version: 'v2' }).expect(200);
    config([]);
    operator = await restart();
    const none = await operator.post('/api/remotes/team_billing/deactivate').expect(400);
    expect(none.body.error.message).toBe(
      'Remote "team_billing" has no build of its own on this server (REMOTES_CONFIG or built in): only a release can ' +
        'serve it. Activate another release instead.',
    );
  });

  it('has an empty history, not a 404, before anything of a configured remote is recorded', async () => {
    await testApp.close();
    dir = makeTempDir('slots-listed-remote-');
    const configFile = path.join(dir.path, 'remotes.json');
    const listed = {
      name: 'legacy_widgets',
      entry: 'https://widgets.example.com/remoteEntry.js',
      components: ['Clock'],
    };
    fs.writeFileSync(configFile, JSON.stringify({ remotes: [listed] }));
    testApp = await createTestApp({ env: { REMOTES_CONFIG: configFile } });
    app = testApp.app;
    await addOperator(app);
    const history = await (await signedInAgent(app)).get('/api/remotes/legacy_widgets/history').expect(200);
    expect(history.body).toEqual({ remote: 'legacy_widgets', entries: [] });
  });
});

describe('the operator role', () => {
  it('answers the history to operators (roles on /me), 403 to other staff, 401 to anonymous visitors', async () => {
    // A remote with a release: the history of a name the server knows nothing of is a 404.
    await publish(await tokenFor('team_billing'), 'v1').expect(201);
    const admin = await signedInAgent(app);
    expect((await admin.get('/me').expect(200)).body.user.roles).toEqual(['operator']);
    await admin.get('/api/remotes/team_billing/history').expect(200);
    await addUser(app, 'editor', 'editor-password-1', ['acme']);
    const editor = await signedInAgent(app, 'editor', 'editor-password-1');
    expect((await editor.get('/me').expect(200)).body.user.roles).toEqual([]);
    const refused = await editor.get('/api/remotes/team_billing/history').expect(403);
    expect(refused.body.error.code).toBe('forbidden');
    await editor.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(403);
    await request(app.handler).get('/api/remotes/team_billing/history').expect(401);
    await request(app.handler).get('/api/remotes/releases').expect(401);
    const wrongMethod = await request(app.handler).put('/api/remotes/team_billing/activate').expect(405);
    expect(wrongMethod.headers.allow).toBe('POST');
  });
});

describe('a restart', () => {
  it('serves the active release from its stored descriptor, whatever the origin serves now', async () => {
    await publish(await tokenFor('team_billing'), 'v1').expect(201);
    await (await signedInAgent(app)).post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    // The check its activation starts (at the publish's descriptor and once in force) reaches the origin first: a
    // request still on its way as the server closes would be counted below as one after the restart.
    const descriptorAsked = () => origin.asked.filter((asked) => asked === '/v1/slots-remote.json').length;
    for (const until = Date.now() + 2_000; descriptorAsked() < 2 && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const dir = testApp.dir;
    await testApp.close({ keepData: true });
    // The origin now serves a descriptor that would refuse the start (the code's InvoiceBanner is gone).
    origin.descriptors.set('v1', BREAKING);
    const asked = origin.asked.length;
    await start(dir);
    const storedRelease = {
      name: 'team_billing',
      entry: entryOf('v1'),
      components: ['InvoiceBanner'],
      formComponents: [],
      // Signed, so that the page's slot events name the release it runs (release-tags.ts).
      releaseTag: expect.stringMatching(/^v1\.[\w-]{22}$/),
    };
    expect(await remotesOf(request(app.handler))).toContainEqual(storedRelease);
    // Its origin is asked for the remote's status only: its answer changes nothing of what is served.
    const deadline = Date.now() + 2_000;
    while (origin.asked.length === asked && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(origin.asked.slice(asked)).toEqual(['/v1/slots-remote.json']);
    expect(await remotesOf(request(app.handler))).toContainEqual(storedRelease);
  });
});
