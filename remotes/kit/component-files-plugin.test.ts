/**
 * @jest-environment node
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import webpack, { type Stats } from 'webpack';
import { missingComponentFileMessage } from './component-files-plugin';
import { remoteWebpackConfig } from './webpack';

jest.setTimeout(120_000);

const ROOT = path.join(__dirname, '../..');

let project: string;

beforeAll(() => {
  project = mkdtempSync(path.join(os.tmpdir(), 'slots-component-files-'));
  mkdirSync(path.join(project, 'components'));
  writeFileSync(path.join(project, 'components', 'Hello.tsx'), 'export function Hello() { return null; }\n');
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

/** The build, with what webpack's logger was given to print (the federation plugin's notes among it). */
function build(components: string[]): Promise<{ stats: Stats; logged: string[] }> {
  // The federation plugin writes its BUILD-001 report to .mf/diagnostics/ of the current folder: the fixture's.
  jest.spyOn(process, 'cwd').mockReturnValue(project);
  const compiler = webpack(
    remoteWebpackConfig({
      remote: { name: 'fixture_files', components, formComponents: [] },
      dir: project,
      mode: 'production',
      outputPath: path.join(project, 'dist'),
      extraModuleFolders: [path.join(ROOT, 'node_modules')],
    }),
  );
  const logged: string[] = [];
  // After the kit's own taps: what reaches this reaches the terminal.
  compiler.hooks.infrastructureLog.tap('test', (name, type, args) => {
    if (type === 'error' || type === 'warn') logged.push(`${name}: ${(args ?? []).map(String).join(' ')}`);
    return undefined;
  });
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      jest.restoreAllMocks();
      compiler.close(() => undefined);
      if (error || !stats) reject(error ?? new Error('webpack gave no stats'));
      else resolve({ stats, logged });
    });
  });
}

describe('a remote build of a component declared without its file', () => {
  it("fails with one error naming the component and its file, and neither webpack's nor the federation's", async () => {
    const { stats, logged } = await build(['Hello', 'Goodbye']);
    expect(stats.hasErrors()).toBe(true);
    expect(stats.compilation.errors.map((error) => error.message)).toEqual([
      missingComponentFileMessage('Goodbye', path.join('components', 'Goodbye.tsx')),
    ]);
    expect(logged.filter((line) => line.includes('BUILD-001'))).toEqual([]);
  });

  it('leaves a build whose files are all there alone', async () => {
    const { stats, logged } = await build(['Hello']);
    expect(stats.compilation.errors).toEqual([]);
    expect(logged).toEqual([]);
  });
});
