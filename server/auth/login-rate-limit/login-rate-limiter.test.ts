import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { clientKey, LoginRateLimiter } from './login-rate-limiter';
import { loginRateLimitSettingsFromEnv } from './login-rate-limit-settings';

const settings = { perAccountAndIp: 3, perIp: 5, windowSeconds: 60 };

async function attempts(limiter: LoginRateLimiter, username: string, ip: string, count: number): Promise<boolean[]> {
  const results: boolean[] = [];
  for (let i = 0; i < count; i++) results.push((await limiter.attempt({ username, ip })).allowed);
  return results;
}

describe('clientKey', () => {
  it('counts an IPv6 client by its /64, and IPv4 (also IPv4-mapped) by its address', () => {
    expect(clientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('10.0.0.1')).toBe('10.0.0.1');
    expect(clientKey('::ffff:10.0.0.1')).toBe('10.0.0.1');
  });
});

describe('LoginRateLimiter (memory store)', () => {
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
    await new Promise((resolve) => setTimeout(resolve, 1_100));
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
});
