/**
 * Runs a command's `main` as the npm scripts do: its resolved number is the exit code; a failure is one line on
 * stderr (`<name> failed: <message>`) and exit code 1, never a stack trace for an operator.
 *
 * `--help` or `-h` where an option may stand prints `help` (what the command does, then its usage) on stdout and
 * exits 0, before `main` reads anything: asking for help is no mistake, and was answered as one (the usage on stderr,
 * exit 2, as for a typo), so `npm run user:add -- --help | less` showed nothing and a script could not tell asking
 * from failing. A mistake still gets what is wrong and the usage on stderr, exit 2, from the command itself.
 *
 * `valueOptions`: the command's options that take the next argument as their value (`--tenant <id>`). What follows
 * one is its value, `-h` too, and the command reads it as it reads any value (an error, or the value): taken for a
 * question, `user:add eve --tenant -h` printed the help and exited 0, as if the command had been understood.
 *
 * `knownOptions`: when given, every option the command takes (`--help` and `-h` need not be named). A command line
 * with another option is the command's to refuse as unknown, `-h` or not: `user:add ann --name -h` printed the help
 * and exited 0, as if `--name` were an option of user:add.
 */
export function runCommand(
  name: string,
  main: () => Promise<number>,
  help: string,
  valueOptions: readonly string[] = [],
  knownOptions?: readonly string[],
): void {
  if (asksForHelp(process.argv.slice(2), valueOptions, knownOptions)) {
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

/**
 * Whether the arguments ask for the command's help: `--help` or `-h` where an option may stand, not as the value
 * of one of `valueOptions` (`--tenant=-h` is a value as it is written), and, with `knownOptions`, no option outside
 * them anywhere on the line (the command says which is unknown).
 */
export function asksForHelp(
  args: readonly string[],
  valueOptions: readonly string[] = [],
  knownOptions?: readonly string[],
): boolean {
  let asked = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--help' || arg === '-h') {
      asked = true;
      continue;
    }
    const option = arg.split('=', 1)[0] as string;
    if (knownOptions !== undefined && arg.startsWith('-') && !knownOptions.includes(option)) return false;
    if (valueOptions.includes(arg)) i++;
  }
  return asked;
}
