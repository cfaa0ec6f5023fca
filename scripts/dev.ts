/**
 * `npm run dev`: webpack watches the host and every remote in development mode (slot failures show a placeholder)
 * and writes to `.dev/dist/`, never the production `dist/`; once the first build is done the server serves that
 * folder (FRONTEND_DIR) under `tsx watch`, restarting only when server code changes or a remote's build changes
 * what it declares (its slots-remote.json: webpack rewrites a file only when its content changed). A component
 * edit is a rebuild and a reload, not a restart. A remote's declaration (`remote.ts`: a component added, a props
 * schema changed) is read again when it changes, and the builds start over with it, as `slots-remote dev` does for
 * a standalone remote; the server then restarts on the new slots-remote.json. Ctrl-C stops both.
 *
 * Environment: as for `npm start` (PORT, DATABASE_PATH, DEMO_PASSWORD, REMOTES_CONFIG, ...); NODE_ENV defaults to
 * `development`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import webpack, { type MultiStats } from 'webpack';
import { declarationKey, loadRemoteDeclaration } from '../remotes/kit/cli';
import { watchDeclaration } from '../remotes/kit/declaration-watcher';
import {
  DEV_DIST_DIR,
  hostConfiguration,
  remoteConfiguration,
  REPOSITORY_REMOTES,
  ROOT_DIR,
  type RepositoryRemote,
} from '../webpack.config';

const TSX_CLI = require.resolve('tsx/cli');

function startServer(): ChildProcess {
  const descriptors = path.relative(ROOT_DIR, path.join(DEV_DIST_DIR, 'remotes', '*', 'slots-remote.json'));
  const child = spawn(
    process.execPath,
    [TSX_CLI, 'watch', '--clear-screen=false', '--include', descriptors, 'server/main.ts'],
    {
      cwd: ROOT_DIR,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development', FRONTEND_DIR: DEV_DIST_DIR },
    },
  );
  child.on('exit', (code, signal) => {
    if (!stopping) console.error(`[dev] the server watcher exited (${signal ?? code}); stopping.`);
    stop(code ?? 1);
  });
  return child;
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
  if (!server && !stats.hasErrors()) {
    console.log('[dev] first build done; starting the server (tsx watch server/main.ts).');
    server = startServer();
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
