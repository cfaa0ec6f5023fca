import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import webpack, { type Configuration, type Stats } from 'webpack';
import { BundleBudgetPlugin, budgetMeasurementsOf, HOST_BUDGET_ADVICE } from './bundle-budget-plugin';
import {
  EXPOSED_COMPONENT_MAX_GZIP,
  hostBudgets,
  remoteBudgets,
  TOOL_PAGE_CHUNK_MAX_GZIP,
  type BundleBudget,
} from './bundle-budgets';

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

function baseConfig(dir: string, budgets: BundleBudget[], advice?: string): Configuration {
  return {
    mode: 'production',
    context: dir,
    target: 'web',
    devtool: false,
    output: { path: path.join(dir, 'dist'), publicPath: 'auto', clean: true },
    plugins: [new BundleBudgetPlugin(budgets, advice === undefined ? {} : { advice })],
    infrastructureLogging: { level: 'error' },
  };
}

/** Each module whose file name matches a key goes into a chunk of that name, whichever chunks import it. */
function chunksOf(names: string[]): NonNullable<Configuration['optimization']> {
  return {
    splitChunks: {
      cacheGroups: Object.fromEntries(
        names.map((name) => [name, { test: new RegExp(`${name}\\.js$`), name, chunks: 'async', enforce: true }]),
      ),
    },
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

  async function buildRemote(
    components: Record<string, string>,
    options: { modules?: Record<string, string>; advice?: string; oneComponentsChunk?: boolean } = {},
  ): Promise<Stats> {
    const exposes: Record<string, string> = {};
    for (const [name, source] of Object.entries(components)) {
      await writeFile(path.join(dir, `${name}.js`), source);
      exposes[`./${name}`] = `./${name}.js`;
    }
    // Modules the components import, each in a chunk of its own name.
    const modules = options.modules ?? {};
    for (const [name, source] of Object.entries(modules)) await writeFile(path.join(dir, `${name}.js`), source);
    const config = baseConfig(dir, remoteBudgets('fixture_remote'), options.advice);
    config.optimization = chunksOf(Object.keys(modules));
    if (options.oneComponentsChunk) {
      // As the remote kit does: the components' own modules in one chunk, which every exposed component loads.
      const test = new RegExp(`[\\\\/](${Object.keys(components).join('|')})\\.js$`);
      Object.assign(config.optimization.splitChunks as object, {
        cacheGroups: {
          ...(config.optimization.splitChunks as { cacheGroups: object }).cacheGroups,
          components: { test, name: 'components', chunks: 'async', enforce: true },
        },
      });
    }
    config.output = { ...config.output, chunkFilename: '[name].js' };
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

  it('names the largest modules and ends with the advice given (the host gives its own by default)', async () => {
    const big = { Big: "import { rows } from './rows';\nexport default function Big() { return rows; }\n" };
    const rows = { rows: incompressibleModule(30).replace('export default', 'export const rows =') };
    const host = await buildRemote(big, { modules: rows });
    const [message] = host.compilation.errors.map((error) => error.message);
    expect(message).toMatch(
      /^Bundle budget exceeded: fixture_remote exposed component Big is \d+\.\d KB gzip, over its budget of 20\.0 KB \(files: __federation_expose_Big\.js \d+\.\d KB, rows\.js \d+\.\d KB\)\. Largest modules \(source size, before minification and gzip\): \.\/rows\.js 41\.\d KB, /,
    );
    expect(message?.endsWith(` ${HOST_BUDGET_ADVICE}`)).toBe(true);

    const remote = await buildRemote(big, { modules: rows, advice: 'Split it.' });
    const [remoteMessage] = remote.compilation.errors.map((error) => error.message);
    expect(remoteMessage?.endsWith('. Split it.')).toBe(true);
    expect(remoteMessage).not.toContain('build/bundle-budgets.ts');
  });

  it('reports once a file that several exposed components load and that is over the budget by itself', async () => {
    const importing = (name: string) =>
      `import { rows } from './rows';\nexport default function ${name}() { return rows; }\n`;
    const stats = await buildRemote(
      { Alerter: importing('Alerter'), Badge: importing('Badge'), Card: importing('Card') },
      { modules: { rows: incompressibleModule(30).replace('export default', 'export const rows =') } },
    );

    const messages = stats.compilation.errors.map((error) => error.message);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(
      /^Bundle budget exceeded: rows\.js alone is \d+\.\d KB gzip, over the 20\.0 KB budget of fixture_remote exposed component Alerter and of the 2 others that load it \(Badge, Card\): one message for all 3\. Largest modules in it \(source size, before minification and gzip\): \.\/rows\.js 41\.\d KB\. /,
    );
    // Every part is still measured, and over its budget.
    const over = budgetMeasurementsOf(stats.compilation).filter((item) => item.gzipBytes > item.maxGzipBytes);
    expect(over.map((item) => item.label)).toEqual([
      'fixture_remote exposed component Alerter',
      'fixture_remote exposed component Badge',
      'fixture_remote exposed component Card',
    ]);
  });

  it('reports together the parts over their budget with the same files, none of them over it alone', async () => {
    const importing = (name: string) =>
      `import { first } from './first';\nimport { second } from './second';\n` +
      `export default function ${name}() { return first + second; }\n`;
    const half = (name: string) => incompressibleModule(12).replace('export default', `export const ${name} =`);
    const stats = await buildRemote(
      { Alerter: importing('Alerter'), Badge: importing('Badge'), Small: 'export default () => "small";\n' },
      { modules: { first: half('first'), second: half('second') }, oneComponentsChunk: true },
    );

    const messages = stats.compilation.errors.map((error) => error.message);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(
      /^Bundle budget exceeded: fixture_remote exposed component Alerter is \d+\.\d KB gzip, over its budget of 20\.0 KB, and so is Badge, which loads the same files \(files: components\.js \d+\.\d KB, first\.js \d+\.\d KB, second\.js \d+\.\d KB\)\./,
    );
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
    await writeFile(path.join(dir, 'inspector.js'), incompressibleModule(TOOL_PAGE_CHUNK_MAX_GZIP / 1024 + 1));
    const config = baseConfig(dir, hostBudgets('main'));
    config.entry = { main: './index.js' };
    const stats = await compile(config);

    const [initial, toolPage] = budgetMeasurementsOf(stats.compilation);
    expect(initial?.gzipBytes).toBeLessThan(4 * 1024);
    expect(toolPage?.label).toBe('host tool page inspector');
    expect(toolPage?.gzipBytes).toBeGreaterThan(TOOL_PAGE_CHUNK_MAX_GZIP);
    // Over its own budget: the build fails for the tool page, not for every page.
    const messages = stats.compilation.errors.map((error) => error.message);
    expect(messages).toEqual([expect.stringMatching(/^Bundle budget exceeded: host tool page inspector is/)]);
    // The host's own advice, and the module to look at.
    expect(messages[0]).toContain(' Largest modules (source size, before minification and gzip): ./inspector.js ');
    expect(messages[0]?.endsWith(HOST_BUDGET_ADVICE)).toBe(true);
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
