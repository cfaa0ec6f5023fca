import type { IncomingMessage } from 'node:http';

/** Express's compiled `trust proxy` setting (`app.get('trust proxy fn')`): whether the hop at `address` is trusted. */
export type TrustProxyFn = (address: string | undefined, hop: number) => boolean;

/**
 * The client's address as Express's `req.ip` gives it, for a request Express may not have seen (the public fast
 * path answers before it): the socket's peer, then each `X-Forwarded-For` entry from the nearest, for as long as the
 * hop that added it is trusted. Without a trusted proxy, the peer.
 */
export function clientAddress(req: IncomingMessage, trust: TrustProxyFn): string | undefined {
  const peer = req.socket.remoteAddress;
  if (!trust(peer, 0)) return peer;
  const header = req.headers['x-forwarded-for'];
  const forwarded = typeof header === 'string' ? header : (header as string[] | undefined)?.join(',');
  // Nearest first; empty entries skipped, as Express's parser does.
  const hops = (forwarded ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .reverse();
  let address = peer;
  for (let hop = 0; hop < hops.length; hop++) {
    address = hops[hop];
    if (!trust(address, hop + 1)) return address;
  }
  return address;
}
