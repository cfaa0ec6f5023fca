/*
 * Above 300 lines for one reason: the sign-in limits are one decision (per account and client, per client, per
 * account across clients with its slow-down, the addresses an account is known from, and the points given back),
 * counted the same way in each of four stores (Redis, PostgreSQL, SQLite, memory).
 */
import type { Database } from 'better-sqlite3';
import type { Pool } from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  RateLimiterSQLite,
  type RateLimiterAbstract,
} from '../../http/rate-limiter-classes';
import type { PostgresEngine } from '../../storage/postgres-engine';
import { REDIS_ANSWER_DEADLINE_MS } from '../../storage/redis-answer-deadline';
import { SqliteEngine } from '../../storage/sqlite-engine';
import type { StorageEngine } from '../../storage/storage-engine';
import { clientKey } from '../../http/client-key';
import { DeadlineLimiter } from './deadline-limiter';
import {
  DEFAULT_KNOWN_CLIENT_SECONDS,
  DEFAULT_LOGIN_ACCOUNT_SLOWDOWN_SECONDS,
  type LoginRateLimitSettings,
} from './login-rate-limit-settings';

/**
 * Where the counters live. Redis when the instances share one (every instance counts the same attempts);
 * otherwise the database (PostgreSQL, shared by every host; or the SQLite file), so a restart does not hand an
 * attacker fresh attempts; memory for tests.
 */
export type RateLimitStore =
  | { kind: 'redis'; client: object }
  | { kind: 'postgres'; pool: Pool }
  | { kind: 'sqlite'; db: Database }
  | { kind: 'memory' };

/** The counters in the app's own database: PostgreSQL's pool, or the SQLite connection. */
export function rateLimitStoreIn(engine: StorageEngine): RateLimitStore {
  if (engine.kind === 'postgres') return { kind: 'postgres', pool: (engine as PostgresEngine).pool };
  if (engine instanceof SqliteEngine) return { kind: 'sqlite', db: engine.file.db };
  throw new Error(`No sign-in counters for the ${engine.kind} engine.`);
}

/**
 * An attempt let through (with `accountCharged` when it took a point from the account's own counter, which a success
 * gives back), or refused with the seconds to wait.
 */
export type LoginAttemptVerdict =
  | { allowed: true; accountCharged?: true }
  | { allowed: false; retryAfterSeconds: number };

/** What a let-through attempt took from the account (see LoginAttemptVerdict). */
export interface AccountCharge {
  accountCharged?: boolean;
}

export interface LoginAttemptKey {
  username: string;
  ip: string;
  /**
   * Which password the account has now (UserStore.passwordGeneration; '' or absent for no such account): the
   * account's counts are kept per password, so an operator who sets a new one lets its owner sign in at once, from the
   * address that ran into the limit too. The clients an account is known from stay known across it.
   */
  passwordGeneration?: string;
}

/** Longest username kept in a counter key; longer ones are refused by the sign-in route anyway. */
const KEY_USERNAME_MAX = 256;
/** The counters' table in SQLite and PostgreSQL (PostgreSQL's is made by the migrations). */
const COUNTER_TABLE = 'login_rate_limits';
/** How often expired counters are deleted from a database. */
const CLEANUP_INTERVAL_MS = 10 * 60 * 1000;
/** The memory store expires keys with a timer, and Node fires longer timers at once. */
const MEMORY_MAX_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** One point taken from one counter by one attempt. */
type Charge = [RateLimiterAbstract, string];

interface PerAccountCounters {
  limit: RateLimiterAbstract;
  slowdown: RateLimiterAbstract;
  /** Clients that signed in to the account: one key per client+account, alive while the client is remembered. */
  known: RateLimiterAbstract;
  knownSeconds: number;
}

/**
 * Counts failed sign-in attempts per account+client and per client, where a client is an IPv4 address or an IPv6
 * /64 (one machine usually holds a whole /64, so single IPv6 addresses would hand it billions of fresh counters),
 * and per account across every client: beyond that limit the account is slowed down to one attempt per interval,
 * never locked. Only failures count: every attempt takes its points before the password is checked (so parallel
 * guesses cannot slip past the count), a refused attempt gives them back at once (waiting out a 429 never prolongs
 * the wait), and a successful sign-in gives them back too (`succeeded`). A client that signed in to an account is
 * remembered as the account's own (in the counters' store, so every instance agrees) and is never slowed down by
 * failures from elsewhere: an attacker guessing from many addresses cannot keep the owner out.
 */
