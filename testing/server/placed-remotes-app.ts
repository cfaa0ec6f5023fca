import { Slot } from '../../shared';
import { createFixtureDist, type FixtureDist } from './fixture-dist';
import { addPlacedRemotes } from './placements-fixtures';
import { createTestApp, type TestApp } from './test-app';

export interface PlacedRemotesApp {
  dist: FixtureDist;
  testApp: TestApp;
  /** Closes the app, then removes the fixture dist. */
  close(): Promise<void>;
}

/**
 * An app whose dist holds the placed remotes (addPlacedRemotes), with team_billing in REMOTES_CONFIG placing nothing
 * (placements as data place its slots) and a Welcome slot registered by code at `location`: what the tests of
 * placement rules edit and publish against.
 */
export async function startPlacedRemotesApp(location: string): Promise<PlacedRemotesApp> {
  const dist = createFixtureDist();
  addPlacedRemotes(dist);
  try {
    const testApp = await createTestApp({
      distDir: dist.dir,
      env: { REMOTES_CONFIG: dist.write('remotes.json', JSON.stringify({ remotes: [{ name: 'team_billing' }] })) },
      configure: (app) => app.registerSlots({ [location]: Slot.make('Welcome') }),
    });
    return {
      dist,
      testApp,
      close: async () => {
        await testApp.close();
        dist.remove();
      },
    };
  } catch (error) {
    dist.remove();
    throw error;
  }
}
