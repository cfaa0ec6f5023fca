/**
 * `slots-remote release`: publishes the remote's current build to the product (`POST /api/remotes/<name>/releases`
 * with the team token), once its files are on their origin. Publishing does not activate: an operator does, on the
 * host's releases page. The token is read from the environment only, never from a flag, so it stays out of shell
 * history and CI logs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  isLoopbackHost,
  releaseVersionProblem,
  RELEASES_PAGE_PATH,
  type PublishReleaseRequest,
  type RemoteRelease,
} from '../../shared';
import { certificateProblemLines, certificateProblemOf, readPresentedCertificate } from './certificate-problem';
import { deployedBuildProblem, deployedBuildProblemMessage } from './deployed-build-check';

/** The team token of the remote (`npm run token:add -- <remote>` on the product's side). */
export const RELEASE_TOKEN_ENV = 'SLOTS_RELEASE_TOKEN';
/** The product's origin, when `--server` is not given. */
export const RELEASE_SERVER_ENV = 'SLOTS_RELEASE_SERVER';
/** The URL of the build's `mf-manifest.json` on its origin, when `--entry` is not given. */
export const RELEASE_ENTRY_ENV = 'SLOTS_RELEASE_ENTRY';

export const RELEASE_USAGE =
  'usage: slots-remote release [--dir <folder>] [--version <version>] [--entry <manifest URL>] [--server <origin>] ' +
  `(or ${RELEASE_ENTRY_ENV}, ${RELEASE_SERVER_ENV}; the token in ${RELEASE_TOKEN_ENV})`;

export interface ReleaseOptions {
  /** The project's folder (its `remote.ts` names the remote, its `package.json` gives the default version). */
  dir: string;
  version: string;
  entry: string;
  /** The product's origin, without a trailing slash. */
  server: string;
  token: string;
}

/** An option's value from the command line, else from the environment; the last of a repeated option wins. */
function option(flags: Map<string, string>, flag: string, env: NodeJS.ProcessEnv, name: string): string | undefined {
  return flags.get(flag) ?? (env[name]?.trim() || undefined);
}

function absoluteUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${what} is not an absolute URL: ${value}. ${RELEASE_USAGE}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${what} must be http(s): ${value}.`);
  return url;
}

/**
 * What is wrong with the product's origin as the place to send the team token, or null. Over plain http anyone on
 * the network path reads the token (and may publish with it), so http is for a server on this machine only.
 */
function checkServerOrigin(origin: string): string | null {
  const url = new URL(origin);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return (
      `The server ${url.origin} uses plain http on "${url.hostname}", which is not this machine: anyone on the way ` +
      `could read the team token. Give its https origin as --server or ${RELEASE_SERVER_ENV} (http is allowed on ` +
      'loopback hosts only: localhost, 127.0.0.0/8, [::1]).'
    );
  }
  return null;
}

/** Reads the release's options from the arguments after `release`, the environment and the project's package.json. */
export function parseReleaseArguments(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): ReleaseOptions {
  const flags = new Map<string, string>();
  for (let index = 0; index < args.length; index += 2) {
    const flag = args[index]!;
    const value = args[index + 1];
    if (flag === '--token') {
      throw new Error(`The token is read from ${RELEASE_TOKEN_ENV} only: a flag would stay in the shell's history.`);
    }
    if (!['--dir', '--version', '--entry', '--server'].includes(flag)) {
      // A value where an option belongs: `npm run release --entry <url> …` without `--`, whose options npm took for
      // its own and dropped, handing the values on alone.
      const npmTookOptions = flag.startsWith('--')
        ? ''
        : ' With npm, give the options after "--" (npm run release -- --version 1.2.0 --entry …): before it, npm ' +
          'takes them for its own.';
      throw new Error(`Unknown option ${flag}.${npmTookOptions} ${RELEASE_USAGE}`);
    }
    if (value === undefined) throw new Error(`${flag} needs a value. ${RELEASE_USAGE}`);
    flags.set(flag, value);
  }
  const dir = path.resolve(cwd, flags.get('--dir') ?? '.');
  const version = flags.get('--version') ?? packageVersion(dir);
  const versionProblem = releaseVersionProblem(version);
  if (versionProblem !== null) throw new Error(`"${version}" cannot be a release's version: ${versionProblem}.`);
  const entry = option(flags, '--entry', env, RELEASE_ENTRY_ENV);
  if (entry === undefined) {
    throw new Error(`Give the entry, the URL of mf-manifest.json on your origin: --entry or ${RELEASE_ENTRY_ENV}.`);
  }
  if (!flags.has('--version')) refuseOtherVersionInEntry(version, entry);
  const server = option(flags, '--server', env, RELEASE_SERVER_ENV);
  if (server === undefined) throw new Error(`Give the product's origin: --server or ${RELEASE_SERVER_ENV}.`);
  const token = env[RELEASE_TOKEN_ENV]?.trim();
  if (!token) {
    throw new Error(
      `Set ${RELEASE_TOKEN_ENV} to your remote's team token (an operator creates it: npm run token:add).`,
    );
  }
  absoluteUrl(entry, 'The entry');
  const serverOrigin = absoluteUrl(server, 'The server').origin;
  const refused = checkServerOrigin(serverOrigin);
  if (refused !== null) throw new Error(refused);
  return { dir, version, entry, server: serverOrigin, token };
}

