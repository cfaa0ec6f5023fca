/**
 * @jest-environment node
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import webpack, { type Stats } from 'webpack';
import { replaceFederationEnv } from './host-federation-plugin';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '..');

describe('replaceFederationEnv', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'federation-env-'));
    // The sdk's logger and the runtime import its environment module from inside the sdk; so does its index.
    await writeFile(
      path.join(dir, 'index.js'),
      "import { isDebugMode, logger } from '@module-federation/sdk';\nwindow.debug = isDebugMode();\nwindow.log = logger;\n",
    );
    await writeFile(
      path.join(dir, 'replacement.js'),
      [
        'export const isBrowserEnvValue = true;',
        'export const isBrowserEnv = () => true;',
        'export const isReactNativeEnv = () => false;',
        'export const isDebugMode = () => "the host copy answers";',
        'export const getProcessEnv = () => ({});',
      ].join('\n'),
    );
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function compile(replace: boolean): Promise<Stats> {
    return new Promise((resolve, reject) => {
      webpack(
        {
          mode: 'none',
          context: dir,
          target: 'web',
          devtool: false,
          entry: { main: './index.js' },
          resolve: { modules: ['node_modules', path.join(ROOT, 'node_modules')] },
          output: { path: path.join(dir, 'dist'), filename: '[name].js' },
          plugins: replace
            ? [{ apply: (compiler) => replaceFederationEnv(compiler, path.join(dir, 'replacement.js')) }]
            : [],
          infrastructureLogging: { level: 'error' },
        },
        (error, stats) => {
          if (error || !stats) reject(error ?? new Error('webpack gave no stats'));
          else if (stats.hasErrors()) reject(new Error(stats.toString({ all: false, errors: true })));
          else resolve(stats);
        },
      );
    });
  }

  it('gives every module of the sdk the host copy of its environment module: no storage read is bundled', async () => {
    await compile(false);
    const original = await readFile(path.join(dir, 'dist', 'main.js'), 'utf8');
    expect(original).toContain('localStorage');

    await compile(true);
    const bundle = await readFile(path.join(dir, 'dist', 'main.js'), 'utf8');
    expect(bundle).toContain('the host copy answers');
    expect(bundle).not.toContain('localStorage');
  });
});
