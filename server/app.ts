/*
 * Above 300 lines for one reason: this is the composition root. It builds every part (stores, registries, caches,
 * the releases and their snapshot, the policies) and connects them; each part's logic lives in its own module.
 */
import type { RequestListener } from 'node:http';
import type { Express } from 'express';
import type { Logger } from 'pino';
import { appSettingsOf, type AppOptions, type AppSettings } from './app-options';
import { createAppRoutes } from './app-routes';
import type { ScryptParams } from './auth/password-hash';
import { UserStore } from './auth/user-store';
import './auth/session-data';
import './auth/staff-user';
import { LoginRateLimiter, rateLimitStoreIn } from './auth/login-rate-limit/login-rate-limiter';
import { signedInPage } from './host-page/signed-in-page';
import { DashboardRegistry, type DashboardDefinition } from './meta/dashboard-registry';
import { MetaBodyCache } from './meta/meta-body-cache';
import { repeatedFailureLog } from './observability/repeated-failure-log';
import { ModuleRegistry, type ModuleDefinition } from './meta/module-registry';
import { addAppMetrics } from './app-metrics';
import { addOperationsMetrics, type RemotesConfigReloadOutcome } from './observability/operations-metrics';
import { MetricsRegistry } from './observability/metrics-registry';
import { ServerLifecycle } from './process/server-lifecycle';
import {
  HttpDescriptorSource,
  loadRemotesConfig,
  RemoteRegistry,
  type LoadRemotesConfigOptions,
  type RemotesConfig,
} from './remotes';
import { reloadRemotesConfig } from './remotes/remotes-config-reload';
import { PlacementsService } from './placements/placements-service';
import { PlacementsStore } from './placements/placements-store';
import { readKnownRuleNames, ruleNamesWarner } from './placements/rule-names-check';
import { ConfigReleaseImports, type ConfigReleaseParts } from './releases/config-releases';
import { ReleaseFilesCheck } from './releases/release-files-check';
import { ReleaseService } from './releases/release-service';
import { ReleaseSnapshot } from './releases/release-snapshot';
import { ReleaseStore } from './releases/release-store';
import { ReleaseTags } from './remotes/release-tags';
import { TeamTokenStore } from './releases/team-token-store';
import { unservedEntriesWarner } from './releases/unserved-config-entries';
import type { Resource } from './resources/resource';
import { ResourceDefinitionError } from './resources/resource-definition-error';
import { ResourceRegistry } from './resources/resource-registry';
import { StoredRecordSource } from './resources/stored-record-source';
import { SlotEvents } from './slot-events/slot-events';
import { FeatureFlagStore } from './flags/feature-flag-store';
import { LocationAllowLists, type AllowListMap } from './slots/location-allow-lists';
import { checkSlots } from './slot-check/slot-check';
import { formatSlotProblem, type SlotProblem } from './slots/slot-contract';
import { SlotCheckReporter } from './slots/slot-check-reporter';
import { SlotRegistry, type SlotRegistrationMap } from './slots/slot-registry';
import { SlotsPayloadCache } from './slots/slots-payload';
import type { AppDatabase } from './storage/app-database';
import { createSessionStorage } from './storage/create-session-storage';
import { openStorage } from './storage/open-storage';
import type { SessionStorage } from './storage/session-storage';
import { SqliteEngine } from './storage/sqlite-engine';
import type { StorageEngine } from './storage/storage-engine';
import { TenantStore } from './tenants/tenant-store';

export { DEFAULT_DIST_DIR, type AppOptions } from './app-options';

/**
 * The server application: an Express handler plus the registries a host application fills in.
 *
 * ```ts
 * const app = createApp({ databasePath, sessionSecret });
 * app.registerSlots({ 'login-before-form': Slot.make('LoginNotice', { title: 'Welcome', text: 'Sign in with your staff account.' }) });
 * await app.ready();
 * http.createServer(app.handler).listen(3000);
 * ```
 *
 * It never listens itself (server/main.ts does), so tests drive `app.handler` with supertest. Its options are read
 * in app-options.ts, its routes mounted in app-routes.ts; the policies live with their concepts (the slot check's
 * reporting in slots/, the configuration reload in remotes/, a signed-in page's session data in host-page/).
 */
