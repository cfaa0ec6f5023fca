import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { LoginRateLimiter } from './login-rate-limiter';
import { loginRateLimitSettingsFromEnv } from './login-rate-limit-settings';

const settings = { perAccountAndIp: 3, perIp: 5, windowSeconds: 60 };

async function attempts(limiter: LoginRateLimiter, username: string, ip: string, count: number): Promise<boolean[]> {
  const results: boolean[] = [];
  for (let i = 0; i < count; i++) results.push((await limiter.attempt({ username, ip })).allowed);
  return results;
}

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
  it('has defaults: 10 per account+IP, 100 per IP, 15 minutes', () => {
    expect(loginRateLimitSettingsFromEnv({})).toEqual({ perAccountAndIp: 10, perIp: 100, windowSeconds: 900 });
  });

  it('reads every variable, and `off` per limit', () => {
    expect(
      loginRateLimitSettingsFromEnv({
        LOGIN_RATE_LIMIT: '4',
        LOGIN_IP_RATE_LIMIT: 'off',
        LOGIN_RATE_LIMIT_WINDOW_SECONDS: '30',
      }),
    ).toEqual({ perAccountAndIp: 4, perIp: null, windowSeconds: 30 });
  });

  it('fails fast on a value that is no limit, naming the variable', () => {
    expect(() => loginRateLimitSettingsFromEnv({ LOGIN_RATE_LIMIT: 'many' })).toThrow(/LOGIN_RATE_LIMIT="many"/);
    expect(() => loginRateLimitSettingsFromEnv({ LOGIN_IP_RATE_LIMIT: '-3' })).toThrow(/LOGIN_IP_RATE_LIMIT/);
    expect(() => loginRateLimitSettingsFromEnv({ LOGIN_RATE_LIMIT_WINDOW_SECONDS: '0' })).toThrow(
      /LOGIN_RATE_LIMIT_WINDOW_SECONDS/,
    );
  });
});
