/**
 * @jest-environment node
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ERROR_MESSAGES, type RemoteRelease } from '../../shared';
import type { CommandRun } from '../../testing/server/run-server-command';
import { runSlotsRemote } from '../../testing/slots-remote-command';
import { getFreePort } from '../../testing/system/free-port';
import {
  parseReleaseArguments,
  publishRelease,
  redirectedMessage,
  RELEASE_TOKEN_ENV,
  tokenNotAcceptedMessage,
  type ReleaseOptions,
} from './release';

jest.setTimeout(60_000);

const REMOTE = 'team_records';
const TOKEN = 'srt_team_records_secret';
const OTHER_REMOTES_TOKEN = 'srt_team_marketing_secret';
/** Answered 429, as the product answers every token from an address that sent too many unknown ones. */
const THROTTLED_TOKEN = 'srt_from_a_throttled_address';
const TOO_MANY_TOKEN_CHECKS = ERROR_MESSAGES.tooManyTokenChecks;
const ENTRY = 'https://cdn.example/team_records/2.0.0/mf-manifest.json';
const PROBLEMS = [
  'dashboard-before-cards: Hello (code): props.name is required by 3.0.0',
  'form articles: Rating is no longer a form component of team_records',
];

interface Received {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: unknown;
}

/**
 * The product's publishing endpoint, as the real API answers: 401 without the right token, 403 with another
 * remote's token, 400 with the problems for version 3.0.0 (it would break placements), 201 with the release.
 */
function startFakeServer(): Promise<{ server: Server; origin: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      const body = JSON.parse(text || 'null') as { version?: string; entry?: string } | null;
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        body,
      });
      const answer = (status: number, payload: unknown) => {
        response.writeHead(status, { 'Content-Type': 'application/json' });
        response.end(JSON.stringify(payload));
      };
      const error = (status: number, code: string, message: string, extra = {}) =>
        answer(status, { error: { code, message }, ...extra });
      if (request.method !== 'POST' || request.url !== `/api/remotes/${REMOTE}/releases`) {
        return error(404, 'not_found', 'Not found.');
      }
      if (request.headers.authorization === `Bearer ${THROTTLED_TOKEN}`) {
        // As the product answers an address that sent too many unknown tokens (TEAM_TOKEN_RATE_LIMIT).
        response.setHeader('Retry-After', '840');
        return error(429, 'too_many_requests', TOO_MANY_TOKEN_CHECKS);
      }
      if (request.headers.authorization === `Bearer ${OTHER_REMOTES_TOKEN}`) {
        return error(403, 'forbidden', 'This token publishes team_marketing only.');
      }
      if (request.headers.authorization !== `Bearer ${TOKEN}`) {
        // The product's words (server/releases/team-token-store.ts), for a request written by hand.
        return error(401, 'unauthenticated', 'A valid team token is needed (Authorization: Bearer <token>).');
      }
      if (body?.version === '3.0.0') {
        return error(400, 'invalid_request', 'Release 3.0.0 would break 2 placements.', { problems: PROBLEMS });
      }
      if (body?.version === '1.9.0') {
        // Published already: from this entry it is answered as it is, from another it is refused.
        const publishedAt = '2026-11-20T10:00:00.000Z';
        if (body.entry !== ENTRY) return error(409, 'conflict', 'Remote "team_records" already has a release "1.9.0".');
        return answer(200, { remote: REMOTE, version: '1.9.0', entry: ENTRY, components: ['Hello'], publishedAt });
      }
      const release: RemoteRelease = {
        remote: REMOTE,
        version: body?.version ?? '',
        entry: body?.entry ?? '',
        components: ['Hello'],
        formComponents: [],
        props: {},
        kit: '0.8.1',
        publishedBy: 'token:1',
        publishedAt: new Date().toISOString(),
      };
      return answer(201, release);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, origin: `http://127.0.0.1:${port}`, received });
    });
  });
}

/** A server that answers every request with `status` and `Location: location`, and records what it got. */
function startRedirectingServer(
  status: number,
  location: string,
): Promise<{ server: Server; origin: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        authorization: request.headers.authorization,
        contentType: request.headers['content-type'],
        body: JSON.parse(text || 'null') as unknown,
      });
      response.writeHead(status, { Location: location, 'Content-Type': 'text/plain' });
      response.end('Moved.');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, origin: `http://127.0.0.1:${port}`, received });
    });
  });
}

const close = (server: Server) => new Promise((resolve) => server.close(resolve));