/** A folder of a URL's path named like a version (`1.3.0`, `v2.0.0-rc.1`): the docs deploy each version to one. */
const VERSION_FOLDER = /^v?(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?)$/;

/**
 * Refuses a release whose version was taken from package.json (no --version) while its entry sits in a folder named
 * for another version: a project whose package.json was never bumped would publish `0.1.0` pointing at the files of
 * `1.3.0`, and the next deploy could not publish 1.3.0 under its own name (versions are immutable).
 */
function refuseOtherVersionInEntry(version: string, entry: string): void {
  if (!URL.canParse(entry)) return;
  const folders = new URL(entry).pathname.split('/').slice(0, -1);
  const named = folders.map((folder) => VERSION_FOLDER.exec(decodeURIComponent(folder))?.[1]).filter(Boolean);
  if (named.length === 0 || named.some((folderVersion) => folderVersion === version)) return;
  throw new Error(
    `The entry is in a folder named for version ${named.join(', ')}, but the release would be ${version}, the ` +
      `version of package.json (no --version given). Give --version ${named[0]}, or set that version in ` +
      `package.json (npm version ${named[0]}) before releasing.`,
  );
}

/** The project's own version, from its package.json. */
function packageVersion(dir: string): string {
  let manifest: { version?: unknown };
  try {
    manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version?: unknown };
  } catch (error) {
    throw new Error(`No version given (--version) and ${dir}/package.json unreadable: ${(error as Error).message}`);
  }
  if (typeof manifest.version !== 'string') throw new Error(`No version given (--version) nor in package.json.`);
  return manifest.version;
}

/** What a release ended with: the lines to print and whether the command succeeded. */
export interface ReleaseOutcome {
  ok: boolean;
  lines: string[];
}

/** The server's error body, as far as it is one: its message (null: no error of the product's) and its problems. */
function readError(body: unknown): { message: string | null; problems: string[] } {
  const value = (body ?? {}) as { error?: { message?: unknown; problems?: unknown }; problems?: unknown };
  const problems = Array.isArray(value.problems) ? value.problems : value.error?.problems;
  return {
    message: typeof value.error?.message === 'string' ? value.error.message : null,
    problems: Array.isArray(problems) ? problems.map(String) : [],
  };
}

/**
 * An answer without the product's error (`{ "error": { "message" } }`): whatever answered is not the product's API,
 * most often the remote's own origin or development server given as --server.
 */
