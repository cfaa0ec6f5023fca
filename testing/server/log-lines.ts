/**
 * A server's whole log lines in what it wrote to stdout, parsed: pino writes one JSON object a line; other lines (the
 * start message, a child's plain output) are left out, and so is a last line still being written. `T` names the
 * fields a test reads.
 */
export function parsedLogLines<T = Record<string, unknown>>(stdout: string): T[] {
  return stdout
    .split('\n')
    .slice(0, -1)
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as T);
}
