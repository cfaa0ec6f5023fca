/**
 * Entry of server/start-server.test.ts: the product's start-up with the extension points an embedding entry uses.
 * START_ENTRY_FAIL=configure makes its registration throw, to check that a failed start exits cleanly.
 */
import { Slot } from '../../shared';
import { withDemo } from '../../server/demo';
import { startServer } from '../../server/start-server';

startServer(
  process.env,
  withDemo({
    // Its slot names a component no remote provides: what it tests is the start-up, not the slot.
    slotProblems: 'log',
    configure: (app) => {
      if (process.env.START_ENTRY_FAIL === 'configure') throw new Error('registration refused by the entry');
      app.registerSlots({ 'login-sidebar': Slot.make('EntryPromo', { from: 'configure' }) });
      // Rules naming a tenant the demo seeds after ready() ("acme"), and one no start creates ("acmee").
      app.registerSlots({
        'dashboard-after-cards': [
          Slot.make('EntryPromo').placed({ id: 'for-acme', visibleWhen: { tenants: ['acme'] } }),
          Slot.make('EntryPromo').placed({ id: 'for-acmee', visibleWhen: { tenants: ['acmee'] } }),
        ],
      });
    },
    afterReady: async (app) => {
      // The demo data is seeded by now: the entry can build on it.
      process.stdout.write(`after ready: ${(await app.tenants.list()).length} tenants\n`);
    },
  }),
).catch((error: unknown) => {
  process.stderr.write(`The entry could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
