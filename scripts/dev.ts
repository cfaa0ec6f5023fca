/**
 * `npm run dev`: webpack watches the host and every remote in development mode (slot failures show a placeholder)
 * and writes to `.dev/dist/`, never the production `dist/`; once the first build is done the server serves that
 * folder (FRONTEND_DIR) under `tsx watch`, restarting only when server code changes or a remote's build changes
 * what it declares (its slots-remote.json: webpack rewrites a file only when its content changed). A component
 * edit is a rebuild and a reload, not a restart. A remote's declaration (`remote.ts`: a component added, a props
 * schema changed) is read again when it changes, and the builds start over with it, as `slots-remote dev` does for
 * a standalone remote; the server then restarts on the new slots-remote.json. Ctrl-C stops both.
 *
 * `npm run dev -- --entry myapp.ts` runs an application's own entry instead of the demo's (server/main.ts), with
 * the same loop.
 *
 * Environment: as for `npm start` (PORT, DATABASE_PATH, DEMO_PASSWORD, REMOTES_CONFIG, ...); NODE_ENV defaults to
 * `development`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import webpack, { type MultiStats } from 'webpack';
import { declarationKey, loadRemoteDeclaration } from '../remotes/kit/cli';
import { watchDeclaration } from '../remotes/kit/declaration-watcher';
import { takeEntryArgument } from './entry-argument';
import {
  DEV_DIST_DIR,
  hostConfiguration,
  remoteConfiguration,
  REPOSITORY_REMOTES,
  ROOT_DIR,
  type RepositoryRemote,
} from '../webpack.config';

const TSX_CLI = require.resolve('tsx/cli');

/** The server's entry: an application's own (`--entry`), else the demo's. */
const ENTRY = entryFromArguments(process.argv.slice(2));

function entryFromArguments(args: readonly string[]): string {
  try {
    const { entry = 'server/main.ts' } = takeEntryArgument(args);
    if (!existsSync(path.resolve(ROOT_DIR, entry))) throw new Error(`--entry: there is no file ${entry}.`);
    return entry;
  } catch (error) {
    console.error(`[dev] ${(error as Error).message}`);
    process.exit(2);
  }
}

function startServer(): ChildProcess {
  const child = spawn(process.execPath, [TSX_CLI, 'watch', '--clear-screen=false', ENTRY], {
    cwd: ROOT_DIR,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development', FRONTEND_DIR: DEV_DIST_DIR },
  });
  child.on('exit', (code, signal) => {
    if (child === retiring) return;
    if (!stopping) console.error(`[dev] the server watcher exited (${signal ?? code}); stopping.`);
    stop(code ?? 1);
  });
  return child;
}

/** The server watcher being stopped to start again: its exit stops nothing. */
let retiring: ChildProcess | null = null;

/**
 * Starts the server again, for a remote's new slots-remote.json: the server reads what the remotes declare at start.
 * Not left to `tsx watch --include`, which ignores every file under a folder whose name starts with a dot (`.dev/`).
 */
function restartServer(why: string): void {
  const old = server;
  if (!old || old.exitCode !== null || retiring) return;
  console.log(`[dev] ${why}: restarting the server.`);
  retiring = old;
  old.once('exit', () => {
    retiring = null;
    if (!stopping) server = startServer();
  });
  old.kill('SIGTERM');
}

/** Each remote's slots-remote.json as last built, to see when a build changed what the remote declares. */
const declared = new Map<string, string>();

/** The remotes whose slots-remote.json a build changed (none at the first build, which reads them all). */
function changedDeclarations(): string[] {
  const changed: string[] = [];
  for (const remote of remotes) {
    const name = remote.descriptor.name;
    const file = path.join(DEV_DIST_DIR, 'remotes', name, 'slots-remote.json');
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (declared.has(name) && declared.get(name) !== text) changed.push(name);
    declared.set(name, text);
  }
  return changed;
}

let stopping = false;
let server: ChildProcess | null = null;
/** The repository's remotes as their declarations read now. */
let remotes: RepositoryRemote[] = [...REPOSITORY_REMOTES];

/** What the builds' watcher is asked: to stop. */
interface BuildsWatching {
  close(callback: () => void): void;
}

function watchBuilds(): BuildsWatching {
  const configurations = [
    hostConfiguration('development', DEV_DIST_DIR),
    ...remotes.map((remote) => remoteConfiguration('development', remote, { distDir: DEV_DIST_DIR })),
  ];
  const watching = webpack(configurations).watch({ aggregateTimeout: 300 }, reportBuilds);
  if (!watching) throw new Error('[dev] webpack did not start watching.');
  return watching;
}

function reportBuilds(error: Error | null, stats: MultiStats | undefined): void {
  if (error || !stats) {
    console.error(`[dev] webpack failed: ${error?.message ?? 'no stats'}`);
    return;
  }
  for (const child of stats.stats) {
    const { name } = child.compilation;
    const seconds = ((child.endTime - child.startTime) / 1000).toFixed(1);
    if (child.hasErrors()) {
      const info = child.toJson({ all: false, errors: true });
      for (const problem of info.errors ?? []) console.error(`[${name}] error: ${problem.message}`);
      console.error(`[${name}] failed (${seconds} s); fix the errors above, the build reruns on save.`);
    } else {
      console.log(`[${name}] built in ${seconds} s${child.hasWarnings() ? ' (with warnings)' : ''}`);
    }
  }
  const changed = changedDeclarations();
  if (!server && !stats.hasErrors()) {
    console.log(`[dev] first build done; starting the server (tsx watch ${ENTRY}).`);
    server = startServer();
  } else if (changed.length > 0) {
    restartServer(`${changed.join(', ')} declare${changed.length === 1 ? 's' : ''} other components or props`);
  }
}

let watching = watchBuilds();
// One restart of the builds at a time: a declaration changed during one is read once it is done.
let restarting = Promise.resolve();
const stopWatchingDeclarations = remotes.map((each) =>
  watchDeclaration(path.join(ROOT_DIR, each.folder), () => {
    restarting = restarting.then(async () => {
      const current = remotes.find((remote) => remote.folder === each.folder);
      if (!current || stopping) return;
      let declared: RepositoryRemote['descriptor'];
      try {
        declared = loadRemoteDeclaration(path.join(ROOT_DIR, each.folder));
      } catch (error) {
        console.error(`[dev] ${each.folder}/remote.ts: ${(error as Error).message}; read again on save.`);
        return;
      }
      if (declarationKey(declared) === declarationKey(current.descriptor)) return;
      console.log(`[dev] ${each.folder}/remote.ts changed: building again with ${declared.components.join(', ')}.`);
      remotes = remotes.map((remote) => (remote === current ? { ...remote, descriptor: declared } : remote));
      await new Promise<void>((resolve) => watching.close(() => resolve()));
      if (!stopping) watching = watchBuilds();
    });
  }),
);

function stop(code = 0): void {
  if (stopping) return;
  stopping = true;
  // Only the processes this script started: its server watcher (by pid) and its webpack watcher.
  if (server && server.exitCode === null) server.kill('SIGTERM');
  process.exitCode = code;
  for (const stopWatching of stopWatchingDeclarations) stopWatching();
  watching.close(() => undefined);
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
