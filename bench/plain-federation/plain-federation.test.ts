import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import { BootPreloadPlugin } from '../../build/boot-preload-plugin';
import { BundleBudgetPlugin } from '../../build/bundle-budget-plugin';
import { makeTempDir } from '../../testing/temp-dir';
import { REPOSITORY_REMOTES, ROOT_DIR } from '../../webpack.config';
import { plainManifestUrl } from './start-plain-host';
import {
  plainHostConfiguration,
  plainHostFederation,
  plainRemoteConfiguration,
  plainRemoteFederation,
  writePlainEntry,
} from './webpack.config';

/**
 * The shape of the plain side's build. That it renders every page's slots in real Chromium, the same as the
 * product's, is checked by the page suite itself before any figure (bench/suites/page-loads.ts checkVariants): a
 * build of its own here took 80 to 90 s on the shared machine.
 */
describe('the plain Module Federation side of the page benchmark: its configuration', () => {
  const remote = REPOSITORY_REMOTES[0]!;

  it("builds the host with the plugin's defaults: none of the product's preloads, budgets or federation settings", () => {
    const config = plainHostConfiguration({ entryFile: '/entry.ts', outputDir: '/out' });
    const plugins = config.plugins ?? [];
    expect(plugins.some((plugin) => plugin instanceof BootPreloadPlugin)).toBe(false);
    expect(plugins.some((plugin) => plugin instanceof BundleBudgetPlugin)).toBe(false);
    expect(plugins.filter((plugin) => plugin instanceof ModuleFederationPlugin)).toHaveLength(1);
    // No runtime plugin, no share strategy, no eager React, no runtime target: the plugin's defaults.
    expect(plainHostFederation()).toEqual({
      name: 'plain_host',
      shared: {
        react: { singleton: true },
        'react-dom': { singleton: true },
        'react/jsx-runtime': { singleton: true },
      },
      dts: false,
    });
    expect(config.output?.path).toBe(path.join('/out', 'host'));
  });

  it('builds each remote with a manifest, the default entry name and the default chunking', () => {
    const config = plainRemoteConfiguration(remote, '/out');
    expect(config.optimization).toBeUndefined();
    expect(config.output?.publicPath).toBe('auto');
    expect(config.output?.path).toBe(path.join('/out', 'remotes', remote.descriptor.name));
    const federation = plainRemoteFederation(remote);
    expect(federation).toMatchObject({ name: remote.descriptor.name, filename: 'remoteEntry.js', manifest: true });
    expect(federation.experiments).toBeUndefined();
    expect(Object.keys(federation.exposes as Record<string, string>)).toEqual(
      remote.descriptor.components.map((component) => `./${component}`),
    );
  });

  it('registers every remote at run time by the URL of its manifest on the page origin', async () => {
    const dir = makeTempDir('plain-entry-');
    try {
      const file = await writePlainEntry({
        rootDir: ROOT_DIR,
        remotes: REPOSITORY_REMOTES,
        outputFile: path.join(dir.path, 'entry.ts'),
      });
      const entry = readFileSync(file, 'utf8');
      for (const { descriptor } of REPOSITORY_REMOTES) {
        expect(entry).toContain(`"name":"${descriptor.name}"`);
      }
      expect(entry).toContain('startPlainHost([');
      expect(plainManifestUrl('team_records', 'https://admin.example/resources/articles/1')).toBe(
        'https://admin.example/remotes/team_records/mf-manifest.json',
      );
    } finally {
      dir.remove();
    }
  });
});
