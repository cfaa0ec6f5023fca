import type { Express } from 'express';
import type { Logger } from 'pino';
import type { AppModule } from '../app-module';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import type { ResourcesModule } from '../resources/resources-module';
import type { RemotesModule } from '../remotes/remotes-module';
import type { RemotesConfig } from '../remotes/remotes-config';
import { formatSlotProblem, type SlotProblem } from '../slots/slot-contract';
import { SlotCheckReporter, type SlotProblemsMode } from '../slots/slot-check-reporter';
import type { SlotRegistry } from '../slots/slot-registry';
import type { SlotsModule } from '../slots/slots-module';
import type { TenantStore } from '../tenants/tenant-store';
import { addLocationCatalogueRoute } from './location-catalogue';
import { configuredFormFieldProblems } from './form-field-props';
import { checkSlots, type SlotCheckSubjects } from './slot-check';
import { addSlotInspectionRoute } from './slot-inspection';
import { addSlotSchemasRoute } from './slot-schemas-router';

export interface SlotCheckModuleParts {
  logger: Logger;
  tenants: TenantStore;
  flags: FeatureFlagStore;
  settings: { slotProblems: SlotProblemsMode; development: boolean };
  slots: SlotsModule;
  resources: ResourcesModule;
  remotes: RemotesModule;
}

/**
 * Every placed slot against what the remotes offer (component, props schema, allow lists): at the start (mode `fail`
 * stops it), on each registration after it, when a remote answers late, and for a REMOTES_CONFIG reload being
 * considered; and the pages that show the outcome (the inspector, the locations catalogue, the props schemas of a
 * development server).
 */
export class SlotCheckModule implements AppModule {
  /** What the check reads; the releases and placements check their changes against the same. */
  readonly subjects: SlotCheckSubjects;
  private readonly reporter: SlotCheckReporter;

  constructor(private readonly parts: SlotCheckModuleParts) {
    const { slots, resources, remotes } = parts;
    this.subjects = {
      slots: slots.registry,
      resources: resources.resources,
      remoteRegistry: remotes.registry,
      allowLists: remotes.allowLists,
    };
    this.reporter = new SlotCheckReporter(parts.logger, parts.settings.slotProblems);
    // A remote that answered late: its code slots are checked now (after start-up they are logged, not fatal).
    remotes.onChange(() => this.reporter.afterChange(() => this.problems()));
    remotes.judgeReloadsWith({ problems: (config) => this.problems(config) });
  }

  /** The slot check against the configuration in use, or against `config` (a reload being considered). */
  problems(config?: RemotesConfig, slots: SlotRegistry = this.subjects.slots): SlotProblem[] {
    return checkSlots({ ...this.subjects, slots }, config);
  }

  load(): Promise<void> {
    // A configured form slot naming a field its resource lacks is left out of the forms, as the contract's refusals
    // are: after the start (a remote answering late) nothing else refuses it, and the reporter says it is left out.
    // Set here, once every resource is registered (none may be after the load).
    const { resources, remoteRegistry } = this.subjects;
    remoteRegistry.checkFormSlotsWith((form, remotes) => configuredFormFieldProblems(resources, form, remotes));
    // From now on a registration gets the start's check at once: a slot that cannot render is refused (mode
    // `fail`) rather than served as it comes, and nothing of the call is registered.
    this.parts.slots.guardRegistrations((candidate) => {
      const before = new Set(this.problems().map(formatSlotProblem));
      const added = this.problems(undefined, candidate).filter((problem) => !before.has(formatSlotProblem(problem)));
      this.reporter.atRegistration(added);
    });
    return Promise.resolve();
  }

  start(): void {
    this.reporter.atStart(this.problems());
    this.parts.remotes.warnOfUndeclaredRemotes();
  }

  mountRoutes(app: Express): void {
    const { tenants, flags, settings } = this.parts;
    const { slots, resources, remoteRegistry, allowLists } = this.subjects;
    addSlotInspectionRoute(app, slots, resources, remoteRegistry, tenants, allowLists, flags);
    addLocationCatalogueRoute(app, { slots, remoteRegistry, allowLists, flags }, tenants);
    // Development servers only: the schemas the host checks props against before rendering a slot.
    if (settings.development) {
      addSlotSchemasRoute(app, remoteRegistry, () => this.parts.slots.payload.current().publicSlots);
    }
  }
}
