import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost parameters, stored with every hash so they can be raised later without breaking old hashes. */
export interface ScryptParams {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/** OWASP's minimum for scrypt (N=2^17, r=8, p=1): about 128 MiB and a few hundred ms per hash. */
export const DEFAULT_SCRYPT_PARAMS: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 17, r: 8, p: 1 });

const KEY_LENGTH = 64;
const SALT_BYTES = 16;
/** Stored parameters above these are refused rather than run: a tampered row must not exhaust the server. */
const LIMITS: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 20, r: 32, p: 16 });

/**
 * What is wrong with `params`, naming the parameter and the range allowed, or undefined when they are ones this
 * module hashes with and reads back: the hash parser's bounds (a stored hash outside them matches no password) and
 * scrypt's own. createApp checks a host's `passwordHashParams` with it (app-options.ts), so parameters that would
 * make every sign-in fail, or every new hash unreadable, stop the server at start rather than at the first sign-in.
 */
export function scryptParamsProblem(params: ScryptParams): string | undefined {
  const { N, r, p } = params;
  if (!Number.isInteger(r) || r < 1 || r > LIMITS.r) return `r must be a whole number from 1 to ${LIMITS.r}, got ${r}`;
  if (!Number.isInteger(p) || p < 1 || p > LIMITS.p) return `p must be a whole number from 1 to ${LIMITS.p}, got ${p}`;
  const powerOfTwo = Number.isInteger(N) && N > 1 && (N & (N - 1)) === 0;
  // scrypt refuses N of 2^(16 r) or more (with r = 1: from 2^16), throwing where a check should answer.
  const highest = Math.min(LIMITS.N, 2 ** (16 * r) / 2);
  if (!powerOfTwo || N > highest) {
    const cap = highest < LIMITS.N ? ` (below 2^(16 r) = ${2 ** (16 * r)} with r = ${r})` : '';
    return `N must be a power of two from 2 to ${highest}${cap}, got ${N}`;
  }
  return undefined;
}

/** `scrypt$N=131072,r=8,p=1$<salt base64>$<key base64>` */
const FORMAT = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  return formatHash(params, salt, await derive(password, salt, KEY_LENGTH, params));
}

/**
 * A hash as hashPassword writes it at `params`, of no password: its key is random bytes, not derived. Checking a
 * password against it costs what checking against a hash made at `params` costs (one derivation at `params`, whose
 * result is compared with the key), while making it costs none: the sign-in checks unknown accounts against one
 * (credential-checker.ts), which made with a derivation cost the first such refusal after each start a second one.
 */
export function unmatchableHash(params: ScryptParams): string {
  return formatHash(params, randomBytes(SALT_BYTES), randomBytes(KEY_LENGTH));
}

function formatHash(params: ScryptParams, salt: Buffer, key: Buffer): string {
  return `scrypt$N=${params.N},r=${params.r},p=${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * Whether `stored` is a hash this module can check: one it writes, with parameters within its limits that scrypt
 * accepts. Anything else (a hand-edited row, another tool's hash) matches no password.
 */
export function isReadableHash(stored: string): boolean {
  return parseHash(stored) !== null;
}

/**
 * True when `password` matches `stored`. Compares in constant time; a stored hash that cannot be read is a mismatch,
 * after a derivation at `params` (today's, for the caller who knows them: the sign-in checks such an account against
 * its dummy hash instead, credential-checker.ts).
 */
export async function verifyPassword(
  password: string,
  stored: string,
  params: ScryptParams = DEFAULT_SCRYPT_PARAMS,
): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) {
    await derive(password, randomBytes(SALT_BYTES), KEY_LENGTH, params);
    return false;
  }
  const key = await derive(password, parsed.salt, parsed.key.length, parsed.params);
  return timingSafeEqual(key, parsed.key);
}

/**
 * Whether `stored` was made with weaker parameters than `params` (an earlier release's, or lighter ones): less memory
 * (N * r) or less work (N * r * p). Its next correct sign-in makes it again with `params`. A hash as strong or stronger
 * is kept: made again, it would be weakened, and while two releases' hosts with different parameters serve one
 * database (a rolling upgrade) each sign-in would otherwise make it again on the other's, every time changing the
 * stamp the account's sessions carry (ending them) and starting its sign-in counts afresh. A malformed hash is not
 * one (no password matches it).
 */
export function needsRehash(stored: string, params: ScryptParams): boolean {
  const parsed = parseHash(stored);
  if (parsed === null) return false;
  const memory = (p: ScryptParams) => p.N * p.r;
  return memory(parsed.params) < memory(params) || memory(parsed.params) * parsed.params.p < memory(params) * params.p;
}

/**
 * Derives the work by which a check of `stored` falls short of one at `params` (an outdated hash's parameters may
 * cost less), with `params`' N and p and as few blocks (r) as make it up, rounded up: a refusal then costs at least a
 * derivation at `params`, as an unknown account's and a current hash's do, and not much more. scrypt's work is
 * N * r * p. Measured through POST /login in CPU time, today's N=2^17, r=8: a wrong password on a hash of N=2^14 or
 * 2^16 cost 453 and 460 ms, on a current hash 449 ms, for an unknown account 451 ms; a whole derivation at today's
 * after the old one instead made those two 469 and 641 ms, and without either they were 52 and 226 ms.
 */
export async function deriveShortfall(password: string, stored: string, params: ScryptParams): Promise<void> {
  const parsed = parseHash(stored);
  if (!parsed) return;
  const shortfall = params.N * params.r * params.p - parsed.params.N * parsed.params.r * parsed.params.p;
  if (shortfall <= 0) return;
  const r = Math.ceil(shortfall / (params.N * params.p));
  await derive(password, randomBytes(SALT_BYTES), KEY_LENGTH, { ...params, r });
}

function parseHash(stored: string): { params: ScryptParams; salt: Buffer; key: Buffer } | null {
  const match = FORMAT.exec(stored);
  if (!match) return null;
  const [, n, r, p, salt, key] = match;
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (scryptParamsProblem(params) !== undefined) return null;
  const keyBytes = Buffer.from(key ?? '', 'base64');
  if (keyBytes.length < 16) return null;
  return { params, salt: Buffer.from(salt ?? '', 'base64'), key: keyBytes };
}

function derive(password: string, salt: Buffer, length: number, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    // scrypt needs 128 * r * (N + p + 2) bytes; leave headroom over Node's 32 MiB default (N * r alone left none for
    // a small N with a large p, which scrypt then refused).
    maxmem: 256 * params.r * (params.N + params.p),
  };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}