export function notTheProductMessage(server: string, status: number, contentType: string | null): string {
  return (
    `${server} did not answer as the product does (HTTP ${status}, ${contentType ?? 'no Content-Type'}): check ` +
    `--server or ${RELEASE_SERVER_ENV}. It is the address where staff sign in to the product, not where the ` +
    "remote's files are served."
  );
}

/**
 * A 429: this address sent too many tokens the server does not know, and every token from it, the right one
 * included, is refused for `Retry-After` seconds: the token is what to check before trying again.
 */
export function tooManyTriesMessage(message: string, retryAfter: string | null): string {
  const seconds = Number(retryAfter);
  const when =
    retryAfter !== null && Number.isInteger(seconds) && seconds > 0
      ? `in ${seconds >= 120 ? `${Math.ceil(seconds / 60)} minutes` : `${seconds} s`}`
      : 'later';
  return (
    `Too many tries with a token the server does not know came from this address (429: ${message}) Check ` +
    `${RELEASE_TOKEN_ENV}, then try again ${when}: until then the server refuses every token from here, the right ` +
    'one included.'
  );
}

/**
 * A 401: the server knows no such token, or it was revoked or has expired (the server's message then says which, by
 * its id, and when). The server's words for someone writing the request by hand (`(Authorization: Bearer <token>)`)
 * are left out: the command sends that header itself, from {@link RELEASE_TOKEN_ENV}, which is what to check.
 */
export function tokenNotAcceptedMessage(message: string, remote: string, server: string): string[] {
  const said = message.replace(/\s*\(Authorization: Bearer [^)]*\)/g, '').trim();
  return [
    `The server did not accept the token in ${RELEASE_TOKEN_ENV} (401: ${said})`,
    `Check ${RELEASE_TOKEN_ENV}, the environment variable the command reads the token from (no flag takes it): it ` +
      'holds the whole token, as npm run token:add printed it once on its last line, nothing cut or added; the ' +
      `token is one an operator of ${server} made for ${remote} (a token of another installation of the product is ` +
      `unknown here). When it was revoked or has expired, the server's answer above says so, by its id and when: ` +
      `ask an operator for a new one (npm run token:add -- ${remote}).`,
  ];
}

/**
 * A request that got no answer. An https origin whose port speaks plain http (a product started on this machine
 * without TLS, given as https://) fails in the TLS handshake with OpenSSL's "wrong version number", which says
 * nothing of that: the message names the http origin to give instead.
 */
export function unreachableMessage(server: string, error: unknown): string {
  const cause = (error as { cause?: { message?: unknown; code?: unknown } }).cause;
  const said = String(cause?.message ?? (error as Error).message).trim();
  if (cause?.code === 'ERR_SSL_WRONG_VERSION_NUMBER' && server.startsWith('https:')) {
    const plain = `http:${server.slice('https:'.length)}`;
    return (
      `Could not reach ${server}: it answers plain http there, not https (the TLS handshake failed: ${said}). ` +
      `For a product on this machine that serves plain http, give ${plain} as --server or ${RELEASE_SERVER_ENV}; ` +
      'else the address where it serves https.'
    );
  }
  return (
    `Could not reach ${server}: ${said}. Nothing was published: check that the product is up and that --server or ` +
    `${RELEASE_SERVER_ENV} is its address, then run the same command again.`
  );
}

/** What a redirect of the release's request is reported as; `location` is its Location, made absolute. */
export function redirectedMessage(status: number, location: string): string {
  const origin = URL.canParse(location) ? ` (its origin: ${new URL(location).origin})` : '';
  return (
    `The server redirected to ${location} (${status}); use that as --server${origin} or ${RELEASE_SERVER_ENV}. ` +
    'Nothing was sent there: a redirect is never followed, so the token goes only to the server you give.'
  );
}

