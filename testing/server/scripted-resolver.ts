import type { ResolvedAddress } from '../../server/remotes/release-address-guard';

/**
 * A name resolver whose answers a test writes (no DNS offline), for the release guard's `resolveRemoteHost`:
 * `names` maps a host name to its answers, one per look-up, the last one repeated (a name answering a public address
 * first and an internal one after is DNS rebinding); `looked` is every look-up asked, in order. An unknown name fails
 * as getaddrinfo does.
 */
export interface ScriptedResolver {
  names: Map<string, string[][]>;
  looked: string[];
  resolve: (hostname: string) => Promise<ResolvedAddress[]>;
}

export function scriptedResolver(): ScriptedResolver {
  const names = new Map<string, string[][]>();
  const looked: string[] = [];
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    looked.push(hostname);
    const answers = names.get(hostname);
    if (answers === undefined) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    }
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    return answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { names, looked, resolve };
}
