import type { Express, RequestHandler } from 'express';
import type { RemoteRelease } from '../../shared';
import type { Logger } from 'pino';
import type { AppModule } from '../app-module';
import type { MetricsRegistry } from '../observability/metrics-registry';
import { repeatedFailureLog } from '../observability/repeated-failure-log';
import { inSeries } from '../http/in-series';
import type { RemotesModule } from '../remotes/remotes-module';
import type { SlotCheckModule } from '../slot-check/slot-check-module';
import type { StorageEngine } from '../storage/storage-engine';
import type { TenantStore } from '../tenants/tenant-store';
import {
  ConfigReleaseImports,
  type ConfigRelease,
  type ConfigReleaseParts,
  type ConfigReleasesRead,
} from './config-releases';
import { createPreviewSecurityHeaders } from './preview-security-headers';
import { endPreviewsNoLongerAllowed } from './release-preview';
import { ReleaseFilesCheck } from './release-files-check';
import { releaseClashes } from './release-clashes';
import { ReleaseService } from './release-service';
import { ReleaseSnapshot } from './release-snapshot';
import { ReleaseStore } from './release-store';
import { createReleasesRouter } from './releases-router';
import { remotesForRequest } from './remotes-for-request';
import { addRolloutMetrics } from './rollout-metrics';
import { RolloutPlanStore } from './rollout-plan-store';
import { logRolloutPlansSeen } from './rollout-plan-log';
import { RolloutPlans, type RolloutJudge } from './rollout-plans';
import type { RateLimitStore } from '../auth/login-rate-limit/login-rate-limiter';
import type { TeamTokenLimitSettings } from './team-token-limit-settings';
import { TeamTokenStore } from './team-token-store';
import { TeamTokenThrottle } from './team-token-throttle';
import { unservedEntriesWarner } from './unserved-config-entries';

export interface ReleasesSettings {
  development: boolean;
  releasePollMs: number;
  remoteDescriptorTimeoutMs: number;
  remoteRetryIntervalMs: number;
  bodyLimitBytes: number;
  /** The origin of the product's pages, which a release's manifest must answer with CORS; undefined: unknown. */
  publicOrigin: string | undefined;
  /** How many unknown team tokens a client may send per window (team-token-throttle.ts). */
  teamTokenLimit: TeamTokenLimitSettings;
}

export interface ReleasesModuleParts {
  storage: StorageEngine;
  tenants: TenantStore;
  logger: Logger;
  settings: ReleasesSettings;
  remotes: RemotesModule;
  slotCheck: SlotCheckModule;
  metrics?: MetricsRegistry | undefined;
  /** Where the team tokens' failures are counted: the sign-in counters' store (AuthModule.rateLimitStore). */
  rateLimitStore: RateLimitStore;
}

/**
 * Releases of remotes: published by their team's token (or made from REMOTES_CONFIG's entries), activated, put in
 * canary, previewed and rolled back by operators. Every host polls the rollouts (the snapshot) and serves what they
 * say: this module pushes them into the remotes served, chooses a canary's or a preview's remotes per request, and
 * answers `npm run remotes:reload`'s signal, which reaches every host through the database.
 */
export class ReleasesModule implements AppModule {
  readonly store: ReleaseStore;
  readonly teamTokens: TeamTokenStore;
  /** The team tokens' check as the API runs it: limited per client in its failures. */
  private readonly tokenChecks: TeamTokenThrottle;
  /** The rollouts and releases in memory, kept current (polled) on every host. */
  readonly snapshot: ReleaseSnapshot;
  readonly service: ReleaseService;
  /** Progressive rollouts: their plans, advanced by every host's check, made once through the database. */
  readonly rollouts: RolloutPlans;
  /** REMOTES_CONFIG's new entries made releases, at start and reload; those not answering asked again. */
  private readonly configImports: ConfigReleaseImports;
  /** REMOTES_CONFIG's new entries read at the start, until its slot check passed (then made releases). */
  private startImport: ConfigReleasesRead | null = null;
  /** Settled once the start's import is taken (afterStart), or the app closes: reloads read after it. */
  private readonly startTaken: Promise<void>;
  private startIsTaken: () => void = () => undefined;
  /** The same for the reload being considered, made releases once it is taken. */
  private reloadImport: ConfigReleasesRead | null = null;
  /** What the reload's reads came to, for the remotes' status once it is taken (then its remotes are in use). */
  private unrecorded: Array<() => void> = [];
  /** A session's previews end with its account's permission to preview (release-preview.ts). */
  private readonly endPreviewsNoLongerAllowed: RequestHandler;

