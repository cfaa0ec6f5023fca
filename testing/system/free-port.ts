import dgram from 'node:dgram';
import net from 'node:net';

/**
 * Ports handed out for test servers: below Linux's ephemeral range (32768 to 60999 by default), where neither a
 * `listen(0)` nor an outgoing connection's own end is ever given a port, so nothing else takes one between the check
 * here and the child's own `listen`, and a port handed out as "nothing listens there" stays so. Each Jest worker
 * starts at a random place in a block of its own, so test files running side by side rarely try the same port.
 *
 * Several runs on one machine (helpers, CI beside a local run) have the same worker ids, so their blocks meet: a port
 * one run handed out, and whose server has not bound it yet, looked free to the other. So each port handed out is
 * also reserved, for as long as this process lives, by a UDP socket bound to the same number on every address: TCP
 * servers do not mind it, but another run's `getFreePort` cannot bind it and skips the port. The kernel drops the
 * reservation when the process ends, however it ends, so nothing is left to clean up.
 *
 * `TEST_PORT_RANGE=first-last` (inclusive) confines a run to the ports it was given.
 */
const DEFAULT_FIRST_PORT = 20_000;
const BLOCK_SIZE = 1_000;
const BLOCKS = 12;

export interface PortRange {
  first: number;
  last: number;
}

/** The range `TEST_PORT_RANGE` names, or this worker's share of the default one. */
export function portRange(environment: NodeJS.ProcessEnv = process.env): PortRange {
  const given = environment.TEST_PORT_RANGE;
  if (given === undefined || given === '')
    return { first: DEFAULT_FIRST_PORT, last: DEFAULT_FIRST_PORT + BLOCKS * BLOCK_SIZE - 1 };
  const match = /^(\d+)-(\d+)$/.exec(given.trim());
  const [first, last] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(first >= 1 && first <= last && last <= 65_535))
    throw new Error(`TEST_PORT_RANGE=${given}: expected first-last, two ports from 1 to 65535, first <= last.`);
  return { first, last };
}

const range = portRange();
const size = range.last - range.first + 1;
const workerBlock = (Math.max(1, Number(process.env.JEST_WORKER_ID ?? '1')) - 1) % BLOCKS;
// Where this process starts: a random place in its worker's block of the default range, or anywhere in a given one.
let next = process.env.TEST_PORT_RANGE
  ? Math.floor(Math.random() * size)
  : workerBlock * BLOCK_SIZE + Math.floor(Math.random() * BLOCK_SIZE);

/** The reservations this process holds (see above); kept so that they are not collected. */
const reservations = new Map<number, dgram.Socket>();

/**
 * A TCP port free on `host` now and reserved for this process (see above), for a server that needs its port before
 * it starts (PORT=...), or as a port nothing listens on. A port in use, or reserved by another run, is skipped.
 */
export async function getFreePort(host = '127.0.0.1'): Promise<number> {
  for (let tried = 0; tried < size; tried++) {
    const port = range.first + (next++ % size);
    if (reservations.has(port)) continue;
    const reservation = await reserve(port);
    if (!reservation) continue;
    if (await isFree(host, port)) {
      reservations.set(port, reservation);
      return port;
    }
    await new Promise<void>((closed) => reservation.close(() => closed()));
  }
  throw new Error(`No free port on ${host} from ${range.first} to ${range.last}.`);
}

/** A UDP socket bound to `port` on every address, or undefined when another process holds that number. */
function reserve(port: number): Promise<dgram.Socket | undefined> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket({ type: 'udp4', reuseAddr: false });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      socket.close();
      return error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(undefined) : reject(error);
    });
    socket.bind({ port, address: '0.0.0.0', exclusive: true }, () => {
      socket.removeAllListeners('error');
      socket.on('error', () => {}); // nothing is sent to it; a reservation has nothing to report
      socket.unref();
      resolve(socket);
    });
  });
}

function isFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(false) : reject(error),
    );
    probe.listen({ host, port, exclusive: true }, () =>
      probe.close((error) => (error ? reject(error) : resolve(true))),
    );
  });
}
