import type { Express } from 'express';
import type { Logger } from 'pino';
import type { AppModule } from '../app-module';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import type { RemotesModule } from '../remotes/remotes-module';
import type { SlotCheckModule } from '../slot-check/slot-check-module';
import type { SlotsModule } from '../slots/slots-module';
import type { StorageEngine } from '../storage/storage-engine';
import type { TenantStore } from '../tenants/tenant-store';
import { createPlacementsRouter } from './placements-router';
import { PlacementsService } from './placements-service';
import { PlacementsStore } from './placements-store';
import { RuleNameWatch } from './rule-name-watch';
import { readKnownRuleNames, readRuleNamesMarker } from './rule-names-check';

export interface PlacementsModuleParts {
  storage: StorageEngine;
  tenants: TenantStore;
  flags: FeatureFlagStore;
  logger: Logger;
  settings: { releasePollMs: number };
  slots: SlotsModule;
  remotes: RemotesModule;
  slotCheck: SlotCheckModule;
}

/**
 * Placements as data: the draft, the revisions and the one in force on this host (polled from the database), joined
 * to REMOTES_CONFIG's placements; the operators' editor API; and the watch that warns of rules naming tenants or
 * flags that do not exist (rule-name-watch.ts).
 */
export class PlacementsModule implements AppModule {
  readonly store: PlacementsStore;
  readonly service: PlacementsService;
  private readonly ruleNames: RuleNameWatch;
  /** Set once the start is over: the slots in force are those of the start. */
  private started = false;
  /**
   * Set once the rule names were first checked: from then on every change of the slots in force, and of the tenants
   * and flags there are, is checked too.
   */
  private watching = false;

  constructor(private readonly parts: PlacementsModuleParts) {
    const { storage, tenants, flags, logger, remotes } = parts;
    this.store = new PlacementsStore(storage);
    const knownRuleNames = () => readKnownRuleNames(tenants, flags);
    this.service = new PlacementsService({
      store: this.store,
      subjects: parts.slotCheck.subjects,
      logger,
      database: storage.displayName,
      knownRuleNames,
      pollMs: parts.settings.releasePollMs,
    });
    this.ruleNames = new RuleNameWatch({
      known: knownRuleNames,
      changeMarker: () => this.readRuleNamesMarker(),
      placed: () => parts.slots.registry.placed(),
      logger,
      pollMs: parts.settings.releasePollMs,
      database: storage.displayName,
    });
    remotes.judgeReloadsWith({
      inForce: (file) => this.service.withFile(file),
      onTaken: (file) => this.service.tookFile(file),
    });
    remotes.onChange(() => {
      if (this.watching) this.ruleNames.slotsChanged();
    });
  }

  /** The rule-name watch's change marker (readRuleNamesMarker), read at each of its polls. */
  readRuleNamesMarker(): Promise<string> {
    return readRuleNamesMarker(this.parts.storage);
  }

  /** The placements revision in force joins the file's before the slot check (the database never stops a start). */
  load(): Promise<void> {
    return this.service.start();
  }

  start(): void {
    this.started = true;
  }

  /**
   * Warns, in the log, of the slots in force whose rules name tenants or feature flags that do not exist (each once
   * while it holds), and from then on after every change of the slots in force and of the tenants and flags there are
   * (polled as releases are, so a `tenant:remove` beside the hosts is seen). Holds nothing up: the checks read the
   * database in the background.
   */
  watchRuleNames(): void {
    if (!this.started) {
      throw new Error('checkRuleNames() before app.ready() has finished: the slots in force are not known yet.');
    }
    this.watching = true;
    this.ruleNames.start();
  }

  /** An app used directly (not through startServer) checks on its first request, against what it seeded. */
  noteRequest(): void {
    if (this.started && !this.watching) this.watchRuleNames();
  }

  mountRoutes(app: Express): void {
    const { tenants, flags } = this.parts;
    app.use(createPlacementsRouter({ service: this.service, store: this.store, tenants, flags }));
  }

  async close(): Promise<void> {
    this.service.close();
    await this.ruleNames.close();
  }
}
