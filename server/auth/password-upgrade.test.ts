/**
 * Password hashes made with other scrypt parameters than today's (an earlier release's, or lighter ones), through
 * the whole app on both engines: a correct sign-in stores the password hashed again with today's parameters, and a
 * wrong password there costs today's work as well, so an account with an old hash is not told apart by a quicker
 * refusal. Which derivations ran is read from node:crypto's scrypt (scrypt-derivations.ts), not from the clock. The
 * account's other sessions go on past that sign-in (schema step 20: their stamp kept), and still end at a new password
 * or a disabling, this release's or one a host of the release before writes.
 */
import { createServer, type Server } from 'node:http';
import request from 'supertest';
import { ERROR_MESSAGES } from '../../shared';
import { ENGINES } from '../../testing/server/engines-under-test';
import { parsePrometheusText, sampleValue } from '../../testing/server/prometheus-text';
import { scryptDerivationsDuring, scryptWorkOf } from '../../testing/server/scrypt-derivations';
import {
  addUser,
  createTestApp,
  FAST_HASH,
  sessionCookieOf,
  signedInAgent,
  type TestApp,
} from '../../testing/server/test-app';
import type { StorageSettings } from '../storage/open-storage';
import { hashPassword, verifyPassword, type ScryptParams } from './password-hash';

/** Today's parameters in these apps; FAST_HASH stands for an earlier release's. */
const TODAY: ScryptParams = Object.freeze({ N: 2 ** 12, r: 8, p: 1 });
const OLD = FAST_HASH;
const PASSWORD = 'old-timer-password-1';
const METRICS_TOKEN = 'metrics-token-for-the-tests-0123';
const INVALID_CREDENTIALS = { error: { code: 'unauthenticated', message: ERROR_MESSAGES.invalidCredentials } };

const paramsOf = (hash: string) => /^scrypt\$(N=\d+,r=\d+,p=\d+)\$/.exec(hash)?.[1];
const TODAY_TEXT = `N=${TODAY.N},r=${TODAY.r},p=${TODAY.p}`;
const OLD_TEXT = `N=${OLD.N},r=${OLD.r},p=${OLD.p}`;