  constructor(private readonly parts: ReleasesModuleParts) {
    this.startTaken = new Promise((resolve) => {
      this.startIsTaken = resolve;
    });
    const { storage, tenants, logger, settings, remotes, slotCheck } = parts;
    this.endPreviewsNoLongerAllowed = endPreviewsNoLongerAllowed(tenants);
    const registry = remotes.registry;
    this.store = new ReleaseStore(storage);
    this.teamTokens = new TeamTokenStore(storage);
    this.tokenChecks = TeamTokenThrottle.create(this.teamTokens, settings.teamTokenLimit, parts.rateLimitStore);
    const plans = new RolloutPlanStore(storage);
    this.snapshot = new ReleaseSnapshot(this.store, {
      plans,
      pollMs: settings.releasePollMs,
      onError: repeatedFailureLog(logger, 'releases: reading the rollouts failed; asked again', {
        store: storage.displayName,
      }),
    });
    // A release's manifest and entry script, asked as it is published (by a team or from REMOTES_CONFIG) and put in
    // force, within the descriptor's timeout too; a team's through the address guard (below).
    const filesOptions = { timeoutMs: settings.remoteDescriptorTimeoutMs, pageOrigin: settings.publicOrigin };
    const files = new ReleaseFilesCheck(filesOptions);
    this.configImports = new ConfigReleaseImports(
      this.configReleaseParts(files),
      settings.remoteRetryIntervalMs,
      () => registry.config.pending,
    );
    this.service = new ReleaseService({
      store: this.store,
      snapshot: this.snapshot,
      // A team's release is kept off internal addresses, on every request (release-address-guard.ts).
      source: remotes.releaseDescriptors,
      files: new ReleaseFilesCheck({ ...filesOptions, guard: remotes.addressGuard }),
      addresses: remotes.addressGuard,
      production: !settings.development,
      tenants,
      logger,
      ...slotCheck.subjects,
    });
    this.rollouts = new RolloutPlans({
      plans,
      audit: this.store,
      service: this.service,
      snapshot: this.snapshot,
      logger,
      database: storage.displayName,
      checkMs: settings.releasePollMs,
    });
    if (parts.metrics) addRolloutMetrics(parts.metrics, this.snapshot);
    logRolloutPlansSeen(this.snapshot, logger, (plan) => this.rollouts.madeHere(plan));
    // Remotes with an active release are served (and checked) with the stored descriptor, on every host.
    this.snapshot.subscribe(() => this.serveReleases());
    // `npm run remotes:reload`, on any machine with the database settings: every host re-reads its file.
    this.snapshot.onConfigReload(() => {
      remotes
        .reloadConfig()
        .catch((error: unknown) => logger.error({ err: error }, 'Remotes configuration reload failed'));
    });
    // A changed entry is read before the reload's check, which judges the file with it; once the file is taken it
    // becomes a release and is activated. An unchanged one leaves the rollout as it is.
    remotes.judgeReloadsWith({
      consider: async (file) => {
        // A reload asked while this host starts (every host is asked) reads after the start's import is taken: the
        // start's read is older, and its import would otherwise undo the reload's.
        await this.startTaken;
        this.unrecorded = [];
        this.reloadImport = await this.configImports.read(file.pending);
        return asServed(this.reloadImport.releases);
      },
      afterTaken: () => {
        const read = this.reloadImport;
        this.reloadImport = null;
        for (const record of this.unrecorded.splice(0)) record();
        return read === null ? this.configImports.run(registry.config.pending) : this.configImports.take(read);
      },
    });
    // At the start (the releases read), on a reload, on an activation: each time the remotes served change.
    const warnOfUnservedEntries = unservedEntriesWarner(logger);
    remotes.onChange(() => warnOfUnservedEntries(registry.config, this.snapshot.activeReleases()));
    // Per request: a visitor in a canary, or an operator previewing, gets their release's entry.
    remotes.chooseForRequestWith((req) => remotesForRequest(req, registry, this.snapshot));
  }

