/** The remote entry script a federation manifest names, and where a page loads it from. */
import { fakeManifest } from '../../testing/fake-manifest';
import { manifestRemoteEntry, remoteEntryUrl } from './manifest-remote-entry';

const MANIFEST_URL = 'https://cdn.example.com/billing/1.4.0/mf-manifest.json';

function withMetaData(metaData: Record<string, unknown>) {
  const manifest = fakeManifest('team_billing', ['InvoiceBanner']);
  return { ...manifest, metaData: { ...manifest.metaData, ...metaData } };
}

describe('manifestRemoteEntry', () => {
  it('names the entry of a kit build (publicPath auto, a global container), and a production build’s hashed one', () => {
    expect(manifestRemoteEntry(fakeManifest('team_billing', ['InvoiceBanner']))).toEqual({
      file: 'remoteEntry.js',
      publicPath: 'auto',
      type: 'global',
      globalName: 'team_billing',
    });
    const hashed = fakeManifest('team_billing', [], { entryFile: 'remoteEntry.0123abcd.js' });
    expect(manifestRemoteEntry(hashed)?.file).toBe('remoteEntry.0123abcd.js');
  });

  it('joins remoteEntry.path and name', () => {
    const manifest = withMetaData({ remoteEntry: { path: 'static/js', name: 'remoteEntry.js', type: 'global' } });
    expect(manifestRemoteEntry(manifest)?.file).toBe('static/js/remoteEntry.js');
  });

  it('is null for what names no entry script a build writes', () => {
    for (const manifest of [
      null,
      'mf-manifest.json',
      [],
      { name: 'team_billing', exposes: [] },
      withMetaData({ remoteEntry: undefined }),
      withMetaData({ remoteEntry: { path: 'static', type: 'global' } }),
      withMetaData({ remoteEntry: { path: '', name: '', type: 'global' } }),
      withMetaData({ remoteEntry: { path: '..', name: 'remoteEntry.js' } }),
      withMetaData({ remoteEntry: { path: '', name: 'https://evil.example.com/x.js' } }),
    ]) {
      expect(manifestRemoteEntry(manifest)).toBeNull();
    }
  });
});

describe('remoteEntryUrl', () => {
  it('is beside the manifest for publicPath auto (or none), after an absolute publicPath otherwise', () => {
    const entry = { file: 'js/remoteEntry.js', type: 'global', globalName: 'team_billing' };
    expect(remoteEntryUrl({ ...entry, publicPath: 'auto' }, MANIFEST_URL)).toBe(
      'https://cdn.example.com/billing/1.4.0/js/remoteEntry.js',
    );
    expect(remoteEntryUrl({ ...entry, publicPath: undefined }, MANIFEST_URL)).toBe(
      'https://cdn.example.com/billing/1.4.0/js/remoteEntry.js',
    );
    expect(remoteEntryUrl({ ...entry, publicPath: 'https://assets.example.com/b/' }, MANIFEST_URL)).toBe(
      'https://assets.example.com/b/js/remoteEntry.js',
    );
  });
});
