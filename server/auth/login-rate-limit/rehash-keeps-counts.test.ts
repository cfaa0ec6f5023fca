/**
 * The sign-in counts of an account over a correct sign-in that hashes its password again with stronger parameters,
 * through the real POST /login with the counters in each of their stores (the SQLite file, PostgreSQL, Redis): the
 * password is the same, so the failures counted before it still count (schema step 21 keeps the password's
 * generation, which keys them, over the new hash), and a guesser who ran into a limit gets no fresh allowance from
 * the owner's sign-in. A new password still starts them again, one that a host of the release before writes too.
 */
import request from 'supertest';
import { describeWithCommand } from '../../../testing/describe-with-command';
import { ENGINES } from '../../../testing/server/engines-under-test';
import { addUser, createTestApp, FAST_HASH, type TestApp, type TestAppOptions } from '../../../testing/server/test-app';
import { RedisServerProcess } from '../../../testing/system/redis-server-process';
import { hashPassword, type ScryptParams } from '../password-hash';

/** Today's parameters in these apps; FAST_HASH stands for an earlier release's. */
const TODAY: ScryptParams = Object.freeze({ N: 2 ** 12, r: 8, p: 1 });
const OLD = FAST_HASH;
const PASSWORD = 'old-timer-password-1';
const NEW_PASSWORD = 'a-new-password-1';
const OWNER = '203.0.113.10';

const paramsOf = (hash: string) => /^scrypt\$(N=\d+,r=\d+,p=\d+)\$/.exec(hash)?.[1];
const TODAY_TEXT = `N=${TODAY.N},r=${TODAY.r},p=${TODAY.p}`;
const OLD_TEXT = `N=${OLD.N},r=${OLD.r},p=${OLD.p}`;

/** Where the counters live: the app options of a fresh one (and what to stop after the test). */
interface CounterStore {
  name: string;
  describeFor: (name: string, suite: () => void) => void;
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
  fresh(): Promise<{ options: TestAppOptions; stop(): Promise<void> }>;
}

const [SQLITE] = ENGINES;
const STORES: CounterStore[] = [
  ...ENGINES.map(
    (engine): CounterStore => ({
      name: `the database, on ${engine.name}`,
      describeFor: engine.describeFor,
      setUp: () => engine.setUp(),
      tearDown: () => engine.tearDown(),
      fresh: async () => ({ options: { storage: await engine.freshDatabase() }, stop: () => Promise.resolve() }),
    }),
  ),
  {
    name: 'Redis',
    describeFor: describeWithCommand('redis-server', ['--version'], 'redis-server'),
    setUp: () => SQLITE!.setUp(),
    tearDown: () => SQLITE!.tearDown(),
    // A Redis of its own per test: its counters would otherwise outlive the test's database.
    fresh: async () => {
      const redis = await RedisServerProcess.start();
      return { options: { storage: await SQLITE!.freshDatabase(), redisUrl: redis.url }, stop: () => redis.stop() };
    },
  },
];

