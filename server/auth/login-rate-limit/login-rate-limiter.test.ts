import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { stopTheClock, type TestClock } from '../../../testing/server/test-clock';
import { LoginRateLimiter } from './login-rate-limiter';
import { loginRateLimitSettingsFromEnv } from './login-rate-limit-settings';

const settings = { perAccountAndIp: 3, perIp: 5, windowSeconds: 60 };

async function attempts(limiter: LoginRateLimiter, username: string, ip: string, count: number): Promise<boolean[]> {
  const results: boolean[] = [];
  for (let i = 0; i < count; i++) results.push((await limiter.attempt({ username, ip })).allowed);
  return results;
}

describe('LoginRateLimiter (memory store)', () => {
  // Time moves when a test moves it: no window ends early on a loaded machine, and none is slept through.
  let clock: TestClock;
  beforeEach(() => (clock = stopTheClock({ timers: true })));
  afterEach(() => jest.useRealTimers());

  it('allows the configured number of attempts per account+IP, then refuses with a retry delay', async () => {
    const limiter = LoginRateLimiter.create(settings, { kind: 'memory' });
    expect(await attempts(limiter, 'admin', '10.0.0.1', 3)).toEqual([true, true, true]);
    const refused = await limiter.attempt({ username: 'admin', ip: '10.0.0.1' });
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) {
      expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60);
    }
    // Another IP, or another account from the same IP, still has its own attempts.
    expect((await limiter.attempt({ username: 'admin', ip: '10.0.0.2' })).allowed).toBe(true);
    expect((await limiter.attempt({ username: 'other', ip: '10.0.0.1' })).allowed).toBe(true);
  });

  it('counts every address of one IPv6 /64 as one client', async () => {
    const limiter = LoginRateLimiter.create(settings, { kind: 'memory' });
    const verdicts = [];
    for (let i = 1; i <= 6; i++) {
      verdicts.push((await limiter.attempt({ username: `user${i}`, ip: `2001:db8:1:2::${i.toString(16)}` })).allowed);
    }
    expect(verdicts).toEqual([true, true, true, true, true, false]);
    // Another /64 is another client.
    expect((await limiter.attempt({ username: 'user1', ip: '2001:db8:1:3::1' })).allowed).toBe(true);
  });

  it('slows an account down across every address once it is over its limit, and never locks it', async () => {
    const limiter = LoginRateLimiter.create(
      { perAccountAndIp: 3, perIp: 5, perAccount: 4, accountSlowdownSeconds: 1, windowSeconds: 60 },
      { kind: 'memory' },
    );
    const fromAnywhere = (index: number) => limiter.attempt({ username: 'admin', ip: `10.1.0.${index}` });
    for (let i = 1; i <= 4; i++) expect((await fromAnywhere(i)).allowed).toBe(true);
    // Over the account's limit: one attempt per interval, whatever the address.
    expect((await fromAnywhere(5)).allowed).toBe(true);
    const tooSoon = await fromAnywhere(6);
    expect(tooSoon).toEqual({ allowed: false, retryAfterSeconds: 1 });
    clock.advance(1_100);
    // The owner, from a fresh address, still gets an attempt after the short wait.
    expect((await fromAnywhere(7)).allowed).toBe(true);
  });

  it('counts case and Unicode variants of a name as one account', async () => {
    const limiter = LoginRateLimiter.create(settings, { kind: 'memory' });
    await attempts(limiter, 'admin', '10.0.0.1', 1);
    await attempts(limiter, 'ADMIN', '10.0.0.1', 1);
    await attempts(limiter, 'ａｄｍｉｎ', '10.0.0.1', 1); // full-width letters, NFKC-equal to "admin"
    expect((await limiter.attempt({ username: 'Admin', ip: '10.0.0.1' })).allowed).toBe(false);
  });

  it('caps attempts per IP across accounts (password spraying)', async () => {
    const limiter = LoginRateLimiter.create(settings, { kind: 'memory' });
    const verdicts = [];
    for (let i = 0; i < 6; i++)
      verdicts.push((await limiter.attempt({ username: `user${i}`, ip: '10.0.0.9' })).allowed);
    expect(verdicts).toEqual([true, true, true, true, true, false]);
  });

  it('starts the account+IP count again after a successful sign-in', async () => {
    const limiter = LoginRateLimiter.create(settings, { kind: 'memory' });
    await attempts(limiter, 'admin', '10.0.0.1', 2);
    await limiter.succeeded({ username: 'admin', ip: '10.0.0.1' });
    expect(await attempts(limiter, 'admin', '10.0.0.1', 3)).toEqual([true, true, true]);
  });

  it('never slows down a client that signed in to the account, whatever fails elsewhere (issue 25 point 1)', async () => {
    const limiter = LoginRateLimiter.create(
      { perAccountAndIp: 3, perIp: 50, perAccount: 4, accountSlowdownSeconds: 60, windowSeconds: 60 },
      { kind: 'memory' },
    );
    const owner = { username: 'alice', ip: '203.0.113.10' };
    const signIn = await limiter.attempt(owner);
    expect(signIn.allowed).toBe(true);
    if (signIn.allowed) await limiter.succeeded(owner, signIn);
    // An attacker guesses from many addresses: past the account's limit, one guess per minute gets through.
    const guesses = [];
    for (let i = 1; i <= 12; i++)
      guesses.push((await limiter.attempt({ username: 'alice', ip: `198.51.100.${i}` })).allowed);
    expect(guesses.filter(Boolean)).toHaveLength(5);
    expect(guesses.slice(5).every((allowed) => !allowed)).toBe(true);
    // The owner, from the address they signed in from, is not slowed (a typo included), and stays so.
    expect((await limiter.attempt(owner)).allowed).toBe(true);
    for (let i = 0; i < 5; i++) {
      const verdict = await limiter.attempt(owner);
      expect(verdict.allowed).toBe(true);
      if (verdict.allowed) await limiter.succeeded(owner, verdict);
    }
    // The same address is the owner's for that account only; the attacker stays slowed.
    expect((await limiter.attempt({ username: 'alice', ip: '198.51.100.99' })).allowed).toBe(false);
    expect((await limiter.attempt({ username: 'ALICE', ip: '203.0.113.10' })).allowed).toBe(true);
  });

  it('forgets a known client after the time it is remembered for', async () => {
    const limiter = LoginRateLimiter.create(
      {
        perAccountAndIp: 3,
        perIp: 50,
        perAccount: 2,
        accountSlowdownSeconds: 60,
        knownClientSeconds: 1,
        windowSeconds: 60,
      },
      { kind: 'memory' },
    );
    const owner = { username: 'alice', ip: '203.0.113.10' };
    await limiter.succeeded(owner);
    for (let i = 1; i <= 4; i++) await limiter.attempt({ username: 'alice', ip: `198.51.100.${i}` });
    expect((await limiter.attempt(owner)).allowed).toBe(true);
    clock.advance(1_100);
    expect((await limiter.attempt(owner)).allowed).toBe(false);
  });

  it('does not count a refused attempt against the client that sent it (issue 25 point 1)', async () => {
    const limiter = LoginRateLimiter.create(
      { perAccountAndIp: 3, perIp: 5, perAccount: 2, accountSlowdownSeconds: 1, windowSeconds: 60 },
      { kind: 'memory' },
    );
    for (let i = 1; i <= 3; i++) await limiter.attempt({ username: 'alice', ip: `198.51.100.${i}` });
    // Slowed down far more often than the client's own limits (3 per account, 5 per client) would allow.
    const stranger = { username: 'alice', ip: '203.0.113.20' };
    for (let i = 0; i < 8; i++) expect((await limiter.attempt(stranger)).allowed).toBe(false);
    clock.advance(1_100);
    // None of those refusals counted: once the interval has passed, the client gets its attempt.
    expect((await limiter.attempt(stranger)).allowed).toBe(true);
    // Refusals by the client's own limit do not add up either: its count stays at the limit, not beyond.
    const guesser = { username: 'bob', ip: '203.0.113.30' };
    expect(await attempts(limiter, 'bob', guesser.ip, 5)).toEqual([true, true, true, false, false]);
    expect((await limiter.attempt({ username: 'carol', ip: guesser.ip })).allowed).toBe(true);
    expect((await limiter.attempt({ username: 'dave', ip: guesser.ip })).allowed).toBe(true);
    expect((await limiter.attempt({ username: 'erin', ip: guesser.ip })).allowed).toBe(false);
  });

  it('counts only failures: 35 correct sign-ins in a row are all let through (issue 25 point 2)', async () => {
    const limiter = LoginRateLimiter.create(
      { perAccountAndIp: 3, perIp: 5, perAccount: 4, accountSlowdownSeconds: 60, windowSeconds: 60 },
      { kind: 'memory' },
    );
    const signIn = async (ip: string) => {
      const verdict = await limiter.attempt({ username: 'admin', ip });
      if (verdict.allowed) await limiter.succeeded({ username: 'admin', ip }, verdict);
      return verdict.allowed;
    };
    // From one address, and each from a new address (so each is charged to the account before it succeeds).
    for (let i = 0; i < 35; i++) expect(await signIn('10.0.0.1')).toBe(true);
    for (let i = 0; i < 35; i++) expect(await signIn(`10.0.1.${i}`)).toBe(true);
    // The successes left nothing behind: the address and the account still have every failure allowed.
    expect(await attempts(limiter, 'admin', '10.0.0.1', 4)).toEqual([true, true, true, false]);
    expect(await attempts(limiter, 'someone', '10.0.0.1', 3)).toEqual([true, true, false]);
    const fromElsewhere = [];
    for (let i = 0; i < 5; i++)
      fromElsewhere.push((await limiter.attempt({ username: 'admin', ip: `10.0.2.${i}` })).allowed);
    expect(fromElsewhere).toEqual([true, true, true, true, true]);
    expect((await limiter.attempt({ username: 'admin', ip: '10.0.2.9' })).allowed).toBe(false);
  });

  it('gives back the points of an attempt whose password was never checked', async () => {
    const limiter = LoginRateLimiter.create(
      { perAccountAndIp: 2, perIp: 50, perAccount: 2, accountSlowdownSeconds: 60, windowSeconds: 60 },
      { kind: 'memory' },
    );
    const key = { username: 'admin', ip: '10.0.0.1' };
    for (let i = 0; i < 5; i++) {
      const verdict = await limiter.attempt(key);
      expect(verdict.allowed).toBe(true);
      if (verdict.allowed) await limiter.unchecked(key, verdict);
    }
    expect(await attempts(limiter, 'admin', '10.0.0.1', 3)).toEqual([true, true, false]);
  });

  it('is switched off by LOGIN_RATE_LIMIT=off', async () => {
    const limiter = LoginRateLimiter.create(loginRateLimitSettingsFromEnv({ LOGIN_RATE_LIMIT: 'off' }), {
      kind: 'memory',
    });
    expect(limiter.disabled).toBe(true);
    expect((await attempts(limiter, 'admin', '10.0.0.1', 500)).every(Boolean)).toBe(true);
  });
});