export class LoginRateLimiter {
  private stopCleanup: (() => void) | undefined;

  private constructor(
    private readonly perAccountAndIp: RateLimiterAbstract | null,
    private readonly perIp: RateLimiterAbstract | null,
    private readonly perAccount: PerAccountCounters | null,
  ) {}

  static create(settings: LoginRateLimitSettings, store: RateLimitStore): LoginRateLimiter {
    const make = (points: number | null, keyPrefix: string): RateLimiterAbstract | null =>
      points === null ? null : makeLimiter(store, { points, duration: settings.windowSeconds, keyPrefix });
    if (store.kind === 'sqlite') createSqliteTable(store.db);
    const perAccount = settings.perAccount ?? null;
    const slowdownSeconds = settings.accountSlowdownSeconds ?? DEFAULT_LOGIN_ACCOUNT_SLOWDOWN_SECONDS;
    const knownSeconds = settings.knownClientSeconds ?? DEFAULT_KNOWN_CLIENT_SECONDS;
    const limiter = new LoginRateLimiter(
      make(settings.perAccountAndIp, 'login_account_ip'),
      make(settings.perIp, 'login_ip'),
      perAccount === null
        ? null
        : {
            limit: makeLimiter(store, {
              points: perAccount,
              duration: settings.windowSeconds,
              keyPrefix: 'login_account',
            }),
            slowdown: makeLimiter(store, { points: 1, duration: slowdownSeconds, keyPrefix: 'login_account_slow' }),
            known: makeLimiter(store, { points: 1, duration: knownSeconds, keyPrefix: 'login_known_client' }),
            knownSeconds: store.kind === 'memory' ? Math.min(knownSeconds, MEMORY_MAX_SECONDS) : knownSeconds,
          },
    );
    if (!limiter.disabled) limiter.stopCleanup = keepCountersClean(store);
    return limiter;
  }

  /** Stops its share of the periodic cleanup of a database store (the counters themselves stay where they are). */
  close(): void {
    this.stopCleanup?.();
    this.stopCleanup = undefined;
  }

  /** True when no limit is on (`LOGIN_RATE_LIMIT=off`). */
  get disabled(): boolean {
    return this.perAccountAndIp === null && this.perIp === null && this.perAccount === null;
  }

