import type { Express, Request } from 'express';
import type { Logger } from 'pino';
import type { AppModule } from '../app-module';
import type { MetaModule } from '../meta/meta-module';
import type { MetricsRegistry } from '../observability/metrics-registry';
import type { ReleasesModule } from '../releases/releases-module';
import { audienceOf } from '../releases/remotes-for-request';
import type { RemotesModule } from '../remotes/remotes-module';
import type { ResourcesModule } from '../resources/resources-module';
import type { StorageEngine } from '../storage/storage-engine';
import type { TenantStore } from '../tenants/tenant-store';
import { AutoRollbackObserver } from './auto-rollback-observer';
import { CanaryWatch } from './canary-watch';
import type { SlotEventSubjects } from './slot-event-check';
import { SlotEventLimits } from './slot-event-limits';
import { addSlotEventMetrics } from './slot-event-metrics';
import type { SlotEventSettings } from './slot-event-settings';
import { createSlotEventsRouter } from './slot-events-router';
import { SlotLoadAggregator, type SlotEventCounters } from './slot-load-aggregator';
import { SlotLoadStore } from './slot-load-store';
import { SlotVisitorStore } from './slot-visitor-store';
import { visitorIdFactory, type SlotVisitor } from './visitor-id';
import { repeatedFailureLog } from '../observability/repeated-failure-log';

export interface SlotEventsModuleParts {
  storage: StorageEngine;
  logger: Logger;
  metrics: MetricsRegistry | undefined;
  settings: { slotEvents: SlotEventSettings; secrets: readonly string[] };
  resources: ResourcesModule;
  remotes: RemotesModule;
  releases: ReleasesModule;
  meta: MetaModule;
  tenants: TenantStore;
}

/**
 * Slot events from the pages (`POST` of slot loads, `GET` of their figures for operators): the counts in the database
 * (shared by every host), this host's aggregator and limits, their metrics, and the canary watch that rolls a failing
 * canary back.
 */
export class SlotEventsModule implements AppModule {
  readonly store: SlotLoadStore;
  readonly anonymousStore: SlotLoadStore;
  readonly visitorStore: SlotVisitorStore;
  readonly aggregator: SlotLoadAggregator;
  readonly limits: SlotEventLimits;
  readonly canaryWatch: CanaryWatch;
  readonly rollbackObserver: AutoRollbackObserver;
  readonly subjects: SlotEventSubjects;
  /** Who a request's visitor is, as a hash shared by every host (same secret). */
  readonly visitorOf: (req: Request) => SlotVisitor;

  constructor(private readonly parts: SlotEventsModuleParts) {
    const { logger, metrics } = parts;
    const settings = parts.settings.slotEvents;
    const { snapshot, service } = parts.releases;
    const registry = parts.remotes.registry;
    this.store = new SlotLoadStore(parts.storage);
    this.anonymousStore = new SlotLoadStore(parts.storage, 'slot_load_anonymous_stats');
    this.visitorStore = new SlotVisitorStore(parts.storage);
    this.visitorOf = visitorIdFactory(parts.settings.secrets[0] ?? '');
    this.aggregator = new SlotLoadAggregator({
      store: this.store,
      anonymousStore: this.anonymousStore,
      visitorStore: this.visitorStore,
      flushMs: settings.flushMs,
      maxPendingRows: settings.maxPendingRows,
      onError: repeatedFailureLog(logger, 'slot events: writing the counts failed; kept for the next write', {
        store: parts.storage.displayName,
      }),
    });
    this.limits = new SlotEventLimits(settings.eventsPerSessionPerMinute, settings.eventsPerAddressPerMinute);
    this.canaryWatch = new CanaryWatch({
      snapshot,
      service,
      aggregator: this.aggregator,
      store: this.store,
      visitorStore: this.visitorStore,
      logger,
      database: parts.storage.displayName,
      settings: settings.canary,
    });
    // A progressive rollout advances only while its canary is no worse, by the watch's rule.
    parts.releases.judgeRolloutsWith(this.canaryWatch);
    this.rollbackObserver = new AutoRollbackObserver({ snapshot, store: parts.releases.store, logger });
    this.subjects = {
      componentsOf: (remote, release) =>
        release === ''
          ? (registry.remotes().find((descriptor) => descriptor.name === remote)?.components ?? null)
          : (snapshot.release(remote, release)?.components ?? null),
      formSlotsOf: (name) => {
        const resource = parts.resources.resources.get(name);
        if (resource === undefined) return null;
        return new Set(resource.definition.fields.flatMap((item) => (item.type === 'slot' ? [item.component] : [])));
      },
    };
    if (metrics) addSlotEventMetrics(metrics, this, snapshot, parts.releases.rollouts);
  }

  /** The release of `remote` a request's visitor is served now: its preview, its canary, else the active one. */
  releaseOf(req: Request, remote: string): string {
    return this.parts.releases.snapshot.choose(remote, audienceOf(req))?.version ?? '';
  }

  /**
   * The release an event's page runs: the one its `releaseTag` names when this server signed it (release-tags.ts),
   * else the one the visitor is served now (an event without a tag: a remote served as configured, or an old page).
   * Null: the event is left out. A tag is the same for every visitor of a release, so one naming the running canary
   * counts only from a visitor the canary is served to: passed on, or copied from another's page, it would let
   * anyone fail a canary into its automatic rollback with a few requests.
   */
  releaseOfEvent(req: Request, remote: string, releaseTag: string | undefined): string | null {
    const servedNow = this.releaseOf(req, remote);
    const tagged = this.parts.remotes.releaseTags.versionOf(remote, releaseTag);
    if (tagged === null) return servedNow;
    const canary = this.parts.releases.snapshot.rollout(remote)?.canary?.version;
    return tagged === canary && tagged !== servedNow ? null : tagged;
  }

  /** This host's counters since it started (for its metrics). */
  counters(): SlotEventCounters {
    return this.aggregator.snapshot();
  }

  mountRoutes(app: Express): void {
    app.use(
      createSlotEventsRouter({
        aggregator: this.aggregator,
        limits: this.limits,
        subjects: this.subjects,
        servedSlots: (req) => this.parts.meta.servedSlots(req),
        releaseOf: (req, remote) => this.releaseOf(req, remote),
        releaseOfEvent: (req, event) => this.releaseOfEvent(req, event.remote, event.releaseTag),
        visitorOf: this.visitorOf,
        tenants: this.parts.tenants,
      }),
    );
  }

  start(): void {
    this.aggregator.start();
    this.canaryWatch.start();
    this.rollbackObserver.start();
  }

  async close(): Promise<void> {
    this.canaryWatch.close();
    this.rollbackObserver.close();
    try {
      // Before the database closes (modules close in reverse): what this host counted last is written.
      await this.aggregator.close();
    } catch (error) {
      this.parts.logger.warn({ err: error }, 'slot events: the last counts could not be written');
    }
  }
}
