/** Readers of environment variables; a bad value stops the start with a message naming the variable. */

export class InvalidSettingError extends Error {
  constructor(name: string, value: string, expected: string) {
    super(`${name}=${JSON.stringify(value)} is not valid: expected ${expected}.`);
    this.name = 'InvalidSettingError';
  }
}

/** A whole number >= `min`, or `fallback` when the variable is unset or empty. */
export function readInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new InvalidSettingError(name, raw, `a whole number of at least ${min}`);
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min) {
    throw new InvalidSettingError(name, raw, `a whole number of at least ${min}`);
  }
  return value;
}

/** `true`/`false` in any of its spellings (`on`/`off`, `yes`/`no`, `1`/`0`), or `fallback` when unset or empty. */
export function readBoolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = raw.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new InvalidSettingError(name, raw, 'true or false (also on/off, yes/no, 1/0)');
}

/**
 * Like readInteger (at least 1), but `off` (or `false`, `none`) means "no limit": null. `0` is refused, not read as
 * "no limit": whoever writes it may well mean "no attempt at all", and a security limit should not fail open on a guess.
 */
export function readLimit(env: NodeJS.ProcessEnv, name: string, fallback: number): number | null {
  const raw = env[name]?.trim();
  const lowered = raw?.toLowerCase();
  if (lowered === 'off' || lowered === 'false' || lowered === 'none') return null;
  if (raw !== undefined && /^0+$/.test(raw)) {
    throw new InvalidSettingError(name, raw, 'a whole number of at least 1, or off for no limit');
  }
  return readInteger(env, name, fallback, 1);
}

/** A comma-separated list, trimmed, empty items dropped. */
export function readList(env: NodeJS.ProcessEnv, name: string): string[] {
  return (env[name] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/**
 * Refuses a secret still holding the example's placeholder (deploy/kubernetes/secret.example.yaml: `PLACEHOLDER-…`),
 * which is long enough to pass every other check: a Secret applied unedited would sign sessions with a published
 * value, or open `/metrics` to anyone who read the example. The message says how to make one (`howToMake`).
 */
export function refuseExamplePlaceholder(name: string, value: string, howToMake: string): void {
  if (!value.includes('PLACEHOLDER')) return;
  throw new InvalidSettingError(
    name,
    value,
    `a secret of your own, not the example's placeholder (deploy/kubernetes/secret.example.yaml): ${howToMake}`,
  );
}
