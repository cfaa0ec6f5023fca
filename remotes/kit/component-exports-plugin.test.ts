/**
 * @jest-environment node
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import webpack, { type Stats } from 'webpack';
import { missingComponentExportMessage } from './component-exports-plugin';
import { remoteWebpackConfig, type BuildMode } from './webpack';

jest.setTimeout(120_000);

const ROOT = path.join(__dirname, '../..');

/** Each fixture component's file: what a team might write. */
const SOURCES = {
  // The tester's case: the file builds, but the host finds nothing to render.
  Widget: 'export const something = 1;\nexport function helper() { return something; }\n',
  // A module (it imports) with side effects only.
  Empty: "import Forwarded from '../lib/forwarded';\nconsole.log(Forwarded.name);\n",
  // What the host renders: a default export, a named export with the component's name, either re-exported.
  Plain: 'export default function Plain() { return null; }\n',
  Named: 'export function Named() { return null; }\n',
  Renamed: 'function Inner() { return null; }\nexport { Inner as Renamed };\n',
  Forwarded: "export { default } from '../lib/forwarded';\n",
  // CommonJS: webpack cannot tell its exports, so the build leaves it to run time.
  Legacy: 'module.exports = { Legacy: () => null };\n',
} as const;

let project: string;

beforeAll(() => {
  project = mkdtempSync(path.join(os.tmpdir(), 'slots-component-exports-'));
  mkdirSync(path.join(project, 'components'));
  mkdirSync(path.join(project, 'lib'));
  writeFileSync(path.join(project, 'lib', 'forwarded.ts'), 'export default function Forwarded() { return null; }\n');
  for (const [component, source] of Object.entries(SOURCES)) {
    writeFileSync(path.join(project, 'components', `${component}.tsx`), source);
  }
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

function build(components: string[], mode: BuildMode): Promise<Stats> {
  const config = remoteWebpackConfig({
    remote: { name: 'fixture_exports', components, formComponents: [] },
    dir: project,
    mode,
    outputPath: path.join(project, `dist-${mode}`),
    extraModuleFolders: [path.join(ROOT, 'node_modules')],
  });
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error || !stats) reject(error ?? new Error('webpack gave no stats'));
      else resolve(stats);
    });
  });
}

/** The build's error messages, in webpack's order (by module). */
const errorsOf = (stats: Stats) => stats.compilation.errors.map((error) => error.message);

describe('a remote build (remote kit preset)', () => {
  it('fails for each declared component whose file has neither a default export nor one named after it', async () => {
    const stats = await build(Object.keys(SOURCES), 'production');
    expect(stats.hasErrors()).toBe(true);
    expect(errorsOf(stats)).toEqual([
      missingComponentExportMessage('Empty', 'components/Empty.tsx', []),
      missingComponentExportMessage('Widget', 'components/Widget.tsx', ['helper', 'something']),
    ]);
    expect(errorsOf(stats)[1]).toBe(
      'Component "Widget" has no export to render in components/Widget.tsx: the host renders its default export ' +
        'or its named export "Widget", and it exports only "helper", "something". Export the component as ' +
        '`export default` or `export function Widget`, or remove "Widget" from remote.ts.',
    );
    // Webpack's own report names the module, as it does for a file not found.
    expect(stats.toString('errors-only')).toMatch(/ERROR in \.\/components\/Widget\.tsx/);
  });

  it('builds components exported by default, by their name, re-exported, or whose exports webpack cannot tell', async () => {
    const stats = await build(['Plain', 'Named', 'Renamed', 'Forwarded', 'Legacy'], 'production');
    expect(errorsOf(stats)).toEqual([]);
  });

  it('fails a development build too (slots-remote dev)', async () => {
    const stats = await build(['Named', 'Widget'], 'development');
    expect(errorsOf(stats)).toEqual([
      missingComponentExportMessage('Widget', 'components/Widget.tsx', ['helper', 'something']),
    ]);
  });
});

describe('slots-remote build', () => {
  it('exits 1 and names the component, its file and the export it needs', async () => {
    writeFileSync(
      path.join(project, 'remote.ts'),
      "export default { name: 'fixture_exports', components: ['Named', 'Widget'], formComponents: [] };\n",
    );
    const cli = path.join(__dirname, 'cli.ts');
    const tsx = pathToFileURL(require.resolve('tsx')).href;
    const child = spawn(process.execPath, ['--import', tsx, cli, 'build'], {
      cwd: project,
      env: { PATH: process.env.PATH ?? '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stdout).not.toMatch(/Built/);
    expect(stderr).toContain(
      `error: ${missingComponentExportMessage('Widget', 'components/Widget.tsx', ['helper', 'something'])}\n`,
    );
    expect(stderr).toMatch(/Build failed/);
  });
});
