/**
 * The dummy hash an unknown account is checked against is made once, at the first refusal that needs it, and inside
 * the password checks' limit (password-check-gate.ts): through the real POST /login, no more derivations run at once
 * than the gate allows, however the first refusals and other checks arrive together.
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
  let derivations = 0;

  beforeEach(async () => {
    testApp = await createTestApp({ passwordHashParams: SLOW });
    await addUser(testApp.app, 'eve', 'eve-password-1', ['acme'], SLOW);
    const scrypt = crypto.scrypt;
    // Counts the derivations running at once; each still runs for real.
    jest.spyOn(crypto, 'scrypt').mockImplementation(((...args: unknown[]) => {
      const done = args.pop() as (error: Error | null, key: Buffer) => void;
      derivations += 1;
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      (scrypt as (...all: unknown[]) => void)(...args, (error: Error | null, key: Buffer) => {
        running -= 1;
        done(error, key);
      });
    }) as typeof crypto.scrypt);
    running = 0;
    mostAtOnce = 0;
    derivations = 0;
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    await testApp.close();
  });

  const signIn = (username: string, password: string) =>
    request(testApp.app.handler).post('/login').send({ username, password });

  it('is made within the limit of checks at once, alongside checks of known accounts', async () => {
    const answers = await Promise.all([
      signIn('nobody', 'a-guess'),
      signIn('eve', 'wrong-1'),
      signIn('eve', 'wrong-2'),
      signIn('eve', 'wrong-3'),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401]);
    // Four checks and the dummy's making.
    expect(derivations).toBe(5);
    expect(mostAtOnce).toBeLessThanOrEqual(DEFAULT_PASSWORD_CHECK_LIMITS.concurrent);
  });

  it('is made once for many first refusals at once', async () => {
    const answers = await Promise.all(['ann', 'bob', 'cy', 'di'].map((name) => signIn(name, 'a-guess')));
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401]);
    expect(derivations).toBe(5);
    expect(mostAtOnce).toBeLessThanOrEqual(DEFAULT_PASSWORD_CHECK_LIMITS.concurrent);
    expect((await signIn('ed', 'a-guess')).status).toBe(401);
    expect(derivations).toBe(6);
  });
});