export class App {
  /**
   * The request listener; give it to `http.createServer` or supertest. It answers `GET /slots` itself (the public
   * fast path) and hands every other request to `express`.
   */
  readonly handler: RequestListener;
  /** The Express application behind `handler`. */
  readonly express: Express;
  /** The database of users, tenants, records (and sessions and sign-in counters, without Redis). */
  readonly storage: StorageEngine;
  readonly users: UserStore;
  readonly tenants: TenantStore;
  readonly records: StoredRecordSource;
  readonly slots: SlotRegistry;
  /** The cached JSON of the registered slots (rebuilt once per registration). */
  readonly slotsPayload: SlotsPayloadCache;
  readonly modules: ModuleRegistry;
  readonly dashboards: DashboardRegistry;
  /** The encoded `/meta` bodies per tenant (rebuilt when dashboards, modules or slots change). */
  readonly metaBody: MetaBodyCache;
  /** Where sessions live (SQLite, PostgreSQL or Redis). */
  readonly sessions: SessionStorage;
  /** Whether the app takes new work; a shutdown turns readiness off through it. */
  readonly lifecycle = new ServerLifecycle();
  /** The remotes served now and the slots REMOTES_CONFIG places for them. */
  readonly remoteRegistry: RemoteRegistry;
  /** Which remotes may fill each location (`allowRemotes`, and REMOTES_CONFIG's `"locations"`). */
  readonly allowLists: LocationAllowLists;
  /** Feature flags (global or per tenant) that `visibleWhen` rules read; set with `npm run flag`. */
  readonly flags: FeatureFlagStore;
  /** Releases of remotes, their rollouts and audit trail; the team tokens that publish them. */
  readonly releases: ReleaseStore;
  readonly teamTokens: TeamTokenStore;
  /** The rollouts and releases in memory, kept current (polled) on every host. */
  readonly releaseSnapshot: ReleaseSnapshot;
  readonly releaseService: ReleaseService;
  /** Slot events from the pages: their counts (shared by every host) and the automatic rollback of failing canaries. */
  readonly slotEvents: SlotEvents;
  /** Placements in the database: the draft, the revisions, the one in force on this host (kept current, polled). */
  readonly placementsStore: PlacementsStore;
  readonly placements: PlacementsService;
  readonly passwordHashParams: ScryptParams;
  /**
   * The Prometheus registry `GET /metrics` serves (observability/metrics-registry.ts): a part that measures
   * something adds its counter or gauge here. Filled by the app only with the `metrics` option.
   */
  readonly metrics = new MetricsRegistry();
  private readonly settings: AppSettings;
  private readonly descriptorSource: HttpDescriptorSource;
  /** A release's manifest and entry script, asked as it is published (by a team or from REMOTES_CONFIG). */
  private readonly releaseFiles: ReleaseFilesCheck;
  /** Counts a re-read of REMOTES_CONFIG in /metrics (when metrics are on). */
  private countReload: (outcome: RemotesConfigReloadOutcome) => void = () => undefined;
  /** REMOTES_CONFIG's new entries made releases, at start and reload; those not answering asked again. */
  private readonly configImports: ConfigReleaseImports;
  private readonly logger: Logger;
  private readonly resources: ResourceRegistry;
  private readonly loginRateLimiter: LoginRateLimiter;
  private readonly slotCheckReporter: SlotCheckReporter;
  /** Logs the entries REMOTES_CONFIG gives that a release in force keeps from being served (once per change). */
  private readonly warnOfUnservedEntries: ReturnType<typeof unservedEntriesWarner>;
  /** Logs the slots in force whose rules name tenants or flags that do not exist (rule-names-check.ts). */
  private readonly warnOfRuleNames: () => Promise<void>;
  /** Set once ready() has finished: the slots in force are those of the start. */
  private started = false;
  /** Set once the rule names were first checked: from then on every change of the slots in force is checked too. */
  private ruleNamesWatched = false;
  /** The rule-name checks under way: close() lets them end before the database closes. */
  private readonly ruleNameChecks = new Set<Promise<void>>();
  private readying: Promise<void> | null = null;
  private closing: Promise<void> | null = null;