/**
 * Publishes the release `version` of `remote`; never throws for an answer of the server, only says what it was.
 * `declared` (the components of `remote.ts`) is first compared with the build deployed at the entry. The
 * token goes to `options.server` and nowhere else: a plain-http server off this machine is not asked, and a redirect
 * is reported, not followed (it would send the token to another host, and turn the POST into a GET on a 301 or 302).
 */
export async function publishRelease(
  remote: string,
  options: ReleaseOptions,
  declared: readonly string[] = [],
): Promise<ReleaseOutcome> {
  const refused = checkServerOrigin(options.server);
  if (refused !== null) return { ok: false, lines: [refused] };
  // A version is taken for good once published: a stale build, or a development server, is refused here first.
  const deployed = await deployedBuildProblem(options.entry, declared);
  if (deployed !== null) return { ok: false, lines: deployedBuildProblemMessage(deployed, options.server) };
  const url = `${options.server}/api/remotes/${encodeURIComponent(remote)}/releases`;
  const request: PublishReleaseRequest = { version: options.version, entry: options.entry };
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        Authorization: `Bearer ${options.token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json',
      },
      body: JSON.stringify(request),
    });
  } catch (error) {
    // The product answered, with a certificate Node refuses: what it is and how to trust it, not "is it up?".
    const certificateProblem = certificateProblemOf(error);
    if (certificateProblem !== null) {
      const presented = await readPresentedCertificate(options.server);
      return { ok: false, lines: certificateProblemLines(options.server, certificateProblem, presented, process.env) };
    }
    return { ok: false, lines: [unreachableMessage(options.server, error)] };
  }
  const location = response.headers.get('location');
  if (response.status >= 300 && response.status < 400 && location !== null) {
    await response.body?.cancel();
    const target = URL.canParse(location, url) ? new URL(location, url).href : location;
    return { ok: false, lines: [redirectedMessage(response.status, target)] };
  }
  const body: unknown = await response.json().catch(() => undefined);
  const name = `${remote} ${options.version}`;
  if (response.status === 201) {
    const release = body as Partial<RemoteRelease>;
    return {
      ok: true,
      lines: [
        `Published ${name} (entry ${release.entry ?? options.entry}` +
          `${release.kit ? `, built with remote kit ${release.kit}` : ''}).`,
        `It is not active yet: an operator activates it, or gives it to a share of users as a canary, on the ` +
          `product's releases page (${options.server}${RELEASES_PAGE_PATH}).`,
      ],
    };
  }
  const known = body as Partial<RemoteRelease> | undefined;
  if (response.status === 200 && known?.remote === remote && known.version === options.version) {
    // The server had it already, from this entry: an earlier run's answer was lost (a CI retry).
    const release = known;
    return {
      ok: true,
      lines: [
        `${name} was published already from this entry${release.publishedAt ? ` (at ${release.publishedAt})` : ''}: ` +
          'nothing changed.',
      ],
    };
  }
  const { message, problems } = readError(body);
  if (message === null) {
    return {
      ok: false,
      lines: [notTheProductMessage(options.server, response.status, response.headers.get('content-type'))],
    };
  }
  if (response.status === 401) {
    return { ok: false, lines: tokenNotAcceptedMessage(message, remote, options.server) };
  }
  if (response.status === 403) {
    return {
      ok: false,
      lines: [
        `The token is not one of ${remote} (403: ${message}).`,
        `Check that ${RELEASE_TOKEN_ENV} holds the token made for ${remote}, and that remote.ts names that remote.`,
      ],
    };
  }
  if (response.status === 429) {
    // The server counts unknown tokens per address (TEAM_TOKEN_RATE_LIMIT): a retry loop in CI would only renew it.
    return { ok: false, lines: [tooManyTriesMessage(message, response.headers.get('retry-after'))] };
  }
  if (response.status === 400 && problems.length > 0) {
    return {
      ok: false,
      lines: [`The server refused ${name}: ${message}`, ...problems.map((problem) => `- ${problem}`)],
    };
  }
  return { ok: false, lines: [`The server refused ${name} (${response.status}): ${message}`] };
}
