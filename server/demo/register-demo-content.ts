import type { App } from '../app';
import { ArticlesResource } from './articles-resource';
import { AuthorsResource } from './authors-resource';
import { CONTENT_MODULE, OVERVIEW_DASHBOARD } from './demo-navigation';
import { demoSlots } from './demo-slots';

/**
 * Registers the demo's slots, resources, module and dashboard: what a host application does with its own.
 * Resources come before the module that lists them.
 */
export function registerDemoContent(app: App): void {
  app
    .registerSlots(demoSlots())
    .registerResource(new ArticlesResource())
    .registerResource(new AuthorsResource())
    .registerModule(CONTENT_MODULE)
    .registerDashboard(OVERVIEW_DASHBOARD);
}