  constructor(options: AppOptions) {
    const settings = appSettingsOf(options);
    this.settings = settings;
    this.logger = settings.logger;
    this.passwordHashParams = settings.passwordHashParams;
    this.slotCheckReporter = new SlotCheckReporter(this.logger, settings.slotProblems);
    this.warnOfUnservedEntries = unservedEntriesWarner(this.logger);
    // Read before anything is opened: a bad configuration fails the start with nothing to clean up.
    const descriptorSource = (this.descriptorSource = new HttpDescriptorSource({
      timeoutMs: settings.remoteDescriptorTimeoutMs,
      passDevEvents: settings.development,
    }));
    const releaseTags = new ReleaseTags(settings.secrets);
    this.remoteRegistry = new RemoteRegistry(loadRemotesConfig(remotesConfigSource(settings)), {
      logger: this.logger,
      source: descriptorSource,
      releaseTags,
      retryIntervalMs: settings.remoteRetryIntervalMs,
    });

    this.allowLists = new LocationAllowLists(() => this.remoteRegistry.config);

    this.storage = openStorage(settings.storage, (error) =>
      this.logger.warn({ err: error }, 'database: an idle connection or a background index build failed'),
    );
    try {
      this.users = new UserStore(this.storage);
      this.tenants = new TenantStore(this.storage);
      this.records = new StoredRecordSource(this.storage);
      this.flags = new FeatureFlagStore(this.storage);
      this.slots = new SlotRegistry();
      this.slots.replaceConfigured(this.remoteRegistry.slots());
      this.remoteRegistry.subscribe(() => {
        this.slots.replaceConfigured(this.remoteRegistry.slots());
        this.resources.placeConfiguredForms(this.remoteRegistry.formSlots());
        // A remote that answered late: its code slots are checked now (after start-up they are logged, not fatal).
        this.slotCheckReporter.afterChange(() => this.slotProblems());
        if (this.ruleNamesWatched) this.warnAboutRuleNames();
        // At the start (the releases read), on a reload, on an activation: each time the remotes served change.
        this.warnOfUnservedEntries(this.remoteRegistry.config, this.releaseSnapshot.activeReleases());
      });
      this.slotsPayload = new SlotsPayloadCache(this.slots);
      this.resources = new ResourceRegistry();
      // The form slots of REMOTES_CONFIG's "forms"; resources registered later get theirs as they are registered.
      this.resources.placeConfiguredForms(this.remoteRegistry.formSlots());
      this.releases = new ReleaseStore(this.storage);
      // Asked within the descriptor's timeout too.
      this.releaseFiles = new ReleaseFilesCheck({ timeoutMs: settings.remoteDescriptorTimeoutMs });
      this.teamTokens = new TeamTokenStore(this.storage);
      this.releaseSnapshot = new ReleaseSnapshot(this.releases, {
        pollMs: settings.releasePollMs,
        onError: repeatedFailureLog(this.logger, 'releases: reading the rollouts failed; asked again'),
      });
      // Remotes with an active release are served (and checked) with the stored descriptor, on every host.
      this.configImports = new ConfigReleaseImports(
        this.configReleaseParts(),
        settings.remoteRetryIntervalMs,
        () => this.remoteRegistry.config.pending,
      );
      this.releaseSnapshot.subscribe(() =>
        this.remoteRegistry.useReleases(
          this.releaseSnapshot.activeReleases(),
          this.releaseSnapshot.servedReleases().map((release) => release.entry),
        ),
      );
      // `npm run remotes:reload`, on any machine with the database settings: every host re-reads its file.
      this.releaseSnapshot.onConfigReload(() => {
        this.reloadRemotesConfig().catch((error: unknown) =>
          this.logger.error({ err: error }, 'Remotes configuration reload failed'),
        );
      });
      this.releaseService = new ReleaseService({
        store: this.releases,
        snapshot: this.releaseSnapshot,
        source: descriptorSource,
        files: this.releaseFiles,
        production: !settings.development,
        tenants: this.tenants,
        slots: this.slots,
        resources: this.resources,
        remoteRegistry: this.remoteRegistry,
        allowLists: this.allowLists,
      });
      this.slotEvents = new SlotEvents({
        storage: this.storage,
        remoteRegistry: this.remoteRegistry,
        resources: this.resources,
        releaseSnapshot: this.releaseSnapshot,
        releaseService: this.releaseService,
        releaseTags,
        logger: this.logger,
        settings: settings.slotEvents,
      });
      this.placementsStore = new PlacementsStore(this.storage);
      this.placements = new PlacementsService({
        store: this.placementsStore,
        subjects: {
          slots: this.slots,
          resources: this.resources,
          remoteRegistry: this.remoteRegistry,
          allowLists: this.allowLists,
        },
        logger: this.logger,
        knownRuleNames: () => readKnownRuleNames(this.tenants, this.flags),
        pollMs: settings.releasePollMs,
      });
      this.warnOfRuleNames = ruleNamesWarner({
        known: () => readKnownRuleNames(this.tenants, this.flags),
        placed: () => this.slots.placed(),
        logger: this.logger,
      });
      this.modules = new ModuleRegistry(this.resources);
      this.dashboards = new DashboardRegistry(this.records);
      this.metaBody = new MetaBodyCache({
        slots: this.slotsPayload,
        modules: this.modules,
        dashboards: this.dashboards,
      });
      this.sessions = createSessionStorage({
        engine: this.storage,
        redisUrl: settings.redisUrl,
        fallbackTtlMs: settings.idleMs,
        cleanupIntervalMs: settings.sessionCleanupIntervalMs,
        logger: this.logger,
      });
      this.loginRateLimiter = LoginRateLimiter.create(
        settings.loginRateLimit,
        this.sessions.redisClient
          ? { kind: 'redis', client: this.sessions.redisClient }
          : rateLimitStoreIn(this.storage),
      );
      if (settings.metrics) {
        addAppMetrics(this.metrics, {
          sessions: this.sessions,
          storage: this.storage,
          remoteRegistry: this.remoteRegistry,
          slotEvents: this.slotEvents,
          releaseSnapshot: this.releaseSnapshot,
          logger: this.logger,
        });
        this.countReload = addOperationsMetrics(this.metrics, {
          readiness: () => this.readinessChecks(),
          logger: this.logger,
        });
      }
    } catch (error) {
      void this.storage.close();
      throw error;
    }

    const routes = createAppRoutes(
      {
        lifecycle: this.lifecycle,
        storage: this.storage,
        users: this.users,
        tenants: this.tenants,
        records: this.records,
        sessions: this.sessions,
        loginRateLimiter: this.loginRateLimiter,
        slots: this.slots,
        slotsPayload: this.slotsPayload,
        resources: this.resources,
        metaBody: this.metaBody,
        remoteRegistry: this.remoteRegistry,
        metrics: this.metrics,
        allowLists: this.allowLists,
        flags: this.flags,
        releases: this.releases,
        teamTokens: this.teamTokens,
        releaseSnapshot: this.releaseSnapshot,
        releaseService: this.releaseService,
        slotEvents: this.slotEvents,
        placements: this.placements,
        placementsStore: this.placementsStore,
        readinessChecks: () => this.readinessChecks(),
        signedInPage: (req) =>
          signedInPage(req, {
            tenants: this.tenants,
            flags: this.flags,
            metaBody: this.metaBody,
            sessionLimits: settings,
          }),
      },
      settings,
    );
    const listener = routes.listener;
    this.handler = (req, res) => {
      // An app used directly (not through startServer) seeds between ready() and listening: its first request
      // comes after that, so its rule names are checked then, against what was seeded.
      if (this.started && !this.ruleNamesWatched) this.checkRuleNames();
      listener(req, res);
    };
    this.express = routes.express;
  }

