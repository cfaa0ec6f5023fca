/**
 * The files a page loads first from a release, asked over real HTTP: the manifest and the entry script it names,
 * each request bounded by the timeout, the manifest by its size.
 */
import { fakeManifest } from '../../testing/fake-manifest';
import { getFreePort } from '../../testing/system/free-port';
import { startHttpFixtureServer, type HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { MANIFEST_MAX_BYTES, ReleaseFilesCheck } from './release-files-check';

let origin: HttpFixtureServer;
/**
 * How the origin answers: path -> status, body and headers; `open` leaves the body unfinished (a script that never
 * ends). A path it does not list is never answered.
 */
let answers: Map<string, { status: number; body: string; headers?: Record<string, string>; open?: boolean }>;

beforeEach(async () => {
  answers = new Map();
  origin = await startHttpFixtureServer((req, res) => {
    const answer = answers.get(req.url ?? '');
    if (answer === undefined) return;
    res.writeHead(answer.status, answer.headers ?? {});
    if (answer.open) res.write(answer.body);
    else res.end(answer.body);
  });
});
afterEach(() => origin.close());

/**
 * The timeout of the checks whose origin answers: generous, since a busy machine took longer than 500 ms to answer
 * (the unit suite failed so); the cases of an origin that never answers use 200 ms.
 */
const ANSWERED_WITHIN_MS = 5_000;
const manifestUrl = () => `${origin.url}/1.0.0/mf-manifest.json`;
const MANIFEST = JSON.stringify(fakeManifest('team_billing', ['InvoiceBanner']));

it('is satisfied when the manifest and its entry script answer, asking each once with the trace', async () => {
  answers.set('/1.0.0/mf-manifest.json', { status: 200, body: MANIFEST });
  answers.set('/1.0.0/remoteEntry.js', { status: 200, body: 'var team_billing = {};' });
  expect(
    await new ReleaseFilesCheck({ timeoutMs: ANSWERED_WITHIN_MS }).problem('team_billing', manifestUrl()),
  ).toBeNull();
  expect(origin.requests.map((request) => request.url)).toEqual(['/1.0.0/mf-manifest.json', '/1.0.0/remoteEntry.js']);
  expect(origin.requests.every((request) => request.traceparent !== undefined)).toBe(true);
});

it('refuses a manifest that exposes no module for a component the descriptor names, saying which', async () => {
  answers.set('/1.0.0/mf-manifest.json', {
    status: 200,
    body: JSON.stringify(fakeManifest('team_billing', ['InvoiceBanner', 'Hello'])),
  });
  answers.set('/1.0.0/remoteEntry.js', { status: 200, body: 'var team_billing = {};' });
  const check = new ReleaseFilesCheck({ timeoutMs: ANSWERED_WITHIN_MS });
  expect(await check.problem('team_billing', manifestUrl(), undefined, ['Hello', 'Ghost', 'Phantom'])).toBe(
    'its mf-manifest.json exposes no module for "Ghost", "Phantom", which its slots-remote.json names (it exposes ' +
      "InvoiceBanner, Hello): the descriptor is not this build's; publish the slots-remote.json built with the bundle",
  );
  // Every one exposed: satisfied, whatever else the build exposes.
  expect(await check.problem('team_billing', manifestUrl(), undefined, ['Hello'])).toBeNull();
  // A manifest without an exposes list says nothing either way.
  const bare: Record<string, unknown> = fakeManifest('team_billing', []);
  delete bare.exposes;
  answers.set('/1.0.0/mf-manifest.json', { status: 200, body: JSON.stringify(bare) });
  expect(await check.problem('team_billing', manifestUrl(), undefined, ['Ghost'])).toBeNull();
});

it('says which request did not answer within the timeout', async () => {
  const check = new ReleaseFilesCheck({ timeoutMs: 200 });
  expect(await check.problem('team_billing', manifestUrl())).toBe(
    `its mf-manifest.json cannot be read: ${manifestUrl()} did not answer within 200 ms`,
  );
  answers.set('/1.0.0/mf-manifest.json', { status: 200, body: MANIFEST });
  expect(await check.problem('team_billing', manifestUrl())).toBe(
    'the remote entry script "remoteEntry.js" its mf-manifest.json names cannot be loaded: ' +
      `${origin.url}/1.0.0/remoteEntry.js did not answer within 200 ms`,
  );
});

it('says when the origin is down, and refuses a manifest that is not JSON or too large', async () => {
  answers.set('/1.0.0/mf-manifest.json', { status: 200, body: '<html>Not found</html>' });
  const check = new ReleaseFilesCheck({ timeoutMs: ANSWERED_WITHIN_MS });
  expect(await check.problem('team_billing', manifestUrl())).toBe(
    `its mf-manifest.json at ${manifestUrl()} is not JSON`,
  );
  answers.set('/1.0.0/mf-manifest.json', { status: 200, body: ' '.repeat(MANIFEST_MAX_BYTES + 1) });
  expect(await check.problem('team_billing', manifestUrl())).toBe(
    `its mf-manifest.json cannot be read: ${manifestUrl()} is larger than ${MANIFEST_MAX_BYTES} bytes`,
  );
  // A port nothing listens on (nor takes meanwhile: see free-port.ts).
  const deadPort = await getFreePort();
  const url = `http://127.0.0.1:${deadPort}/1.0.0/mf-manifest.json`;
  expect(await check.problem('team_billing', url)).toBe(
    `its mf-manifest.json cannot be read: ${url}: connect ECONNREFUSED 127.0.0.1:${deadPort}`,
  );
});

it('tells an origin that did not answer (in time, or at all) from one that answered wrong', async () => {
  const check = new ReleaseFilesCheck({ timeoutMs: 200 });
  expect(await check.check('team_billing', manifestUrl())).toEqual({
    message: `its mf-manifest.json cannot be read: ${manifestUrl()} did not answer within 200 ms`,
    unanswered: true,
  });
  const deadPort = await getFreePort();
  expect(await check.check('team_billing', `http://127.0.0.1:${deadPort}/mf-manifest.json`)).toMatchObject({
    unanswered: true,
  });
  answers.set('/1.0.0/mf-manifest.json', { status: 404, body: '' });
  expect(await check.check('team_billing', manifestUrl())).toEqual({
    message: `its mf-manifest.json cannot be read: ${manifestUrl()} answered 404`,
    unanswered: false,
    // What a publish tells apart: a file not on the origin at all (release-not-deployed.ts).
    errorAnswer: { url: manifestUrl(), status: 404 },
  });
  answers.set('/1.0.0/mf-manifest.json', { status: 200, body: MANIFEST });
  answers.set('/1.0.0/remoteEntry.js', { status: 200, body: '<html></html>' });
  expect(await check.check('team_billing', manifestUrl())).toMatchObject({ unanswered: false });
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
    const check = new ReleaseFilesCheck({ timeoutMs: ANSWERED_WITHIN_MS });
    for (const [publicPath, entryUrl] of [
      [`${elsewhere.url}/internal/`, `${elsewhere.url}/internal/remoteEntry.js`],
      // The same address under another name, and the same port of another loopback spelling: other origins.
      [`http://localhost:${origin.port}/1.0.0/`, `http://localhost:${origin.port}/1.0.0/remoteEntry.js`],
      [`http://2130706433:${elsewhere.port}/`, `http://127.0.0.1:${elsewhere.port}/remoteEntry.js`],
      ['https://169.254.169.254/latest/', 'https://169.254.169.254/latest/remoteEntry.js'],
    ]) {
      withPublicPath(publicPath!);
      expect(await check.problem('team_billing', manifestUrl())).toBe(refusal(entryUrl!));
    }
    expect(elsewhere.requests).toEqual([]);
    expect(origin.requests.map((request) => request.url)).toEqual(Array(4).fill('/1.0.0/mf-manifest.json'));
  });

  it('quotes a long publicPath cut short', async () => {
    withPublicPath(`${elsewhere.url}/${'a'.repeat(100_000)}/`);
    const problem = await new ReleaseFilesCheck({ timeoutMs: ANSWERED_WITHIN_MS }).problem(
      'team_billing',
      manifestUrl(),
    );
    expect(problem).toMatch(/^its mf-manifest\.json names its remote entry script at http:\/\/127\.0\.0\.1:\d+\/a+… /);
    expect(problem!.length).toBeLessThan(700);
    expect(elsewhere.requests).toEqual([]);
  });

  it('refuses a publicPath that makes no URL with the file name, asking nothing more', async () => {
    withPublicPath('http://[');
    expect(await new ReleaseFilesCheck({ timeoutMs: ANSWERED_WITHIN_MS }).problem('team_billing', manifestUrl())).toBe(
      'its mf-manifest.json names its remote entry script after a metaData.publicPath that makes no URL with it ' +
        '("http://[")',
    );
    expect(origin.requests).toHaveLength(1);
  });

  it('asks an absolute publicPath on the manifest’s own origin, where the runtime loads the script from', async () => {
    withPublicPath(`${origin.url}/assets/`);
    answers.set('/assets/remoteEntry.js', { status: 200, body: 'var team_billing = {};' });
    expect(
      await new ReleaseFilesCheck({ timeoutMs: ANSWERED_WITHIN_MS }).problem('team_billing', manifestUrl()),
    ).toBeNull();
    expect(origin.requests.map((request) => request.url)).toEqual([
      '/1.0.0/mf-manifest.json',
      '/assets/remoteEntry.js',
    ]);
  });
});