/** The refusal of a plain-http server off this machine, as parseReleaseArguments throws it and the CLI prints it. */
const PLAIN_HTTP_REFUSAL =
  'The server http://admin.example uses plain http on "admin.example", which is not this machine: anyone on the ' +
  'way could read the team token. Give its https origin as --server or SLOTS_RELEASE_SERVER (http is allowed on ' +
  'loopback hosts only: localhost, 127.0.0.0/8, [::1]).';

let fake: Awaited<ReturnType<typeof startFakeServer>>;
let project: string;

beforeAll(async () => {
  fake = await startFakeServer();
  project = mkdtempSync(path.join(os.tmpdir(), 'slots-release-'));
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'team-records', version: '2.0.0' }));
  // What the CLI reads of remote.ts is its default export's name: a declaration without imports will do.
  writeFileSync(path.join(project, 'remote.ts'), `export default { name: '${REMOTE}', components: [] };\n`);
});
afterAll(async () => {
  rmSync(project, { recursive: true, force: true });
  await new Promise((resolve) => fake.server.close(resolve));
});
beforeEach(() => {
  fake.received.length = 0;
});

function options(overrides: Partial<ReleaseOptions> = {}): ReleaseOptions {
  return { dir: project, version: '2.0.0', entry: ENTRY, server: fake.origin, token: TOKEN, ...overrides };
}

describe('parseReleaseArguments', () => {
  const env = {
    [RELEASE_TOKEN_ENV]: TOKEN,
    SLOTS_RELEASE_ENTRY: ENTRY,
    SLOTS_RELEASE_SERVER: 'https://admin.example/',
  };

  it('takes the version from package.json, the entry and server from the environment, the token from it only', () => {
    expect(parseReleaseArguments(['--dir', project], '/', env)).toEqual({
      dir: project,
      version: '2.0.0',
      entry: ENTRY,
      server: 'https://admin.example',
      token: TOKEN,
    });
  });

  it('lets the flags win over package.json and the environment', () => {
    const parsed = parseReleaseArguments(
      [
        '--version',
        '2.0.1-rc.1',
        '--entry',
        'https://cdn.example/x/mf-manifest.json',
        '--server',
        'http://127.0.0.1:3000',
      ],
      project,
      env,
    );
    expect(parsed).toMatchObject({
      dir: project,
      version: '2.0.1-rc.1',
      entry: 'https://cdn.example/x/mf-manifest.json',
      server: 'http://127.0.0.1:3000',
    });
  });

  it('refuses a token flag, a missing token, entry or server, and a version the server would not take', () => {
    expect(() => parseReleaseArguments(['--token', TOKEN], project, env)).toThrow(/SLOTS_RELEASE_TOKEN only/);
    expect(() => parseReleaseArguments([], project, { ...env, [RELEASE_TOKEN_ENV]: ' ' })).toThrow(
      /Set SLOTS_RELEASE_TOKEN/,
    );
    expect(() => parseReleaseArguments([], project, { ...env, SLOTS_RELEASE_ENTRY: '' })).toThrow(
      /--entry or SLOTS_RELEASE_ENTRY/,
    );
    expect(() => parseReleaseArguments([], project, { ...env, SLOTS_RELEASE_SERVER: undefined })).toThrow(
      /--server or SLOTS_RELEASE_SERVER/,
    );
    expect(() => parseReleaseArguments(['--entry', 'mf-manifest.json'], project, env)).toThrow(/not an absolute URL/);
    expect(() => parseReleaseArguments(['--version', '2.0 final'], project, env)).toThrow(
      '"2.0 final" cannot be a release\'s version: a version begins with a letter or a digit, followed by letters, ' +
        'digits, ".", "_", "+" or "-", 64 characters at most.',
    );
    expect(() => parseReleaseArguments(['--version', '-1'], project, env)).toThrow(/begins with a letter or a digit/);
    expect(() => parseReleaseArguments(['--version', 'config-47ca941c3cc2'], project, env)).toThrow(
      '"config-47ca941c3cc2" cannot be a release\'s version: versions beginning with "config-" are kept for the ' +
        'releases REMOTES_CONFIG makes.',
    );
    expect(() => parseReleaseArguments(['--port', '1'], project, env)).toThrow(/Unknown option --port/);
    // npm run release --entry <url> (no "--"): npm keeps the options and hands the values on alone.
    expect(() => parseReleaseArguments(['http://127.0.0.1:9000/mf-manifest.json'], project, env)).toThrow(
      /^Unknown option http:\/\/127\.0\.0\.1:9000\/mf-manifest\.json\. With npm, give the options after "--" \(npm run release -- --version 1\.2\.0 --entry …\)/,
    );
  });

  it("refuses package.json's version for an entry in another version's folder, and trusts --version", () => {
    const entry = 'https://cdn.example/team_records/1.3.0/mf-manifest.json';
    expect(() => parseReleaseArguments(['--entry', entry], project, env)).toThrow(
      'The entry is in a folder named for version 1.3.0, but the release would be 2.0.0, the version of ' +
        'package.json (no --version given). Give --version 1.3.0, or set that version in package.json ' +
        '(npm version 1.3.0) before releasing.',
    );
    expect(() =>
      parseReleaseArguments(['--entry', 'https://cdn.example/v2.0.0/remote/mf-manifest.json'], project, env),
    ).not.toThrow();
    // A folder not named like a version says nothing of it; a version given is the team's word.
    expect(() =>
      parseReleaseArguments(['--entry', 'https://cdn.example/build-41/mf-manifest.json'], project, env),
    ).not.toThrow();
    expect(parseReleaseArguments(['--entry', entry, '--version', '1.3.1'], project, env).version).toBe('1.3.1');
  });

  it('refuses a plain-http server off this machine, which would read the token on the way', () => {
    expect(() => parseReleaseArguments(['--server', 'http://admin.example/'], project, env)).toThrow(
      PLAIN_HTTP_REFUSAL,
    );
    for (const server of ['http://10.0.0.5:3000', 'http://localhost.example.com', 'http://[::2]', 'http://128.0.0.1']) {
      expect(() => parseReleaseArguments(['--server', server], project, env)).toThrow(/uses plain http on/);
    }
    expect(() => parseReleaseArguments([], project, { ...env, SLOTS_RELEASE_SERVER: 'http://admin.example' })).toThrow(
      PLAIN_HTTP_REFUSAL,
    );
  });

  it('takes http on loopback hosts (a product on this machine) and https anywhere', () => {
    for (const server of [
      'http://localhost:3000',
      'http://admin.localhost',
      'http://127.0.0.1:3000',
      'http://127.1.2.3',
      'http://[::1]:3000',
      'https://10.0.0.5',
      'https://admin.example',
    ]) {
      expect(parseReleaseArguments(['--server', server], project, env).server).toBe(new URL(server).origin);
    }
  });
});