  /** Takes one point from each counter; refuses when one is used up. Store failures reject. */
  async attempt(key: LoginAttemptKey): Promise<LoginAttemptVerdict> {
    const charges: Charge[] = [];
    let retryAfterMs = 0;
    for (const [limiter, limiterKey] of this.counters(key)) {
      retryAfterMs = Math.max(retryAfterMs, await take(limiter, limiterKey, charges));
    }
    let accountCharged = false;
    if (this.perAccount && retryAfterMs === 0 && !(await this.isKnownClient(this.perAccount, key))) {
      const account = countedAccountKey(key);
      accountCharged = true;
      if ((await take(this.perAccount.limit, account, charges)) > 0) {
        // Over the account's limit: slowed down, not locked out — one attempt per interval, from any new client.
        try {
          await this.perAccount.slowdown.consume(account);
        } catch (tooSoon) {
          if (!(tooSoon instanceof RateLimiterRes)) throw tooSoon;
          retryAfterMs = tooSoon.msBeforeNext;
        }
      }
    }
    if (retryAfterMs === 0) return accountCharged ? { allowed: true, accountCharged } : { allowed: true };
    // Refused before the password check: the attempt leaves no trace in the counts of failures.
    await giveBack(charges);
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) };
  }

  /**
   * After a successful sign-in: the account+IP count starts again, the client and the account get the attempt's
   * points back, and the client is remembered as the account's own.
   */
  async succeeded(key: LoginAttemptKey, verdict: AccountCharge = {}): Promise<void> {
    if (this.perAccountAndIp) await this.perAccountAndIp.delete(countedAccountAndIpKey(key));
    if (this.perIp) await this.perIp.reward(clientKey(key.ip), 1);
    if (this.perAccount) {
      if (verdict.accountCharged) await this.perAccount.limit.reward(countedAccountKey(key), 1);
      await this.perAccount.known.set(knownClientKey(key), 1, this.perAccount.knownSeconds);
    }
  }

  /**
   * An attempt let through that never had its password checked (the checks were busy), or whose password was the
   * right one of a disabled account: it gives its points back, and leaves the counts of failures before it as they are.
   */
  async unchecked(key: LoginAttemptKey, verdict: AccountCharge): Promise<void> {
    const charges = this.counters(key);
    if (this.perAccount && verdict.accountCharged) charges.push([this.perAccount.limit, countedAccountKey(key)]);
    await giveBack(charges);
  }

  private async isKnownClient(perAccount: PerAccountCounters, key: LoginAttemptKey): Promise<boolean> {
    const remembered = await perAccount.known.get(knownClientKey(key));
    return remembered !== null && remembered.consumedPoints > 0;
  }

  private counters(key: LoginAttemptKey): Charge[] {
    const counters: Charge[] = [];
    if (this.perAccountAndIp) counters.push([this.perAccountAndIp, countedAccountAndIpKey(key)]);
    if (this.perIp) counters.push([this.perIp, clientKey(key.ip)]);
    return counters;
  }
}

/**
 * Takes a point (the stores count it even when they refuse, so it is recorded in `charges` either way); answers
 * the milliseconds to wait, 0 when allowed.
 */
async function take(limiter: RateLimiterAbstract, limiterKey: string, charges: Charge[]): Promise<number> {
  try {
    await limiter.consume(limiterKey);
    charges.push([limiter, limiterKey]);
    return 0;
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    charges.push([limiter, limiterKey]);
    return rejection.msBeforeNext;
  }
}

async function giveBack(charges: readonly Charge[]): Promise<void> {
  for (const [limiter, limiterKey] of charges) await limiter.reward(limiterKey, 1);
}

/** Case and Unicode variants of a name share one counter, so they buy an attacker no extra guesses. */
function accountKey(username: string): string {
  return username.normalize('NFKC').toLowerCase().slice(0, KEY_USERNAME_MAX);
}

/** A client the account signed in from: known whatever its password now. */
function knownClientKey(key: LoginAttemptKey): string {
  return `${clientKey(key.ip)}|${accountKey(key.username)}`;
}

/** The account's failures are counted per password: `#` is no character of a username (username.ts). */
function countedAccountKey(key: LoginAttemptKey): string {
  return key.passwordGeneration ? `${accountKey(key.username)}#${key.passwordGeneration}` : accountKey(key.username);
}

function countedAccountAndIpKey(key: LoginAttemptKey): string {
  return `${clientKey(key.ip)}|${countedAccountKey(key)}`;
}

interface LimiterOptions {
  points: number;
  duration: number;
  keyPrefix: string;
}

/**
 * A counter of `points` per `duration` seconds kept where the sign-in's are (`store`: Redis, or the database's table
 * of counters, under its own `keyPrefix`), for another limit of failed credentials (the team tokens' checks): every
 * instance counts the same failures, a restart hands an attacker no fresh ones, and a Redis that does not answer
 * rejects within the deadline. Its user keeps the table's expired rows deleted (keepCountersClean) while it runs,
 * whether the sign-in limits are on or not.
 */
export function counterIn(store: RateLimitStore, options: LimiterOptions): RateLimiterAbstract {
  if (store.kind === 'sqlite') createSqliteTable(store.db);
  return makeLimiter(store, options);
}

