/**
 * `npm run build`: the host and every remote, for production, with a progress line per build. Exits non-zero on any
 * compilation error, printing the errors.
 *
 *   npm run build                      everything
 *   npm run build -- team_records      only the named builds (webpack.config.ts configuration names: host, a remote's name)
 */
import webpack, { type Configuration, type MultiStats } from 'webpack';
import { createConfigurations } from '../webpack.config';

const PROGRESS_STEP = 10;

function withProgress(config: Configuration): Configuration {
  const name = config.name ?? 'build';
  let lastShown = -PROGRESS_STEP;
  const progress = new webpack.ProgressPlugin((fraction, message) => {
    const percent = Math.floor(fraction * 100);
    // Whole steps only: readable in CI logs, where carriage-return animations become noise.
    if (percent - lastShown < PROGRESS_STEP && percent !== 100) return;
    lastShown = percent;
    process.stdout.write(`[${name}] ${String(percent).padStart(3)}% ${message}\n`);
  });
  return { ...config, plugins: [...(config.plugins ?? []), progress] };
}

function run(configs: Configuration[]): Promise<MultiStats> {
  return new Promise((resolve, reject) => {
    const compiler = webpack(configs);
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error || !stats) reject(error ?? new Error('webpack returned no stats'));
      else resolve(stats);
    });
  });
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
  const all = createConfigurations('production');
  const unknown = wanted.filter((name) => !all.some((config) => config.name === name));
  if (unknown.length > 0) {
    throw new Error(`Unknown build ${unknown.join(', ')}. Builds: ${all.map((config) => config.name).join(', ')}.`);
  }
  const configs = (wanted.length > 0 ? all.filter((config) => wanted.includes(config.name ?? '')) : all).map(
    withProgress,
  );
  const started = Date.now();
  console.log(`Building ${configs.map((config) => config.name).join(', ')} for production…`);
  const stats = await run(configs);

  let failed = false;
  for (const child of stats.stats) {
    const { name } = child.compilation;
    const info = child.toJson({ all: false, errors: true, warnings: true });
    for (const warning of info.warnings ?? []) console.warn(`[${name}] warning: ${warning.message}`);
    if (child.hasErrors()) {
      failed = true;
      for (const error of info.errors ?? []) console.error(`[${name}] error: ${error.message}`);
      continue;
    }
    const outputPath = child.compilation.outputOptions.path ?? '';
    const files = child.compilation.getAssets().filter((asset) => !asset.name.endsWith('.map'));
    const bytes = files.reduce((sum, asset) => sum + asset.source.size(), 0);
    console.log(`[${name}] built ${files.length} files (${(bytes / 1024).toFixed(0)} KiB) in ${outputPath}`);
  }
  if (failed) throw new Error('The build failed; see the errors above.');
  console.log(`Build finished in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (process.env.DEBUG ? error.stack : error.message) : error);
  process.exitCode = 1;
});
