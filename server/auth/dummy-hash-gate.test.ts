/**
 * The dummy hash an unknown account is checked against is made once, at the start (ready()), so that the first unknown
 * account's refusal costs what every refusal costs; and inside the password checks' limit (password-check-gate.ts):
 * through the real POST /login, no more derivations run at once than the gate allows when sign-ins arrive while it is
 * made. A making that failed is made by the first refusal that needs it, once for all that arrive together.
 */
import crypto from 'node:crypto';
import pino from 'pino';
import request from 'supertest';
import { addUser, createTestApp, type TestApp, type TestAppOptions } from '../../testing/server/test-app';
import { DEFAULT_PASSWORD_CHECK_LIMITS } from './password-check-gate';

/** Costly enough (about 40 ms) that derivations started together overlap. */
const SLOW = { N: 2 ** 14, r: 8, p: 1 };

jest.setTimeout(60_000);

describe('the dummy hash of unknown accounts', () => {
  const opened: TestApp[] = [];
  let running = 0;
  let mostAtOnce = 0;
  let derivations = 0;
  /** How many of the next derivations fail (as scrypt does when it cannot have its memory). */
  let failing = 0;

  beforeEach(() => {
    const scrypt = crypto.scrypt;
    // Counts the derivations, and those running at once; each still runs for real, unless made to fail.
    jest.spyOn(crypto, 'scrypt').mockImplementation(((...args: unknown[]) => {
      const done = args.pop() as (error: Error | null, key?: Buffer) => void;
      derivations += 1;
      if (failing > 0) {
        failing -= 1;
        setImmediate(() => done(new Error('scrypt could not have its memory')));
        return;
      }
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      (scrypt as (...all: unknown[]) => void)(...args, (error: Error | null, key: Buffer) => {
        running -= 1;
        done(error, key);
      });
    }) as typeof crypto.scrypt);
    failing = 0;
  });

  afterEach(async () => {
    jest.restoreAllMocks();
    for (const testApp of opened.splice(0)) await testApp.close();
  });

  /** A started app with the account eve (its hash not counted); counting starts afresh after it. */
  async function started(options: TestAppOptions = {}): Promise<TestApp> {
    const testApp = await createTestApp({ passwordHashParams: SLOW, ...options });
    opened.push(testApp);
    await addUser(testApp.app, 'eve', 'eve-password-1', ['acme'], SLOW);
    running = 0;
    mostAtOnce = 0;
    derivations = 0;
    return testApp;
  }

  const signIn = (testApp: TestApp, username: string, password: string) =>
    request(testApp.app.handler).post('/login').send({ username, password });

  it('is made at the start: the first unknown account’s refusal runs one derivation, as a wrong password’s does', async () => {
    const testApp = await started();
    expect((await signIn(testApp, 'nobody', 'a-guess')).status).toBe(401);
    expect(derivations).toBe(1);
    expect((await signIn(testApp, 'eve', 'wrong-1')).status).toBe(401);
    expect(derivations).toBe(2);
  });

  it('is made within the limit of checks at once when sign-ins arrive while the start makes it', async () => {
    const first = await started();
    await first.close({ keepData: true });
    opened.splice(opened.indexOf(first), 1);
    running = 0;
    mostAtOnce = 0;
    derivations = 0;
    let answers: Promise<request.Response[]> | undefined;
    // The same database started again, the sign-ins sent before ready(): they and its making share the gate.
    const again = await createTestApp({
      dir: first.dir,
      passwordHashParams: SLOW,
      configure: (app) => {
        const signInTo = (username: string, password: string) =>
          request(app.handler).post('/login').send({ username, password });
        answers = Promise.all([
          signInTo('eve', 'wrong-1'),
          signInTo('eve', 'wrong-2'),
          signInTo('eve', 'wrong-3'),
          signInTo('nobody', 'a-guess'),
        ]);
      },
    });
    opened.push(again);
    expect((await answers!).map((answer) => answer.status)).toEqual([401, 401, 401, 401]);
    // Four checks and the dummy's making, whichever came first.
    expect(derivations).toBe(5);
    expect(mostAtOnce).toBeLessThanOrEqual(DEFAULT_PASSWORD_CHECK_LIMITS.concurrent);
  });

  it('is made by the first refusals when the start’s making failed, once for many at once', async () => {
    const warnings: string[] = [];
    failing = 1;
    const testApp = await started({
      logger: pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) }),
    });
    expect(warnings.join('')).toContain('the dummy password hash could not be made');

    const answers = await Promise.all(['ann', 'bob', 'cy', 'di'].map((name) => signIn(testApp, name, 'a-guess')));
    expect(answers.map((answer) => answer.status)).toEqual([401, 401, 401, 401]);
    // Four checks and the dummy's making.
    expect(derivations).toBe(5);
    expect(mostAtOnce).toBeLessThanOrEqual(DEFAULT_PASSWORD_CHECK_LIMITS.concurrent);
    expect((await signIn(testApp, 'ed', 'a-guess')).status).toBe(401);
    expect(derivations).toBe(6);
  });
});
