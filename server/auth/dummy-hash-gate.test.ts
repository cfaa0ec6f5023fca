/**
 * The dummy hash an unknown account is checked against costs no derivation to make (password-hash.ts,
 * unmatchableHash): through the real POST /login, the first unknown account's refusal after a start runs one
 * derivation at the host's parameters, as a wrong password's does (made at that first refusal, it ran two, and
 * answered about twice as slowly), the start runs none for it, and refusals sent together stay within the password
 * checks' limit (password-check-gate.ts).
 */
import crypto from 'node:crypto';
import request from 'supertest';
import { addUser, createTestApp, type TestApp } from '../../testing/server/test-app';
import { DEFAULT_PASSWORD_CHECK_LIMITS } from './password-check-gate';

/** Costly enough (about 40 ms) that derivations started together overlap. */
const SLOW = { N: 2 ** 14, r: 8, p: 1 };

jest.setTimeout(60_000);

describe('the dummy hash of unknown accounts', () => {
  let testApp: TestApp;
  let running = 0;
  let mostAtOnce = 0;
  /** The parameters of each derivation, in order. */
  let derivations: crypto.ScryptOptions[] = [];
  let startedWith: crypto.ScryptOptions[] = [];

  beforeEach(async () => {
    const scrypt = crypto.scrypt;
    // Counts the derivations, and those running at once; each still runs for real.
    jest.spyOn(crypto, 'scrypt').mockImplementation(((...args: unknown[]) => {
      const done = args.pop() as (error: Error | null, key: Buffer) => void;
      const { N, r, p } = args[3] as crypto.ScryptOptions;
      derivations.push({ N, r, p });
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      (scrypt as (...all: unknown[]) => void)(...args, (error: Error | null, key: Buffer) => {
        running -= 1;
        done(error, key);
      });
    }) as typeof crypto.scrypt);
    derivations = [];
    testApp = await createTestApp({ passwordHashParams: SLOW });
    startedWith = [...derivations];
    await addUser(testApp.app, 'eve', 'eve-password-1', ['acme'], SLOW);
    running = 0;
    mostAtOnce = 0;
    derivations = [];
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await testApp.close();
  });

  const signIn = (username: string, password: string) =>
    request(testApp.app.handler).post('/login').send({ username, password });

  it('costs the first unknown account’s refusal after a start one derivation, as a wrong password’s, and the start none', async () => {
    expect(startedWith).toEqual([]);
    expect((await signIn('nobody', 'a-guess')).status).toBe(401);
    expect(derivations).toEqual([SLOW]);
    expect((await signIn('eve', 'wrong-1')).status).toBe(401);
    expect(derivations).toEqual([SLOW, SLOW]);
    expect((await signIn('somebody', 'a-guess')).status).toBe(401);
    expect(derivations).toEqual([SLOW, SLOW, SLOW]);
  });

  it('keeps first refusals of unknown accounts, sent together with known ones’, within the limit of checks at once', async () => {
    const answers = await Promise.all([
      signIn('ann', 'a-guess'),
      signIn('eve', 'wrong-1'),
      signIn('bob', 'a-guess'),
      signIn('eve', 'wrong-2'),
    ]);
    // Four: one client's share of the places (a fifth would be answered 429).
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401]);
    // One check each, nothing more.
    expect(derivations).toHaveLength(4);
    expect(mostAtOnce).toBeLessThanOrEqual(DEFAULT_PASSWORD_CHECK_LIMITS.concurrent);
  });
});