describe('an entry script that is an HTML page (an origin answering a file it lacks with its index page)', () => {
  const script = (body: string, headers?: Record<string, string>, open?: boolean) => {
    answers.set('/1.0.0/mf-manifest.json', { status: 200, body: MANIFEST });
    answers.set('/1.0.0/remoteEntry.js', {
      status: 200,
      body,
      ...(headers ? { headers } : {}),
      ...(open ? { open } : {}),
    });
  };
  const refusal = (what: string) =>
    `the remote entry script "remoteEntry.js" its mf-manifest.json names cannot be loaded: ${origin.url}/1.0.0/` +
    `remoteEntry.js answered 200 with ${what}, not a script (is it missing from the folder, answered by the ` +
    "origin's fallback page?)";

  it('is refused by its Content-Type, whatever its body', async () => {
    const check = new ReleaseFilesCheck({ timeoutMs: ANSWERED_WITHIN_MS });
    for (const type of ['text/html', 'text/html; charset=utf-8', 'Text/HTML;charset=UTF-8', 'application/xhtml+xml']) {
      script('var team_billing = {};', { 'Content-Type': type });
      expect(await check.problem('team_billing', manifestUrl())).toBe(
        refusal(`Content-Type ${type.split(';')[0]!.toLowerCase()}: a page`),
      );
    }
  });

  it('is refused by how its body starts, after whitespace and a byte order mark, when its type does not say', async () => {
    const check = new ReleaseFilesCheck({ timeoutMs: ANSWERED_WITHIN_MS });
    for (const [body, type] of [
      ['<!DOCTYPE html><html><body>app</body></html>', 'text/plain'],
      ['\uFEFF\n  \t<!doctype html>\n<html lang="en">', undefined],
      ['\r\n<html>\n<head></head></html>', 'application/octet-stream'],
      [`${' '.repeat(900)}<HTML lang="en">`, 'application/javascript'],
    ] as const) {
      script(body, type === undefined ? undefined : { 'Content-Type': type });
      expect(await check.problem('team_billing', manifestUrl())).toBe(refusal('an HTML document'));
    }
  });

  it('takes a script, however it starts and whatever its type, reading only its start', async () => {
    const check = new ReleaseFilesCheck({ timeoutMs: ANSWERED_WITHIN_MS });
    for (const body of ['var team_billing;(()=>{})()', '<!-- an HTML-like comment a script may start with -->', '']) {
      script(body, { 'Content-Type': 'text/javascript; charset=utf-8' });
      expect(await check.problem('team_billing', manifestUrl())).toBeNull();
    }
    // A script whose body never ends: its start is enough, the check does not wait for the rest.
    script(`var team_billing;${' '.repeat(4096)}`, { 'Content-Type': 'text/javascript' }, true);
    expect(await check.problem('team_billing', manifestUrl())).toBeNull();
    // An HTML-looking text past the start read is not looked for.
    script(`${' '.repeat(2048)}<html>`);
    expect(await check.problem('team_billing', manifestUrl())).toBeNull();
  });
});

