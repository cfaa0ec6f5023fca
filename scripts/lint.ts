/**
 * `npm run lint`: the type check, the import boundaries, the documentation links and Prettier, side by side. They
 * read the same files and change none, so none waits for another: the run takes as long as the type check (about
 * 100 s from a fresh clone on two cores) instead of the sum (about 160 s). Each one's output is printed whole when it
 * ends, under its name; the run fails when any of them fails, after all have ended.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

export interface LintStep {
  name: string;
  command: string;
  args: readonly string[];
}

export interface LintResult {
  name: string;
  code: number | null;
  output: string;
  seconds: number;
}

export const LINT_STEPS: readonly LintStep[] = [
  { name: 'typecheck', command: 'npx', args: ['tsc', '-b'] },
  { name: 'import boundaries', command: 'npx', args: ['tsx', 'scripts/check-import-boundaries.ts'] },
  { name: 'documentation links', command: 'npx', args: ['tsx', 'scripts/check-doc-links.ts'] },
  { name: 'prettier', command: 'npx', args: ['prettier', '--check', '.'] },
];

/** Runs every step at once in `cwd`; `onEnd` is told of each as it ends; resolves once all have ended. */
export function runSideBySide(
  steps: readonly LintStep[],
  cwd: string,
  onEnd: (result: LintResult) => void = () => undefined,
): Promise<LintResult[]> {
  return Promise.all(
    steps.map(
      (step) =>
        new Promise<LintResult>((resolve) => {
          const started = Date.now();
          const child = spawn(step.command, [...step.args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
          let output = '';
          child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
          let ended = false;
          // A command that cannot start emits `error`, and may emit `close` after it: told once.
          const end = (code: number | null, more = ''): void => {
            if (ended) return;
            ended = true;
            const result = { name: step.name, code, output: output + more, seconds: (Date.now() - started) / 1000 };
            onEnd(result);
            resolve(result);
          };
          child.once('error', (error) => end(null, String(error)));
          child.once('close', (code) => end(code));
        }),
    ),
  );
}

/** Runs the steps side by side, printing each one's output whole, under its name, as it ends; 1 if any failed. */
export async function runAndReport(steps: readonly LintStep[], label: string, cwd: string): Promise<number> {
  const results = await runSideBySide(steps, cwd, (result) => {
    const verdict = result.code === 0 ? 'passed' : `FAILED (exit code ${result.code})`;
    console.log(`── ${result.name}: ${verdict} in ${result.seconds.toFixed(0)} s`);
    if (result.output.trim() !== '') console.log(result.output.trimEnd());
  });
  const failed = results.filter((result) => result.code !== 0).map((result) => result.name);
  if (failed.length > 0) console.error(`${label}: ${failed.join(', ')} failed`);
  return failed.length > 0 ? 1 : 0;
}

if (require.main === module) {
  void runAndReport(LINT_STEPS, 'lint', path.resolve(__dirname, '..')).then((code) => (process.exitCode = code));
}
