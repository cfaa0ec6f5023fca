import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { guardedFetch, type FetchLike } from './guarded-fetch';
import { internalAddress, isLoopbackAddress, type InternalAddress } from './internal-address';
import type { RemotesConfig } from './remotes-config';

/** One answer of a name look-up. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a host name resolves to (the system's resolver by default; a test gives its own). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** The system's resolver (`/etc/hosts`, then DNS), as Node resolves a name it connects to. */
export const systemResolver: HostResolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** A connection refused because its host is, or resolved to, an internal address. */
export class InternalAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InternalAddressError';
  }
}

export interface ReleaseAddressGuardOptions {
  /** The configuration in use: a remote's `"releaseOrigins"` and its own entry. */
  config: () => Pick<RemotesConfig, 'releaseOrigins' | 'remotes' | 'pending'>;
  /**
   * Whether loopback is allowed: the product reachable from this machine only ({@link reachedFromThisMachineOnly}),
   * where whoever holds a token can ask this machine's loopback anyway. Otherwise loopback is internal too.
   */
  loopbackAllowed: boolean;
  /** This server's own listener on loopback, which a release may always name ({@link ownLoopbackOrigins}). */
  ownOrigins?: ReadonlySet<string>;
  resolve?: HostResolver | undefined;
}

/**
 * Keeps a team's release off the server's network when the operators named no origins for its remote: a remote
 * without `"releaseOrigins"` takes releases from any origin the entry rules allow, except on an internal address
 * (internal-address.ts; loopback only in production), unless that origin is the one of its own REMOTES_CONFIG entry,
 * which the operators chose. Checked before anything is asked ({@link refusal}), and again on every connection made
 * for such a release ({@link fetchFor}: its files at publish and at activation, its descriptor every 30 s while in
 * force), by the look-up the connection uses: a name that answered a public address at the check and an internal
 * one at the request (DNS rebinding) is refused there, nothing sent. `"releaseOrigins"` given, the list decides
 * (release-origin-refusal.ts) and nothing here applies: what an allowed name resolves to is its owners' choice.
 */
export class ReleaseAddressGuard {
  private readonly resolve: HostResolver;
  private readonly guarded: FetchLike;

  constructor(private readonly options: ReleaseAddressGuardOptions) {
    this.resolve = options.resolve ?? systemResolver;
    this.guarded = guardedFetch(this.lookup, (hostname) => {
      const address = unbracketed(hostname);
      const internal = isIP(address) === 0 ? null : this.refused(address);
      return internal === null ? null : new InternalAddressError(`${hostname} is ${describe(internal)}`);
    });
  }

  /** Whether `url`, a release of `remote`'s, is held to the rule: no `"releaseOrigins"`, not its own entry's origin. */
  applies(remote: string, url: URL): boolean {
    const config = this.options.config();
    if (config.releaseOrigins?.has(remote)) return false;
    // The server asking itself reaches what any client reaches: a built-in remote's files published as a release.
    if (this.options.ownOrigins?.has(url.origin)) return false;
    const own = [...config.remotes, ...config.pending].find(({ name }) => name === remote)?.entry;
    return own === undefined || originOf(own) !== url.origin;
  }

  /**
   * Why a release of `remote` may not be published at `entry`, or null: its host is an internal address, or a name
   * that resolves to one (any of its addresses). A name that does not resolve is left to the request, which says so.
   */
  async refusal(remote: string, entry: URL): Promise<string | null> {
    if (!this.applies(remote, entry)) return null;
    const host = unbracketed(entry.hostname);
    let found: { address: string; internal: InternalAddress } | null = null;
    if (isIP(host) !== 0) {
      const internal = this.refused(host);
      if (internal !== null) found = { address: host, internal };
    } else {
      const answers = await this.resolve(host).catch(() => []);
      found = this.internalAnswer(answers);
    }
    if (found === null) return null;
    const is = found.address === host ? 'is' : `resolves to ${found.address},`;
    return (
      `"entry" ${JSON.stringify(entry.href)} is on ${entry.origin}, whose host ${is} ${describe(found.internal)}: ` +
      `remote "${remote}" has no "releaseOrigins" in REMOTES_CONFIG, ` +
      "and without them a release is not taken from an address on the server's own network (the server would ask " +
      `it), and nothing was asked there. If the team publishes from ${entry.origin} on purpose, ask the operators to ` +
      `add "${entry.origin}" to the remote's "releaseOrigins" in REMOTES_CONFIG.`
    );
  }

