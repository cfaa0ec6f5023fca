/**
 * The team tokens' counters share the sign-in's table (login_rate_limits, under their own prefix): their expired rows
 * are deleted while the throttle runs, whether the sign-in limits are on or off (LOGIN_RATE_LIMIT=off), and the one
 * cleanup of the table stops only when the last of its users closes.
 */
import BetterSqlite3 from 'better-sqlite3';
import type { Request, Response } from 'express';
import { stopTheClock, type TestClock } from '../../testing/server/test-clock';
import { LoginRateLimiter, type RateLimitStore } from '../auth/login-rate-limit/login-rate-limiter';
import type { TeamTokenStore } from './team-token-store';
import { TeamTokenThrottle } from './team-token-throttle';

const SIGN_IN_OFF = { perAccountAndIp: null, perIp: null, perAccount: null, windowSeconds: 900 };
const SIGN_IN_ON = { perAccountAndIp: 3, perIp: 5, windowSeconds: 900 };
const MINUTE = 60_000;
/** Every token is unknown: each check is a guess, which keeps its point (a row in the table). */
const noTokens = { check: () => Promise.resolve({ status: 'invalid' as const }) } as unknown as TeamTokenStore;

let clock: TestClock;
let db: BetterSqlite3.Database;
let store: RateLimitStore;
beforeEach(() => {
  clock = stopTheClock({ timers: true });
  db = new BetterSqlite3(':memory:');
  store = { kind: 'sqlite', db };
});
afterEach(() => {
  db.close();
  jest.useRealTimers();
});

async function guessFrom(throttle: TeamTokenThrottle, ip: string): Promise<void> {
  await throttle.check({ ip, socket: {} } as Request, {} as Response, 'slt_guess');
}

function teamTokenRows(): number {
  const row = db.prepare("SELECT count(*) AS n FROM login_rate_limits WHERE key LIKE 'team_token_ip%'").get();
  return (row as { n: number }).n;
}

it('deletes expired team token counters with the sign-in limits off', async () => {
  const signIn = LoginRateLimiter.create(SIGN_IN_OFF, store);
  const throttle = TeamTokenThrottle.create(noTokens, { perIp: 20, windowSeconds: 60 }, store);
  await guessFrom(throttle, '198.51.100.7');
  await guessFrom(throttle, '198.51.100.8');
  expect(teamTokenRows()).toBe(2);
  clock.advance(11 * MINUTE);
  expect(teamTokenRows()).toBe(0);
  throttle.close();
  signIn.close();
  expect(jest.getTimerCount()).toBe(0);
});

it('keeps one cleanup of the table while either of its users runs', async () => {
  const signIn = LoginRateLimiter.create(SIGN_IN_ON, store);
  const throttle = TeamTokenThrottle.create(noTokens, { perIp: 20, windowSeconds: 60 }, store);
  expect(jest.getTimerCount()).toBe(1);
  signIn.close();
  await guessFrom(throttle, '198.51.100.7');
  clock.advance(11 * MINUTE);
  expect(teamTokenRows()).toBe(0);
  throttle.close();
  throttle.close();
  expect(jest.getTimerCount()).toBe(0);
  // And the other way round: the throttle gone, the sign-in limits keep it.
  const again = TeamTokenThrottle.create(noTokens, { perIp: 20, windowSeconds: 60 }, store);
  const signInAgain = LoginRateLimiter.create(SIGN_IN_ON, store);
  await guessFrom(again, '198.51.100.9');
  again.close();
  clock.advance(11 * MINUTE);
  expect(teamTokenRows()).toBe(0);
  signInAgain.close();
  expect(jest.getTimerCount()).toBe(0);
});

it('starts no cleanup with the team token limit off', () => {
  TeamTokenThrottle.create(noTokens, { perIp: null, windowSeconds: 60 }, store).close();
  LoginRateLimiter.create(SIGN_IN_OFF, store).close();
  expect(jest.getTimerCount()).toBe(0);
});
