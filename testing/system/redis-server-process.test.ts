import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { createClient } from 'redis';
import { RedisServerProcess } from './redis-server-process';
import { redisPing } from './redis-ping';
import { getFreePort } from './free-port';

describe('RedisServerProcess', () => {
  let redis: RedisServerProcess | undefined;

  afterEach(async () => {
    await redis?.stop();
    redis = undefined;
  });

  it('starts a redis-server with persistence off that answers PING, and stops it', async () => {
    redis = await RedisServerProcess.start();
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(await redisPing(redis.port)).toBe(true);

    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      expect(await client.configGet('save')).toEqual({ save: '' });
      expect(await client.configGet('appendonly')).toEqual({ appendonly: 'no' });
      expect(await client.configGet('bind')).toEqual({ bind: '127.0.0.1' });
      await client.set('probe', 'value');
      expect(await client.get('probe')).toBe('value');
    } finally {
      await client.close();
    }

    await redis.stop();
    expect(redis.running).toBe(false);
    expect(await redisPing(redis.port, 300)).toBe(false);
  });

  it('kill() takes Redis away at once, like a crash', async () => {
    redis = await RedisServerProcess.start();
    await redis.kill();
    expect(redis.running).toBe(false);
    expect(await redisPing(redis.port, 300)).toBe(false);
  });

  it('gives two servers started together two ports that both answer', async () => {
    const [first, second] = await Promise.all([RedisServerProcess.start(), RedisServerProcess.start()]);
    try {
      expect(first.port).not.toBe(second.port);
      expect(await redisPing(first.port)).toBe(true);
      expect(await redisPing(second.port)).toBe(true);
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  it('says which package to install when the binary is missing', async () => {
    await expect(RedisServerProcess.start({ binary: 'redis-server-that-does-not-exist' })).rejects.toThrow(
      /apt-get install redis-server/,
    );
  });

  it('never reports ready on a port where something else answers', async () => {
    // A plain TCP server that is not Redis: PING must not count it.
    const impostor = net.createServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
    const address = impostor.address();
    try {
      if (address === null || typeof address === 'string') throw new Error('no port');
      expect(await redisPing(address.port, 500)).toBe(false);
    } finally {
      impostor.close();
    }
  });
});

/**
 * `code` run in a process of its own, with TEST_PORT_RANGE=`range` and the helpers `RedisServerProcess` and
 * `getFreePort` in scope: what it resolves to (or the message it fails with), printed as JSON.
 */
function inOtherProcess(code: string, range: string): Promise<unknown> {
  const module = (name: string) => `require(${JSON.stringify(path.join(__dirname, name))})`;
  const modules = `const { RedisServerProcess } = ${module('redis-server-process.ts')};
    const { getFreePort } = ${module('free-port.ts')};`;
  const run = `${modules}\n(async () => { ${code} })().then(
    (answer) => console.log(JSON.stringify(answer)), (error) => console.log(JSON.stringify(error.message)));`;
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', run], {
    env: { ...process.env, JEST_WORKER_ID: process.env.JEST_WORKER_ID ?? '1', TEST_PORT_RANGE: range },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', () => {
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new Error(`no answer from the other process: ${text}`));
      }
    });
  });
}

describe('RedisServerProcess and TEST_PORT_RANGE', () => {
  it('gives the port it picked back once its Redis is stopped: more servers, one after another, than ports', async () => {
    // A range of 10 ports around one this process holds (skipped, as any another run holds).
    const held = await getFreePort();
    const first = Math.max(1, held - 4);
    const ports = await inOtherProcess(
      `const ports = [];
      for (let index = 0; index < 12; index++) {
        const redis = await RedisServerProcess.start();
        ports.push(redis.port);
        await redis.stop();
      }
      return ports;`,
      `${first}-${first + 9}`,
    );
    expect(ports).toEqual(Array.from({ length: 12 }, () => expect.any(Number)));
    for (const port of ports as number[]) {
      expect(port).toBeGreaterThanOrEqual(first);
      expect(port).toBeLessThanOrEqual(first + 9);
      expect(port).not.toBe(held);
    }
  }, 60_000);

  it('keeps the port between a crash and the restart on it, and gives it back when the restarted one is stopped', async () => {
    const port = await portNobodyHolds();
    const answer = await inOtherProcess(
      `const crashed = await RedisServerProcess.start();
      await crashed.kill();
      const meanwhile = await getFreePort().catch((error) => error.message);
      const back = await RedisServerProcess.start({ port: crashed.port });
      await back.stop();
      await crashed.stop();
      return { port: crashed.port, meanwhile, after: await getFreePort() };`,
      `${port}-${port}`,
    );
    expect(answer).toEqual({ port, meanwhile: `No free port on 127.0.0.1 from ${port} to ${port}.`, after: port });
  }, 60_000);
});

/** A port free now that no process holds: one another process got from getFreePort, that process since ended. */
async function portNobodyHolds(): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await inOtherProcess('return getFreePort();', process.env.TEST_PORT_RANGE ?? '');
    if (typeof port === 'number' && (await canListen(port))) return port;
  }
  throw new Error('no port that nobody holds');
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ host: '127.0.0.1', port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
