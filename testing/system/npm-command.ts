import { spawn } from 'node:child_process';
import type { AppServer } from './app-server';
import { REPO_ROOT } from './repo-root';

/** An `npm run` command on the server's database, as an operator runs it; resolves to what it printed. */
export function runCommand(server: AppServer, args: readonly string[], input = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_PATH: server.databasePath, DATABASE_URL: undefined },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${args[0]} exited ${code}`))));
    child.stdin.end(input);
  });
}

/** `npm run token:add -- <remote>`: the token is the last line it prints. */
export async function addToken(server: AppServer, remote: string): Promise<string> {
  return (await runCommand(server, ['token:add', '--', remote])).trimEnd().split('\n').at(-1) ?? '';
}