  /**
   * Registers slots: location value -> one Slot or a list of Slots. Calls append, in order. An unknown location or
   * a value that is not a Slot throws at once (naming it), and nothing of that call is registered.
   */
  registerSlots(map: SlotRegistrationMap): this {
    if (this.readying !== null) {
      // Once ready() has run its check, a registration gets the same check at once: a slot that cannot render is
      // refused (mode `fail`) rather than served as it comes, and nothing of the call is registered.
      const before = new Set(this.slotProblems().map(formatSlotProblem));
      const candidate = this.slots.withRegistered(map);
      const added = this.slotProblems(undefined, candidate).filter(
        (problem) => !before.has(formatSlotProblem(problem)),
      );
      this.slotCheckReporter.atRegistration(added);
    }
    this.slots.register(map);
    return this;
  }

  /**
   * Says which remotes' slots may fill a location: `{ 'header-banner': ['team_billing'] }`. A slot of another remote
   * there stops the start (or refuses a reload, or a release's publish). REMOTES_CONFIG's `"locations"` replaces the
   * list of a location it names. Call before `ready()`.
   */
  allowRemotes(map: AllowListMap): this {
    this.allowLists.set(map);
    return this;
  }

  /** Adds a resource (its API under /api/resources/<name>); its definition is checked now. Call before `ready()`. */
  registerResource(resource: Resource): this {
    if (this.readying !== null) {
      // ready() checks what needs every resource (relations, form slots against the remotes): a later one would
      // skip it.
      throw new ResourceDefinitionError(
        `registerResource(${JSON.stringify(String(resource.name))}) after app.ready(): register resources before it (in the entry's ` +
          '`configure`), so that their relations and form slots are checked with the rest.',
      );
    }
    this.resources.register(resource);
    return this;
  }

