import crypto from 'node:crypto';
import type { ScryptParams } from '../../server/auth/password-hash';

/**
 * The parameters of every scrypt derivation `work` runs, in order (node:crypto's `scrypt` watched, still run): what a
 * password check cost, told without a clock.
 */
export async function scryptDerivationsDuring(work: () => Promise<unknown>): Promise<ScryptParams[]> {
  const derivations: ScryptParams[] = [];
  const original = crypto.scrypt;
  const scrypt = jest.spyOn(crypto, 'scrypt').mockImplementation(((...args: unknown[]) => {
    const { N = 0, r = 0, p = 0 } = args[3] as crypto.ScryptOptions;
    derivations.push({ N, r, p });
    return (original as (...each: unknown[]) => void)(...args);
  }) as typeof crypto.scrypt);
  try {
    await work();
  } finally {
    scrypt.mockRestore();
  }
  return derivations;
}

/** scrypt's work: N * r * p for each derivation. */
export function scryptWorkOf(derivations: readonly ScryptParams[]): number {
  return derivations.reduce((sum, { N, r, p }) => sum + N * r * p, 0);
}
