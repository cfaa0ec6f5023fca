import type { RequestListener } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';
import type { AppModule } from './app-module';
import { appSettingsOf, type AppOptions, type AppSettings } from './app-options';
import { createAppRoutes, type AppRoutes } from './app-routes';
import { AuthModule } from './auth/auth-module';
import type { UserStore } from './auth/user-store';
import { FeatureFlagStore } from './flags/feature-flag-store';
import { HostPageModule } from './host-page/host-page-module';
import type { DashboardDefinition } from './meta/dashboard-registry';
import { MetaModule } from './meta/meta-module';
import type { ModuleDefinition } from './meta/module-registry';
import { MetricsRegistry } from './observability/metrics-registry';
import { addHostMetrics } from './observability/operations-metrics';
import { PlacementsModule } from './placements/placements-module';
import { ServerLifecycle } from './process/server-lifecycle';
import { StartProgress } from './process/start-progress';
import { ReleasesModule } from './releases/releases-module';
import { RemotesModule } from './remotes/remotes-module';
import { ResourcesModule } from './resources/resources-module';
import type { Resource } from './resources/resource';
import type { StoredRecordSource } from './resources/stored-record-source';
import { SlotCheckModule } from './slot-check/slot-check-module';
import { SlotEventsModule } from './slot-events/slot-events-module';
import { ALLOW_REMOTES_AFTER_READY, type AllowListMap } from './slots/location-allow-lists';
import { mergedReadiness, type ReadinessReport, type ServerReadiness } from './readiness-checks';
import { warnedBeforeReady } from './health/served-before-ready';
import { SlotRegistrationError, type SlotRegistrationMap } from './slots/slot-registry';
import { SlotsModule } from './slots/slots-module';
import type { AppDatabase } from './storage/app-database';
import type { SessionStorage } from './storage/session-storage';
import { StorageModule } from './storage/storage-module';
import type { StorageEngine } from './storage/storage-engine';
import { TenantStore } from './tenants/tenant-store';

export { DEFAULT_DIST_DIR, type AppOptions } from './app-options';

/**
 * The server application: an Express handler plus the registries a host application fills in
 * (docs/host-developers.md). It never listens itself (server/main.ts does), so tests drive `app.handler` with supertest. It composes the
 * server's concepts, each one module that builds and wires its own parts (app-module.ts), over a small core (the
 * database, tenants, flags, metrics). The list below is their order: a module is given the ones before it; routes
 * mount, modules load and start in it, and close in reverse. A new concept is one line here.
 */
export class App {
  /** The request listener: the public fast path for `GET /slots`, then `express` (app-routes.ts). */
  readonly handler: RequestListener;
  /** The part of `handler` that answers a request before it returns: the public fast path, when on (app-routes.ts). */
  readonly answerAtOnce: AppRoutes['answerAtOnce'];
  readonly express: Express;
  /** The server's log: an entry's start-up says what it has to in it (the demo seed's warnings). */
  readonly logger: Logger;
  readonly storage: StorageEngine;
  readonly tenants: TenantStore;
  readonly flags: FeatureFlagStore;
  /** What a long start (schema steps, search words) tells the entry that listens, and how it stops the start. */
  readonly startup = new StartProgress();
  /** Whether the app takes new work; a shutdown turns readiness off through it. */
  readonly lifecycle = new ServerLifecycle();
  /** The Prometheus registry `GET /metrics` serves; filled only with the `metrics` option. */
  readonly metrics = new MetricsRegistry();
  readonly slots: SlotsModule;
  readonly meta: MetaModule;
  readonly auth: AuthModule;
  readonly resources: ResourcesModule;
  readonly remotes: RemotesModule;
  readonly releases: ReleasesModule;
  readonly placements: PlacementsModule;
  readonly slotCheck: SlotCheckModule;
  readonly slotEvents: SlotEventsModule;
  /** The modules in their order: the database first, the host's pages last. */
  readonly modules: readonly AppModule[];
  private readonly settings: AppSettings;
  private readying: Promise<void> | null = null;
  /** Whether `ready()` finished: until then `/readyz` says `started: failing`. */
  private started = false;
  private closing: Promise<void> | null = null;

