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
 * file's last test (a worker runs many files one after another, and the reservations of files long finished used to
 * fill a narrow range), whichever copy of this module took it (see `state`). Otherwise, and outside Jest, it is held
 * until the process ends, as the default range (a block of 1,000 per worker) has room for a worker's every file,
 * and a port that no later file of the worker can take is one less way for a file's late-closing server to meet
 * another's. The kernel drops a reservation when the process ends, however it ends. A helper whose server has closed gives its port
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

interface Reservation {
  socket: dgram.Socket;
  /** When its holder gave it back (`releasePort`), in the order of `givenBackCount`; undefined while held. */
  givenBack?: number;
  /** The global object of the test file (Jest gives each its own) that took it; the one global outside Jest. */
  file: object;
}

interface Reservations {
  /** Every reservation this process holds (see above); kept so that they are not collected. */
  held: Map<number, Reservation>;
  givenBackCount: number;
  /** Where the next search starts (modulo a range's size). */
  next: number;
}

/**
 * The reservations are the process's, not this copy's: a copy loaded in a test (`jest.isolateModules`,
 * `jest.resetModules`) hands out no port another copy holds, takes one given back by any copy, and has its ports
 * given back with the file's (see `endReservations`). Jest gives each test file a global object of its own, but the
 * same Node built-in modules, so the state hangs on `dgram` under a key every copy of this module finds.
 */
const STATE_KEY = Symbol.for('slots.testing.free-port.reservations');
const shared = dgram as unknown as { [STATE_KEY]?: Reservations };
const state = (shared[STATE_KEY] ??= {
  held: new Map(),
  givenBackCount: 0,
  // Where this process starts: a random place in its worker's block of the default range, or anywhere in a given one.
  next: process.env.TEST_PORT_RANGE
    ? Math.floor(Math.random() * size)
    : workerBlock * BLOCK_SIZE + Math.floor(Math.random() * BLOCK_SIZE),
});

/**
 * A TCP port free on `host` now and reserved (see above), for a server that needs its port before
 * it starts (PORT=...), or as a port nothing listens on. A port in use, or reserved by another run, is skipped.
 */
export async function getFreePort(host = '127.0.0.1'): Promise<number> {
  // A test file that got its ports only through copies that could add no hook: it ended, and the ports with it.
  if (process.env.TEST_PORT_RANGE) await endReservations(({ file }) => file !== globalThis);
  for (let tried = 0; tried < size; tried++) {
    const port = range.first + (state.next++ % size);
    if (state.held.has(port)) continue;
    const socket = await reserve(port);
    if (!socket) continue;
    if (await isFree(host, port)) {
      state.held.set(port, { socket, file: globalThis });
      return port;
    }
    await new Promise<void>((closed) => socket.close(() => closed()));
  }
  // Every port of the range is held by someone: one given back here, the longest ago, if nothing listens there.
  const givenBack = [...state.held].filter(([, reservation]) => reservation.givenBack !== undefined);
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
  const reservation = state.held.get(port);
  if (reservation && reservation.givenBack === undefined) reservation.givenBack = ++state.givenBackCount;
}

/** Ends the reservations (all, or those `which` picks): other runs, and later test files, may take the ports. */
async function endReservations(which: (reservation: Reservation) => boolean = () => true): Promise<void> {
  const ending = [...state.held].filter(([, reservation]) => which(reservation));
  for (const [port] of ending) state.held.delete(port);
  await Promise.all(ending.map(([, { socket }]) => new Promise<void>((closed) => socket.close(() => closed()))));
}

// In Jest, the reservations end with the test file (see above). The hook runs before the file's own afterAll hooks
// (declared after its imports): by then its servers have bound their ports, so another run still finds each taken
// until it is stopped. A copy loaded once the file's tests have started (`jest.isolateModules` in a test or a hook)
// can add no hook (Jest would fail the test): what it reserved ends with the hook of the file's own copy, or, in a
// file that has none, when the worker's next file asks for a port.
if (process.env.TEST_PORT_RANGE && typeof afterAll === 'function' && !testsStarted()) {
  try {
    afterAll(() => endReservations());
  } catch {
    // A runner that throws "Hooks cannot be defined inside tests"
  }
}

/** Whether jest-circus (Jest's runner) runs this file's tests already, which it keeps under a symbol of its own. */
function testsStarted(): boolean {
  const key = Object.getOwnPropertySymbols(globalThis).find((symbol) => symbol.description === 'JEST_STATE_SYMBOL');
  const runner = key && (globalThis as { [key: symbol]: { hasStarted?: unknown } | undefined })[key];
  return runner?.hasStarted === true;
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