describe('LoginRateLimiter (SQLite store)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'login-limits-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the counts across a restart (a new connection to the same file)', async () => {
    const file = path.join(dir, 'app.db');
    const first = new BetterSqlite3(file);
    const before = LoginRateLimiter.create(settings, { kind: 'sqlite', db: first });
    expect(await attempts(before, 'admin', '10.0.0.1', 3)).toEqual([true, true, true]);
    first.close();

    const second = new BetterSqlite3(file);
    const after = LoginRateLimiter.create(settings, { kind: 'sqlite', db: second });
    expect((await after.attempt({ username: 'admin', ip: '10.0.0.1' })).allowed).toBe(false);
    await after.succeeded({ username: 'admin', ip: '10.0.0.1' });
    expect((await after.attempt({ username: 'admin', ip: '10.0.0.1' })).allowed).toBe(true);
    second.close();
  });

  it('remembers the clients that signed in across a restart', async () => {
    const file = path.join(dir, 'app.db');
    const limits = { perAccountAndIp: 3, perIp: 50, perAccount: 2, accountSlowdownSeconds: 60, windowSeconds: 60 };
    const owner = { username: 'alice', ip: '203.0.113.10' };
    const first = new BetterSqlite3(file);
    const before = LoginRateLimiter.create(limits, { kind: 'sqlite', db: first });
    await before.succeeded(owner);
    for (let i = 1; i <= 4; i++) await before.attempt({ username: 'alice', ip: `198.51.100.${i}` });
    first.close();

    const second = new BetterSqlite3(file);
    const after = LoginRateLimiter.create(limits, { kind: 'sqlite', db: second });
    expect((await after.attempt({ username: 'alice', ip: '198.51.100.9' })).allowed).toBe(false);
    expect((await after.attempt(owner)).allowed).toBe(true);
    second.close();
  });

  it('rejects (rather than allows) when the database is gone', async () => {
    const db = new BetterSqlite3(path.join(dir, 'app.db'));
    const limiter = LoginRateLimiter.create(settings, { kind: 'sqlite', db });
    db.close();
    await expect(limiter.attempt({ username: 'admin', ip: '10.0.0.1' })).rejects.toThrow();
  });
});

