/**
 * @jest-environment node
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import webpack, { type Stats } from 'webpack';
import { sharedReactMismatch } from './shared-react';
import { unsharedReactDomMessage } from './shared-react-plugin';
import { remoteWebpackConfig, type BuildMode } from './webpack';

jest.setTimeout(120_000);

const ROOT = path.join(__dirname, '../..');

let project: string;

/** A package as npm installs it: its package.json and an entry file, enough for webpack to resolve it. */
function installPackage(name: string, version: string): void {
  const dir = path.join(project, 'node_modules', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version, main: 'index.js' }));
  writeFileSync(path.join(dir, 'index.js'), 'module.exports = {};\n');
}

beforeEach(() => {
  project = mkdtempSync(path.join(os.tmpdir(), 'slots-shared-react-'));
  mkdirSync(path.join(project, 'components'));
  writeFileSync(path.join(project, 'components', 'Hello.tsx'), 'export function Hello() { return null; }\n');
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

function build(mode: BuildMode): Promise<Stats> {
  const config = remoteWebpackConfig({
    remote: { name: 'fixture_react', components: ['Hello'], formComponents: [] },
    dir: project,
    mode,
    outputPath: path.join(project, `dist-${mode}`),
    // The repository's packages come after the project's own node_modules, as a standalone project's would not.
    extraModuleFolders: [path.join(ROOT, 'node_modules')],
  });
  // No cache: each test installs another React under the same folder name.
  config.cache = false;
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error || !stats) reject(error ?? new Error('webpack gave no stats'));
      else resolve(stats);
    });
  });
}

const errorsOf = (stats: Stats) => stats.compilation.errors.map((error) => error.message);

describe('a remote build on another React than the host shares', () => {
  it.each<BuildMode>(['production', 'development'])(
    'fails (%s), naming the installed and required versions and the command to fix it',
    async (mode) => {
      installPackage('react', '18.3.1');
      installPackage('react-dom', '18.3.1');
      const stats = await build(mode);
      expect(errorsOf(stats)).toEqual([sharedReactMismatch({ react: '18.3.1', 'react-dom': '18.3.1' })]);
      expect(errorsOf(stats)[0]).toContain('npm install react@^19.2.0 react-dom@^19.2.0');
    },
  );

  it("reads each package from the project's own folder: a react-dom of another major fails too", async () => {
    installPackage('react', '19.2.0');
    installPackage('react-dom', '18.3.1');
    const stats = await build('production');
    expect(errorsOf(stats)).toEqual([sharedReactMismatch({ react: '19.2.0', 'react-dom': '18.3.1' })]);
  });

  it('reads no version from a package whose package.json is not there yet (npm installing it), not the project’s', async () => {
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'fixture-remote', version: '0.1.0' }));
    installPackage('react', '19.2.4');
    // What npm leaves for a moment: the package's files, its package.json not yet written.
    mkdirSync(path.join(project, 'node_modules', 'react-dom'), { recursive: true });
    writeFileSync(path.join(project, 'node_modules', 'react-dom', 'index.js'), 'module.exports = {};\n');
    const stats = await build('development');
    expect(errorsOf(stats)).toEqual([sharedReactMismatch({ react: '19.2.4', 'react-dom': undefined })]);
    // Watched, so that the package.json written next starts a rebuild.
    expect([...stats.compilation.missingDependencies]).toContain(
      path.join(project, 'node_modules', 'react-dom', 'package.json'),
    );
  });

  it('builds with a React in the range', async () => {
    installPackage('react', '19.2.4');
    installPackage('react-dom', '19.2.4');
    expect(errorsOf(await build('production'))).toEqual([]);
  });
});

describe('a remote importing a React DOM renderer the host does not share', () => {
  it.each([
    ["import { createRoot } from 'react-dom/client';\nexport function Hello() { void createRoot; return null; }\n"],
    ["export function Hello() { void import('react-dom/client'); return null; }\n"],
  ])('fails, naming the file and what to do instead: %s', async (source) => {
    installPackage('react', '19.2.4');
    installPackage('react-dom', '19.2.4');
    const client = path.join(project, 'node_modules', 'react-dom', 'client.js');
    writeFileSync(client, 'module.exports = { createRoot() {} };\n');
    writeFileSync(path.join(project, 'components', 'Hello.tsx'), source);
    const errors = errorsOf(await build('production'));
    expect(errors).toEqual([unsharedReactDomMessage('react-dom/client', path.join('components', 'Hello.tsx'))]);
    expect(errors[0]).toMatch(/^components\/Hello\.tsx imports "react-dom\/client", which the host does not share/);
  });

  it('builds with createPortal from react-dom, which the host shares', async () => {
    installPackage('react', '19.2.4');
    installPackage('react-dom', '19.2.4');
    writeFileSync(
      path.join(project, 'components', 'Hello.tsx'),
      "import { createPortal } from 'react-dom';\nexport function Hello() { void createPortal; return null; }\n",
    );
    expect(errorsOf(await build('production'))).toEqual([]);
  });
});