describe('a manifest that is not the build of the remote released', () => {
  function manifestOf(name: unknown, globalName?: unknown): void {
    const manifest: Record<string, unknown> & { metaData: Record<string, unknown> } = fakeManifest('team_billing', [
      'InvoiceBanner',
    ]);
    if (name === undefined) delete manifest.name;
    else manifest.name = name;
    if (globalName === undefined) delete manifest.metaData.globalName;
    else manifest.metaData.globalName = globalName;
    answers.set('/1.0.0/mf-manifest.json', { status: 200, body: JSON.stringify(manifest) });
    answers.set('/1.0.0/remoteEntry.js', { status: 200, body: 'var team_billing = {};' });
  }
  const refusal = (found: string) =>
    `its mf-manifest.json at ${manifestUrl()} is not the build of remote "team_billing": it has ${found}, while ` +
    `pages load the remote's container by its name: none could load this one (the browser's "Failed to get ` +
    `remoteEntry exports"). Build the release with the remote's name, as the kit does, and publish its manifest ` +
    'unedited';

  it('is refused naming what it has and the remote, before its entry script is asked', async () => {
    const check = new ReleaseFilesCheck({ timeoutMs: ANSWERED_WITHIN_MS });
    for (const [name, globalName, found] of [
      ['team_other', 'team_other', '"name" "team_other" and "metaData.globalName" "team_other"'],
      ['team_other', 'team_billing', '"name" "team_other"'],
      ['team_billing', 'team_other', '"metaData.globalName" "team_other"'],
      [undefined, 'team_billing', 'no "name"'],
      [42, undefined, '"name" 42'],
      ['x'.repeat(500), undefined, `"name" "${'x'.repeat(159)}…"`],
    ] as const) {
      manifestOf(name, globalName);
      expect(await check.problem('team_billing', manifestUrl())).toBe(refusal(found));
    }
    expect(origin.requests.map((request) => request.url)).not.toContain('/1.0.0/remoteEntry.js');
  });

  it('is taken with the remote’s name, its metaData.globalName absent or the same', async () => {
    const check = new ReleaseFilesCheck({ timeoutMs: ANSWERED_WITHIN_MS });
    manifestOf('team_billing');
    expect(await check.problem('team_billing', manifestUrl())).toBeNull();
    manifestOf('team_billing', 'team_billing');
    expect(await check.problem('team_billing', manifestUrl())).toBeNull();
  });
});