describe('loginRateLimitSettingsFromEnv', () => {
  it('has defaults: 10 per account+IP, 100 per IP, 30 per account then one per 10 s, 15 minutes', () => {
    expect(loginRateLimitSettingsFromEnv({})).toEqual({
      perAccountAndIp: 10,
      perIp: 100,
      perAccount: 30,
      accountSlowdownSeconds: 10,
      windowSeconds: 900,
    });
  });

  it('reads every variable, and `off` per limit', () => {
    expect(
      loginRateLimitSettingsFromEnv({
        LOGIN_RATE_LIMIT: '4',
        LOGIN_IP_RATE_LIMIT: 'off',
        LOGIN_RATE_LIMIT_WINDOW_SECONDS: '30',
        LOGIN_ACCOUNT_RATE_LIMIT: '20',
        LOGIN_ACCOUNT_SLOWDOWN_SECONDS: '3',
      }),
    ).toEqual({ perAccountAndIp: 4, perIp: null, perAccount: 20, accountSlowdownSeconds: 3, windowSeconds: 30 });
  });

  it('fails fast on a value that is no limit, naming the variable', () => {
    expect(() => loginRateLimitSettingsFromEnv({ LOGIN_RATE_LIMIT: 'many' })).toThrow(/LOGIN_RATE_LIMIT="many"/);
    expect(() => loginRateLimitSettingsFromEnv({ LOGIN_IP_RATE_LIMIT: '-3' })).toThrow(/LOGIN_IP_RATE_LIMIT/);
    expect(() => loginRateLimitSettingsFromEnv({ LOGIN_RATE_LIMIT_WINDOW_SECONDS: '0' })).toThrow(
      /LOGIN_RATE_LIMIT_WINDOW_SECONDS/,
    );
  });

  it('refuses 0 for a limit, naming off: it is no "no limit" (whoever writes it may mean no attempt at all)', () => {
    for (const name of ['LOGIN_RATE_LIMIT', 'LOGIN_IP_RATE_LIMIT', 'LOGIN_ACCOUNT_RATE_LIMIT']) {
      expect(() => loginRateLimitSettingsFromEnv({ [name]: '0' })).toThrow(
        `${name}="0" is not valid: expected a whole number of at least 1, or off for no limit.`,
      );
    }
    expect(loginRateLimitSettingsFromEnv({ LOGIN_ACCOUNT_RATE_LIMIT: 'None' }).perAccount).toBeNull();
  });
});
