import { createFixtureDist, exposeChunk, type FixtureDist } from '../../testing/server/fixture-dist';
import { readBuiltRemoteFiles } from './built-remote-files';
import { createBuiltRemoteFilesCache } from './built-remote-files-cache';

let dist: FixtureDist;
beforeEach(() => {
  dist = createFixtureDist();
});
afterEach(() => dist.remove());

function manifest(overrides: Record<string, unknown>): string {
  return JSON.stringify({
    name: 'team_x',
    metaData: { publicPath: 'auto', remoteEntry: { name: 'remoteEntry.js', path: '' } },
    exposes: [],
    ...overrides,
  });
}

describe('readBuiltRemoteFiles', () => {
  it("lists a built remote's manifest, entry and each expose's files as URLs on this server", () => {
    dist.addRemote({ name: 'team_x', components: ['Greeting', 'Farewell'], formComponents: [] });
    const files = readBuiltRemoteFiles(dist.dir, 'team_x');
    expect(files?.manifest).toBe('/remotes/team_x/mf-manifest.json');
    expect(files?.entry).toBe('/remotes/team_x/remoteEntry.js');
    // A global container named as the remote (what the kit builds): the runtime can load it from its entry.
    expect(files?.loadableByEntry).toBe(true);
    expect([...(files?.exposes ?? [])]).toEqual([
      ['Greeting', { js: [`/remotes/team_x/${exposeChunk('Greeting')}`], css: [] }],
      ['Farewell', { js: [`/remotes/team_x/${exposeChunk('Farewell')}`], css: [] }],
    ]);
  });

  it('follows the entry path, and keeps CSS assets', () => {
    dist.write(
      'remotes/team_x/mf-manifest.json',
      manifest({
        metaData: { publicPath: 'auto', remoteEntry: { name: 'remoteEntry.js', path: 'static/js' } },
        exposes: [
          { name: './Card', assets: { js: { sync: ['static/js/card.js'] }, css: { sync: ['static/css/card.css'] } } },
        ],
      }),
    );
    const files = readBuiltRemoteFiles(dist.dir, 'team_x');
    expect(files?.entry).toBe('/remotes/team_x/static/js/remoteEntry.js');
    // No container type or global named: only the manifest tells the runtime how to load it.
    expect(files?.loadableByEntry).toBe(false);
    expect(files?.exposes.get('Card')).toEqual({
      js: ['/remotes/team_x/static/js/card.js'],
      css: ['/remotes/team_x/static/css/card.css'],
    });
  });

  it('drops file names that are not plain relative paths', () => {
    dist.write(
      'remotes/team_x/mf-manifest.json',
      manifest({
        exposes: [
          { name: 'Card', assets: { js: { sync: ['../../host/index.html', '/etc/passwd', 'a"b.js', 'ok.js', 7] } } },
        ],
      }),
    );
    expect(readBuiltRemoteFiles(dist.dir, 'team_x')?.exposes.get('Card')).toEqual({
      js: ['/remotes/team_x/ok.js'],
      css: [],
    });
  });

  it('knows nothing of a remote without a readable manifest, or one not served beside its manifest', () => {
    expect(readBuiltRemoteFiles(dist.dir, 'team_none')).toBeNull();
    dist.write('remotes/team_x/mf-manifest.json', '{not json');
    expect(readBuiltRemoteFiles(dist.dir, 'team_x')).toBeNull();
    dist.write(
      'remotes/team_x/mf-manifest.json',
      manifest({ metaData: { publicPath: 'https://cdn.example.com/', remoteEntry: { name: 'remoteEntry.js' } } }),
    );
    expect(readBuiltRemoteFiles(dist.dir, 'team_x')).toBeNull();
  });
});

describe('createBuiltRemoteFilesCache', () => {
  it('reads a manifest again only when it changes', () => {
    dist.addRemote({ name: 'team_x', components: ['Greeting'], formComponents: [] });
    const cache = createBuiltRemoteFilesCache(dist.dir);
    const first = cache.get('team_x');
    expect(cache.get('team_x')).toBe(first);

    dist.write(
      'remotes/team_x/mf-manifest.json',
      manifest({ exposes: [{ name: 'Other', assets: { js: { sync: ['other.0123abcd45.js'] } } }] }),
    );
    expect([...(cache.get('team_x')?.exposes.keys() ?? [])]).toEqual(['Other']);
    expect(cache.get('team_gone')).toBeNull();
  });
});
