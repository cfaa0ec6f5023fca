import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CommandRun } from './server/run-server-command';

const KIT_CLI = path.resolve(__dirname, '..', 'remotes', 'kit', 'cli.ts');

/**
 * `slots-remote <args>` in its own process, as a team runs it in its project folder `cwd`: with PATH and `env` only,
 * nothing of this process's environment. Its own process because Node reads NODE_EXTRA_CA_CERTS only as it starts.
 */
export function runSlotsRemote(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<CommandRun> {
  // tsx resolved from here, as the kit's own dependency: a team's project folder has no node_modules.
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, KIT_CLI, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}
