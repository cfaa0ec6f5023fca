#!/usr/bin/env node
/**
 * `slots-remote`: builds and serves a remote project made with the kit (a folder with `remote.ts` and
 * `components/<Component>.tsx`).
 *
 *   slots-remote build [--dir <folder>]                      production build into <folder>/dist
 *   slots-remote dev [--dir <folder>] [--port 4100] [--host 127.0.0.1]
 *       development build into <folder>/dev-dist, rebuilt on save, served with CORS; each rebuild is announced
 *       to the pages of a development host, which reload (live reload without a server restart). A change to
 *       remote.ts (a component added, a schema changed) is read again: the build restarts with it.
 *   slots-remote new <name> [--dir <path>]
 *       creates a standalone remote project in <path> (./<name> by default) from the kit's package alone: the same
 *       project as the product's `npm run remote:new` (see ./new-project.ts).
 *   slots-remote release [--dir <folder>] [--version <v>] [--entry <manifest URL>] [--server <origin>]
 *       publishes the build already on its origin as a release of the remote (the team token in
 *       SLOTS_RELEASE_TOKEN; see ./release.ts): it is not active until an operator activates it.
 *   slots-remote --version     the kit's version, as a team checks it after an upgrade
 *   slots-remote --help        the usage, and where the guide and the changelog are
 *
 * An option given twice takes its last value, so `npm run dev -- --port 4200` overrides a `--port` in the script.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import webpack, { type Configuration, type Stats, type Watching } from 'webpack';
import { watchDeclaration } from './declaration-watcher';
import { DEV_EVENTS_PATH, startDevServer } from './dev-server';
import type { RemoteDeclaration } from './define-remote';
import { createRemoteProject, nextSteps, parseNewProjectArguments } from './new-project';
import { kitVersion, PACKAGED_GUIDE_FILE, packagedEmulatorDir, packagedProjectSource } from './packaged-files';
import { parseReleaseArguments, publishRelease } from './release';
import { REMOTE_DECLARATION_FILE, remoteWebpackConfig, type BuildMode } from './webpack';

interface CliOptions {
  command: 'build' | 'dev';
  dir: string;
  port: number;
  host: string;
}

const USAGE =
  'usage: slots-remote build|dev [--dir <folder>] [--port <port>] [--host <address>], slots-remote new <name> [--dir <path>], or slots-remote release [options]';
/** What `--help` says beyond the usage: where a team reads the rest, the kit's own folder at hand. */
const HELP_MORE =
  'The kit installed is node_modules/@slots-platform/remote-kit: its CHANGELOG.md says what each version changed ' +
  "and what a project made before it changes; the project's README.md and the product's remote teams' guide (its " +
  `${PACKAGED_GUIDE_FILE}) say the rest. slots-remote --version prints the version installed.`;
const NEW_USAGE = 'usage: slots-remote new <name> [--dir <path>]   (name: a Module Federation name, e.g. team_billing)';

export function parseCliArguments(args: readonly string[], cwd: string): CliOptions {
  const [command, ...rest] = args;
  if (command !== 'build' && command !== 'dev') throw new Error(USAGE);
  const options: CliOptions = { command, dir: cwd, port: 4100, host: '127.0.0.1' };
  for (let index = 0; index < rest.length; index += 2) {
    const flag = rest[index];
    const value = rest[index + 1];
    if (value === undefined) throw new Error(`${flag} needs a value. ${USAGE}`);
    if (flag === '--dir') options.dir = path.resolve(cwd, value);
    else if (flag === '--host') options.host = value;
    else if (flag === '--port' && /^\d+$/.test(value) && Number(value) <= 65535) options.port = Number(value);
    else throw new Error(`Unknown or invalid option ${flag} ${value}. ${USAGE}`);
  }
  return options;
}

/** A folder without `remote.ts`: most often the command run outside the project, or `--dir` naming another folder. */
export function noDeclarationMessage(dir: string): string {
  return (
    `No ${REMOTE_DECLARATION_FILE} in ${path.resolve(dir)}: run slots-remote in your remote's project (the folder ` +
    `slots-remote new made, with ${REMOTE_DECLARATION_FILE} and components/), or give that folder as --dir.`
  );
}

/**
 * The remote's declaration: the default export of its `remote.ts`, run through tsx (it is TypeScript). Read afresh
 * on every call: the project's own modules are dropped from Node's module cache first (the kit and other packages
 * stay), so `slots-remote dev` sees a saved change.
 */
export function loadRemoteDeclaration(dir: string): RemoteDeclaration {
  const file = path.join(dir, REMOTE_DECLARATION_FILE);
  // Before tsx: its "Cannot find module" with a require stack of the kit's files says nothing of where to run.
  if (!existsSync(file)) throw new Error(noDeclarationMessage(dir));
  const project = `${path.resolve(dir)}${path.sep}`;
  for (const id of Object.keys(require.cache)) {
    const modulePath = id.split('?')[0]!;
    if (modulePath.startsWith(project) && !modulePath.includes(`${path.sep}node_modules${path.sep}`)) {
      delete require.cache[id];
    }
  }
  const tsx = require('tsx/cjs/api') as { require: (id: string, from: string) => unknown };
  const loaded = tsx.require(file, __filename) as { default?: RemoteDeclaration };
  if (!loaded.default) throw new Error(`${file} must default-export defineRemote({ ... }).`);
  return loaded.default;
}

