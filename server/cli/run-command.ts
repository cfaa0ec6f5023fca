/**
 * Runs a command's `main` as the npm scripts do: its resolved number is the exit code; a failure is one line on
 * stderr (`<name> failed: <message>`) and exit code 1, never a stack trace for an operator.
 *
 * `--help` or `-h` anywhere among the arguments prints `help` (what the command does, then its usage) on stdout and
 * exits 0, before `main` reads anything: asking for help is no mistake, and was answered as one (the usage on stderr,
 * exit 2, as for a typo), so `npm run user:add -- --help | less` showed nothing and a script could not tell asking
 * from failing. A mistake still gets what is wrong and the usage on stderr, exit 2, from the command itself.
 */
export function runCommand(name: string, main: () => Promise<number>, help: string): void {
  if (asksForHelp(process.argv.slice(2))) {
    process.stdout.write(`${help}\n`);
    process.exitCode = 0;
    return;
  }
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

/** Whether the arguments ask for the command's help: `--help` or `-h`, wherever they stand. */
function asksForHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}