function makeLimiter(store: RateLimitStore, options: LimiterOptions): RateLimiterAbstract {
  switch (store.kind) {
    case 'memory':
      return new RateLimiterMemory({ ...options, duration: Math.min(options.duration, MEMORY_MAX_SECONDS) });
    case 'redis':
      // Bounded by the session store's deadline: the client's own command timeout covers only the wait before a
      // command is sent, and a Redis that stops answering with the connection open (a frozen host) would keep the
      // sign-in waiting for ever. Past the deadline the call rejects (the route answers 503) and the late answer is
      // dropped; an attempt cut off this way may still be counted once Redis answers, erring on the safe side. The
      // deadline holds no shutdown up (deadline-limiter.ts).
      return new DeadlineLimiter({
        // node-redis 4+ client (`useRedisPackage`); fail at once rather than queue while Redis is unreachable.
        limiter: new RateLimiterRedis({
          ...options,
          storeClient: store.client,
          useRedisPackage: true,
          rejectIfRedisNotReady: true,
        }),
        timeoutMs: REDIS_ANSWER_DEADLINE_MS,
        connected: () => (store.client as { isReady?: boolean }).isReady !== false,
      });
    case 'postgres':
      return new RateLimiterPostgres({
        ...options,
        storeClient: store.pool,
        storeType: 'pool',
        tableName: COUNTER_TABLE,
        tableCreated: true,
        // Its timer would outlive the pool; startCleanup instead.
        clearExpiredByTimeout: false,
      });
    case 'sqlite':
      return new RateLimiterSQLite({
        ...options,
        storeClient: store.db,
        storeType: 'better-sqlite3',
        tableName: COUNTER_TABLE,
        tableCreated: true,
        // Its own cleanup timer would outlive a closed database and reject unobserved; startCleanup instead.
        clearExpiredByTimeout: false,
      });
  }
}

/**
 * The table RateLimiterSQLite expects (its own schema), created here synchronously so the limiter can be built
 * while the app is constructed instead of after an asynchronous set-up.
 */
function createSqliteTable(db: Database): void {
  db.prepare(
    `CREATE TABLE IF NOT EXISTS ${COUNTER_TABLE} (
      key TEXT PRIMARY KEY,
      points INTEGER NOT NULL DEFAULT 0,
      expire INTEGER
    )`,
  ).run();
}

/** The running cleanup of each database store, and how many counters' users keep it. */
const cleanups = new WeakMap<RateLimitStore, { timer: NodeJS.Timeout; users: number }>();

/**
 * Deletes the expired counters of a database store now and then, for as long as one of its users (the sign-in limits,
 * the team tokens' checks) runs: each calls the function returned when it closes. One cleanup per store, whoever
 * started it: the table is one, whichever prefixes its rows have, and with LOGIN_RATE_LIMIT=off the team tokens'
 * guesses would otherwise leave a row per client for ever. Redis and memory expire their keys themselves.
 */
export function keepCountersClean(store: RateLimitStore): () => void {
  let cleanup = cleanups.get(store);
  if (cleanup === undefined) {
    const timer = startCleanup(store);
    if (timer === undefined) return () => undefined;
    cleanup = { timer, users: 0 };
    cleanups.set(store, cleanup);
  }
  const running = cleanup;
  running.users++;
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    running.users--;
    if (running.users > 0) return;
    clearInterval(running.timer);
    if (cleanups.get(store) === running) cleanups.delete(store);
  };
}

/** Deletes expired counters of a database store now and then, so the table holds only live windows. */
function startCleanup(store: RateLimitStore): NodeJS.Timeout | undefined {
  let deleteExpired: () => unknown;
  if (store.kind === 'sqlite') {
    const { db } = store;
    deleteExpired = () => db.open && db.prepare(`DELETE FROM ${COUNTER_TABLE} WHERE expire < ?`).run(Date.now());
  } else if (store.kind === 'postgres') {
    deleteExpired = () => store.pool.query(`DELETE FROM ${COUNTER_TABLE} WHERE expire < $1`, [Date.now()]);
  } else {
    return undefined;
  }
  const timer = setInterval(() => {
    // A busy, closing or unreachable database: the next round tries again; reads ignore expired rows meanwhile.
    try {
      Promise.resolve(deleteExpired()).catch(() => undefined);
    } catch {
      // (SQLite throws synchronously.)
    }
  }, CLEANUP_INTERVAL_MS);
  timer.unref();
  return timer;
}
