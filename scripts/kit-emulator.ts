/**
 * The host emulator of the remote kit, built when the kit is packed (scripts/kit-pack.ts) into the package's
 * `emulator/` folder, which `slots-remote dev` serves. It is a small federated host made of the product's own code
 * (host/core's slot renderer, host/loader's module loader and live reload, remotes/kit/emulator's page), bundled
 * here with React and the federation runtime: a team's project installs no more packages for it, and needs no
 * product checkout.
 */
import path from 'node:path';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import webpack, { type Configuration } from 'webpack';
import { hostFederationPlugin } from '../build/host-federation-plugin';
import { EMULATOR_PATH } from '../remotes/kit/dev-server';
import { baseConfiguration, sharedReact } from '../remotes/kit/webpack';

const ROOT_DIR = path.resolve(__dirname, '..');

/** Development React: its warnings (a missing key, a bad hook call) are what a team wants while developing. */
export function emulatorConfiguration(outputPath: string): Configuration {
  return {
    ...baseConfiguration('development', 'slots-emulator', ROOT_DIR, [path.join(ROOT_DIR, 'node_modules')]),
    // What ships in the package: no source maps of the product, no cache folder left in the repository.
    devtool: false,
    cache: false,
    entry: { emulator: './remotes/kit/emulator/index.ts' },
    // Short chunk names: development mode would name them after the repository's folders.
    optimization: { chunkIds: 'deterministic', moduleIds: 'deterministic' },
    output: {
      path: outputPath,
      publicPath: EMULATOR_PATH,
      filename: '[name].js',
      chunkFilename: '[name].js',
      uniqueName: 'slots_emulator',
      clean: true,
    },
    plugins: [
      // The product's host's own federation settings (webpack.config.ts uses the same): a remote meets the same host.
      hostFederationPlugin({ rootDir: ROOT_DIR, sharedReact }),
      new HtmlWebpackPlugin({
        template: './remotes/kit/emulator/index.html',
        filename: 'index.html',
        inject: 'head',
        scriptLoading: 'defer',
      }),
    ],
  };
}

/** Builds the emulator into `outputPath`; throws with webpack's errors when the build fails. */
export function buildEmulator(outputPath: string): Promise<void> {
  const compiler = webpack(emulatorConfiguration(outputPath));
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error || !stats) reject(error ?? new Error('webpack returned no stats'));
      else if (stats.hasErrors()) {
        const errors = stats.toJson({ all: false, errors: true }).errors ?? [];
        reject(new Error(`The host emulator did not build:\n${errors.map((item) => item.message).join('\n')}`));
      } else resolve();
    });
  });
}

// `tsx scripts/kit-emulator.ts <folder>`: how kit-pack.ts, which packs synchronously, runs the build.
if (require.main === module) {
  const outputPath = process.argv[2];
  if (!outputPath) throw new Error('usage: tsx scripts/kit-emulator.ts <output folder>');
  buildEmulator(path.resolve(outputPath)).catch((error: unknown) => {
    console.error((error as Error).message);
    process.exitCode = 1;
  });
}