  /** Adds a navigation module listing registered resources. */
  registerModule(definition: ModuleDefinition): this {
    this.modules.register(definition);
    return this;
  }

  /** Adds a dashboard; its cards are computed per tenant and cached until records change. */
  registerDashboard(definition: DashboardDefinition): this {
    this.dashboards.register(definition);
    return this;
  }

  /**
   * Finishes the start: waits for the session store (Redis), checks that every relation points at a registered
   * resource, reads the descriptors of the remotes declared by entry, and runs the slot check (code and
   * configuration) against the remotes' descriptors. Rejects with one SlotContractError listing every slot that
   * cannot render (unknown component, disabled remote, props failing the schema); a slot waiting for a remote that
   * has not answered is logged and checked when it answers. Call once registrations are done, before listening.
   */
  ready(): Promise<void> {
    this.readying ??= (async () => {
      // PostgreSQL: the migrations, under the advisory lock (SQLite migrated when the file was opened).
      await this.storage.migrate();
      await this.sessions.ready();
      this.resources.assertRelationsResolve();
      // Records without words, or all of them when this server splits words differently, get their words.
      await this.records.indexWords();
      // Before the remotes are read: a remote with an active release is never asked its origin at start.
      await this.releaseSnapshot.start();
      await this.configImports.run(this.remoteRegistry.config.pending);
      // The placements revision in force joins the file's before the slot check (a revision this host cannot take
      // is logged and left out: the database never stops a start).
      await this.placements.start();
      // Bounded by the descriptor timeout: a remote that is down is logged and retried, never awaited further.
      await this.remoteRegistry.refresh();
      this.slotCheckReporter.atStart(this.slotProblems());
      const { remotes, pending, disabled } = this.remoteRegistry.config;
      const declared = [...remotes, ...pending, ...disabled].map((remote) => remote.name);
      for (const warning of this.allowLists.undeclaredRemotes(declared)) this.logger.warn(warning);
      this.started = true;
      this.slotEvents.start();
    })();
    return this.readying;
  }

  /**
   * Warns, in the log, of the slots in force whose rules name tenants or feature flags that do not exist (each once),
   * and from then on after every change of the slots in force. Not at the end of `ready()`: an entry seeds its
   * tenants and flags after it (the demo its tenants, in `afterReady`), and their names are not unknown. startServer
   * calls it after the entry's `afterReady`; an app used directly checks on its first request, or when this is
   * called. Holds nothing up: the check reads the database in the background.
   */
  checkRuleNames(): void {
    if (!this.started) {
      throw new Error('checkRuleNames() before app.ready() has finished: the slots in force are not known yet.');
    }
    this.ruleNamesWatched = true;
    this.warnAboutRuleNames();
  }