function configurationFor(
  options: CliOptions,
  mode: BuildMode,
  remote: RemoteDeclaration = loadRemoteDeclaration(options.dir),
): Configuration {
  const outputPath = path.join(options.dir, mode === 'production' ? 'dist' : 'dev-dist');
  const descriptor = mode === 'development' ? { ...remote, devEvents: DEV_EVENTS_PATH } : remote;
  return remoteWebpackConfig({ remote: descriptor, dir: options.dir, mode, outputPath });
}

function report(stats: Stats): boolean {
  const info = stats.toJson({ all: false, errors: true, warnings: true, outputPath: true });
  for (const warning of info.warnings ?? []) console.warn(`warning: ${warning.message}`);
  for (const error of info.errors ?? []) console.error(`error: ${error.message}`);
  const seconds = ((stats.endTime - stats.startTime) / 1000).toFixed(1);
  if (stats.hasErrors()) console.error(`Build failed (${seconds} s).`);
  else console.log(`Built ${stats.compilation.name ?? 'remote'} in ${seconds} s into ${info.outputPath}`);
  return !stats.hasErrors();
}

function build(options: CliOptions): Promise<boolean> {
  const compiler = webpack(configurationFor(options, 'production'));
  return new Promise((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error || !stats) reject(error ?? new Error('webpack returned no stats'));
      else resolve(report(stats));
    });
  });
}

/** What the build takes from a declaration: a change of it means a new webpack configuration. */
/** What a build takes from a declaration: two declarations of one key build the same remote. */
export function declarationKey(
  remote: Pick<RemoteDeclaration, 'name' | 'components' | 'formComponents'> & { props?: RemoteDeclaration['props'] },
): string {
  return JSON.stringify({
    name: remote.name,
    components: remote.components,
    props: remote.props,
    forms: remote.formComponents,
  });
}

async function dev(options: CliOptions): Promise<void> {
  let remote = loadRemoteDeclaration(options.dir);
  const outputPath = configurationFor(options, 'development', remote).output?.path as string;
  const server = await startDevServer({
    dir: outputPath,
    port: options.port,
    host: options.host,
    emulatorDir: packagedEmulatorDir(),
  });
  console.log(`Serving ${remote.name} for development at ${server.origin}/mf-manifest.json`);
  console.log(`The host emulator: ${server.origin}/`);
  console.log(`Point the product at it: { "name": "${remote.name}", "entry": "${server.origin}/mf-manifest.json" }`);

  const watchBuild = (): Watching | undefined =>
    webpack(configurationFor(options, 'development', remote)).watch({ aggregateTimeout: 100 }, (error, stats) => {
      if (error || !stats) console.error(`webpack failed: ${error?.message ?? 'no stats'}`);
      else if (report(stats)) server.announceBuild(stats.hash ?? String(Date.now()));
    });
  let watching = watchBuild();
  // One restart at a time: a change during a restart is read once that restart is done.
  let restarting = Promise.resolve();
  const closeWatching = () => new Promise<void>((resolve) => (watching ? watching.close(() => resolve()) : resolve()));

  const stopWatchingDeclaration = watchDeclaration(options.dir, () => {
    restarting = restarting.then(async () => {
      let next: RemoteDeclaration;
      try {
        next = loadRemoteDeclaration(options.dir);
      } catch (error) {
        console.error(`${REMOTE_DECLARATION_FILE}: ${(error as Error).message}`);
        console.error('The build goes on with the previous declaration; it is read again on save.');
        return;
      }
      if (declarationKey(next) === declarationKey(remote)) return;
      if (next.name !== remote.name) {
        console.error(`The remote's name changed (${remote.name} -> ${next.name}): restart slots-remote dev.`);
        return;
      }
      console.log(`${REMOTE_DECLARATION_FILE} changed: rebuilding with ${next.components.join(', ')}.`);
      remote = next;
      await closeWatching();
      watching = watchBuild();
    });
  });

  const stop = () => {
    stopWatchingDeclaration();
    void restarting
      .then(closeWatching)
      .then(() => server.close())
      .then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** Publishes the release; the remote's name and components are those its remote.ts declares. */
async function release(args: readonly string[]): Promise<boolean> {
  const options = parseReleaseArguments(args, process.cwd(), process.env);
  const remote = loadRemoteDeclaration(options.dir);
  const outcome = await publishRelease(remote.name, options, remote.components);
  for (const line of outcome.lines) (outcome.ok ? console.log : console.error)(line);
  return outcome.ok;
}

/** Writes a new project from the kit's own package. */
function newProject(args: readonly string[]): void {
  const cwd = process.cwd();
  const options = parseNewProjectArguments(args, cwd, (name) => path.join(cwd, name), NEW_USAGE);
  console.log(nextSteps(options, createRemoteProject(options, packagedProjectSource()), cwd));
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === '--version' || command === '-v') {
    console.log(kitVersion());
    return;
  }
  if (command === '--help' || command === '-h') {
    console.log(`${USAGE}\n\n${HELP_MORE}`);
    return;
  }
  if (command === 'new') {
    newProject(rest);
    return;
  }
  if (command === 'release') {
    process.exitCode = (await release(rest)) ? 0 : 1;
    return;
  }
  const options = parseCliArguments(process.argv.slice(2), process.cwd());
  if (options.command === 'build') process.exitCode = (await build(options)) ? 0 : 1;
  else await dev(options);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error((error as Error).message);
    process.exitCode = 1;
  });
}
