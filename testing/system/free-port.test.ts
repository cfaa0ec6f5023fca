import { spawn, type ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { getFreePort, portRange } from './free-port';
import { REPO_ROOT } from './repo-root';
import { makeTempDir } from '../temp-dir';

const FREE_PORT_MODULE = path.join(__dirname, 'free-port.ts');

/** Another run on the same machine: a process of its own that asks for a port and holds it until its stdin ends. */
function otherRun(environment: NodeJS.ProcessEnv = {}): { child: ChildProcess; answer: Promise<string> } {
  return otherProcess(
    `require(${JSON.stringify(FREE_PORT_MODULE)}).getFreePort().then(
    (port) => console.log(port), (error) => console.log(error.message));`,
    environment,
  );
}

/** A process of its own running `code`, which prints one line; it lives until its stdin ends. */
function otherProcess(code: string, environment: NodeJS.ProcessEnv): { child: ChildProcess; answer: Promise<string> } {
  const held = `${code}\nprocess.stdin.resume(); process.stdin.on('end', () => process.exit(0));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', held], {
    env: { ...process.env, JEST_WORKER_ID: process.env.JEST_WORKER_ID ?? '1', ...environment },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const answer = new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    child.once('exit', (code) => reject(new Error(`the other run ended (${code}) before it answered: ${text}`)));
  });
  return { child, answer };
}

function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.stdin?.end();
  });
}

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

  it("ends a test file's reservations after its last test, so that the next file in the worker has the port", async () => {
    // A port nobody holds: another run's, once that run has ended.
    const other = otherRun();
    children.push(other.child);
    const port = Number(await other.answer);
    await ended(other.child);

    const folder = makeTempDir('slots-free-port-files-');
    try {
      const file = `import { getFreePort } from ${JSON.stringify(FREE_PORT_MODULE)};
        it('gets the one port of its range', async () => expect(await getFreePort()).toBe(${port}));`;
      for (const name of ['a.test.ts', 'b.test.ts']) fs.writeFileSync(path.join(folder.path, name), file);
      const config = {
        rootDir: folder.path,
        testEnvironment: 'node',
        transform: { '^.+\\.ts$': require.resolve('@swc/jest', { paths: [REPO_ROOT] }) },
      };
      // Both files in one process, one after the other: a Jest worker's life.
      const jest = spawn(
        process.execPath,
        [require.resolve('jest/bin/jest', { paths: [REPO_ROOT] }), '--runInBand', '--config', JSON.stringify(config)],
        { cwd: folder.path, env: { ...process.env, TEST_PORT_RANGE: `${port}-${port}`, CI: '' }, stdio: 'pipe' },
      );
      let output = '';
      jest.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      jest.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => jest.once('exit', resolve));
      expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining('Tests:       2 passed, 2 total') });
    } finally {
      folder.remove();
    }
  }, 60_000);

  it('reads TEST_PORT_RANGE as first-last, and says what it expected of a bad one', () => {
    expect(portRange({})).toEqual({ first: 20_000, last: 31_999 });
    expect(portRange({ TEST_PORT_RANGE: '47450-47499' })).toEqual({ first: 47_450, last: 47_499 });
    for (const bad of ['47450', '47499-47450', '0-10', '1-70000', 'a-b'])
      expect(() => portRange({ TEST_PORT_RANGE: bad })).toThrow(
        `TEST_PORT_RANGE=${bad}: expected first-last, two ports from 1 to 65535, first <= last.`,
      );
  });
});
