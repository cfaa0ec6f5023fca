import type { Express, Request } from 'express';
import type { Logger } from 'pino';
import type { AppModule } from '../app-module';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import type { ResourcesModule } from '../resources/resources-module';
import type { SlotsModule } from '../slots/slots-module';
import type { TenantStore } from '../tenants/tenant-store';
import { DashboardRegistry } from './dashboard-registry';
import { MetaBodyCache } from './meta-body-cache';
import { addMetaRoute } from './meta-router';
import { ModuleRegistry } from './module-registry';
import { servedSlots, type ServedSlots } from './served-slots';

export interface MetaModuleParts {
  logger: Logger;
  tenants: TenantStore;
  flags: FeatureFlagStore;
  slots: SlotsModule;
  resources: ResourcesModule;
}

/**
 * What a signed-in page asks first, `GET /meta`: the navigation (modules of resources), the dashboards and every
 * location's slots this viewer may see, encoded once per tenant and kept until something it reads changes.
 */
export class MetaModule implements AppModule {
  readonly navigation: ModuleRegistry;
  readonly dashboards: DashboardRegistry;
  /** The encoded `/meta` bodies per tenant (rebuilt when dashboards, modules or slots change). */
  readonly body: MetaBodyCache;

  constructor(private readonly parts: MetaModuleParts) {
    this.navigation = new ModuleRegistry(parts.resources.resources);
    this.dashboards = new DashboardRegistry(parts.resources.records, { logger: parts.logger });
    this.body = new MetaBodyCache({
      slots: parts.slots.payload,
      modules: this.navigation,
      dashboards: this.dashboards,
    });
  }

  /** The slots this request's visitor is served: every location's when signed in, the public ones otherwise. */
  servedSlots(req: Request): Promise<ServedSlots> {
    const { tenants, flags, slots } = this.parts;
    return servedSlots(req, { tenants, flags, metaBody: this.body, slotsPayload: slots.payload });
  }

  mountRoutes(app: Express): void {
    addMetaRoute(app, { body: this.body, tenants: this.parts.tenants, flags: this.parts.flags });
  }
}
