import { rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import type { Configuration } from 'webpack';
import { createConfigurations, DIST_DIR, REPOSITORY_REMOTES, ROOT_DIR } from '../../webpack.config';
import { budgetMeasurementsOf } from '../../build/bundle-budget-plugin';
import { writeBundledEntry } from '../bundled-host/bundled-entry';
import { bundledHostConfiguration } from '../bundled-host/webpack.config';
import { plainConfigurations, writePlainEntry } from '../plain-federation/webpack.config';
import { compilationErrors, runWebpack } from '../harness/run-webpack';
import type { BundleSizeResult } from '../report/bench-results';

/**
 * The bench builds into folders of its own (git-ignored with the rest of dist/), laid out as the server's distDir
 * expects: a developer's `npm run build` running meanwhile can neither change what is measured nor be clobbered.
 */
export const BENCH_DIST_DIR = path.join(DIST_DIR, 'bench');
/** `npm run build`'s output: `host/` and `remotes/<name>/`. */
export const PRODUCT_DIST_DIR = path.join(BENCH_DIST_DIR, 'product');
/** The bundled host in `host/`; `remotes/` links to the product's, so the server's remote list stays valid. */
export const BUNDLED_DIST_DIR = path.join(BENCH_DIST_DIR, 'bundled');
/** The plain Module Federation setup (bench/plain-federation): its host in `host/`, its own remotes in `remotes/`. */
export const PLAIN_DIST_DIR = path.join(BENCH_DIST_DIR, 'plain');

export interface FrontEndBuild {
  bundles: BundleSizeResult[];
  /** Compilation errors (an exceeded budget is one); empty when everything built. */
  errors: string[];
}

/**
 * `npm run build`'s configurations (webpack.config.ts, whose production builds carry the bundle budgets), and the
 * two baselines of the page benchmark: the bundled host, and the plain Module Federation setup (host and remotes).
 */
export async function buildFrontEnd(): Promise<FrontEndBuild> {
  const product = createConfigurations('production').map(intoProductDir);
  const entryFile = await writeBundledEntry({
    rootDir: ROOT_DIR,
    remotes: REPOSITORY_REMOTES,
    outputFile: path.join(BUNDLED_DIST_DIR, 'src', 'entry.ts'),
  });
  const bundled = bundledHostConfiguration({ entryFile, outputDir: BUNDLED_DIST_DIR });
  const plainEntry = await writePlainEntry({
    rootDir: ROOT_DIR,
    remotes: REPOSITORY_REMOTES,
    outputFile: path.join(PLAIN_DIST_DIR, 'src', 'entry.ts'),
  });
  const plain = plainConfigurations({ entryFile: plainEntry, outputDir: PLAIN_DIST_DIR, remotes: REPOSITORY_REMOTES });
  const baselines = new Set([bundled, ...plain].map((config) => config.name));
  const stats = await runWebpack([...product, bundled, ...plain]);
  await rm(path.join(BUNDLED_DIST_DIR, 'remotes'), { recursive: true, force: true });
  await symlink(path.join(PRODUCT_DIST_DIR, 'remotes'), path.join(BUNDLED_DIST_DIR, 'remotes'), 'dir');

  const bundles: BundleSizeResult[] = stats
    .filter((child) => !baselines.has(child.compilation.name))
    .flatMap((child) =>
      budgetMeasurementsOf(child.compilation).map((measurement) => ({
        name: measurement.label,
        files: measurement.files,
        gzipBytes: measurement.gzipBytes,
        budgetBytes: measurement.maxGzipBytes,
      })),
    );
  return { bundles, errors: compilationErrors(stats) };
}

function intoProductDir(config: Configuration): Configuration {
  const outputPath = config.output?.path;
  if (!outputPath) throw new Error(`Configuration ${config.name} has no output.path.`);
  return {
    ...config,
    output: { ...config.output, path: path.join(PRODUCT_DIST_DIR, path.relative(DIST_DIR, outputPath)) },
  };
}
