import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import webpack, { type Configuration, type Stats } from 'webpack';
import { BundleBudgetPlugin, budgetMeasurementsOf } from './bundle-budget-plugin';
import { EXPOSED_COMPONENT_MAX_GZIP, hostBudgets, remoteBudgets, type BundleBudget } from './bundle-budgets';

jest.setTimeout(60_000);

/** Base64 of random bytes: gzip cannot shrink it much, so its gzip size is known to within a few percent. */
function incompressibleModule(gzipKiB: number): string {
  return `export default ${JSON.stringify(randomBytes(gzipKiB * 1024).toString('base64'))};\n`;
}

function compile(config: Configuration): Promise<Stats> {
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error || !stats) reject(error ?? new Error('webpack gave no stats'));
      else resolve(stats);
    });
  });
}

function baseConfig(dir: string, budgets: BundleBudget[]): Configuration {
  return {
    mode: 'production',
    context: dir,
    target: 'web',
    devtool: false,
    output: { path: path.join(dir, 'dist'), publicPath: 'auto', clean: true },
    plugins: [new BundleBudgetPlugin(budgets)],
    infrastructureLogging: { level: 'error' },
  };
}

describe('BundleBudgetPlugin', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'bundle-budget-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function buildRemote(components: Record<string, string>): Promise<Stats> {
    const exposes: Record<string, string> = {};
    for (const [name, source] of Object.entries(components)) {
      await writeFile(path.join(dir, `${name}.js`), source);
      exposes[`./${name}`] = `./${name}.js`;
    }
    const config = baseConfig(dir, remoteBudgets('fixture_remote'));
    config.entry = {};
    config.plugins?.push(
      new ModuleFederationPlugin({ name: 'fixture_remote', filename: 'remoteEntry.js', exposes, dts: false }),
    );
    return compile(config);
  }

  it('fails a build whose exposed component is over its gzip budget, and emits nothing', async () => {
    const stats = await buildRemote({
      Small: 'export default function Small() { return "small"; }\n',
      Big: incompressibleModule(30),
    });

    expect(stats.hasErrors()).toBe(true);
    const messages = stats.compilation.errors.map((error) => error.message);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/^Bundle budget exceeded: fixture_remote exposed component Big is \d+\.\d KB gzip/);
    expect(messages[0]).toContain('over its budget of 20.0 KB');

    const measurements = budgetMeasurementsOf(stats.compilation);
    expect(measurements.map((measurement) => measurement.label)).toEqual([
      'fixture_remote remoteEntry.js',
      'fixture_remote exposed component Big',
      'fixture_remote exposed component Small',
    ]);
    const big = measurements.find((measurement) => measurement.label.endsWith('Big'));
    expect(big?.gzipBytes).toBeGreaterThan(EXPOSED_COMPONENT_MAX_GZIP);
    expect(big?.files.length).toBeGreaterThan(0);
    // Production builds do not emit on errors: an over-budget build leaves no deployable output behind.
    expect(existsSync(path.join(dir, 'dist', 'remoteEntry.js'))).toBe(false);
  });

  it('passes a build whose every part is within budget, and reports the sizes', async () => {
    const stats = await buildRemote({
      Small: 'export default function Small() { return "small"; }\n',
      Medium: incompressibleModule(8),
    });

    expect(stats.compilation.errors).toEqual([]);
    const measurements = budgetMeasurementsOf(stats.compilation);
    const medium = measurements.find((measurement) => measurement.label.endsWith('Medium'));
    expect(medium?.gzipBytes).toBeGreaterThan(7 * 1024);
    expect(medium?.gzipBytes).toBeLessThan(EXPOSED_COMPONENT_MAX_GZIP);
    expect(existsSync(path.join(dir, 'dist', 'remoteEntry.js'))).toBe(true);
  });

  it('counts the chunks an entrypoint loads after start when includeAsync is set', async () => {
    await writeFile(path.join(dir, 'index.js'), 'import("./bootstrap");\n');
    await writeFile(path.join(dir, 'bootstrap.js'), incompressibleModule(12));
    const budgets: BundleBudget[] = [
      { label: 'entry alone', target: { kind: 'entrypoint', name: 'main', includeAsync: false }, maxGzipBytes: 10_240 },
      ...hostBudgets('main').map((budget) => ({ ...budget, maxGzipBytes: 10_240 })),
    ];
    const config = baseConfig(dir, budgets);
    config.entry = { main: './index.js' };
    const stats = await compile(config);

    const [entryAlone, withAsync] = budgetMeasurementsOf(stats.compilation);
    expect(entryAlone?.files).toHaveLength(1);
    expect(entryAlone?.gzipBytes).toBeLessThan(10_240);
    expect(withAsync?.label).toBe('host initial JavaScript');
    expect(withAsync?.files).toHaveLength(2);
    expect(withAsync?.gzipBytes).toBeGreaterThan(12 * 1024);
    const messages = stats.compilation.errors.map((error) => error.message);
    expect(messages).toEqual([expect.stringMatching(/^Bundle budget exceeded: host initial JavaScript is/)]);
  });

  it('leaves development-only chunks out of the initial JavaScript and measures them on their own', async () => {
    await writeFile(path.join(dir, 'index.js'), 'import("./bootstrap");\n');
    await writeFile(
      path.join(dir, 'bootstrap.js'),
      'export const check = () => import(/* webpackChunkName: "dev-only-check" */ "./check");\n',
    );
    await writeFile(path.join(dir, 'check.js'), incompressibleModule(12));
    const config = baseConfig(dir, hostBudgets('main'));
    config.entry = { main: './index.js' };
    const stats = await compile(config);

    const [initial, devOnly] = budgetMeasurementsOf(stats.compilation);
    expect(initial?.label).toBe('host initial JavaScript');
    expect(initial?.files).toHaveLength(2);
    expect(initial?.gzipBytes).toBeLessThan(4 * 1024);
    expect(devOnly?.label).toBe('host development-only chunk check');
    expect(devOnly?.gzipBytes).toBeGreaterThan(12 * 1024);
    expect(stats.compilation.errors).toEqual([]);
  });

  it('leaves tool pages out of the initial JavaScript, each judged by its own budget', async () => {
    await writeFile(path.join(dir, 'index.js'), 'import("./bootstrap");\n');
    await writeFile(
      path.join(dir, 'bootstrap.js'),
      'export const open = () => import(/* webpackChunkName: "tool-page-inspector" */ "./inspector");\n',
    );
    await writeFile(path.join(dir, 'inspector.js'), incompressibleModule(21));
    const config = baseConfig(dir, hostBudgets('main'));
    config.entry = { main: './index.js' };
    const stats = await compile(config);

    const [initial, toolPage] = budgetMeasurementsOf(stats.compilation);
    expect(initial?.gzipBytes).toBeLessThan(4 * 1024);
    expect(toolPage?.label).toBe('host tool page inspector');
    expect(toolPage?.gzipBytes).toBeGreaterThan(20 * 1024);
    // Over its own 20 KiB: the build fails for the tool page, not for every page.
    const messages = stats.compilation.errors.map((error) => error.message);
    expect(messages).toEqual([expect.stringMatching(/^Bundle budget exceeded: host tool page inspector is/)]);
  });

  it('measures a library a tool page loads by its own budget, outside the tool page and the initial JavaScript', async () => {
    await writeFile(path.join(dir, 'index.js'), 'import("./bootstrap");\n');
    await writeFile(
      path.join(dir, 'bootstrap.js'),
      'export const open = () => import(/* webpackChunkName: "tool-page-editor" */ "./editor");\n',
    );
    await writeFile(
      path.join(dir, 'editor.js'),
      'export const forms = () => import(/* webpackChunkName: "tool-library-forms" */ "./forms");\n',
    );
    await writeFile(path.join(dir, 'forms.js'), incompressibleModule(30));
    const config = baseConfig(dir, hostBudgets('main'));
    config.entry = { main: './index.js' };
    const stats = await compile(config);

    const measurements = budgetMeasurementsOf(stats.compilation);
    const labelled = (label: string) => measurements.find((measurement) => measurement.label === label);
    expect(labelled('host initial JavaScript')?.gzipBytes).toBeLessThan(4 * 1024);
    expect(labelled('host tool page editor')?.gzipBytes).toBeLessThan(4 * 1024);
    expect(labelled('host tool library forms')?.gzipBytes).toBeGreaterThan(30 * 1024);
    expect(stats.compilation.errors).toEqual([]);
  });

  it('fails when a budget names something the build does not have, rather than passing silently', async () => {
    await writeFile(path.join(dir, 'index.js'), 'export const value = 1;\n');
    const config = baseConfig(dir, [
      ...hostBudgets('app'),
      { label: 'worker', target: { kind: 'asset', file: 'worker.js' }, maxGzipBytes: 1024 },
    ]);
    config.entry = { main: './index.js' };
    const stats = await compile(config);

    expect(stats.compilation.errors.map((error) => error.message)).toEqual([
      'Bundle budget "host initial JavaScript": this build has no entrypoint "app".',
      'Bundle budget "worker": this build has no file "worker.js".',
    ]);
  });
});
