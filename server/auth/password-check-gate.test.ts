import request from 'supertest';
import { ERROR_MESSAGES } from '../../shared';
import { createDemoApp, DEMO_PASSWORD } from '../../testing/server/test-app';
import {
  DEFAULT_PASSWORD_CHECK_LIMITS,
  PasswordCheckGate,
  PasswordChecksBusyError,
  PasswordChecksShareError,
  PASSWORD_CHECKS_RETRY_AFTER_SECONDS,
  SIGN_IN_SHARE_MESSAGE,
} from './password-check-gate';

/** A check that finishes when the test says so. */
function deferred() {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { done, finish };
}

describe('PasswordCheckGate', () => {
  it('runs at most `concurrent` checks at once, queues `queued` more, and refuses the rest at once', async () => {
    const gate = new PasswordCheckGate({ concurrent: 2, queued: 1, perClient: 4 });
    const checks = [deferred(), deferred(), deferred()];
    let highest = 0;
    const runs = checks.map((check, index) =>
      gate.run(`10.0.0.${index}`, async () => {
        highest = Math.max(highest, gate.load.running);
        await check.done;
        return 'checked';
      }),
    );
    expect(gate.load).toEqual({ running: 2, waiting: 1 });
    await expect(gate.run('10.0.0.9', async () => 'too many')).rejects.toBeInstanceOf(PasswordChecksBusyError);

    checks[0]!.finish();
    await runs[0];
    // The freed place went straight to the waiting check.
    expect(gate.load).toEqual({ running: 2, waiting: 0 });
    for (const check of checks) check.finish();
    await expect(Promise.all(runs)).resolves.toEqual(['checked', 'checked', 'checked']);
    expect(highest).toBeLessThanOrEqual(2);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the place of a check that failed', async () => {
    const gate = new PasswordCheckGate({ concurrent: 1, queued: 0, perClient: 1 });
    await expect(gate.run('10.0.0.1', () => Promise.reject(new Error('scrypt failed')))).rejects.toThrow(
      'scrypt failed',
    );
    await expect(gate.run('10.0.0.1', async () => 'next')).resolves.toBe('next');
  });

  it('gives one client at most its share of the places, and a newcomer a waiting place of the client holding most', async () => {
    const gate = new PasswordCheckGate({ concurrent: 1, queued: 3, perClient: 3 });
    const held = deferred();
    const outcomes: string[] = [];
    const attacker = Array.from({ length: 3 }, (_, index) =>
      gate
        .run('198.51.100.7', () => held.done.then(() => `attacker ${index}`))
        .then(
          (value) => outcomes.push(value),
          (error: Error) => outcomes.push(`attacker ${index}: ${error.name}`),
        ),
    );
    // Its fourth is over its share: 429 at once, whatever places are free.
    await expect(gate.run('198.51.100.7', async () => 'fourth')).rejects.toBeInstanceOf(PasswordChecksShareError);
    const other = gate.run('203.0.113.5', () => held.done.then(() => 'other'));
    expect(gate.load).toEqual({ running: 1, waiting: 3 });
    // The room is full: a third client holding nothing takes the attacker's last waiting place (refused, 503)...
    const third = gate.run('192.0.2.9', () => held.done.then(() => 'third'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(outcomes).toEqual(['attacker 2: PasswordChecksBusyError']);
    expect(gate.load).toEqual({ running: 1, waiting: 3 });
    // The attacker still holds two (one running): a fourth client takes its other waiting place too...
    const fourth = gate.run('192.0.2.10', () => held.done.then(() => 'fourth'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(outcomes.sort()).toEqual(['attacker 1: PasswordChecksBusyError', 'attacker 2: PasswordChecksBusyError']);
    // ...but no client takes a place from one holding as many as it would: one each now.
    await expect(gate.run('192.0.2.11', async () => 'fifth')).rejects.toBeInstanceOf(PasswordChecksBusyError);
    held.finish();
    await Promise.all([...attacker, other, third, fourth]);
    await expect(Promise.all([other, third, fourth])).resolves.toEqual(['other', 'third', 'fourth']);
    expect(outcomes.sort()).toEqual([
      'attacker 0',
      'attacker 1: PasswordChecksBusyError',
      'attacker 2: PasswordChecksBusyError',
    ]);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
    // Every place given back: the attacker may sign in again.
    await expect(gate.run('198.51.100.7', async () => 'again')).resolves.toBe('again');
  });
});

describe('a burst of failed sign-ins', () => {
  /** Costlier hashes than the other tests use, so the checks overlap as a real burst's would; clients by address. */
  const burstApp = () =>
    createDemoApp({
      passwordHashParams: { N: 2 ** 14, r: 8, p: 1 },
      loginRateLimit: { perAccountAndIp: null, perIp: null, windowSeconds: 60 },
      trustProxy: 1,
    });

  it('answers the checks beyond the bound at once with 503 and Retry-After, and a correct sign-in gets through after', async () => {
    const testApp = await burstApp();
    try {
      const http = () => request(testApp.app.handler);
      // Forty clients, one guess each.
      const burst = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          http()
            .post('/login')
            .set('X-Forwarded-For', `10.1.0.${index}`)
            .send({ username: `guess-${index}`, password: 'wrong-password' }),
        ),
      );
      const statuses = burst.map((response) => response.status);
      expect(statuses.filter((status) => status === 401).length).toBeGreaterThanOrEqual(18);
      const busy = burst.filter((response) => response.status === 503);
      expect(busy.length).toBeGreaterThan(0);
      expect(statuses.every((status) => status === 401 || status === 503)).toBe(true);
      for (const response of busy) {
        expect(response.headers['retry-after']).toBe(String(PASSWORD_CHECKS_RETRY_AFTER_SECONDS));
        expect(response.body).toEqual({ error: { code: 'unavailable', message: ERROR_MESSAGES.signInBusy } });
      }
      const signedIn = await http().post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
      expect(signedIn.status).toBe(200);
    } finally {
      await testApp.close();
    }
  });

  it("keeps one address's burst to its share: another client's correct sign-in gets through while it lasts", async () => {
    const testApp = await burstApp();
    try {
      const http = () => request(testApp.app.handler);
      const guess = (index: number) =>
        http()
          .post('/login')
          .set('X-Forwarded-For', '198.51.100.7')
          .send({ username: `guess-${index}`, password: 'wrong-password' });
      // The correct sign-in is sent once the burst is turned away at the gate: its places are all taken then (an
      // outside test: 503 for everyone else for as long as it went on).
      let turnedAway: () => void = () => undefined;
      const full = new Promise<void>((resolve) => {
        turnedAway = resolve;
      });
      const burst = Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          guess(index).then((response) => {
            if (response.status !== 401) turnedAway();
            return response;
          }),
        ),
      );
      await full;
      const signedIn = await http()
        .post('/login')
        .set('X-Forwarded-For', '203.0.113.5')
        .send({ username: 'admin', password: DEMO_PASSWORD });
      expect(signedIn.status).toBe(200);
      const answers = await burst;
      const checked = answers.filter((response) => response.status === 401);
      const overShare = answers.filter((response) => response.status === 429);
      expect(checked.length).toBeGreaterThanOrEqual(1);
      expect(checked.length).toBeLessThanOrEqual(DEFAULT_PASSWORD_CHECK_LIMITS.perClient);
      expect(checked.length + overShare.length).toBe(answers.length);
      for (const response of overShare) {
        expect(response.headers['retry-after']).toBe(String(PASSWORD_CHECKS_RETRY_AFTER_SECONDS));
        expect(response.body).toEqual({ error: { code: 'too_many_requests', message: SIGN_IN_SHARE_MESSAGE } });
      }
    } finally {
      await testApp.close();
    }
  });
});