describe('publishRelease against an HTTP server', () => {
  it('POSTs the version and entry with the team token, and says the release is published but not active', async () => {
    const outcome = await publishRelease(REMOTE, options());
    expect(fake.received).toEqual([
      {
        method: 'POST',
        url: '/api/remotes/team_records/releases',
        authorization: `Bearer ${TOKEN}`,
        contentType: 'application/json',
        body: { version: '2.0.0', entry: ENTRY },
      },
    ]);
    expect(outcome.ok).toBe(true);
    expect(outcome.lines[0]).toBe(`Published team_records 2.0.0 (entry ${ENTRY}, built with remote kit 0.8.1).`);
    expect(outcome.lines[1]).toMatch(/^It is not active yet: an operator activates it/);
    expect(outcome.lines[1]).toContain(`${fake.origin}/releases`);
  });

  it('says a version published already from this entry changed nothing (a retry), and refuses it from another', async () => {
    expect(await publishRelease(REMOTE, options({ version: '1.9.0' }))).toEqual({
      ok: true,
      lines: [
        'team_records 1.9.0 was published already from this entry (at 2026-11-20T10:00:00.000Z): nothing changed.',
      ],
    });
    expect(
      await publishRelease(
        REMOTE,
        options({ version: '1.9.0', entry: 'https://cdn.example/team_records/2.0.0/x.json' }),
      ),
    ).toEqual({
      ok: false,
      lines: ['The server refused team_records 1.9.0 (409): Remote "team_records" already has a release "1.9.0".'],
    });
  });

  it("prints a refused release's problems one per line", async () => {
    const outcome = await publishRelease(REMOTE, options({ version: '3.0.0' }));
    expect(outcome).toEqual({
      ok: false,
      lines: [
        'The server refused team_records 3.0.0: Release 3.0.0 would break 2 placements.',
        `- ${PROBLEMS[0]}`,
        `- ${PROBLEMS[1]}`,
      ],
    });
  });

  it('says to check the token on a 401, and the remote on a 403', async () => {
    const wrong = await publishRelease(REMOTE, options({ token: 'srt_wrong' }));
    expect(wrong.ok).toBe(false);
    expect(wrong.lines).toEqual([
      'The server did not accept the token in SLOTS_RELEASE_TOKEN (401: A valid team token is needed.)',
      expect.stringMatching(/^Check SLOTS_RELEASE_TOKEN, the environment variable the command reads the token from/),
    ]);
    // Where the token comes from and what to check, in a team member's words; never how an HTTP header is written.
    expect(wrong.lines.join('\n')).not.toMatch(/Authorization|Bearer/);
    expect(wrong.lines[1]).toMatch(/made for team_records \(a token of another installation/);
    const other = await publishRelease(REMOTE, options({ token: OTHER_REMOTES_TOKEN }));
    expect(other.ok).toBe(false);
    expect(other.lines).toEqual([
      'The token is not one of team_records (403: This token publishes team_marketing only.).',
      expect.stringMatching(/holds the token made for team_records, and that remote.ts names that remote\.$/),
    ]);
  });

  it('says which token a revoked or expired one is on a 401, as the server does', () => {
    const server =
      'This team token (id 3f9a0c2b1d4e) was revoked at 2026-11-20T10:00:00.000Z. Ask an operator for a new one ' +
      '(npm run token:add). A valid team token is needed (Authorization: Bearer <token>).';
    expect(tokenNotAcceptedMessage(server, REMOTE, 'https://admin.example.com')[0]).toBe(
      'The server did not accept the token in SLOTS_RELEASE_TOKEN (401: This team token (id 3f9a0c2b1d4e) was ' +
        'revoked at 2026-11-20T10:00:00.000Z. Ask an operator for a new one (npm run token:add). A valid team ' +
        'token is needed.)',
    );
  });

  it('says on a 429 to check the token and when to try again, the right token being refused meanwhile', async () => {
    const throttled = await publishRelease(REMOTE, options({ token: THROTTLED_TOKEN }));
    expect(throttled.ok).toBe(false);
    expect(throttled.lines).toEqual([
      `Too many tries with a token the server does not know came from this address (429: ${TOO_MANY_TOKEN_CHECKS}) ` +
        'Check SLOTS_RELEASE_TOKEN, then try again in 14 minutes: until then the server refuses every token from ' +
        'here, the right one included.',
    ]);
  });

  it('sends nothing to a plain-http server off this machine, even when called without parseReleaseArguments', async () => {
    const outcome = await publishRelease(REMOTE, options({ server: 'http://admin.example' }));
    expect(outcome).toEqual({ ok: false, lines: [PLAIN_HTTP_REFUSAL] });
  });

  it.each([301, 302, 307, 308])(
    'does not follow a %i: says where the server redirected, and sends nothing there',
    async (status) => {
      const target = await startFakeServer();
      const location = `${target.origin}/api/remotes/${REMOTE}/releases`;
      const redirecting = await startRedirectingServer(status, location);
      try {
        const outcome = await publishRelease(REMOTE, options({ server: redirecting.origin }));
        expect(outcome).toEqual({ ok: false, lines: [redirectedMessage(status, location)] });
        expect(outcome.lines[0]).toBe(
          `The server redirected to ${location} (${status}); use that as --server (its origin: ${target.origin}) ` +
            'or SLOTS_RELEASE_SERVER. Nothing was sent there: a redirect is never followed, so the token goes ' +
            'only to the server you give.',
        );
        expect(redirecting.received.map((request) => request.method)).toEqual(['POST']);
        expect(target.received).toEqual([]);
      } finally {
        await Promise.all([close(target.server), close(redirecting.server)]);
      }
    },
  );

  it("gives a relative Location as an absolute URL on the server's origin", async () => {
    const redirecting = await startRedirectingServer(308, '/v2/api/remotes/team_records/releases');
    try {
      const outcome = await publishRelease(REMOTE, options({ server: redirecting.origin }));
      expect(outcome.ok).toBe(false);
      expect(outcome.lines[0]).toMatch(
        new RegExp(`^The server redirected to ${redirecting.origin}/v2/api/remotes/team_records/releases \\(308\\);`),
      );
      // Followed, the redirect would have reached the same server a second time.
      expect(redirecting.received).toHaveLength(1);
    } finally {
      await close(redirecting.server);
    }
  });

  it('says the server is not the product when it answers without the product’s error, a 200 page included', async () => {
    const answers: Array<[number, string, string]> = [
      [200, 'text/html', '<!doctype html><p>The remote’s fallback page</p>'],
      [404, 'text/plain', 'Not found'],
      [405, 'application/json', '{"message":"Method not allowed"}'],
    ];
    const origin = createServer((_request, response) => {
      const [status, type, text] = answers[0]!;
      response.writeHead(status, { 'Content-Type': type }).end(text);
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const server = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    try {
      while (answers.length > 0) {
        const [status, type] = answers[0]!;
        const outcome = await publishRelease(REMOTE, options({ server }));
        expect(outcome).toEqual({
          ok: false,
          lines: [
            `${server} did not answer as the product does (HTTP ${status}, ${type}): check --server or ` +
              "SLOTS_RELEASE_SERVER. It is the address where staff sign in to the product, not where the remote's " +
              'files are served.',
          ],
        });
        answers.shift();
      }
    } finally {
      await close(origin);
    }
  });

  it('says which server could not be reached', async () => {
    // A port nothing listens on: from the block no other test's listen(0) is ever given.
    const unreachable = `http://127.0.0.1:${await getFreePort()}`;
    const outcome = await publishRelease(REMOTE, options({ server: unreachable }));
    expect(outcome.ok).toBe(false);
    expect(outcome.lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Could not reach ${unreachable}: connect ECONNREFUSED [^ ]+\\. Nothing was published: check that the ` +
            'product is up and that --server or SLOTS_RELEASE_SERVER is its address, then run the same command again\\.$',
        ),
      ),
    ]);
  });

  it('says to give the http origin when an https one is answered in plain http, as a product on this machine is', async () => {
    // The fake product listens in plain http: asked over https, its answer fails the TLS handshake.
    const { port } = new URL(fake.origin);
    const outcome = await publishRelease(REMOTE, options({ server: `https://127.0.0.1:${port}` }));
    expect(outcome.ok).toBe(false);
    expect(outcome.lines).toHaveLength(1);
    expect(outcome.lines[0]).toMatch(
      new RegExp(
        `^Could not reach https://127\\.0\\.0\\.1:${port}: it answers plain http there, not https \\(the TLS ` +
          `handshake failed: [^\\n]*wrong version number[^\\n]*\\)\\. For a product on this machine that serves ` +
          `plain http, give http://127\\.0\\.0\\.1:${port} as --server or SLOTS_RELEASE_SERVER; else the address ` +
          'where it serves https\\.$',
      ),
    );
    expect(fake.received).toEqual([]);
  });
});

/** `slots-remote release` as a team runs it (`npm run release`), in its own process. */
function runCli(args: string[], env: Record<string, string>): Promise<CommandRun> {
  return runSlotsRemote(['release', ...args], project, env);
}

describe('slots-remote release', () => {
  const env = () => ({ [RELEASE_TOKEN_ENV]: TOKEN, SLOTS_RELEASE_SERVER: fake.origin, SLOTS_RELEASE_ENTRY: ENTRY });

  it("publishes the project's version under the name remote.ts declares, and exits 0", async () => {
    const result = await runCli([], env());
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain(
      `Published team_records 2.0.0 (entry ${ENTRY}, built with remote kit 0.8.1).\nIt is not active yet`,
    );
    expect(fake.received.map((request) => request.body)).toEqual([{ version: '2.0.0', entry: ENTRY }]);
  });

  it('exits 1 with the problems of a refused release, one per line', async () => {
    const result = await runCli(['--version', '3.0.0'], env());
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `The server refused team_records 3.0.0: Release 3.0.0 would break 2 placements.\n- ${PROBLEMS[0]}\n- ${PROBLEMS[1]}\n`,
    );
  });

  it('exits 1 without sending the token when the server is plain http off this machine', async () => {
    const result = await runCli(['--server', 'http://admin.example'], env());
    expect(result).toMatchObject({ code: 1, stdout: '', stderr: `${PLAIN_HTTP_REFUSAL}\n` });
  });

  it('exits 1 without asking the server when the token is missing', async () => {
    const result = await runCli([], { ...env(), [RELEASE_TOKEN_ENV]: '' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Set SLOTS_RELEASE_TOKEN/);
    expect(fake.received).toEqual([]);
  });
});

/** A team's origin with one version's build deployed: its slots-remote.json lists `components` (and `extra`). */
function startOrigin(
  components: string[],
  extra: Record<string, string> = {},
): Promise<{ server: Server; entry: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    asked.push(`${request.url ?? ''} ${request.headers.authorization ?? 'no token'}`);
    if (request.url !== '/team_records/2.0.0/slots-remote.json') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ name: REMOTE, components, formComponents: [], props: {}, ...extra }));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, entry: `http://127.0.0.1:${port}/team_records/2.0.0/mf-manifest.json`, asked });
    });
  });
}

