/**
 * Runs a command's `main` as the npm scripts do: its resolved number is the exit code; a failure is one line on
 * stderr (`<name> failed: <message>`) and exit code 1, never a stack trace for an operator.
 */
export function runCommand(name: string, main: () => Promise<number>): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
