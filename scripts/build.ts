/**
 * `npm run build`: the host and every remote, for production, with a progress line per build, and the server as
 * JavaScript (dist/server/, scripts/compile-server.ts). Exits non-zero on any compilation error, printing the errors.
 *
 *   npm run build                          everything
 *   npm run build -- team_records          only the named builds (webpack.config.ts configuration names: host, a
 *                                          remote's name; `server` for the server)
 *   npm run build -- --entry myapp.ts      the server with an application's own entry (dist/entry.js starts it;
 *                                          server/main.ts, the demo, by default)
 */
import path from 'node:path';
import webpack, { type Configuration, type MultiStats } from 'webpack';
import { createConfigurations } from '../webpack.config';
import { isHashedBuildFile } from '../server/http/build-output-files';
import { writePrecompressedCopies } from '../server/http/precompressed-copies';
import { buildIdentityOf, writeBuildIdentity } from './build-identity';
import { compileServer } from './compile-server';
import { takeEntryArgument } from './entry-argument';

const ROOT = path.resolve(__dirname, '..');
const SERVER_BUILD = 'server';

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

/** The command line: the builds named (none: all of them) and the server's entry, if given. */
function parseArgs(args: readonly string[]): { wanted: string[]; entry: string | undefined } {
  const { entry, rest } = takeEntryArgument(args);
  return { wanted: rest.filter((arg) => !arg.startsWith('-')), entry };
}

async function main(): Promise<void> {
  const { wanted, entry } = parseArgs(process.argv.slice(2));
  const all = createConfigurations('production');
  const names = [...all.map((config) => config.name), SERVER_BUILD];
  const unknown = wanted.filter((name) => !names.includes(name));
  if (unknown.length > 0) throw new Error(`Unknown build ${unknown.join(', ')}. Builds: ${names.join(', ')}.`);
  const buildServer = wanted.length === 0 || wanted.includes(SERVER_BUILD);
  const configs = (wanted.length > 0 ? all.filter((config) => wanted.includes(config.name ?? '')) : all).map(
    withProgress,
  );
  const started = Date.now();
  if (buildServer) {
    // Before webpack's builds, which take a minute: a server that does not compile fails the build at once.
    const serverStarted = Date.now();
    const compiled = await compileServer({ root: ROOT, outDir: path.join(ROOT, 'dist'), entry });
    console.log(
      `[${SERVER_BUILD}] compiled ${compiled.files.length} files into dist/ (entry dist/${compiled.entry}) in ` +
        `${((Date.now() - serverStarted) / 1000).toFixed(1)} s`,
    );
    // After the compile, which empties dist/server/: the server says this in its log, start message and /metrics.
    const identity = buildIdentityOf(ROOT);
    writeBuildIdentity(path.join(ROOT, 'dist'), identity);
    console.log(`[${SERVER_BUILD}] revision ${identity.revision}, built ${identity.builtAt}`);
  }
  if (configs.length === 0) return;
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
  // Compressed once here rather than by each server process after its first request for each file.
  const compressStarted = Date.now();
  let compressed = 0;
  for (const child of stats.stats) {
    const outputPath = child.compilation.outputOptions.path;
    if (outputPath) compressed += await writePrecompressedCopies(outputPath, isHashedBuildFile);
  }
  console.log(
    `Compressed ${compressed} hashed files (brotli and gzip copies beside them) in ` +
      `${((Date.now() - compressStarted) / 1000).toFixed(1)} s.`,
  );
  console.log(`Build finished in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (process.env.DEBUG ? error.stack : error.message) : error);
  process.exitCode = 1;
});