  /**
   * Re-reads REMOTES_CONFIG (on SIGHUP); an invalid file, or one leaving a slot unable to render, keeps the
   * configuration in use and logs why (remotes/remotes-config-reload.ts).
   * @returns whether the new configuration was taken
   */
  async reloadRemotesConfig(): Promise<boolean> {
    const taken = await reloadRemotesConfig({
      load: remotesConfigSource(this.settings),
      remoteRegistry: this.remoteRegistry,
      checkSlots: (config) => this.slotProblems(config),
      logger: this.logger,
      inForce: (file) => this.placements.withFile(file),
      onTaken: (file) => this.placements.tookFile(file),
    });
    this.countReload(taken ? 'taken' : 'refused');
    // A changed entry becomes a release and is activated; an unchanged one leaves the rollout as it is.
    if (taken) await this.configImports.run(this.remoteRegistry.config.pending);
    return taken;
  }

  private configReleaseParts(): ConfigReleaseParts {
    return {
      store: this.releases,
      snapshot: this.releaseSnapshot,
      // What the import's request came to is the remote's status too: the last request, whoever made it.
      source: {
        read: async (remote, trace) => {
          const outcome = await this.descriptorSource.read(remote, trace);
          this.remoteRegistry.record(remote, outcome, trace);
          return outcome;
        },
      },
      files: this.releaseFiles,
      logger: this.logger,
    };
  }

  /** Never holds up the start or a reload: a database that does not answer only loses the warning. */
  private warnAboutRuleNames(): void {
    const check = this.warnOfRuleNames().catch((error: unknown) => {
      // Closed meanwhile: the database it read went away on purpose, which is nothing to warn of.
      if (this.closing === null)
        this.logger.warn({ err: error }, 'The tenants and flags that slot rules name could not be checked');
    });
    this.ruleNameChecks.add(check);
    void check.finally(() => this.ruleNameChecks.delete(check));
  }

  /** The slot check against the configuration in use, or against `config` (a reload being considered). */
  private slotProblems(config?: RemotesConfig, slots: SlotRegistry = this.slots): SlotProblem[] {
    return checkSlots(
      {
        slots,
        resources: this.resources,
        remoteRegistry: this.remoteRegistry,
        allowLists: this.allowLists,
      },
      config,
    );
  }

  /** The SQLite file, when the data lives in one (not with DATABASE_URL). */
  get database(): AppDatabase {
    if (!(this.storage instanceof SqliteEngine)) {
      throw new Error('The data lives in PostgreSQL (DATABASE_URL): there is no SQLite file.');
    }
    return this.storage.file;
  }

  /** Readiness checks by name (database; Redis when configured; `draining` once a shutdown began). */
  async readinessChecks(): Promise<Record<string, 'ok' | 'failing'>> {
    let database: 'ok' | 'failing' = 'ok';
    try {
      await this.storage.check();
    } catch {
      database = 'failing';
    }
    const extra = await Promise.all(this.settings.readinessChecks.map((check) => check()));
    const draining = this.lifecycle.draining ? { draining: 'failing' as const } : {};
    return Object.assign({ database }, await this.sessions.check(), ...extra, draining);
  }

  /** Closes the session storage (Redis client, cleanup timer) and the database (file or pool). Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.remoteRegistry.close();
      this.configImports.close();
      this.releaseSnapshot.close();
      this.placements.close();
      this.loginRateLimiter.close();
      try {
        // Before the database closes: what this host counted last is written.
        await this.slotEvents.close();
      } catch (error) {
        this.logger.warn({ err: error }, 'slot events: the last counts could not be written');
      }
      await Promise.all(this.ruleNameChecks);
      try {
        await this.sessions.close();
      } finally {
        await this.storage.close();
      }
    })();
    return this.closing;
  }
}

export function createApp(options: AppOptions): App {
  return new App(options);
}

/** Where REMOTES_CONFIG is read from, and in which mode its entries are checked (at start and on reload alike). */
function remotesConfigSource(settings: AppSettings): LoadRemotesConfigOptions {
  return { env: settings.env, distDir: settings.distDir, production: !settings.development };
}
