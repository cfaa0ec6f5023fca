import net from 'node:net';
import { createClient } from 'redis';
import { RedisServerProcess } from './redis-server-process';
import { redisPing } from './redis-ping';

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
