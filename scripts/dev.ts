/**
 * `npm run dev`: webpack watches the host and every remote in development mode (slot failures show a placeholder)
 * and writes to `.dev/dist/`, never the production `dist/`; once the first build is done the server serves that
 * folder (FRONTEND_DIR) under `tsx watch`, restarting only when server code changes or a remote's build changes
 * what it declares (its slots-remote.json: webpack rewrites a file only when its content changed). A component
 * edit is a rebuild and a reload, not a restart. Ctrl-C stops both.
 *
 * Environment: as for `npm start` (PORT, DATABASE_PATH, DEMO_PASSWORD, REMOTES_CONFIG, ...); NODE_ENV defaults to
 * `development`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import webpack from 'webpack';
import { createConfigurations, DEV_DIST_DIR, ROOT_DIR } from '../webpack.config';

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
const compiler = webpack(createConfigurations('development', DEV_DIST_DIR));

const watching = compiler.watch({ aggregateTimeout: 300 }, (error, stats) => {
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
});

function stop(code = 0): void {
  if (stopping) return;
  stopping = true;
  // Only the processes this script started: its server watcher (by pid) and its webpack watcher.
  if (server && server.exitCode === null) server.kill('SIGTERM');
  process.exitCode = code;
  watching?.close(() => undefined);
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
