/**
 * @jest-environment node
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/webpack';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import webpack, { type Configuration, type Stats } from 'webpack';
import { BootPreloadPlugin, bootChunkFiles } from './boot-preload-plugin';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '..');

function compile(config: Configuration): Promise<Stats> {
  return new Promise((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error || !stats) reject(error ?? new Error('webpack gave no stats'));
      else if (stats.hasErrors()) reject(new Error(stats.toString({ all: false, errors: true })));
      else resolve(stats);
    });
  });
}

describe('BootPreloadPlugin', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'boot-preload-'));
    // An entry with an async boundary, a shell behind it that uses React and loads a page on demand, and an
    // on-demand import in the entry itself.
    await writeFile(
      path.join(dir, 'index.js'),
      "import('./bootstrap');\nwindow.later = () => import('./on-demand');\n",
    );
    await writeFile(
      path.join(dir, 'bootstrap.js'),
      "import { createElement } from 'react';\nwindow.shell = createElement('p');\nwindow.page = () => import('./page');\n",
    );
    await writeFile(path.join(dir, 'page.js'), 'export const page = "a page loaded when visited";\n');
    await writeFile(path.join(dir, 'on-demand.js'), 'export const later = "loaded when asked";\n');
    await writeFile(
      path.join(dir, 'index.html'),
      '<!doctype html><html><head><title>t</title></head><body></body></html>',
    );
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function config(federation: { eager: boolean } | null): Configuration {
    return {
      mode: 'production',
      context: dir,
      target: 'web',
      devtool: false,
      entry: { main: './index.js' },
      resolve: { modules: ['node_modules', path.join(ROOT, 'node_modules')] },
      output: {
        path: path.join(dir, 'dist'),
        publicPath: '/',
        filename: '[name].js',
        chunkFilename: '[name].[contenthash:8].js',
        clean: true,
      },
      plugins: [
        ...(federation
          ? [
              new ModuleFederationPlugin({
                name: 'fixture_host',
                remotes: {},
                shared: { react: { singleton: true, eager: federation.eager, requiredVersion: '^19.2.0' } },
                dts: false,
                manifest: false,
              }),
            ]
          : []),
        new HtmlWebpackPlugin({ template: './index.html', inject: 'head', scriptLoading: 'defer', minify: false }),
        new BootPreloadPlugin({ entry: 'main', boundary: './bootstrap' }),
      ],
      infrastructureLogging: { level: 'error' },
    };
  }

  async function build(federation: { eager: boolean } | null): Promise<{ html: string; stats: Stats }> {
    const stats = await compile(config(federation));
    return { html: await readFile(path.join(dir, 'dist', 'index.html'), 'utf8'), stats };
  }

  function chunkOf(stats: Stats, moduleFile: string): string[] {
    const files: string[] = [];
    for (const chunk of stats.compilation.chunks) {
      const modules = stats.compilation.chunkGraph.getChunkModules(chunk);
      // Source modules only: federation's provide and consume modules name the file they stand for too.
      if (modules.some((module) => module.type.startsWith('javascript/') && module.identifier().endsWith(moduleFile))) {
        files.push(...[...chunk.files].filter((file) => file.endsWith('.js')));
      }
    }
    return files;
  }

  function linkHrefs(html: string): string[] {
    return [...html.matchAll(/<link rel="?preload"? as="?script"? href="?([^"> ]+)"?>/g)].map(
      (match) => match[1] ?? '',
    );
  }

  it('preloads the chunks behind the boundary and the lazily provided React, nothing loaded on demand', async () => {
    const { html, stats } = await build({ eager: false });
    const preloaded = linkHrefs(html);
    const expected = bootChunkFiles(stats.compilation, { entry: 'main', boundary: './bootstrap' });

    expect(preloaded).toEqual(expected.map((file) => `/${file}`));
    expect(expected).toEqual(expect.arrayContaining(chunkOf(stats, 'bootstrap.js')));
    expect(expected).toEqual(expect.arrayContaining(chunkOf(stats, path.join('react', 'index.js'))));
    for (const onDemand of [...chunkOf(stats, 'page.js'), ...chunkOf(stats, 'on-demand.js')]) {
      expect(preloaded).not.toContain(`/${onDemand}`);
    }
  });

  it('with eager React: only the boundary chunks, React being in the entry', async () => {
    const { html, stats } = await build({ eager: true });
    expect(chunkOf(stats, path.join('react', 'index.js'))).toContain('main.js');
    expect(linkHrefs(html)).toEqual(chunkOf(stats, 'bootstrap.js').map((file) => `/${file}`));
  });

  it('orders the head: the entry first at high priority, the preloads, then the remote hints marker', async () => {
    const { html } = await build({ eager: true });
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toMatch(/<script defer(="defer")? src="?\/main.js"? fetchpriority="?high"?><\/script>/);
    const entry = head.search(/src="?\/main.js/);
    const preload = head.search(/rel="?preload/);
    const marker = head.search(/<meta name="?slots-remote-hints"?>/);
    expect(entry).toBeGreaterThan(0);
    expect(preload).toBeGreaterThan(entry);
    expect(marker).toBeGreaterThan(preload);
  });

  it('writes no remote hints marker into a build without Module Federation', async () => {
    const { html } = await build(null);
    expect(html).not.toContain('slots-remote-hints');
    expect(linkHrefs(html)).toHaveLength(1);
    expect(html).toMatch(/fetchpriority="?high/);
  });
});