for (const store of STORES) {
  store.describeFor(`sign-in counts over a password hashed again, in ${store.name}`, () => {
    let options: TestAppOptions;
    let stop: () => Promise<void>;
    const hosts: TestApp[] = [];

    beforeAll(() => store.setUp(), 60_000);
    afterAll(() => store.tearDown(), 30_000);

    beforeEach(async () => {
      ({ options, stop } = await store.fresh());
    });

    afterEach(async () => {
      for (const host of hosts.splice(0).reverse()) await host.close();
      await stop();
    });

    /** A host of the test's database and counters, behind one proxy (TRUST_PROXY=1), hashing with `params`. */
    const host = async (loginRateLimit: TestAppOptions['loginRateLimit'], params: ScryptParams) => {
      const started = await createTestApp({ ...options, loginRateLimit, trustProxy: 1, passwordHashParams: params });
      hosts.push(started);
      return started;
    };

    const attempt = (on: TestApp, password: string, ip: string) =>
      request(on.app.handler)
        .post('/login')
        .set('X-Forwarded-For', ip)
        .send({ username: 'old-timer', password })
        .then((response) => response.status);

    const storedParams = async (on: TestApp) =>
      paramsOf(
        (
          await on.app.storage.db
            .selectFrom('users')
            .select('password_hash')
            .where('username', '=', 'old-timer')
            .executeTakeFirstOrThrow()
        ).password_hash,
      );

    it('keeps a client’s failures on the account, then starts them again at a new password', async () => {
      const today = await host({ perAccountAndIp: 3, perIp: 50, windowSeconds: 900 }, TODAY);
      await addUser(today.app, 'old-timer', PASSWORD, ['acme'], OLD);
      const guesser = '198.51.100.7';
      expect([await attempt(today, 'guess-1', guesser), await attempt(today, 'guess-2', guesser)]).toEqual([401, 401]);

      // The owner signs in from their own address: the hash is made again with today's parameters.
      expect(await attempt(today, PASSWORD, OWNER)).toBe(200);
      expect(await storedParams(today)).toBe(TODAY_TEXT);

      // The guesser's two failures still count: one more, then the limit, right password or not.
      expect(await attempt(today, 'guess-3', guesser)).toBe(401);
      expect(await attempt(today, 'guess-4', guesser)).toBe(429);
      expect(await attempt(today, PASSWORD, guesser)).toBe(429);

      // A new password (user:add's write) starts the account's counts again, from that address too.
      await today.app.users.upsert('old-timer', await hashPassword(NEW_PASSWORD, TODAY));
      expect(await attempt(today, NEW_PASSWORD, guesser)).toBe(200);
    });

    it('keeps the account slowed down after its owner’s sign-in, then lifts it at a new password', async () => {
      const limits = { perAccountAndIp: 3, perIp: 50, perAccount: 3, accountSlowdownSeconds: 600, windowSeconds: 900 };
      // The owner's address is known from a sign-in on a host of the release before (its parameters, the old ones):
      // the owner is let through the account's slow-down, and this release's host makes the hash again then.
      const before = await host(limits, OLD);
      const today = await host(limits, TODAY);
      await addUser(today.app, 'old-timer', PASSWORD, ['acme'], OLD);
      expect(await attempt(before, PASSWORD, OWNER)).toBe(200);
      expect(await storedParams(today)).toBe(OLD_TEXT);

      // Guesses from many addresses: past the account's limit, one per slow-down interval.
      const guesses = [];
      for (let i = 1; i <= 5; i++) guesses.push(await attempt(today, `guess-${i}`, `198.51.100.${i}`));
      expect(guesses).toEqual([401, 401, 401, 401, 429]);

      expect(await attempt(today, PASSWORD, OWNER)).toBe(200);
      expect(await storedParams(today)).toBe(TODAY_TEXT);
      // Still slowed down: the guesses before the owner's sign-in count, whichever host a new address reaches.
      expect(await attempt(today, 'guess-6', '198.51.100.6')).toBe(429);
      expect(await attempt(before, 'guess-7', '198.51.100.7')).toBe(429);

      // A new password lifts the account's limits: its owner signs in from a new address at once.
      await today.app.users.upsert('old-timer', await hashPassword(NEW_PASSWORD, TODAY));
      expect(await attempt(today, NEW_PASSWORD, '192.0.2.1')).toBe(200);
    });

    it('starts them again at a new password that a host of the release before writes, knowing nothing of step 21', async () => {
      const today = await host({ perAccountAndIp: 3, perIp: 50, windowSeconds: 900 }, TODAY);
      await addUser(today.app, 'old-timer', PASSWORD, ['acme'], OLD);
      const guesser = '198.51.100.7';
      for (let i = 1; i <= 2; i++) expect(await attempt(today, `guess-${i}`, guesser)).toBe(401);
      expect(await attempt(today, PASSWORD, OWNER)).toBe(200);
      expect(await attempt(today, 'guess-3', guesser)).toBe(401);
      expect(await attempt(today, 'guess-4', guesser)).toBe(429);

      // Such a host writes the new hash alone: the generation kept over the hash of before no longer counts.
      const hashOfBefore = await hashPassword(NEW_PASSWORD, OLD);
      await today.app.storage.db
        .updateTable('users')
        .set({ password_hash: hashOfBefore })
        .where('username', '=', 'old-timer')
        .execute();
      today.app.storage.noteWrite();
      expect(await attempt(today, NEW_PASSWORD, guesser)).toBe(200);
    });
  });
}
