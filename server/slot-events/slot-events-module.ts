import type { Request } from 'express';
import type { Logger } from 'pino';
import type { RemoteRegistry } from '../remotes/remote-registry';
import type { ReleaseService } from '../releases/release-service';
import type { ReleaseSnapshot } from '../releases/release-snapshot';
import type { ReleaseTags } from '../remotes/release-tags';
import { audienceOf } from '../releases/remotes-for-request';
import type { ResourceRegistry } from '../resources/resource-registry';
import type { StorageEngine } from '../storage/storage-engine';
import { CanaryWatch } from './canary-watch';
import type { SlotEventSubjects } from './slot-event-check';
import { SlotEventLimits } from './slot-event-limits';
import type { SlotEventSettings } from './slot-event-settings';
import { SlotLoadAggregator, type SlotEventCounters } from './slot-load-aggregator';
import { SlotLoadStore } from './slot-load-store';

export interface SlotEventsParts {
  storage: StorageEngine;
  remoteRegistry: RemoteRegistry;
  resources: ResourceRegistry;
  releaseSnapshot: ReleaseSnapshot;
  releaseService: ReleaseService;
  /** Reads the release an event's page runs (its `releaseTag`). */
  releaseTags: ReleaseTags;
  logger: Logger;
  settings: SlotEventSettings;
}

/**
 * What slot events are made of on the server, built once by the app: the counts in the database, this host's
 * aggregator and limits, and the canary watch. Started by `app.ready()`, closed by `app.close()`.
 */
export class SlotEvents {
  readonly store: SlotLoadStore;
  readonly aggregator: SlotLoadAggregator;
  readonly limits: SlotEventLimits;
  readonly canaryWatch: CanaryWatch;
  readonly subjects: SlotEventSubjects;

  constructor(private readonly parts: SlotEventsParts) {
    const { settings, logger } = parts;
    this.store = new SlotLoadStore(parts.storage);
    this.aggregator = new SlotLoadAggregator({
      store: this.store,
      flushMs: settings.flushMs,
      maxPendingRows: settings.maxPendingRows,
      onError: (error) =>
        logger.warn({ err: error }, 'slot events: writing the counts failed; kept for the next write'),
    });
    this.limits = new SlotEventLimits(settings.eventsPerSessionPerMinute, settings.eventsPerAddressPerMinute);
    this.canaryWatch = new CanaryWatch({
      snapshot: parts.releaseSnapshot,
      service: parts.releaseService,
      aggregator: this.aggregator,
      store: this.store,
      logger,
      settings: settings.canary,
    });
    this.subjects = {
      componentsOf: (remote, release) =>
        release === ''
          ? (parts.remoteRegistry.remotes().find((descriptor) => descriptor.name === remote)?.components ?? null)
          : (parts.releaseSnapshot.release(remote, release)?.components ?? null),
      formSlotsOf: (name) => {
        const resource = parts.resources.get(name);
        if (resource === undefined) return null;
        return new Set(resource.definition.fields.flatMap((item) => (item.type === 'slot' ? [item.component] : [])));
      },
    };
  }

  /** The release of `remote` a request's visitor is served now: its preview, its canary, else the active one. */
  releaseOf(req: Request, remote: string): string {
    return this.parts.releaseSnapshot.choose(remote, audienceOf(req))?.version ?? '';
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
    const tagged = this.parts.releaseTags.versionOf(remote, releaseTag);
    if (tagged === null) return servedNow;
    const canary = this.parts.releaseSnapshot.rollout(remote)?.canary?.version;
    return tagged === canary && tagged !== servedNow ? null : tagged;
  }

  /** This host's counters since it started (for its metrics). */
  counters(): SlotEventCounters {
    return this.aggregator.snapshot();
  }

  start(): void {
    this.aggregator.start();
    this.canaryWatch.start();
  }

  async close(): Promise<void> {
    this.canaryWatch.close();
    await this.aggregator.close();
  }
}
