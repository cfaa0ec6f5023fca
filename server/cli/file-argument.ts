/**
 * The words of a database command that names one file (db:backup's new file, db:restore's backup): the file and
 * the flags given, or what is wrong with them, said before the usage. A mistyped option or a second file was answered
 * with the usage alone, and the operator left to spot the difference. (`--help` never gets here: runCommand answers
 * it with the help on stdout.)
 *
 * A word beginning with `-` is an option, as db:copy and the account commands read it: `db:backup -o new.db` wrote
 * its backup to a file named `-o`. A file whose name begins with `-` is given as `./-o`.
 */
export function fileArgument(
  args: readonly string[],
  {
    flags = [],
    missing,
    what,
  }: {
    /** The flags the command takes (`--yes`); any other option is refused as unknown. */
    flags?: readonly string[];
    /** What is said when no file is named. */
    missing: string;
    /** The file in words, for "Give one <what>, not 2". */
    what: string;
  },
): { file: string; flags: ReadonlySet<string> } | { problem: string } {
  const option = args.find((arg) => arg.startsWith('-') && !flags.includes(arg));
  if (option !== undefined) return { problem: `Unknown option ${option}.` };
  const files = args.filter((arg) => !flags.includes(arg));
  const [file] = files;
  if (file === undefined) return { problem: missing };
  if (files.length > 1) {
    return { problem: `Give one ${what}, not ${files.length}: ${files.map((name) => `"${name}"`).join(', ')}.` };
  }
  return { file, flags: new Set(args.filter((arg) => flags.includes(arg))) };
}

/** What a database command says of words it cannot take: what is wrong, then its usage, on stderr; exit code 2. */
export function refuseArguments(problem: string, usage: string): number {
  process.stderr.write(`${problem}\n${usage}\n`);
  return 2;
}