describe('with the origin of the product’s pages known (PUBLIC_URL)', () => {
  const PAGES = 'https://admin.example.com';
  /** The Origin each request came with, by path. */
  let origins: Array<[string, string | undefined]>;
  beforeEach(async () => {
    await origin.close();
    origins = [];
    origin = await startHttpFixtureServer((req, res) => {
      origins.push([req.url ?? '', req.headers.origin]);
      const answer = answers.get(req.url ?? '');
      if (answer === undefined) return;
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body);
    });
  });
  const manifestWithCors = (allowed: string | undefined) => {
    const headers: Record<string, string> = allowed === undefined ? {} : { 'Access-Control-Allow-Origin': allowed };
    answers.set('/1.0.0/mf-manifest.json', { status: 200, body: MANIFEST, headers });
    answers.set('/1.0.0/remoteEntry.js', { status: 200, body: 'var team_billing = {};' });
  };

  it('asks the manifest as a page there does, and takes a CORS answer naming that origin or any', async () => {
    const check = new ReleaseFilesCheck({ timeoutMs: ANSWERED_WITHIN_MS, pageOrigin: PAGES });
    for (const allowed of [PAGES, '*']) {
      manifestWithCors(allowed);
      expect(await check.problem('team_billing', manifestUrl())).toBeNull();
    }
    // The entry script loads as a plain script: asked without an Origin, as the browser does.
    expect(origins).toEqual([
      ['/1.0.0/mf-manifest.json', PAGES],
      ['/1.0.0/remoteEntry.js', undefined],
      ['/1.0.0/mf-manifest.json', PAGES],
      ['/1.0.0/remoteEntry.js', undefined],
    ]);
  });

  it('refuses a manifest no page there could read, saying what it answered, before its entry script is asked', async () => {
    const check = new ReleaseFilesCheck({ timeoutMs: ANSWERED_WITHIN_MS, pageOrigin: PAGES });
    const refusal = (answered: string) =>
      `its mf-manifest.json cannot be read: ${manifestUrl()} answers a request from ${PAGES} (this product's pages, ` +
      `PUBLIC_URL) ${answered}, so no page there may read it and every slot of the release would fail: answer that ` +
      `origin (or *) with CORS on ${origin.url}`;
    manifestWithCors(undefined);
    expect(await check.check('team_billing', manifestUrl())).toEqual({
      message: refusal('without Access-Control-Allow-Origin'),
      unanswered: false,
    });
    // Another origin, or this one spelt otherwise than a browser sends it: a browser compares them as written.
    for (const allowed of ['https://other.example.com', 'https://admin.example.com/', 'https://ADMIN.example.com']) {
      manifestWithCors(allowed);
      expect(await check.problem('team_billing', manifestUrl())).toBe(
        refusal(`with Access-Control-Allow-Origin ${JSON.stringify(allowed)}`),
      );
    }
    expect(origins.map(([url]) => url)).not.toContain('/1.0.0/remoteEntry.js');
  });

  it('asks nothing of CORS where the pages are on the manifest’s own origin', async () => {
    manifestWithCors(undefined);
    const check = new ReleaseFilesCheck({ timeoutMs: ANSWERED_WITHIN_MS, pageOrigin: origin.url });
    expect(await check.problem('team_billing', manifestUrl())).toBeNull();
    expect(origins.map(([, sent]) => sent)).toEqual([undefined, undefined]);
  });
});