for (const engineUnderTest of ENGINES) {
  engineUnderTest.describeFor(`an outdated password hash, on ${engineUnderTest.name}`, () => {
    let storage: StorageSettings;
    let testApp: TestApp;

    beforeAll(() => engineUnderTest.setUp(), 60_000);
    afterAll(() => engineUnderTest.tearDown(), 30_000);

    beforeEach(async () => {
      storage = await engineUnderTest.freshDatabase();
      testApp = await createTestApp({ storage, passwordHashParams: TODAY, metrics: { token: METRICS_TOKEN } });
      await addUser(testApp.app, 'old-timer', PASSWORD, ['acme'], OLD);
    });

    afterEach(async () => {
      await testApp.close();
    });

    /** slots_sessions_active: the sessions that can still be used, counted in the database's SQL. */
    const activeSessions = async () => {
      const response = await request(testApp.app.handler)
        .get('/metrics')
        .set('Authorization', `Bearer ${METRICS_TOKEN}`)
        .expect(200);
      return sampleValue(parsePrometheusText(response.text), 'slots_sessions_active');
    };

    /** The hash in the account's row, as the database holds it. */
    const storedHash = async (username = 'old-timer') =>
      (
        await testApp.app.storage.db
          .selectFrom('users')
          .select('password_hash')
          .where('username', '=', username)
          .executeTakeFirstOrThrow()
      ).password_hash;

    it('is hashed again with today’s parameters at a correct sign-in, whose session and the next sign-ins go on', async () => {
      const before = await storedHash();
      expect(paramsOf(before)).toBe(OLD_TEXT);

      const first = await signedInAgent(testApp.app, 'old-timer', PASSWORD);
      const after = await storedHash();
      expect(paramsOf(after)).toBe(TODAY_TEXT);
      expect(await verifyPassword(PASSWORD, after)).toBe(true);
      // The session carries the new hash's stamp: it is not signed out by the upgrade it made.
      expect((await first.get('/me')).status).toBe(200);

      const second = await signedInAgent(testApp.app, 'old-timer', PASSWORD);
      expect(await storedHash()).toBe(after);
      expect((await second.get('/me')).status).toBe(200);
      expect((await first.get('/me')).status).toBe(200);
    });

    it('makes a wrong password cost today’s work, answered as any wrong password; a current hash costs one derivation', async () => {
      await addUser(testApp.app, 'newcomer', 'newcomer-password-1', ['acme'], TODAY);
      const signIn = (username: string) =>
        request(testApp.app.handler).post('/login').send({ username, password: 'not-the-password' });

      let answer: request.Response | undefined;
      const outdated = await scryptDerivationsDuring(async () => (answer = await signIn('old-timer')));
      expect(answer?.status).toBe(401);
      expect(answer?.body).toEqual(INVALID_CREDENTIALS);
      // The old hash's own derivation, then the work it falls short of today's, at today's N.
      expect(outdated).toEqual([OLD, { ...TODAY, r: 6 }]);
      expect(scryptWorkOf(outdated)).toBe(scryptWorkOf([TODAY]));
      expect(paramsOf(await storedHash())).toBe(OLD_TEXT);

      // The normal paths are unchanged: one derivation, at today's parameters.
      expect(await scryptDerivationsDuring(() => signIn('newcomer'))).toEqual([TODAY]);
      expect(await scryptDerivationsDuring(() => signIn('nobody'))).toEqual([TODAY]);
    });

    it('is not upgraded on a disabled account: its right password told so, a wrong one costs today’s work', async () => {
      await testApp.app.users.setDisabled('old-timer', true);
      const signIn = (password: string) =>
        request(testApp.app.handler).post('/login').send({ username: 'old-timer', password });
      const answer = await signIn(PASSWORD);
      expect([answer.status, answer.body]).toEqual([
        403,
        { error: { code: 'account_disabled', message: ERROR_MESSAGES.accountDisabled } },
      ]);
      expect(paramsOf(await storedHash())).toBe(OLD_TEXT);

      let wrong: request.Response | undefined;
      const work = await scryptDerivationsDuring(async () => (wrong = await signIn('not-the-password')));
      expect([wrong?.status, wrong?.body]).toEqual([401, INVALID_CREDENTIALS]);
      // As an enabled account's outdated hash: its own derivation, then the shortfall to today's.
      expect(work).toEqual([OLD, { ...TODAY, r: 6 }]);
      expect(paramsOf(await storedHash())).toBe(OLD_TEXT);
    });

    it('is upgraded once by sign-ins at the same time, each of which stays signed in', async () => {
      const server: Server = createServer(testApp.app.handler);
      await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
      try {
        const agents = [request.agent(server), request.agent(server), request.agent(server)];
        const answers = await Promise.all(
          agents.map((agent) => agent.post('/login').send({ username: 'old-timer', password: PASSWORD })),
        );
        expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
        expect(paramsOf(await storedHash())).toBe(TODAY_TEXT);
        for (const agent of agents) expect((await agent.get('/me')).status).toBe(200);
      } finally {
        server.closeAllConnections();
        await new Promise((closed) => server.close(closed));
      }
    });

    it('is not made again by the hosts of the release before, during a rolling upgrade: sessions stay', async () => {
      // Two hosts of one database: this release's (TODAY) and, not yet upgraded, the one before (OLD).
      const before = await createTestApp({ storage, passwordHashParams: OLD });
      try {
        const onToday = await signedInAgent(testApp.app, 'old-timer', PASSWORD);
        const upgraded = await storedHash();
        expect(paramsOf(upgraded)).toBe(TODAY_TEXT);
        // Signing in on the host of before keeps the stronger hash: no stamp changes, no session ends.
        const onBefore = await signedInAgent(before.app, 'old-timer', PASSWORD);
        expect(await storedHash()).toBe(upgraded);
        expect((await onToday.get('/me')).status).toBe(200);
        expect((await onBefore.get('/me')).status).toBe(200);
        await signedInAgent(testApp.app, 'old-timer', PASSWORD);
        expect(await storedHash()).toBe(upgraded);
        expect((await onBefore.get('/me')).status).toBe(200);
      } finally {
        await before.close();
      }
    });

    /**
     * A session opened on a host of the release before (the same database), which leaves the old hash as it is: its
     * `GET /me` on this release's host.
     */
    const sessionOfBefore = async () => {
      const before = await createTestApp({ storage, passwordHashParams: OLD });
      let cookie: string | undefined;
      try {
        const signIn = await request(before.app.handler)
          .post('/login')
          .send({ username: 'old-timer', password: PASSWORD });
        expect(signIn.status).toBe(200);
        cookie = sessionCookieOf(signIn);
      } finally {
        await before.close({ keepData: true });
      }
      expect(paramsOf(await storedHash())).toBe(OLD_TEXT);
      return () => request(testApp.app.handler).get('/me').set('Cookie', cookie!);
    };

    it('upgraded by one session’s sign-in, keeps the account’s other sessions; a new password still ends them', async () => {
      const first = await sessionOfBefore();
      expect((await first()).status).toBe(200);

      // Another browser signs in on this release's host: its sign-in makes the hash again with today's parameters.
      const second = await signedInAgent(testApp.app, 'old-timer', PASSWORD);
      expect(paramsOf(await storedHash())).toBe(TODAY_TEXT);
      expect((await first()).status).toBe(200);
      expect((await second.get('/me')).status).toBe(200);
      expect(await activeSessions()).toBe(2);

      // A new password (user:add's write) ends both, the stamp kept over the upgraded hash with them.
      await testApp.app.users.upsert('old-timer', await hashPassword('a-new-password-1', TODAY));
      expect((await first()).status).toBe(401);
      expect((await second.get('/me')).status).toBe(401);
      expect(await activeSessions()).toBe(0);
      const third = await signedInAgent(testApp.app, 'old-timer', 'a-new-password-1');
      expect((await third.get('/me')).status).toBe(200);
      expect(await activeSessions()).toBe(1);
    });

    it('upgraded with sessions of before, then disabled and enabled again: those sessions stay ended', async () => {
      const first = await sessionOfBefore();
      const second = await signedInAgent(testApp.app, 'old-timer', PASSWORD);
      expect((await first()).status).toBe(200);
      await testApp.app.users.setDisabled('old-timer', true);
      await testApp.app.users.setDisabled('old-timer', false);
      expect((await first()).status).toBe(401);
      expect((await second.get('/me')).status).toBe(401);
      expect(await activeSessions()).toBe(0);
    });

    it('keeps no session past a new password or a disabling that a host of the release before writes', async () => {
      // Such a host knows nothing of the stamp kept over the new hash: it writes the columns it knows.
      const first = await sessionOfBefore();
      await signedInAgent(testApp.app, 'old-timer', PASSWORD);
      expect((await first()).status).toBe(200);
      const { db } = testApp.app.storage;
      const hashOfBefore = await hashPassword('a-new-password-1', OLD);
      await db.updateTable('users').set({ password_hash: hashOfBefore }).where('username', '=', 'old-timer').execute();
      testApp.app.storage.noteWrite();
      expect((await first()).status).toBe(401);
      expect(await activeSessions()).toBe(0);

      const again = await signedInAgent(testApp.app, 'old-timer', 'a-new-password-1');
      const third = await signedInAgent(testApp.app, 'old-timer', 'a-new-password-1');
      expect(paramsOf(await storedHash())).toBe(TODAY_TEXT);
      expect((await again.get('/me')).status).toBe(200);
      const now = Date.now();
      await db
        .updateTable('users')
        .set({ disabled_at: now, sessions_since: now })
        .where('username', '=', 'old-timer')
        .execute();
      await db.updateTable('users').set({ disabled_at: null }).where('username', '=', 'old-timer').execute();
      testApp.app.storage.noteWrite();
      expect((await again.get('/me')).status).toBe(401);
      expect((await third.get('/me')).status).toBe(401);
      expect(await activeSessions()).toBe(0);
    });

    it('upgraded by the first sign-in after a release raised the parameters, keeping the sessions of before', async () => {
      // The release before: its parameters were the old ones, and a session was opened with them.
      await testApp.close();
      testApp = await createTestApp({ storage, passwordHashParams: OLD });
      const before = await request(testApp.app.handler)
        .post('/login')
        .send({ username: 'old-timer', password: PASSWORD });
      expect(before.status).toBe(200);
      expect(paramsOf(await storedHash())).toBe(OLD_TEXT);
      const cookieOfBefore = sessionCookieOf(before)!;

      await testApp.close();
      testApp = await createTestApp({ storage, passwordHashParams: TODAY });
      const me = () => request(testApp.app.handler).get('/me').set('Cookie', cookieOfBefore);
      expect((await me()).status).toBe(200);
      const now = await signedInAgent(testApp.app, 'old-timer', PASSWORD);
      expect(paramsOf(await storedHash())).toBe(TODAY_TEXT);
      // The same password: the session of before keeps its stamp (kept over the new hash).
      expect((await me()).status).toBe(200);
      expect((await now.get('/me')).status).toBe(200);
    });
  });
}
