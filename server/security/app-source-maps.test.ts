/**
 * Source maps hand out the source of the host and the remotes: a production server does not serve them unless
 * SERVE_SOURCE_MAPS says so; outside production they are served, for debugging.
 */
import request from 'supertest';
import { readConfig } from '../env-config';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { createTestApp, type TestApp } from '../../testing/server/test-app';

const MAPS = ['/assets/main.89abcdef01.js.map', '/remotes/team_records/remoteEntry.js.map'];

describe('source maps of the build output', () => {
  let dist: FixtureDist;
  let testApp: TestApp | undefined;

  beforeEach(() => {
    dist = createFixtureDist();
    dist.addHost();
    dist.addRemote({ name: 'team_records', components: ['CopyLinkAction'], formComponents: [] });
    dist.write('host/assets/main.89abcdef01.js.map', '{"version":3,"sources":["host/index.ts"]}');
    dist.write('remotes/team_records/remoteEntry.js.map', '{"version":3,"sources":["remote.ts"]}');
  });

  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
    dist.remove();
  });

  async function statuses(options: { nodeEnv: string; serveSourceMaps?: boolean }): Promise<number[]> {
    testApp = await createTestApp({ distDir: dist.dir, ...options });
    const http = request(testApp.app.handler);
    // The files beside them are served either way.
    expect((await http.get('/assets/main.89abcdef01.js')).status).toBe(200);
    expect((await http.get('/remotes/team_records/remoteEntry.js')).status).toBe(200);
    return Promise.all(MAPS.map(async (path) => (await http.get(path)).status));
  }

  it('are not served in production: 404, as for a file that is not there', async () => {
    expect(await statuses({ nodeEnv: 'production' })).toEqual([404, 404]);
  });

  it('are served in production when the option says so, and outside production', async () => {
    expect(await statuses({ nodeEnv: 'production', serveSourceMaps: true })).toEqual([200, 200]);
    await testApp?.close();
    expect(await statuses({ nodeEnv: 'development' })).toEqual([200, 200]);
  });

  it('SERVE_SOURCE_MAPS sets the option; unset leaves the default to the mode', () => {
    expect(readConfig({ SERVE_SOURCE_MAPS: 'true' }).serveSourceMaps).toBe(true);
    expect(readConfig({ SERVE_SOURCE_MAPS: 'false' }).serveSourceMaps).toBe(false);
    expect(readConfig({}).serveSourceMaps).toBeUndefined();
  });
});
