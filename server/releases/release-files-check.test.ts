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
