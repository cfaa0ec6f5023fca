import fs from 'node:fs';
import path from 'node:path';
import { compileServer } from '../../scripts/compile-server';
import { runNode, type CommandRun } from './run-server-command';
import { nodeInTerminal, type CommandInTerminal } from './server-command-in-terminal';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

/**
 * The server's commands compiled as `npm run build` compiles them (scripts/compile-server.ts), in an installation of
 * their own: its `dist/` beside a copy of package.json, in a folder of the repository's .tsbuild/ (ignored), from
 * which node_modules/ is found as from dist/. For a test file that runs a command many times: node starts a compiled
 * command in a fraction of the time tsx takes to compile its modules at every start (0.1 s against 0.45 s on an idle
 * machine, several times both on a loaded one), and runs it as its npm script does: `node dist/server/cli/<script>`
 * from the installation's folder. The compile (about 2 s) is done once, in beforeAll.
 */
export interface CompiledServerCommands {
  /** The installation's folder, where the commands run (as npm runs a script from the package's). */
  readonly root: string;
  /** `dist/server/cli/<script>.js` of `script` (`db-restore.ts`). */
  file(script: string): string;
  /** The command compiled from `script`: `env` on top of this process's environment, `input` piped to stdin. */
  run(script: string, args: readonly string[], env: NodeJS.ProcessEnv, input?: string): Promise<CommandRun>;
  /** The command compiled from `script` on a terminal (server-command-in-terminal.ts), to type its answers. */
  inTerminal(script: string, args: readonly string[], env: NodeJS.ProcessEnv): CommandInTerminal;
  /** Deletes the installation; safe to call twice. */
  remove(): void;
}

export async function compileServerCommands(): Promise<CompiledServerCommands> {
  const parent = path.join(REPO_ROOT, '.tsbuild');
  fs.mkdirSync(parent, { recursive: true });
  const root = fs.mkdtempSync(path.join(parent, 'compiled-commands-'));
  const remove = (): void => fs.rmSync(root, { recursive: true, force: true });
  try {
    await compileServer({ root: REPO_ROOT, outDir: path.join(root, 'dist') });
    // The npm scripts, as an installation has them: the commands' usage lines name them (`npm run db:restore`).
    fs.copyFileSync(path.join(REPO_ROOT, 'package.json'), path.join(root, 'package.json'));
  } catch (error) {
    remove();
    throw error;
  }
  const file = (script: string): string => path.join(root, 'dist', 'server', 'cli', script.replace(/\.ts$/, '.js'));
  return {
    root,
    file,
    run: (script, args, env, input = '') => runNode(['--enable-source-maps', file(script), ...args], root, env, input),
    inTerminal: (script, args, env) => nodeInTerminal(['--enable-source-maps', file(script), ...args], root, env),
    remove,
  };
}
