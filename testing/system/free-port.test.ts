import type { ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import net from 'node:net';
import path from 'node:path';
import { getFreePort, portRange } from './free-port';
import { ended, otherProcess, otherRun } from './free-port-other-runs';

/** Whether a UDP socket can take `port` now: false while some process's reservation holds it. */
function udpBindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = dgram.createSocket({ type: 'udp4', reuseAddr: false });
    socket.once('error', () => {
      socket.close();
      resolve(false);
    });
    socket.bind({ port, address: '0.0.0.0', exclusive: true }, () => socket.close(() => resolve(true)));
  });
}

function listenOn(port: number): Promise<net.Server> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port }, () => resolve(server));
  });
}

const closed = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('getFreePort', () => {
  const children: ChildProcess[] = [];
  afterEach(async () => {
    await Promise.all(children.splice(0).map(ended));
  });

  it('hands out distinct ports of its range (below the ephemeral one unless given) that a TCP server can listen on', async () => {
    const ports = [await getFreePort(), await getFreePort(), await getFreePort()];
    expect(new Set(ports).size).toBe(3);
    const { first, last } = portRange();
    if (!process.env.TEST_PORT_RANGE) expect(last).toBeLessThan(32_768);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(first);
      expect(port).toBeLessThanOrEqual(last);
      await closed(await listenOn(port));
    }
  });

  it('never hands another run on the machine a port this process holds, even from the same range', async () => {
    const held = await getFreePort();
    const other = otherRun({ TEST_PORT_RANGE: `${held}-${held}` });
    children.push(other.child);
    expect(await other.answer).toBe(`No free port on 127.0.0.1 from ${held} to ${held}.`);
  });

  it("keeps another run's port for as long as that run lives, and not after", async () => {
    const other = otherRun();
    children.push(other.child);
    const port = Number(await other.answer);
    expect(Number.isInteger(port)).toBe(true);
    expect(await udpBindable(port)).toBe(false);

    await ended(other.child);
    expect(await udpBindable(port)).toBe(true);
  });

  it('skips a port a TCP server listens on, and keeps no reservation for it', async () => {
    const server = await listenOn(0);
    const { port } = server.address() as net.AddressInfo;
    try {
      const other = otherRun({ TEST_PORT_RANGE: `${port}-${port}` });
      children.push(other.child);
      expect(await other.answer).toBe(`No free port on 127.0.0.1 from ${port} to ${port}.`);
      expect(await udpBindable(port)).toBe(true);
    } finally {
      await closed(server);
    }
  });

  it('starts and closes 30 fixture servers, two alive at once, on a range of 10 ports, skipping the port another run holds', async () => {
    const held = await getFreePort();
    const first = Math.max(1, held - 4);
    const fixtureModule = path.join(__dirname, 'http-fixture-server.ts');
    // Each server is started before the one alive closes; the ports in the order they were handed out.
    const code = `(async () => {
      const { startHttpFixtureServer } = require(${JSON.stringify(fixtureModule)});
      const start = () => startHttpFixtureServer((request, response) => response.end());
      const ports = [];
      let alive = await start();
      ports.push(alive.port);
      for (let index = 1; index < 30; index++) {
        const started = await start();
        ports.push(started.port);
        await alive.close();
        alive = started;
      }
      await alive.close();
      return JSON.stringify(ports);
    })().then((answer) => console.log(answer), (error) => console.log(error.message));`;
    const other = otherProcess(code, { TEST_PORT_RANGE: `${first}-${first + 9}` });
    children.push(other.child);
    const answer = await other.answer;
    expect(answer).toMatch(/^\[/);
    const ports = JSON.parse(answer) as number[];
    expect(ports).toHaveLength(30);
    for (const [index, port] of ports.entries()) {
      expect(port).toBeGreaterThanOrEqual(first);
      expect(port).toBeLessThanOrEqual(first + 9);
      expect(port).not.toBe(held);
      if (index > 0) expect(port).not.toBe(ports[index - 1]);
    }
  });

  it('reads TEST_PORT_RANGE as first-last, and says what it expected of a bad one', () => {
    expect(portRange({})).toEqual({ first: 20_000, last: 31_999 });
    expect(portRange({ TEST_PORT_RANGE: '47450-47499' })).toEqual({ first: 47_450, last: 47_499 });
    for (const bad of ['47450', '47499-47450', '0-10', '1-70000', 'a-b'])
      expect(() => portRange({ TEST_PORT_RANGE: bad })).toThrow(
        `TEST_PORT_RANGE=${bad}: expected first-last, two ports from 1 to 65535, first <= last.`,
      );
  });
});
