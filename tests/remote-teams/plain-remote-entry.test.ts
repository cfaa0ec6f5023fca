import { mkdirSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import webpack from 'webpack';
import { startAppServer } from '../../testing/system/app-server';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import type { HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { REPO_ROOT } from '../../testing/system/repo-root';
import { waitForSlot } from '../../testing/system/slot-page';
import { startStaticServer } from '../../testing/system/static-server';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

/**
 * A remote not built with the kit: webpack's own container plugin, a plain `remoteEntry.js` (no manifest, no
 * descriptor), as an existing Module Federation project ships. What the README asks of it: the container name and
 * the `./<Component>` expose keys match the configuration, React shared as a singleton, no eval in the build; the
 * configuration lists its components. Nothing else.
 */
jest.setTimeout(120_000);

const NAME = 'legacy_widgets';
let projectDir: TempDir;
let origin: HttpFixtureServer | undefined;

beforeAll(async () => {
  projectDir = makeTempDir('slots-plain-remote-');
  const source = path.join(projectDir.path, 'src');
  mkdirSync(source);
  // Plain JavaScript with React.createElement: no JSX, no loader, as small as a remote can be.
  writeFileSync(
    path.join(source, 'Clock.js'),
    `import { createElement } from 'react';
export default function Clock({ zone }) {
  return createElement('p', { className: 'clock' }, 'Time in ' + zone + ' from a plain remoteEntry.js');
}
`,
  );
  const compiler = webpack({
    mode: 'production',
    context: projectDir.path,
    entry: {},
    devtool: false,
    resolve: { modules: [path.join(REPO_ROOT, 'node_modules')] },
    output: { path: path.join(projectDir.path, 'dist'), publicPath: 'auto', uniqueName: NAME },
    plugins: [
      new webpack.container.ModuleFederationPlugin({
        name: NAME,
        filename: 'remoteEntry.js',
        exposes: { './Clock': './src/Clock.js' },
        shared: { react: { singleton: true, requiredVersion: '^19.2.0' } },
      }),
    ],
  });
  await new Promise<void>((resolve, reject) =>
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error || stats?.hasErrors()) reject(error ?? new Error(stats?.toString('errors-only')));
      else resolve();
    }),
  );
});

afterAll(() => projectDir?.remove());

const suite = useBrowserSuite({
  startServer: async () => {
    origin = await startStaticServer(path.join(projectDir.path, 'dist'));
    return startAppServer({
      prepare: async (dir) => {
        const file = path.join(dir, 'remotes.json');
        const remote = {
          name: NAME,
          entry: `${origin?.url}/remoteEntry.js`,
          components: ['Clock'],
          slots: { 'login-before-form': [{ component: 'Clock', props: { zone: 'UTC' } }] },
        };
        await writeFile(file, JSON.stringify({ remotes: [remote] }));
        return { REMOTES_CONFIG: file };
      },
    });
  },
});

afterEach(async () => {
  await origin?.close();
  origin = undefined;
});

it('renders a component of a plain remoteEntry.js remote placed by the configuration alone', async () => {
  const { page, log } = await suite.newPage();
  await page.goto('/login');
  await waitForSlot(page, 'login-before-form', 'Clock', { hasText: 'Time in UTC from a plain remoteEntry.js' });
  // The demo's own remotes render beside it.
  await waitForSlot(page, 'login-before-form', 'LoginNotice');
  expect(log.pageErrors).toEqual([]);
});
