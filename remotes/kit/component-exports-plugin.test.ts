/**
 * @jest-environment node
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import webpack, { type Stats } from 'webpack';
import { literalComponentExportMessage, missingComponentExportMessage } from './component-exports-plugin';
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
  // The tester's second case: an export of the component's name, but an object no page can render.
  NotAComponent: "export const NotAComponent = { title: 'Not a component' };\n",
  // Literals under both names the host looks at, one through a local constant.
  Titled: "const Titled = ['a', 'b'] as const;\nexport { Titled };\nexport default `Titled`;\n",
  // A literal under the name, a component by default: the host falls back to the default export.
  Mixed: 'export const Mixed = { size: 2 };\nexport default function MixedComponent() { return null; }\n',
  // React's own objects: memo from a call, and an object carrying `$$typeof`.
  Memo: "import { memo } from 'react';\nexport const Memo = memo(() => null);\n",
  Tagged: "export const Tagged = { $$typeof: Symbol.for('react.memo'), type: () => null, compare: null };\n",
  // A variable that may change: left to run time.
  Reassigned: 'export let Reassigned: unknown = {};\nReassigned = () => null;\n',
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
      literalComponentExportMessage('NotAComponent', 'components/NotAComponent.tsx', {
        NotAComponent: 'an object literal',
      }),
      literalComponentExportMessage('Titled', 'components/Titled.tsx', { Titled: 'an array', default: 'a string' }),
      missingComponentExportMessage('Widget', 'components/Widget.tsx', ['helper', 'something']),
    ]);
    expect(errorsOf(stats).at(-1)).toBe(
      'Component "Widget" has no export to render in components/Widget.tsx: the host renders its default export ' +
        'or its named export "Widget", and it exports only "helper", "something". Export the component as ' +
        '`export default` or `export function Widget`, or remove "Widget" from remote.ts.',
    );
    // Webpack's own report names the module, as it does for a file not found.
    expect(stats.toString('errors-only')).toMatch(/ERROR in \.\/components\/Widget\.tsx/);
  });

  it('says what the export is when it is a literal the host cannot render', () => {
    expect(
      literalComponentExportMessage('NotAComponent', 'components/NotAComponent.tsx', {
        NotAComponent: 'an object literal',
      }),
    ).toBe(
      'Component "NotAComponent" has no export to render in components/NotAComponent.tsx: the host renders its ' +
        'named export "NotAComponent", else its default export, when it is a component (a function, a class, or ' +
        'React\'s memo, forwardRef or lazy), and "NotAComponent" is an object literal. Export the component itself ' +
        'as `export default` or `export function NotAComponent`, or remove "NotAComponent" from remote.ts.',
    );
  });

  it('builds components exported by default, by their name, re-exported, or whose exports webpack cannot tell', async () => {
    const components = ['Plain', 'Named', 'Renamed', 'Forwarded', 'Legacy', 'Mixed', 'Memo', 'Tagged', 'Reassigned'];
    const stats = await build(components, 'production');
    expect(errorsOf(stats)).toEqual([]);
  });

  it('fails a development build too (slots-remote dev), again when its modules come from the cache', async () => {
    const expected = [
      literalComponentExportMessage('NotAComponent', 'components/NotAComponent.tsx', {
        NotAComponent: 'an object literal',
      }),
      missingComponentExportMessage('Widget', 'components/Widget.tsx', ['helper', 'something']),
    ];
    const first = await build(['Named', 'NotAComponent', 'Widget'], 'development');
    expect(errorsOf(first)).toEqual(expected);
    // A new compiler on the same filesystem cache, as `slots-remote dev` restarted: the file is not parsed again.
    const second = await build(['Named', 'NotAComponent', 'Widget'], 'development');
    const file = path.join(project, 'components', 'NotAComponent.tsx');
    const module = [...second.compilation.modules].find((candidate) => candidate.nameForCondition() === file);
    expect(module).toBeDefined();
    expect(second.compilation.builtModules.has(module!)).toBe(false);
    expect(errorsOf(second)).toEqual(expected);
  });
  it('reports a file saved with a typo under watch by its syntax error alone, not as one that exports nothing', async () => {
    const file = path.join(project, 'components', 'Typo.tsx');
    writeFileSync(
      file,
      'export default function Typo({ name }: { name: string }) {\n  return <p>Hello, {name}</p>;\n}\n',
    );
    const compiler = webpack(
      remoteWebpackConfig({
        remote: { name: 'fixture_watch', components: ['Typo'], formComponents: [] },
        dir: project,
        mode: 'development',
        outputPath: path.join(project, 'dist-watch'),
        extraModuleFolders: [path.join(ROOT, 'node_modules')],
      }),
    );
    const builds: Stats[] = [];
    const watching = await new Promise<NonNullable<ReturnType<typeof compiler.watch>>>((resolve, reject) => {
      const watcher = compiler.watch({ aggregateTimeout: 50 }, (error, stats) => {
        if (error || !stats) return reject(error ?? new Error('webpack gave no stats'));
        builds.push(stats);
        // As a team saves a file with a typo in it, once the first build is there.
        if (builds.length === 1)
          writeFileSync(file, 'export default function Typo() {\n  return <p>Hello, {name!</p>;\n}\n');
        if (builds.length === 2 && watcher) resolve(watcher);
      });
    });
    await new Promise<void>((resolve) => watching.close(() => resolve()));
    expect(errorsOf(builds[0]!)).toEqual([]);
    const errors = errorsOf(builds[1]!);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/Typo\.tsx/);
    expect(errors[0]).not.toMatch(/has no export to render/);
  });

  it('writes nothing when a development build fails: the last good build stays served (slots-remote dev)', async () => {
    const served = (file: string) => readFileSync(path.join(project, 'dist-development', file), 'utf8');
    expect(errorsOf(await build(['Named'], 'development'))).toEqual([]);
    const good = { manifest: served('mf-manifest.json'), descriptor: served('slots-remote.json') };
    expect(good.descriptor).not.toContain('Widget');
    const failed = await build(['Named', 'Widget'], 'development');
    expect(errorsOf(failed)).toHaveLength(1);
    // A page loaded now would otherwise be told of a component that cannot load.
    expect({ manifest: served('mf-manifest.json'), descriptor: served('slots-remote.json') }).toEqual(good);
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