describe('a deployed build that lacks a component remote.ts declares', () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  beforeAll(async () => {
    // Built before PaymentStatus was added to remote.ts, and deployed as it was.
    origin = await startOrigin(['Hello']);
  });
  afterAll(() => close(origin.server));

  const refusal = (folder: string, server: string) =>
    `The build deployed at ${folder} lacks "PaymentStatus", which remote.ts declares: its slots-remote.json lists ` +
    'Hello. It was built before that component was added, or from other sources.\n' +
    `Nothing was sent to ${server}: build again (npm run build), deploy the new dist/ to ${folder}, then publish ` +
    'again.';

  it('is refused before anything is sent to the server, the version left free', async () => {
    const outcome = await publishRelease(REMOTE, options({ entry: origin.entry }), ['Hello', 'PaymentStatus']);
    const folder = new URL('.', origin.entry).href;
    expect(outcome).toEqual({ ok: false, lines: refusal(folder, fake.origin).split('\n') });
    expect(fake.received).toEqual([]);
    // Only the team's own origin was asked, for the descriptor, without the token.
    expect(origin.asked.at(-1)).toBe('/team_records/2.0.0/slots-remote.json no token');
  });

  it('is published when it provides every component remote.ts declares', async () => {
    const outcome = await publishRelease(REMOTE, options({ entry: origin.entry }), ['Hello']);
    expect(outcome.ok).toBe(true);
    expect(fake.received.map((request) => request.body)).toEqual([{ version: '2.0.0', entry: origin.entry }]);
  });

  it('leaves a descriptor it cannot read to the server, which says what is wrong with it', async () => {
    const elsewhere = origin.entry.replace('2.0.0', '2.0.1');
    const outcome = await publishRelease(REMOTE, options({ entry: elsewhere }), ['Hello', 'PaymentStatus']);
    expect(outcome.ok).toBe(true);
    expect(fake.received).toHaveLength(1);
  });

  it('slots-remote release compares the components of remote.ts, and exits 1', async () => {
    const declaring = mkdtempSync(path.join(os.tmpdir(), 'slots-release-'));
    try {
      writeFileSync(path.join(declaring, 'package.json'), JSON.stringify({ name: 'team-records', version: '2.0.0' }));
      writeFileSync(
        path.join(declaring, 'remote.ts'),
        `export default { name: '${REMOTE}', components: ['Hello', 'PaymentStatus'] };\n`,
      );
      const result = await runCli(['--dir', declaring], {
        [RELEASE_TOKEN_ENV]: TOKEN,
        SLOTS_RELEASE_SERVER: fake.origin,
        SLOTS_RELEASE_ENTRY: origin.entry,
      });
      expect(result).toEqual({
        code: 1,
        stdout: '',
        stderr: `${refusal(new URL('.', origin.entry).href, fake.origin)}\n`,
      });
      expect(fake.received).toEqual([]);
    } finally {
      rmSync(declaring, { recursive: true, force: true });
    }
  });
});

