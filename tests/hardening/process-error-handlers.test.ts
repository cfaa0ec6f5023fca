import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../../testing/system/repo-root';

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runFixture(env: Record<string, string> = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(REPO_ROOT, 'tests', 'hardening', 'fixtures', 'unhandled-rejection.ts')],
      { cwd: REPO_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('an unhandled promise rejection', () => {
  it('is logged as a JSON error line and does not stop the process', async () => {
    const result = await runFixture();
    expect(result.code).toBe(0);
    const lines = result.stdout
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message?: string; stack?: string } });
    const rejection = lines.find((line) => line.msg === 'unhandled promise rejection');
    expect(rejection?.level).toBe(50);
    expect(rejection?.err?.message).toContain('rejection-MARKER');
    expect(lines.some((line) => line.msg === 'still serving after the rejection')).toBe(true);
  }, 30_000);

  it('would kill the process without the handlers (Node’s default), so the test above means something', async () => {
    const result = await runFixture({ WITHOUT_HANDLERS: '1' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('rejection-MARKER');
    expect(result.stdout).not.toContain('still serving');
  }, 30_000);
});
