/**
 * `--entry <file>`: the server entry an application gives `npm run build` and `npm run dev` instead of the demo's
 * (server/main.ts). Returns it with the other arguments, or throws a message saying what to give.
 */
export function takeEntryArgument(args: readonly string[]): { entry: string | undefined; rest: string[] } {
  const rest = [...args];
  const at = rest.indexOf('--entry');
  if (at === -1) return { entry: undefined, rest };
  const entry = rest[at + 1];
  if (entry === undefined || entry.startsWith('-')) throw new Error('--entry needs a file, e.g. --entry myapp.ts');
  rest.splice(at, 2);
  return { entry, rest };
}
