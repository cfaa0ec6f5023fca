import type { Express, RequestHandler } from 'express';
import type passport from 'passport';
import type { Logger } from 'pino';
import type { AppModule, Readiness } from '../app-module';
import type { MetricsRegistry } from '../observability/metrics-registry';
import { createSessionStorage } from '../storage/create-session-storage';
import type { SessionStorage } from '../storage/session-storage';
import type { StorageEngine } from '../storage/storage-engine';
import type { TenantStore } from '../tenants/tenant-store';
import { createAuthRouter } from './auth-router';
import { createPassport } from './create-passport';
import { CredentialChecker } from './credential-checker';
import { LoginRateLimiter, rateLimitStoreIn, type RateLimitStore } from './login-rate-limit/login-rate-limiter';
import type { LoginRateLimitSettings } from './login-rate-limit/login-rate-limit-settings';
import { createLoginThrottle } from './login-rate-limit/login-throttle';
import type { ScryptParams } from './password-hash';
import { createSessionChain, type SessionChainMode } from './session-chain';
import { addSessionMetrics } from './session-metrics';
import { createSignInMetrics } from './sign-in-metrics';
import { UserStore } from './user-store';
import './session-data';
import './staff-user';

export interface AuthSettings {
  secrets: string[];
  redisUrl: string | undefined;
  idleMs: number;
  absoluteMs: number;
  sessionCleanupIntervalMs: number;
  now: () => number;
  passwordHashParams: ScryptParams;
  loginRateLimit: LoginRateLimitSettings;
  bodyLimitBytes: number;
  beforeLogin: readonly RequestHandler[];
}

export interface AuthModuleParts {
  storage: StorageEngine;
  tenants: TenantStore;
  logger: Logger;
  /** Where its figures go; undefined without metrics. */
  metrics: MetricsRegistry | undefined;
  settings: AuthSettings;
}

/**
 * Staff accounts, their sessions (in the database, or Redis with REDIS_URL) and signing in and out: the session step
 * the app runs before every route that needs to know the visitor, and the sign-in limits.
 */
export class AuthModule implements AppModule {
  readonly users: UserStore;
  /** Where sessions live (SQLite, PostgreSQL or Redis). */
  readonly sessions: SessionStorage;
  readonly loginRateLimiter: LoginRateLimiter;
  /** Where the sign-in counters live (Redis with REDIS_URL, else the database): other limits of failures count there. */
  readonly rateLimitStore: RateLimitStore;
  private readonly authenticator: passport.Authenticator;

  constructor(private readonly parts: AuthModuleParts) {
    const { storage, settings, logger, metrics } = parts;
    this.users = new UserStore(storage);
    this.authenticator = createPassport(
      this.users,
      new CredentialChecker(this.users, settings.passwordHashParams, logger),
    );
    this.sessions = createSessionStorage({
      engine: storage,
      redisUrl: settings.redisUrl,
      fallbackTtlMs: settings.idleMs,
      cleanupIntervalMs: settings.sessionCleanupIntervalMs,
      logger,
    });
    this.rateLimitStore = this.sessions.redisClient
      ? { kind: 'redis', client: this.sessions.redisClient }
      : rateLimitStoreIn(storage);
    this.loginRateLimiter = LoginRateLimiter.create(settings.loginRateLimit, this.rateLimitStore);
    if (metrics) addSessionMetrics(metrics, this.sessions, storage, logger);
  }

  /** How new passwords are hashed (the demo's and `npm run user:add`'s). */
  get passwordHashParams(): ScryptParams {
    return this.parts.settings.passwordHashParams;
  }

  /** Loads the visitor's session: for the API (`private, no-store`, a 503 when the store fails) or for a page. */
  sessionChain(mode: SessionChainMode = {}): RequestHandler {
    const { settings } = this.parts;
    const { secrets, idleMs, absoluteMs, now } = settings;
    return createSessionChain(
      { store: this.sessions.store, secrets, authenticator: this.authenticator, idleMs, absoluteMs, now },
      mode,
    );
  }

  mountPublic(app: Express): void {
    if (!this.parts.metrics) return;
    const signIns = createSignInMetrics(this.parts.metrics);
    app.post('/login', signIns.login);
    app.post('/logout', signIns.logout);
  }

  mountRoutes(app: Express): void {
    const { settings, tenants } = this.parts;
    app.use(
      createAuthRouter({
        authenticator: this.authenticator,
        tenants,
        now: settings.now,
        idleMs: settings.idleMs,
        absoluteMs: settings.absoluteMs,
        bodyLimitBytes: settings.bodyLimitBytes,
        beforeLogin: [
          createLoginThrottle(this.loginRateLimiter, (username) => this.users.passwordGeneration(username)),
          ...settings.beforeLogin,
        ],
      }),
    );
  }

  load(): Promise<void> {
    return this.sessions.ready();
  }

  readiness(): Promise<Readiness> {
    return this.sessions.check();
  }

  async close(): Promise<void> {
    this.loginRateLimiter.close();
    await this.sessions.close();
  }
}
