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
 * also reserved by a UDP socket bound to the same number on every address: TCP servers do not mind it, but another
 * run's `getFreePort` cannot bind it and skips the port.
 *
 * With `TEST_PORT_RANGE` set, a reservation is held for the test file that asked for it: in Jest it ends after the
 * file's last test (a worker runs many files one after another, each with its own copy of this module, and the
 * reservations of files long finished used to fill a narrow range). Otherwise, and outside Jest, it is held until the
 * process ends, as the default range (a block of 1,000 per worker) has room for a worker's every file, and a port
 * that no later file of the worker can take is one less way for a file's late-closing server to meet another's. The
 * kernel drops a reservation when the process ends, however it ends. A helper whose server has closed gives its port
 * back earlier (`releasePort`): this process hands such a port out again, once nothing listens there, only when no
 * other port of its range is free, the one given back longest ago first; so a server closed to have its address go
 * down keeps it down as long as the range allows, and with the default range a file never gets one back.
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

interface Reservation {
  socket: dgram.Socket;
  /** When its holder gave it back (`releasePort`), in the order of this counter; undefined while held. */
  givenBack?: number;
}

/** The reservations this copy of the module holds (see above); kept so that they are not collected. */
const reservations = new Map<number, Reservation>();
let givenBackCount = 0;

/**
 * A TCP port free on `host` now and reserved (see above), for a server that needs its port before
 * it starts (PORT=...), or as a port nothing listens on. A port in use, or reserved by another run, is skipped.
 */
export async function getFreePort(host = '127.0.0.1'): Promise<number> {
  for (let tried = 0; tried < size; tried++) {
    const port = range.first + (next++ % size);
    if (reservations.has(port)) continue;
    const socket = await reserve(port);
    if (!socket) continue;
    if (await isFree(host, port)) {
      reservations.set(port, { socket });
      return port;
    }
    await new Promise<void>((closed) => socket.close(() => closed()));
  }
  // Every port of the range is held by someone: one given back here, the longest ago, if nothing listens there.
  const givenBack = [...reservations].filter(([, reservation]) => reservation.givenBack !== undefined);
  givenBack.sort(([, a], [, b]) => (a.givenBack ?? 0) - (b.givenBack ?? 0));
  for (const [port, reservation] of givenBack) {
    if (!(await isFree(host, port))) continue;
    delete reservation.givenBack;
    return port;
  }
  throw new Error(`No free port on ${host} from ${range.first} to ${range.last}.`);
}

/**
 * Gives back a port `getFreePort` handed out, once the server that got it has closed: this process may hand it out
 * again when its range runs short (see above). Its reservation against other runs lasts until the test file ends.
 */
export function releasePort(port: number): void {
  const reservation = reservations.get(port);
  if (reservation && reservation.givenBack === undefined) reservation.givenBack = ++givenBackCount;
}

/** Ends every reservation this copy of the module holds: other runs, and later test files, may take the ports. */
async function endReservations(): Promise<void> {
  const ending = [...reservations.values()];
  reservations.clear();
  await Promise.all(ending.map(({ socket }) => new Promise<void>((closed) => socket.close(() => closed()))));
}

// In Jest, the reservations end with the test file (see above). The hook runs before the file's own afterAll hooks
// (declared after its imports): by then its servers have bound their ports, so another run still finds each taken
// until it is stopped. A copy loaded while a test runs (jest.isolateModules) cannot add a hook; its reservations
// last as long as the worker, as every reservation did before.
if (process.env.TEST_PORT_RANGE && typeof afterAll === 'function') {
  try {
    afterAll(endReservations);
  } catch {
    // "Hooks cannot be defined inside tests"
  }
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
