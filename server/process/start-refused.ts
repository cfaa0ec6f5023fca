/**
 * Ends a start that cannot go on (a setting the server cannot run with, a port taken): the reason on stderr, which
 * names the setting, and exit code 1, with no stack trace: the operator has a setting to fix, not a bug to report.
 */
export function refuseStart(error: unknown): never {
  process.stderr.write(`The server could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
