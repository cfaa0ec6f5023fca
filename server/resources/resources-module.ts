import type { Express } from 'express';
import type { Logger } from 'pino';
import type { AppModule } from '../app-module';
import { lockHolderWords, type AdvisoryLockHolder } from '../storage/advisory-lock';
import type { StartProgress } from '../process/start-progress';
import type { StorageEngine } from '../storage/storage-engine';
import type { TenantStore } from '../tenants/tenant-store';
import type { Resource } from './resource';
import { ResourceDefinitionError } from './resource-definition-error';
import { ResourceRegistry } from './resource-registry';
import { createResourcesRouter } from './resources-router';
import { StoredRecordSource } from './stored-record-source';

export interface ResourcesModuleParts {
  storage: StorageEngine;
  tenants: TenantStore;
  logger: Logger;
  settings: { bodyLimitBytes: number };
  /** The start's (App.startup): the indexing and its lock wait are long starts, listened during, and stoppable. */
  startup?: StartProgress;
}

/**
 * registerResource() after ready(); says where "before" is both for an app made with createApp and for one started by
 * startServer.
 */
export const RESOURCE_AFTER_READY = (name: string) =>
  `registerResource(${JSON.stringify(name)}) after app.ready(): register resources before app.ready() (with ` +
  'startServer, in its `configure`), so that their relations and form slots are checked with the rest.';

/**
 * What a PostgreSQL host says before waiting for another host's indexing of the search words (hosts of a new release
 * started together): it then finds them indexed, and starts. The wait has no deadline, as the migrations' has.
 */
export function wordsLockWaitMessage(holder: AdvisoryLockHolder | null): string {
  return (
    `waiting for the search words lock, held by ${lockHolderWords(holder)}: another host is indexing the search words, ` +
    'and this one starts once it has'
  );
}

/** The resources a host application registers and their records: `/api/resources/<name>/...`. */
export class ResourcesModule implements AppModule {
  readonly resources = new ResourceRegistry();
  readonly records: StoredRecordSource;
  private loaded = false;

  constructor(private readonly parts: ResourcesModuleParts) {
    this.records = new StoredRecordSource(parts.storage);
  }

  register(resource: Resource): void {
    if (this.loaded) {
      // The start checks what needs every resource (relations, form slots against the remotes): a later one would
      // skip it.
      throw new ResourceDefinitionError(RESOURCE_AFTER_READY(String(resource.name)));
    }
    this.resources.register(resource);
  }

  async load(): Promise<void> {
    this.loaded = true;
    this.resources.assertRelationsResolve();
    // Records without words, or all of them when this server splits words differently, get their words. Said before
    // and after: on the first start of a release that splits words anew this takes tens of seconds for 100,000
    // records, and a silent log then looked like a hung start. Told to the start (StartProgress) too: startServer
    // listens meanwhile, /healthz answering and /readyz saying what the start does, and may stop it.
    const startup = this.parts.startup;
    const started = Date.now();
    let announced = false;
    const indexed = await this.records.indexWords(
      async (start) => {
        announced = true;
        const why = start.wordsVersion
          ? `words version ${start.wordsVersion.from} → ${start.wordsVersion.to}`
          : 'records without words';
        const reason = `indexing the search words of ${start.records} records (${why})`;
        this.parts.logger.info({ records: start.records, wordsVersion: start.wordsVersion }, reason);
        await startup?.longStart(reason);
      },
      {
        // Another host started with this one indexes them: this one finds them indexed once it has.
        waiting: (holder) => {
          this.parts.logger.info({ lockHolder: holder }, wordsLockWaitMessage(holder));
          // Not awaited: a start stopped meanwhile ends the wait through the signal.
          startup?.longStart(wordsLockWaitMessage(holder)).catch(() => undefined);
        },
        taken: (waitedMs) =>
          this.parts.logger.info({ waitedMs }, `search words lock taken after ${(waitedMs / 1000).toFixed(1)} s`),
        ...(startup ? { signal: startup.signal } : {}),
      },
    );
    if (announced) {
      const tookMs = Date.now() - started;
      this.parts.logger.info(
        { records: indexed, tookMs },
        `search words indexed: ${indexed} records in ${(tookMs / 1000).toFixed(1)} s`,
      );
    }
  }

  mountRoutes(app: Express): void {
    app.use(
      createResourcesRouter({
        resources: this.resources,
        records: this.records,
        tenants: this.parts.tenants,
        bodyLimitBytes: this.parts.settings.bodyLimitBytes,
      }),
    );
  }
}