  /**
   * Before the remotes are read: a remote with an active release is never asked its origin at start. REMOTES_CONFIG's
   * new entries are read and served on this host (its slot check judges the file with them), and made releases for
   * every host only once that check passed (afterStart): a start refused for a mistake in the file leaves every host's
   * releases as they were, as a refused reload does.
   */
  async load(): Promise<void> {
    await this.snapshot.start();
    this.startImport = await this.configImports.read(this.parts.remotes.registry.config.pending);
    this.serveReleases();
  }

  /** The start's slot check passed: REMOTES_CONFIG's new entries become releases, activated. */
  async afterStart(): Promise<void> {
    const { startImport } = this;
    try {
      if (startImport === null) return;
      await this.configImports.take(startImport);
      this.startImport = null;
      this.serveReleases();
    } finally {
      this.startIsTaken();
    }
  }

  /**
   * The active releases, and until the start's import is taken, REMOTES_CONFIG's new entries as this host's own: those
   * the file in use still declares, of remotes whose release in force has not changed since (a reload taken while
   * the start runs, another activation: the later decision is served, and takeConfigReleases keeps it).
   */
  private serveReleases(): void {
    const read = this.startImport;
    const { pending } = this.parts.remotes.registry.config;
    const starting = asServed(
      (read?.releases ?? []).filter(
        (release) =>
          pending.some((remote) => remote.name === release.remote && remote.entry === release.entry) &&
          (this.snapshot.rollout(release.remote)?.active ?? null) ===
            (read?.activeWhenRead.get(release.remote) ?? null),
      ),
    );
    const replaced = new Set(starting.map((release) => release.remote));
    this.parts.remotes.registry.useReleases(
      [...this.snapshot.activeReleases().filter((release) => !replaced.has(release.remote)), ...starting],
      [...this.snapshot.servedReleases(), ...starting].map((release) => release.entry),
    );
  }

  /** Every host looks for a rollout step due, once the rollouts are read. */
  start(): void {
    this.rollouts.start();
  }

  /**
   * The verdict on a plan's canary that lets it advance or rolls it back: the slot events module's (above this one in
   * the folder order). Until one is given, plans hold at their step.
   */
  judgeRolloutsWith(judge: RolloutJudge): void {
    this.rollouts.judgeWith(judge);
  }

  /**
   * An operator's previews: their pages' CSP allows the previewed releases' origins too, while the account may still
   * preview.
   */
  previewHeaders(): RequestHandler {
    return inSeries([
      this.endPreviewsNoLongerAllowed,
      createPreviewSecurityHeaders(this.parts.remotes.registry, this.snapshot, this.parts.remotes.policies),
    ]);
  }

  mountRoutes(app: Express): void {
    // Before the remotes router (mounted with the files) reads the previews of the request's session.
    app.get('/api/remotes', this.endPreviewsNoLongerAllowed);
    app.use(
      createReleasesRouter({
        service: this.service,
        store: this.store,
        snapshot: this.snapshot,
        tokens: this.tokenChecks,
        tenants: this.parts.tenants,
        bodyLimitBytes: this.parts.settings.bodyLimitBytes,
        rollouts: this.rollouts,
        teamRollouts: (remote) => this.parts.remotes.registry.config.teamRollouts?.has(remote) ?? false,
      }),
    );
  }

  close(): void {
    // A start that failed never takes its import: a reload waiting for it ends with the app.
    this.startIsTaken();
    this.tokenChecks.close();
    this.rollouts.close();
    this.configImports.close();
    this.snapshot.close();
  }

  private configReleaseParts(files: ReleaseFilesCheck): ConfigReleaseParts {
    const { remotes, logger } = this.parts;
    return {
      store: this.store,
      snapshot: this.snapshot,
      // What the import's request came to is the remote's status too: the last request, whoever made it. A reload
      // being considered is not in use yet: its outcomes are recorded once it is taken.
      source: {
        read: async (remote, trace) => {
          const outcome = await remotes.descriptors.read(remote, trace);
          if (!remotes.registry.record(remote, outcome, trace))
            this.unrecorded.push(() => remotes.registry.record(remote, outcome, trace));
          return outcome;
        },
      },
      files,
      clashes: (release) => releaseClashes(remotes.registry, release),
      logger,
    };
  }
}

/** Releases read and not written yet, as this host serves them meanwhile (for its own slot check). */
function asServed(releases: readonly ConfigRelease[]): RemoteRelease[] {
  const now = new Date().toISOString();
  return releases.map((release) => ({ ...release, publishedAt: now }));
}
