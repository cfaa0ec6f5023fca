/**
 * Publishing a release whose origin answers what the server must neither follow nor send back, over real HTTP: a
 * redirect (to another server, which must never be asked), a descriptor that is no JSON or too large, a value far too
 * long. The refusal says what was wrong without quoting what the origin answered.
 */
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import request from 'supertest';
import { REMOTE_DESCRIPTOR_FILE } from '../../shared';
import { fakeManifest } from '../../testing/fake-manifest';
import { createTestApp, signedInOperator, type TestApp } from '../../testing/server/test-app';
import { startHttpFixtureServer, type HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { DESCRIPTOR_MAX_BYTES } from '../remotes/http-descriptor-source';
import { QUOTED_MAX_CHARS } from '../http/quoted-value';

const DESCRIPTOR = { name: 'team_billing', components: ['InvoiceBanner'] };
/** What the other server answers: it must never reach the team (nor be asked at all). */
const SECRET = 'INTERNAL-SECRET db-admin-password=hunter2-internal';

/** The team's origin: path -> how it answers; a path it does not list answers 404. */
let answers: Map<string, (response: http.ServerResponse) => void>;
let origin: HttpFixtureServer;
/** Another server, standing for an internal address the entry rules would refuse. */
let elsewhere: HttpFixtureServer;
let declared: TempDir;
let testApp: TestApp;

const urlOf = (file: string) => `${origin.url}/v1/${file}`;

function json(body: unknown) {
  return (response: http.ServerResponse) =>
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

function redirect(status: number) {
  return (response: http.ServerResponse) => response.writeHead(status, { Location: `${elsewhere.url}/secret` }).end();
}

/** Publishes v1 (at `entry`) with team_billing's token, expecting `status`. */
async function publish(entry: string, status: number): Promise<request.Response> {
  const { token } = await testApp.app.releases.teamTokens.create('team_billing', null);
  return request(testApp.app.handler)
    .post('/api/remotes/team_billing/releases')
    .set('Authorization', `Bearer ${token}`)
    .send({ version: '1.0.0', entry })
    .expect(status);
}

/** Publishes v1 (at `entry`) with team_billing's token: the refusal's message (400). */
async function refusal(entry = urlOf('mf-manifest.json')): Promise<string> {
  return (await publish(entry, 400)).body.error.message as string;
}

/** Declares team_billing anew (its entry `entry`, the origins of `releaseOrigins`) and reloads REMOTES_CONFIG. */
async function declare(entry: string, releaseOrigins: string[]): Promise<void> {
  const remotes = [{ name: 'team_billing', entry, releaseOrigins }];
  fs.writeFileSync(path.join(declared.path, 'remotes.json'), JSON.stringify({ remotes }));
  expect(await testApp.app.reloadRemotesConfig()).toBe(true);
}

beforeEach(async () => {
  elsewhere = await startHttpFixtureServer((_req, res) => res.writeHead(200).end(JSON.stringify({ name: SECRET })));
  origin = await startHttpFixtureServer((req, res) => {
    const answer = answers.get(req.url ?? '');
    if (answer) answer(res);
    else res.writeHead(404).end();
  });
  answers = new Map([
    [`/v1/${REMOTE_DESCRIPTOR_FILE}`, json(DESCRIPTOR)],
    ['/v1/mf-manifest.json', json(fakeManifest('team_billing', ['InvoiceBanner']))],
    ['/v1/remoteEntry.js', (res) => res.writeHead(200).end('var team_billing = {};')],
  ]);
  declared = makeTempDir('slots-releases-hostile-');
  // Declared, its own entry down (port 1): the releases are what would serve it.
  const remotes = [{ name: 'team_billing', entry: 'http://127.0.0.1:1/team_billing/mf-manifest.json' }];
  fs.writeFileSync(path.join(declared.path, 'remotes.json'), JSON.stringify({ remotes }));
  testApp = await createTestApp({
    env: { REMOTES_CONFIG: path.join(declared.path, 'remotes.json') },
    remoteDescriptorTimeoutMs: 2000,
  });
});
afterEach(async () => {
  await testApp.close();
  await origin.close();
  await elsewhere.close();
  declared.remove();
});

it('publishes when every file answers at its address (the origin as the tests below spoil it)', async () => {
  await publish(urlOf('mf-manifest.json'), 201);
});

describe('a file answering with a redirect to another server', () => {
  const followed = (status: number) =>
    `answered ${status}, a redirect to ${elsewhere.url}: files are read at the address given, redirects are not followed.`;

  it.each([
    [REMOTE_DESCRIPTOR_FILE, 301, () => `The release's descriptor cannot be read: ${urlOf(REMOTE_DESCRIPTOR_FILE)} `],
    [
      'mf-manifest.json',
      302,
      () => `The release cannot be loaded: its mf-manifest.json cannot be read: ${urlOf('mf-manifest.json')} `,
    ],
    [
      'remoteEntry.js',
      307,
      () =>
        'The release cannot be loaded: the remote entry script "remoteEntry.js" its mf-manifest.json names cannot be ' +
        `loaded: ${urlOf('remoteEntry.js')} `,
    ],
  ])('refuses the release when %s answers %d, and never asks the other server', async (file, status, prefix) => {
    answers.set(`/v1/${file}`, redirect(status));
    expect(await refusal()).toBe(`${prefix()}${followed(status)}`);
    expect(elsewhere.requests).toEqual([]);
    expect(testApp.app.releases.snapshot.releases()).toEqual([]);
  });
});

describe('a manifest naming its entry script on another server (metaData.publicPath)', () => {
  it('refuses the release without asking that server, naming the origin a page may load the release from', async () => {
    const manifest = fakeManifest('team_billing', ['InvoiceBanner']);
    manifest.metaData.publicPath = `${elsewhere.url}/admin/`;
    answers.set('/v1/mf-manifest.json', json(manifest));
    const message = await refusal();
    expect(message).toBe(
      `The release cannot be loaded: its mf-manifest.json names its remote entry script at ${elsewhere.url}/admin/` +
        `remoteEntry.js (after metaData.publicPath), on another origin than the manifest: a page loads this ` +
        `release's scripts from ${origin.url} only (the origin of the release's entry, the one its ` +
        'Content-Security-Policy allows), so the script was not requested; serve it beside the manifest ' +
        `(publicPath "auto") or under ${origin.url}.`,
    );
    // Neither asked nor answered: its status (here 200, with a secret) is nobody's to learn.
    expect(elsewhere.requests).toEqual([]);
    expect(testApp.app.releases.snapshot.releases()).toEqual([]);
  });
});

describe('an entry on an origin the operators have not allowed for the team ("releaseOrigins")', () => {
  const notAllowed = (entry: string, origin: string, allowed: string) =>
    `"entry" ${JSON.stringify(entry)} is on ${origin}, an origin the operators have not allowed for the releases ` +
    `of remote "team_billing": they are published from ${allowed} only (the origin of its REMOTES_CONFIG entry ` +
    'and its "releaseOrigins"), and nothing was asked there. Ask the operators to add the origin to the ' +
    `remote's "releaseOrigins" in REMOTES_CONFIG.`;

  it('is refused unasked, whatever spelling or name reaches another address, and the allowed origin publishes', async () => {
    await declare('http://127.0.0.1:1/team_billing/mf-manifest.json', [origin.url]);
    const allowed = `http://127.0.0.1:1, ${origin.url}`;
    for (const [entry, entryOrigin] of [
      // Another server of the same machine (an internal service), and the same one under other spellings.
      [`${elsewhere.url}/v1/mf-manifest.json`, elsewhere.url],
      [`http://2130706433:${elsewhere.port}/v1/mf-manifest.json`, elsewhere.url],
      [`http://0x7f.1:${elsewhere.port}/v1/mf-manifest.json`, elsewhere.url],
      [`http://[::ffff:127.0.0.1]:${elsewhere.port}/v1/mf-manifest.json`, `http://[::ffff:7f00:1]:${elsewhere.port}`],
      // A DNS name for the allowed address: another origin, refused before any name is looked up.
      [`http://localhost:${origin.port}/v1/mf-manifest.json`, `http://localhost:${origin.port}`],
      [`http://127.0.0.1.nip.io:${origin.port}/v1/mf-manifest.json`, `http://127.0.0.1.nip.io:${origin.port}`],
      // Link-local (a cloud's metadata service) and private addresses.
      ['http://169.254.169.254/latest/meta-data/mf-manifest.json', 'http://169.254.169.254'],
      ['http://10.0.0.5:8080/mf-manifest.json', 'http://10.0.0.5:8080'],
      ['https://192.168.1.1/mf-manifest.json', 'https://192.168.1.1'],
    ]) {
      expect(await refusal(entry)).toBe(notAllowed(new URL(entry!).href, entryOrigin!, allowed));
    }
    expect(elsewhere.requests).toEqual([]);
    expect(origin.requests).toEqual([]);
    expect(testApp.app.releases.snapshot.releases()).toEqual([]);

    await publish(urlOf('mf-manifest.json'), 201);
  });

  it('allows the origin of the remote’s REMOTES_CONFIG entry without listing it, and no other', async () => {
    await declare(`${origin.url}/v0/mf-manifest.json`, []);
    const entry = `${elsewhere.url}/v1/mf-manifest.json`;
    expect(await refusal(entry)).toBe(notAllowed(entry, elsewhere.url, origin.url));
    expect(elsewhere.requests).toEqual([]);
    await publish(urlOf('mf-manifest.json'), 201);
  });

  it('keeps a release published before the list left its origin out from being put in force or previewed', async () => {
    await publish(urlOf('mf-manifest.json'), 201);
    await declare('http://127.0.0.1:1/team_billing/mf-manifest.json', []);
    const operator = await signedInOperator(testApp.app);
    for (const [action, body] of [
      ['activate', { version: '1.0.0' }],
      ['canary', { version: '1.0.0', percent: 10 }],
      ['preview', { version: '1.0.0' }],
    ] as const) {
      const refused = await operator.post(`/api/remotes/team_billing/${action}`).send(body);
      expect([action, refused.status]).toEqual([action, 400]);
      expect(refused.body.error.message).toContain(
        'Release "1.0.0" of "team_billing" was published from an origin the operators allow no more:',
      );
    }
    expect(testApp.app.releases.snapshot.rollout('team_billing')?.active ?? null).toBeNull();
  });
});

it('says a descriptor is not valid JSON without quoting it', async () => {
  answers.set(`/v1/${REMOTE_DESCRIPTOR_FILE}`, (res) => res.writeHead(200).end(`${SECRET} and more`));
  const message = await refusal();
  expect(message).toBe(`The release's descriptor cannot be read: ${urlOf(REMOTE_DESCRIPTOR_FILE)} is not valid JSON.`);
  expect(message).not.toContain('INTERNAL');
});

it('refuses a descriptor over the size cap, sent in chunks or announced, without its content', async () => {
  const over = `{ "name": "${'x'.repeat(DESCRIPTOR_MAX_BYTES)}", "components": [] }`;
  const tooLarge = `The release's descriptor cannot be read: ${urlOf(REMOTE_DESCRIPTOR_FILE)} is larger than ${DESCRIPTOR_MAX_BYTES} bytes.`;
  // No Content-Length: the cap is met while reading.
  answers.set(`/v1/${REMOTE_DESCRIPTOR_FILE}`, (res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    for (let at = 0; at < over.length; at += 64 * 1024) res.write(over.slice(at, at + 64 * 1024));
    res.end();
  });
  expect(await refusal()).toBe(tooLarge);
  // A Content-Length over the cap: refused before reading.
  answers.set(`/v1/${REMOTE_DESCRIPTOR_FILE}`, (res) => res.writeHead(200).end(over));
  expect(await refusal()).toBe(tooLarge);
});

it('quotes a value that fails a descriptor check cut short, naming the field', async () => {
  const name = `db-admin-password=hunter2-${'x'.repeat(100_000)}`;
  answers.set(`/v1/${REMOTE_DESCRIPTOR_FILE}`, json({ ...DESCRIPTOR, name }));
  const message = await refusal();
  const cut = `${name.slice(0, QUOTED_MAX_CHARS - 1)}…`;
  expect(message).toBe(
    `The release's descriptor cannot be read: ${urlOf(REMOTE_DESCRIPTOR_FILE)}: "name" must match ` +
      `/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, got ${JSON.stringify(cut)}.`,
  );

  // A props schema for a component the descriptor does not list, under a long key.
  answers.set(`/v1/${REMOTE_DESCRIPTOR_FILE}`, json({ ...DESCRIPTOR, props: { [name]: {} } }));
  const props = await refusal();
  expect(props).toContain(`"props" has a schema for ${JSON.stringify(cut)}, which is not in components.`);
  expect(props.length).toBeLessThan(500);
});
