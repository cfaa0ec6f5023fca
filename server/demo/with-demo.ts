import type { StartServerOptions } from '../start-server';
import { registerDemoContent } from './register-demo-content';
import { seedDemoData, type DemoAccount } from './seed-demo-data';

/**
 * The start-up of an entry that serves the demo, as `npm start` does: the demo's slots, resources and navigation
 * are registered before the entry's own, the demo data is seeded once the app is ready (with `DEMO_PASSWORD` for a
 * new `admin`) before the entry's own seeding, and the start message says how to sign in as `admin`. A demo tenant the
 * seed leaves out is warned of in the start's log.
 */
export function withDemo(options: StartServerOptions = {}): StartServerOptions {
  let account: DemoAccount | undefined;
  return {
    ...options,
    configure: async (app, config) => {
      registerDemoContent(app);
      await options.configure?.(app, config);
    },
    afterReady: async (app, config) => {
      account = await seedDemoData(app, {
        adminPassword: config.demoPassword,
        onTenantLeftOut: (message) => app.logger.warn(message),
      });
      await options.afterReady?.(app, config);
    },
    signInAccount: () => account,
  };
}
