import { scryptDerivationsDuring } from '../../testing/server/scrypt-derivations';
import {
  DEFAULT_SCRYPT_PARAMS,
  deriveShortfall,
  hashPassword,
  isReadableHash,
  needsRehash,
  unmatchableHash,
  verifyPassword,
  type ScryptParams,
} from './password-hash';

const FAST = { N: 1024, r: 8, p: 1 };

describe('password hashing', () => {
  it('stores the parameters and a per-user salt with the hash', async () => {
    const first = await hashPassword('correct horse battery staple', FAST);
    const second = await hashPassword('correct horse battery staple', FAST);
    expect(first).toMatch(/^scrypt\$N=1024,r=8,p=1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(first).not.toBe(second);
  });

  it('verifies the right password and refuses others', async () => {
    const stored = await hashPassword('correct horse battery staple', FAST);
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('correct horse battery stapl', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('verifies with the parameters stored in the hash, not the current defaults', async () => {
    const stored = await hashPassword('pw-with-other-params', { N: 2048, r: 4, p: 2 });
    expect(await verifyPassword('pw-with-other-params', stored)).toBe(true);
  });

  it('treats Unicode compositions alike (NFKC)', async () => {
    const stored = await hashPassword('caf\u00e9-password', FAST);
    expect(await verifyPassword('cafe\u0301-password', stored)).toBe(true);
  });

  it.each([
    ['not a hash'],
    [''],
    ['scrypt$N=1000,r=8,p=1$c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5'],
    ['scrypt$N=1073741824,r=8,p=1$c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5'],
    // Within the limits, but scrypt refuses N of 2^(16 r) or more.
    ['scrypt$N=65536,r=1,p=1$c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5'],
  ])('refuses a malformed or abusive stored hash %j without throwing', async (stored) => {
    expect(await verifyPassword('anything', stored)).toBe(false);
    expect(isReadableHash(stored)).toBe(false);
  });

  it('checks a hash of a small N with a large p, which scrypt needs more memory for than N * r tells', async () => {
    const stored = await hashPassword('pw', { N: 4, r: 1, p: 16 });
    expect(isReadableHash(stored)).toBe(true);
    expect(await verifyPassword('pw', stored)).toBe(true);
  });

  it('says a hash made with weaker parameters needs making again, not one as strong or stronger nor a malformed one', async () => {
    const today = { N: 4096, r: 8, p: 1 };
    expect(needsRehash(await hashPassword('pw', today), today)).toBe(false);
    expect(needsRehash(await hashPassword('pw', FAST), today)).toBe(true);
    expect(needsRehash(await hashPassword('pw', { N: 4096, r: 4, p: 1 }), today)).toBe(true);
    // As much work with less memory: weaker against hardware made for it.
    expect(needsRehash(await hashPassword('pw', { N: 1024, r: 8, p: 4 }), today)).toBe(true);
    // Stronger, by work or by memory: kept (another release's hosts may be the ones making them).
    expect(needsRehash(await hashPassword('pw', { N: 4096, r: 8, p: 2 }), today)).toBe(false);
    expect(needsRehash(await hashPassword('pw', { N: 8192, r: 8, p: 1 }), today)).toBe(false);
    expect(needsRehash('not a hash', today)).toBe(false);
  });

  it.each<[string, ScryptParams, ScryptParams[]]>([
    ['a quarter of it', { N: 1024, r: 8, p: 1 }, [{ N: 4096, r: 6, p: 1 }]],
    ['half of it (by r)', { N: 4096, r: 4, p: 1 }, [{ N: 4096, r: 4, p: 1 }]],
    ['an odd share of it (rounded up)', { N: 1024, r: 3, p: 1 }, [{ N: 4096, r: 8, p: 1 }]],
    ['as much (in another shape): nothing', { N: 2048, r: 8, p: 2 }, []],
    ['more: nothing', { N: 8192, r: 8, p: 1 }, []],
  ])('tops a hash costing %s up to today’s work', async (_share, old, expected) => {
    const today = { N: 4096, r: 8, p: 1 };
    const stored = await hashPassword('pw', old);
    const derivations = await scryptDerivationsDuring(() => deriveShortfall('wrong', stored, today));
    expect(derivations).toEqual(expected);
  });

  it('makes an unmatchable hash with no derivation, which costs a check what a hash at its parameters costs', async () => {
    const params = { N: 2048, r: 4, p: 2 };
    let dummy = '';
    expect(await scryptDerivationsDuring(async () => (dummy = unmatchableHash(params)))).toEqual([]);
    const real = await hashPassword('some-password-1', params);
    // Written as hashPassword writes one at those parameters: the same text up to the salt, and as long.
    expect(dummy).toMatch(/^scrypt\$N=2048,r=4,p=2\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(dummy.length).toBe(real.length);
    expect(isReadableHash(dummy)).toBe(true);
    expect(needsRehash(dummy, params)).toBe(false);
    expect(unmatchableHash(params)).not.toBe(dummy);
    for (const password of ['some-password-1', '', 'a-guess']) {
      let matches: boolean | undefined;
      const checked = await scryptDerivationsDuring(async () => (matches = await verifyPassword(password, dummy)));
      expect([password, matches, checked]).toEqual([password, false, [params]]);
    }
  });

  it('defaults to OWASP minimum parameters for scrypt', () => {
    expect(DEFAULT_SCRYPT_PARAMS).toEqual({ N: 2 ** 17, r: 8, p: 1 });
  });
});
