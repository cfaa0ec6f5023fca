/**
 * A disabled account's sign-in through the real POST /login: the right password is told the account is disabled
 * (403 `account_disabled`, no session, neither counted as a failure nor starting the counts again as a sign-in does);
 * a wrong one is answered byte for byte as a wrong password of an enabled account, at the same cost.
 */
import request from 'supertest';
import { ERROR_MESSAGES } from '../../shared';
import { comparableAnswer } from '../../testing/server/comparable-answer';
import { addUser, createTestApp, type TestApp } from '../../testing/server/test-app';

const DISABLED = { error: { code: 'account_disabled', message: ERROR_MESSAGES.accountDisabled } };
const INVALID_CREDENTIALS = { error: { code: 'unauthenticated', message: ERROR_MESSAGES.invalidCredentials } };
/** Costly enough (about 40 ms) that checking a dummy hash instead, or none, would show. */
const SLOW = { N: 2 ** 14, r: 8, p: 1 };

jest.setTimeout(30_000);

describe('sign-in of a disabled account', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ passwordHashParams: SLOW });
    await addUser(testApp.app, 'dora', 'dora-password-1', ['acme'], SLOW);
    await addUser(testApp.app, 'eve', 'eve-password-1', ['acme'], SLOW);
    expect(await testApp.app.users.setDisabled('dora', true)).toBe(true);
  });

  afterAll(async () => {
    await testApp.close();
  });

  const signIn = (username: string, password: string) =>
    request(testApp.app.handler).post('/login').send({ username, password });

  it('refuses the right password with 403 account_disabled and makes no session, however often', async () => {
    const limited = await createTestApp({ loginRateLimit: { perAccountAndIp: 3, perIp: 100, windowSeconds: 900 } });
    try {
      await addUser(limited.app, 'dora', 'dora-password-1', ['acme']);
      await limited.app.users.setDisabled('dora', true);
      const agent = request.agent(limited.app.handler);
      // More attempts than the account+IP limit: the right password is no guess, so it is not counted as a failure.
      for (let i = 0; i < 5; i++) {
        const response = await agent.post('/login').send({ username: 'Dora', password: 'dora-password-1' });
        expect([response.status, response.body]).toEqual([403, DISABLED]);
        expect(response.headers['set-cookie']).toBeUndefined();
      }
      await agent.get('/me').expect(401);
    } finally {
      await limited.close();
    }
  });

  it('leaves the failures before the right password counted: a guesser who finds it gets no fresh allowance', async () => {
    const limited = await createTestApp({ loginRateLimit: { perAccountAndIp: 3, perIp: 100, windowSeconds: 900 } });
    try {
      await addUser(limited.app, 'dora', 'dora-password-1', ['acme']);
      await limited.app.users.setDisabled('dora', true);
      const attempt = (password: string) =>
        request(limited.app.handler).post('/login').send({ username: 'dora', password });
      for (let i = 0; i < 2; i++) expect((await attempt(`guess-${i}`)).status).toBe(401);
      expect((await attempt('dora-password-1')).body).toEqual(DISABLED);
      // The third failure is the last the account+client limit lets through: the two before the 403 still count.
      expect((await attempt('guess-2')).status).toBe(401);
      const limitedNow = await attempt('guess-3');
      expect(limitedNow.status).toBe(429);
      expect(limitedNow.body.error.code).toBe('too_many_requests');
    } finally {
      await limited.close();
    }
  });

  it('answers a wrong password exactly as a wrong password of an enabled account', async () => {
    const disabled = await signIn('dora', 'not-the-password');
    const enabled = await signIn('eve', 'not-the-password');
    expect(disabled.body).toEqual(INVALID_CREDENTIALS);
    expect(comparableAnswer(disabled)).toEqual(comparableAnswer(enabled));
  });

  it('takes as long for a wrong password as on an enabled account (its own hash is checked)', async () => {
    const time = async (username: string) => {
      const start = process.hrtime.bigint();
      const response = await signIn(username, `wrong-${username}`);
      expect(response.status).toBe(401);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    await time('warm-up');
    const disabled: number[] = [];
    const enabled: number[] = [];
    for (let i = 0; i < 5; i++) {
      disabled.push(await time(`dora`));
      enabled.push(await time('eve'));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[2] as number;
    expect(median(enabled)).toBeGreaterThan(10);
    expect(median(disabled)).toBeGreaterThan(median(enabled) * 0.5);
    expect(median(disabled)).toBeLessThan(median(enabled) * 2);
  });

  it('signs in once the account is enabled again', async () => {
    expect(await testApp.app.users.setDisabled('dora', false)).toBe(true);
    expect((await signIn('dora', 'dora-password-1')).status).toBe(200);
  });
});
