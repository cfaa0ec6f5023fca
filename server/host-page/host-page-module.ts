import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Express } from 'express';
import type { AppModule } from '../app-module';
import type { AuthModule } from '../auth/auth-module';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import type { MetaModule } from '../meta/meta-module';
import type { ReleasesModule } from '../releases/releases-module';
import type { RemotesModule } from '../remotes/remotes-module';
import type { SlotsModule } from '../slots/slots-module';
import type { TenantStore } from '../tenants/tenant-store';
import { CLIENT_ROUTES, createHostPageRouter } from './host-page-router';
import { signedInPage } from './signed-in-page';
import type { SessionLimits } from '../auth/session-time';

export interface HostPageModuleParts {
  tenants: TenantStore;
  flags: FeatureFlagStore;
  settings: { distDir: string; sourceMaps: boolean; development: boolean } & SessionLimits;
  auth: AuthModule;
  slots: SlotsModule;
  meta: MetaModule;
  remotes: RemotesModule;
  releases: ReleasesModule;
}

/**
 * What a server starting on the build at `distDir` should log when there is no host in it (undefined when there is):
 * every page would answer 503 while the API and /readyz look fine, and nothing would say that the build is missing
 * or that FRONTEND_DIR names another folder.
 */
export function missingHostWarning(distDir: string): string | undefined {
  const index = path.join(distDir, 'host', 'index.html');
  if (existsSync(index)) return undefined;
  return (
    `No admin interface to serve: ${index} is missing, so every page answers 503 until it is there. Build it ` +
    '(npm run build), or set FRONTEND_DIR to the folder the build wrote (dist/).'
  );
}

/**
 * The host's pages and files: a page knows its visitor (a signed-in one's carries their session and slot data, an
 * anonymous one's the public slots) and the remotes it loads (a canary's or a preview's for those in one).
 */
export class HostPageModule implements AppModule {
  constructor(private readonly parts: HostPageModuleParts) {}

  mountFiles(app: Express): void {
    const { tenants, flags, settings, auth, slots, meta, remotes, releases } = this.parts;
    // Exact routes only, so the host's files never load a session. One route per path, as the host's page router
    // has them: a request is named by its own page's path (`GET /login`), never by all of them joined.
    const pageSessionChain = auth.sessionChain({ for: 'page' });
    const previewHeaders = releases.previewHeaders();
    for (const clientRoute of CLIENT_ROUTES) app.get(clientRoute, pageSessionChain, previewHeaders);
    app.use(
      createHostPageRouter({
        distDir: settings.distDir,
        sourceMaps: settings.sourceMaps,
        remotes: (req) => remotes.forRequest(req) ?? remotes.registry.remotes(),
        // Placeholders naming components, remotes and errors follow the server's mode, never the host's build mode.
        showSlotDetails: settings.development,
        // Public slots only: the boot data inlined into index.html is served to anonymous visitors. The encoded
        // payload GET /slots answers from, so the page carries the same bytes.
        publicSlots: () => slots.payload.current(),
        signedIn: (req) => signedInPage(req, { tenants, flags, metaBody: meta.body, sessionLimits: settings }),
      }),
    );
  }
}