  constructor(options: AppOptions) {
    const settings = (this.settings = appSettingsOf(options));
    const logger = (this.logger = settings.logger);
    const metrics = settings.metrics ? this.metrics : undefined;
    const db = new StorageModule(settings.storage, logger, this.startup);
    const storage = (this.storage = db.engine);
    try {
      const tenants = (this.tenants = new TenantStore(storage));
      const flags = (this.flags = new FeatureFlagStore(storage));
      const core = { storage, logger, metrics, settings, tenants, flags, startup: this.startup };
      const slots = (this.slots = new SlotsModule());
      const resources = (this.resources = new ResourcesModule(core));
      const meta = (this.meta = new MetaModule({ ...core, slots, resources }));
      const auth = (this.auth = new AuthModule(core));
      const remotes = (this.remotes = new RemotesModule({ ...core, slots, resources }));
      const slotCheck = (this.slotCheck = new SlotCheckModule({ ...core, slots, resources, remotes }));
      const releases = (this.releases = new ReleasesModule({
        ...core,
        remotes,
        slotCheck,
        rateLimitStore: auth.rateLimitStore,
      }));
      const placements = (this.placements = new PlacementsModule({ ...core, slots, remotes, slotCheck }));
      const slotEvents = (this.slotEvents = new SlotEventsModule({ ...core, resources, remotes, releases, meta }));
      const hostPage = new HostPageModule({ ...core, auth, slots, meta, remotes, releases });
      this.modules = [db, slots, meta, auth, resources, remotes, releases, placements, slotCheck, slotEvents, hostPage];
      if (metrics) addHostMetrics(metrics, { storage, readiness: () => this.readinessChecks(), logger });
    } catch (error) {
      void storage.close();
      throw error;
    }
    const routes = createAppRoutes(this, settings);
    this.handler = warnedBeforeReady(routes.listener, () => this.readying !== null, logger);
    this.answerAtOnce = routes.answerAtOnce;
    this.express = routes.express;
  }

  /** Staff accounts, where sessions live (SQLite, PostgreSQL or Redis), records: short for the modules' own. */
  get users(): UserStore {
    return this.auth.users;
  }
  get sessions(): SessionStorage {
    return this.auth.sessions;
  }
  get records(): StoredRecordSource {
    return this.resources.records;
  }

  /** Registers slots: location value -> one Slot or a list; calls append. A bad one throws, nothing registered. */
  registerSlots(map: SlotRegistrationMap): this {
    this.slots.register(map);
    return this;
  }

  /** Which remotes' slots may fill a location: `{ 'header-banner': ['team_billing'] }`. Before `ready()` only. */
  allowRemotes(map: AllowListMap): this {
    if (this.readying !== null) throw new SlotRegistrationError(ALLOW_REMOTES_AFTER_READY);
    this.remotes.allowLists.set(map);
    return this;
  }

  /** Adds a resource (its API under /api/resources/<name>); its definition is checked now. Call before `ready()`. */
  registerResource(resource: Resource): this {
    this.resources.register(resource);
    return this;
  }

  /** Adds a navigation module listing registered resources. */
  registerModule(definition: ModuleDefinition): this {
    this.meta.navigation.register(definition);
    return this;
  }

  /** Adds a dashboard; its cards are computed per tenant and cached until records change. */
  registerDashboard(definition: DashboardDefinition): this {
    this.meta.dashboards.register(definition);
    return this;
  }

  /**
   * Finishes the start: every module loads (the database first: its migrations) what this host serves (sessions, relations,
   * releases and placements in force) and starts (remotes asked, the slot check, background work). Rejects with one
   * SlotContractError listing every slot that cannot render; a slot waiting for a remote that has not answered is
   * logged and checked when it answers. Call once registrations are done, before listening.
   */
  ready(): Promise<void> {
    this.readying ??= (async () => {
      for (const module of this.modules) await module.load?.();
      for (const module of this.modules) await module.start?.();
      for (const module of this.modules) await module.afterStart?.();
      this.started = true;
    })();
    return this.readying;
  }

  /** Warns of slot rules naming tenants or flags that do not exist, from now on (after the entry seeded them). */
  checkRuleNames(): void {
    this.placements.watchRuleNames();
  }

  /** Re-reads REMOTES_CONFIG (on SIGHUP); see RemotesModule.reloadConfig. @returns whether it was taken */
  reloadRemotesConfig(): Promise<boolean> {
    return this.remotes.reloadConfig();
  }

  /** The SQLite file, when the data lives in one (not with DATABASE_URL). */
  get database(): AppDatabase {
    return (this.modules[0] as StorageModule).sqliteFile;
  }

  /** Readiness checks by name: the server's own (READINESS_CHECKS) and the options' `readinessChecks`. */
  readonly readinessChecks = async (): Promise<ReadinessReport> => {
    const checks = [...this.modules, ...this.settings.readinessChecks.map((check) => ({ readiness: check }))];
    const draining: ServerReadiness = this.lifecycle.draining ? { draining: 'failing' } : {};
    const starting: ServerReadiness = this.started ? {} : { started: 'failing' };
    return mergedReadiness([...(await Promise.all(checks.map((module) => module.readiness?.()))), starting, draining]);
  };

  /**
   * Closes the modules, the database last, once the others have (their last writes made). The others are called in
   * reverse order (their timers stop in it) without waiting for one another: one whose close waits for a database
   * that does not answer (the last slot counts) does not keep Redis, which answers, open. One that fails does not
   * keep the others open.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const closed = (module: AppModule) => Promise.resolve().then(() => module.close?.());
      const [database, ...others] = this.modules;
      const outcomes = await Promise.allSettled(others.reverse().map(closed));
      if (database) outcomes.push(...(await Promise.allSettled([closed(database)])));
      const failed = outcomes.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
    })();
    return this.closing;
  }
}
export function createApp(options: AppOptions): App {
  return new App(options);
}
