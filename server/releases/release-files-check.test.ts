/**
 * The files a page loads first from a release, asked over real HTTP: the manifest and the entry script it names,
 * each request bounded by the timeout, the manifest by its size.
 */
import { fakeManifest } from '../../testing/fake-manifest';
import { startHttpFixtureServer, type HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { MANIFEST_MAX_BYTES, ReleaseFilesCheck } from './release-files-check';

let origin: HttpFixtureServer;
/** How the origin answers: path -> status and body; a path it does not list is never answered. */
let answers: Map<string, { status: number; body: string }>;

beforeEach(async () => {
  answers = new Map();
  origin = await startHttpFixtureServer((req, res) => {
    const answer = answers.get(req.url ?? '');
    if (answer !== undefined) res.writeHead(answer.status).end(answer.body);
  });
});
afterEach(() => origin.close());

const manifestUrl = () => `${origin.url}/1.0.0/mf-manifest.json`;
const MANIFEST = JSON.stringify(fakeManifest('team_billing', ['InvoiceBanner']));

it('is satisfied when the manifest and its entry script answer, asking each once with the trace', async () => {
  answers.set('/1.0.0/mf-manifest.json', { status: 200, body: MANIFEST });
  answers.set('/1.0.0/remoteEntry.js', { status: 200, body: 'var team_billing = {};' });
  expect(await new ReleaseFilesCheck({ timeoutMs: 500 }).problem(manifestUrl())).toBeNull();
  expect(origin.requests.map((request) => request.url)).toEqual(['/1.0.0/mf-manifest.json', '/1.0.0/remoteEntry.js']);
  expect(origin.requests.every((request) => request.traceparent !== undefined)).toBe(true);
});

it('says which request did not answer within the timeout', async () => {
  const check = new ReleaseFilesCheck({ timeoutMs: 200 });
  expect(await check.problem(manifestUrl())).toBe(
    `its mf-manifest.json cannot be read: ${manifestUrl()} did not answer within 200 ms`,
  );
  answers.set('/1.0.0/mf-manifest.json', { status: 200, body: MANIFEST });
  expect(await check.problem(manifestUrl())).toBe(
    'the remote entry script "remoteEntry.js" its mf-manifest.json names cannot be loaded: ' +
      `${origin.url}/1.0.0/remoteEntry.js did not answer within 200 ms`,
  );
});

it('says when the origin is down, and refuses a manifest that is not JSON or too large', async () => {
  answers.set('/1.0.0/mf-manifest.json', { status: 200, body: '<html>Not found</html>' });
  const check = new ReleaseFilesCheck({ timeoutMs: 500 });
  expect(await check.problem(manifestUrl())).toBe(`its mf-manifest.json at ${manifestUrl()} is not JSON`);
  answers.set('/1.0.0/mf-manifest.json', { status: 200, body: ' '.repeat(MANIFEST_MAX_BYTES + 1) });
  expect(await check.problem(manifestUrl())).toBe(
    `its mf-manifest.json cannot be read: ${manifestUrl()} is larger than ${MANIFEST_MAX_BYTES} bytes`,
  );
  // A port nothing listens on (a server's, closed before it was asked).
  const dead = await startHttpFixtureServer(() => undefined);
  await dead.close();
  const url = `${dead.url}/1.0.0/mf-manifest.json`;
  expect(await check.problem(url)).toBe(
    `its mf-manifest.json cannot be read: ${url}: connect ECONNREFUSED 127.0.0.1:${dead.port}`,
  );
});

describe('a manifest naming its entry script on another origin (an absolute metaData.publicPath)', () => {
  /** Another server, standing for an internal address: the page could never load a script from it. */
  let elsewhere: HttpFixtureServer;
  beforeEach(async () => {
    elsewhere = await startHttpFixtureServer((_req, res) => res.writeHead(404).end());
  });
  afterEach(() => elsewhere.close());

  function withPublicPath(publicPath: string): void {
    const manifest = fakeManifest('team_billing', ['InvoiceBanner']);
    manifest.metaData.publicPath = publicPath;
    answers.set('/1.0.0/mf-manifest.json', { status: 200, body: JSON.stringify(manifest) });
  }

  const refusal = (entryUrl: string) =>
    `its mf-manifest.json names its remote entry script at ${entryUrl} (after metaData.publicPath), on another ` +
    `origin than the manifest: a page loads this release's scripts from ${origin.url} only (the origin of the ` +
    "release's entry, the one its Content-Security-Policy allows), so the script was not requested; serve it beside " +
    `the manifest (publicPath "auto") or under ${origin.url}`;

  it('refuses it without asking that origin (nor telling what it would answer), whatever its spelling', async () => {
    const check = new ReleaseFilesCheck({ timeoutMs: 500 });
    for (const [publicPath, entryUrl] of [
      [`${elsewhere.url}/internal/`, `${elsewhere.url}/internal/remoteEntry.js`],
      // The same address under another name, and the same port of another loopback spelling: other origins.
      [`http://localhost:${origin.port}/1.0.0/`, `http://localhost:${origin.port}/1.0.0/remoteEntry.js`],
      [`http://2130706433:${elsewhere.port}/`, `http://127.0.0.1:${elsewhere.port}/remoteEntry.js`],
      ['https://169.254.169.254/latest/', 'https://169.254.169.254/latest/remoteEntry.js'],
    ]) {
      withPublicPath(publicPath!);
      expect(await check.problem(manifestUrl())).toBe(refusal(entryUrl!));
    }
    expect(elsewhere.requests).toEqual([]);
    expect(origin.requests.map((request) => request.url)).toEqual(Array(4).fill('/1.0.0/mf-manifest.json'));
  });

  it('quotes a long publicPath cut short', async () => {
    withPublicPath(`${elsewhere.url}/${'a'.repeat(100_000)}/`);
    const problem = await new ReleaseFilesCheck({ timeoutMs: 500 }).problem(manifestUrl());
    expect(problem).toMatch(/^its mf-manifest\.json names its remote entry script at http:\/\/127\.0\.0\.1:\d+\/a+… /);
    expect(problem!.length).toBeLessThan(700);
    expect(elsewhere.requests).toEqual([]);
  });

  it('refuses a publicPath that makes no URL with the file name, asking nothing more', async () => {
    withPublicPath('http://[');
    expect(await new ReleaseFilesCheck({ timeoutMs: 500 }).problem(manifestUrl())).toBe(
      'its mf-manifest.json names its remote entry script after a metaData.publicPath that makes no URL with it ' +
        '("http://[")',
    );
    expect(origin.requests).toHaveLength(1);
  });

  it('asks an absolute publicPath on the manifest’s own origin, where the runtime loads the script from', async () => {
    withPublicPath(`${origin.url}/assets/`);
    answers.set('/assets/remoteEntry.js', { status: 200, body: 'var team_billing = {};' });
    expect(await new ReleaseFilesCheck({ timeoutMs: 500 }).problem(manifestUrl())).toBeNull();
    expect(origin.requests.map((request) => request.url)).toEqual([
      '/1.0.0/mf-manifest.json',
      '/assets/remoteEntry.js',
    ]);
  });
});
