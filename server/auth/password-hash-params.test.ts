/**
 * A host's own `passwordHashParams` (a custom entry's createApp options) are checked when the app is made, against
 * the bounds the hash parser and scrypt apply: bad ones stop the start with the parameter and its range named,
 * rather than failing the first sign-in (a 500) or making hashes that no password matches.
 */
import { addUser, createTestApp, signedInAgent } from '../../testing/server/test-app';
import { hashPassword, isReadableHash, scryptParamsProblem, type ScryptParams } from './password-hash';

describe("a host's passwordHashParams", () => {
  it.each<[string, ScryptParams, string]>([
    [
      'N not a power of two',
      { N: 3000, r: 8, p: 1 },
      'passwordHashParams.N must be a power of two from 2 to 1048576, got 3000.',
    ],
    ['N of 1', { N: 1, r: 8, p: 1 }, 'passwordHashParams.N must be a power of two from 2 to 1048576, got 1.'],
    [
      'N above the limit',
      { N: 2 ** 21, r: 8, p: 1 },
      'passwordHashParams.N must be a power of two from 2 to 1048576, got 2097152.',
    ],
    [
      'N that scrypt refuses with r = 1',
      { N: 2 ** 16, r: 1, p: 1 },
      'passwordHashParams.N must be a power of two from 2 to 32768 (below 2^(16 r) = 65536 with r = 1), got 65536.',
    ],
    ['r of 0', { N: 1024, r: 0, p: 1 }, 'passwordHashParams.r must be a whole number from 1 to 32, got 0.'],
    [
      'r above the limit',
      { N: 1024, r: 33, p: 1 },
      'passwordHashParams.r must be a whole number from 1 to 32, got 33.',
    ],
    [
      'p above the limit',
      { N: 1024, r: 8, p: 17 },
      'passwordHashParams.p must be a whole number from 1 to 16, got 17.',
    ],
    ['p not whole', { N: 1024, r: 8, p: 1.5 }, 'passwordHashParams.p must be a whole number from 1 to 16, got 1.5.'],
  ])('refuses %s when the app is made, naming it and the range', async (_, params, message) => {
    await expect(createTestApp({ passwordHashParams: params })).rejects.toThrow(message);
  });

  it('takes the parameters at the bounds, and the app signs in with them', async () => {
    // The highest N scrypt takes with r = 1, and the lowest one: the parser reads back what they hash.
    for (const params of [
      { N: 2 ** 15, r: 1, p: 1 },
      { N: 2, r: 1, p: 1 },
    ]) {
      expect(scryptParamsProblem(params)).toBeUndefined();
      expect(isReadableHash(await hashPassword('at-the-bounds', params))).toBe(true);
    }
    const params = { N: 2 ** 11, r: 4, p: 2 };
    const testApp = await createTestApp({ passwordHashParams: params });
    try {
      expect(testApp.app.auth.passwordHashParams).toEqual(params);
      await addUser(testApp.app, 'ada', 'ada-password-1', ['acme'], params);
      expect((await (await signedInAgent(testApp.app, 'ada', 'ada-password-1')).get('/me')).status).toBe(200);
    } finally {
      await testApp.close();
    }
  });
});