describe("an entry that is the kit's development server", () => {
  let origin: Awaited<ReturnType<typeof startOrigin>>;
  beforeAll(async () => {
    // What `slots-remote dev` serves: its descriptor announces rebuilds. A product in production does not pass that
    // on, so it would take the entry as a release.
    origin = await startOrigin(['Hello'], { devEvents: '/__slots_dev/events' });
  });
  afterAll(() => close(origin.server));

  it('is refused before anything is sent to the server, the version left free', async () => {
    const outcome = await publishRelease(REMOTE, options({ entry: origin.entry }), ['Hello']);
    const folder = new URL('.', origin.entry).href;
    expect(outcome).toEqual({
      ok: false,
      lines: [
        `The entry is a development server (slots-remote dev, at ${folder}): its files change at every save and are ` +
          'gone once it stops, so it is never made a release.',
        `Nothing was sent to ${fake.origin}: build (npm run build), deploy dist/ to the version's own folder on ` +
          "your origin, and publish that folder's mf-manifest.json.",
      ],
    });
    expect(fake.received).toEqual([]);
    expect(origin.asked.at(-1)).toBe('/team_records/2.0.0/slots-remote.json no token');
  });

  it('is refused when remote.ts declares no component as well', async () => {
    const outcome = await publishRelease(REMOTE, options({ entry: origin.entry }), []);
    expect(outcome.ok).toBe(false);
    expect(fake.received).toEqual([]);
  });
});
