/**
 * What is wrong with the words of a command that takes one name (an account, a tenant) and a few options, as a
 * sentence to print before its usage: a mistyped option (`--yse`) or a second name was answered with the usage
 * alone, and the operator left to spot the difference. Null when they are right. (`--help` never gets here:
 * runCommand answers it with the help on stdout.)
 */
export function argumentProblem(args: readonly string[], options: readonly string[], what: string): string | null {
  const unknown = args.find((arg) => arg.startsWith('-') && !options.includes(arg));
  if (unknown !== undefined) return `Unknown option ${unknown}.`;
  const names = args.filter((arg) => !arg.startsWith('-'));
  if (names.length === 0) return `Give the ${what}.`;
  if (names.length > 1) return `Give one ${what}, not ${names.length}: ${names.map((name) => `"${name}"`).join(', ')}.`;
  return null;
}