  /** What a request for `url`, a file of a release of `remote`, is made with. */
  fetchFor(remote: string, url: string): FetchLike {
    return this.applies(remote, new URL(url)) ? this.guarded : fetch;
  }

  /**
   * How `address` is internal, when the rule refuses it. Loopback is refused only on a product others reach, and
   * only as this machine's: 127.0.0.1 carried in another form (`64:ff9b::7f00:1`) is a translator's or a relay's.
   */
  private refused(address: string): InternalAddress | null {
    const internal = internalAddress(address);
    return this.options.loopbackAllowed && isLoopbackAddress(address) ? null : internal;
  }

  private internalAnswer(answers: readonly ResolvedAddress[]): { address: string; internal: InternalAddress } | null {
    for (const { address } of answers) {
      const internal = this.refused(address);
      if (internal !== null) return { address, internal };
    }
    return null;
  }

  /** The look-up of every guarded connection: one resolution, refused when any answer is internal. */
  private readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolve(hostname).then(
      (answers) => {
        const found = this.internalAnswer(answers);
        if (found !== null) {
          const error = new InternalAddressError(
            `${hostname} resolved to ${found.address}, ${describe(found.internal)}, which a release of a remote ` +
              'without "releaseOrigins" may not reach: nothing was asked there',
          );
          callback(error, '', 0);
          return;
        }
        const usable = options.family ? answers.filter(({ family }) => family === options.family) : answers;
        if (usable.length === 0) {
          const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
          callback(error, '', 0);
        } else if (options.all) {
          (callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, usable);
        } else {
          callback(null, usable[0]!.address, usable[0]!.family);
        }
      },
      (error: Error) => callback(error, '', 0),
    );
  };
}

/**
 * Whether the product is reached from this machine only: outside production (`npm start` or `npm run dev` in a
 * checkout), or in production listening on loopback (HOST, 127.0.0.1 by default) with no PUBLIC_URL or one on
 * loopback. A product behind a proxy on the same machine listens on loopback too, but names its public address in
 * PUBLIC_URL (security.md), so its releases stay off loopback.
 */
export function reachedFromThisMachineOnly(
  development: boolean,
  env: NodeJS.ProcessEnv,
  publicOrigin: string | undefined,
): boolean {
  if (development) return true;
  const listening = env.HOST === undefined || env.HOST.trim() === '' ? '127.0.0.1' : env.HOST.trim();
  const onLoopback = (host: string) => host === 'localhost' || isLoopbackAddress(host);
  return onLoopback(listening) && (publicOrigin === undefined || onLoopback(new URL(publicOrigin).hostname));
}

/**
 * This server's own listener as loopback origins (`http://127.0.0.1:3000`, `localhost`, `[::1]`, and their `https`):
 * a release there asks the server itself, its public routes only, so it is never held to the rule. Only where loopback
 * at PORT is this server: HOST on loopback or on every address (`0.0.0.0`, `::`), and PORT a fixed one (0 picks any).
 */
export function ownLoopbackOrigins(env: NodeJS.ProcessEnv): ReadonlySet<string> {
  const host = env.HOST === undefined || env.HOST.trim() === '' ? '127.0.0.1' : env.HOST.trim();
  const everyAddress = ['0.0.0.0', '::', '[::]'].includes(host);
  const port = env.PORT === undefined || env.PORT.trim() === '' ? 3000 : Number(env.PORT.trim());
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return new Set();
  if (!everyAddress && host !== 'localhost' && !isLoopbackAddress(unbracketed(host))) return new Set();
  const origins = ['http', 'https'].flatMap((scheme) =>
    ['127.0.0.1', 'localhost', '[::1]'].map((name) => new URL(`${scheme}://${name}:${port}`).origin),
  );
  return new Set(origins);
}

/**
 * `loopback` -> `a loopback address`, the kinds reading as adjectives; one carried in another form says which
 * IPv4 address made it internal: `a loopback address (127.0.0.1, in NAT64 form)`.
 */
function describe({ kind, carried }: InternalAddress): string {
  const how = carried === undefined ? '' : ` (${carried.ipv4}, in ${carried.form} form)`;
  return `${kind === 'unspecified' ? 'an' : 'a'} ${kind} address${how}`;
}

function unbracketed(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/** The origin of an absolute entry, or null for a path on this server. */
function originOf(entry: string): string | null {
  try {
    return new URL(entry).origin;
  } catch {
    return null;
  }
}
