import { readFileSync } from 'node:fs';
import net from 'node:net';
import { ConfigError } from '../config/config-error';

/** How long a refused port is asked whether something listens on it: on this machine, an answer is at once. */
const LISTENER_CHECK_MS = 1_000;

/**
 * A listener that could not start, said with the settings to change (Node says only `EADDRINUSE`, `ENOTFOUND`):
 * anything else as it came.
 *
 * A port taken where nothing listens was taken by a connection: Linux gives outgoing connections their own end from
 * a range of ports (net.ipv4.ip_local_port_range, 32768 to 60999 by default), and a `PORT` in it can be held by any
 * connection of the machine, this server's own to its database or Redis among them, opened before it listens. An
 * operator told "another process listens there" found none and could not tell why the start failed now and then.
 */
export async function listenRefusal(
  error: unknown,
  names: { host: string; port: string },
  host: string | undefined,
  port: number | undefined,
): Promise<unknown> {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const where = `${names.host}=${host ?? ''}`;
  if (code === 'EADDRINUSE' && port !== undefined) {
    const range = outgoingPortRange();
    if (range !== null && port >= range[0] && port <= range[1] && !(await somethingListens(host, port))) {
      return new ConfigError(
        `${names.port}=${port} is taken on ${host}, though nothing listens there: a connection of this machine held ` +
          `it. ${port} is among the ports Linux gives outgoing connections (${range[0]} to ${range[1]}, ` +
          "net.ipv4.ip_local_port_range), and any connection may take one, even this server's own to its database " +
          `or Redis, opened before it listens. Choose a ${names.port} below ${range[0]}.`,
      );
    }
  }
  const reasons: Record<string, string> = {
    EADDRINUSE: `${names.port}=${port} is taken on ${host}: another process listens there. Stop it, or choose another ${names.port}.`,
    EACCES: `${names.port}=${port} needs privileges this process does not have: choose a port above 1023.`,
    ENOTFOUND: `${where} is no name this machine can resolve: give an address of it (127.0.0.1, 0.0.0.0, ::).`,
    EAI_AGAIN: `${where} could not be resolved now (DNS): give an address of this machine (127.0.0.1, 0.0.0.0, ::).`,
    EADDRNOTAVAIL: `${where} is not an address of this machine: give one of its own (127.0.0.1, 0.0.0.0, ::).`,
  };
  return code !== undefined && reasons[code] ? new ConfigError(reasons[code]) : error;
}

/** The ports Linux gives outgoing connections, or null where it does not say (not Linux). */
function outgoingPortRange(): [number, number] | null {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    return low !== undefined && high !== undefined && low > 0 && high >= low ? [low, high] : null;
  } catch {
    return null;
  }
}

/** Whether a connection to the port is answered: a listener, not a connection's own end, holds it then. */
function somethingListens(host: string | undefined, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: host || '127.0.0.1', port, timeout: LISTENER_CHECK_MS });
    const done = (listens: boolean) => {
      socket.destroy();
      resolve(listens);
    };
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(true));
    socket.once('error', () => done(false));
  });
}
