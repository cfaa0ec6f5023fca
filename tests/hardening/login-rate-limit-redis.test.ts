import { createClient } from 'redis';
import { LoginRateLimiter } from '../../server/auth/login-rate-limit/login-rate-limiter';
import {
  REDIS_DISCONNECTED_MESSAGE,
  SessionStoreUnavailableError,
} from '../../server/storage/session-store-unavailable';
import { getFreePort } from '../../testing/system/free-port';
import { RedisServerProcess } from '../../testing/system/redis-server-process';

type Client = ReturnType<typeof createClient>;

const settings = { perAccountAndIp: 4, perIp: 50, windowSeconds: 60 };

describe('LoginRateLimiter on Redis', () => {
  let redis: RedisServerProcess;
  const clients: Client[] = [];

  beforeAll(async () => {
    redis = await RedisServerProcess.start();
  }, 30_000);

  afterAll(async () => {
    for (const client of clients) if (client.isOpen) client.destroy();
    await redis?.stop();
  });

  async function connectedClient(url: string): Promise<Client> {
    const client = createClient({ url, socket: { reconnectStrategy: false } });
    client.on('error', () => undefined);
    clients.push(client);
    await client.connect();
    return client;
  }

  it('counts the attempts made on two instances together, and a success on one resets both', async () => {
    const first = LoginRateLimiter.create(settings, { kind: 'redis', client: await connectedClient(redis.url) });
    const second = LoginRateLimiter.create(settings, { kind: 'redis', client: await connectedClient(redis.url) });
    const key = { username: 'admin', ip: '203.0.113.7' };

    expect((await first.attempt(key)).allowed).toBe(true);
    expect((await second.attempt(key)).allowed).toBe(true);
    expect((await first.attempt(key)).allowed).toBe(true);
    expect((await second.attempt(key)).allowed).toBe(true);
    const refused = await first.attempt(key);
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: expect.any(Number) });
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);

    await second.succeeded(key);
    expect((await first.attempt(key)).allowed).toBe(true);
  });

  it('remembers on every instance the client that signed in on one, and gives back what only failures keep', async () => {
    const limits = { perAccountAndIp: 3, perIp: 50, perAccount: 3, accountSlowdownSeconds: 60, windowSeconds: 60 };
    const first = LoginRateLimiter.create(limits, { kind: 'redis', client: await connectedClient(redis.url) });
    const second = LoginRateLimiter.create(limits, { kind: 'redis', client: await connectedClient(redis.url) });
    const owner = { username: 'alice', ip: '203.0.113.10' };
    const signIn = await first.attempt(owner);
    expect(signIn).toEqual({ allowed: true, accountCharged: true });
    if (signIn.allowed) await first.succeeded(owner, signIn);
    // The owner's sign-in gave the account its point back: three failures from elsewhere before the slow-down.
    const guesses = [];
    for (let i = 1; i <= 8; i++) {
      const instance = i % 2 === 0 ? first : second;
      guesses.push((await instance.attempt({ username: 'alice', ip: `198.51.100.${i}` })).allowed);
    }
    expect(guesses).toEqual([true, true, true, true, false, false, false, false]);
    // Slowed down everywhere else, the owner's address is known on both instances.
    expect((await second.attempt(owner)).allowed).toBe(true);
    expect((await first.attempt(owner)).allowed).toBe(true);
    expect((await second.attempt({ username: 'alice', ip: '198.51.100.99' })).allowed).toBe(false);
  });

  it('fails fast (rejects) when Redis is not reachable, instead of queueing the attempt', async () => {
    const deadPort = await getFreePort();
    const client = createClient({ url: `redis://127.0.0.1:${deadPort}`, socket: { reconnectStrategy: false } });
    client.on('error', () => undefined);
    clients.push(client);
    await client.connect().catch(() => undefined);
    const limiter = LoginRateLimiter.create(settings, { kind: 'redis', client });
    const started = Date.now();
    // Told as the session store tells an outage (one warning line at the route, no stack).
    const refused = limiter.attempt({ username: 'admin', ip: '203.0.113.8' });
    await expect(refused).rejects.toBeInstanceOf(SessionStoreUnavailableError);
    await expect(refused).rejects.toThrow(REDIS_DISCONNECTED_MESSAGE);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
