import request from 'supertest';
import { ERROR_MESSAGES } from '../../shared';
import { createDemoApp, DEMO_PASSWORD } from '../../testing/server/test-app';
import { PasswordCheckGate, PasswordChecksBusyError, PASSWORD_CHECKS_RETRY_AFTER_SECONDS } from './password-check-gate';

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
    const gate = new PasswordCheckGate({ concurrent: 2, queued: 1 });
    const checks = [deferred(), deferred(), deferred()];
    let highest = 0;
    const runs = checks.map((check) =>
      gate.run(async () => {
        highest = Math.max(highest, gate.load.running);
        await check.done;
        return 'checked';
      }),
    );
    expect(gate.load).toEqual({ running: 2, waiting: 1 });
    await expect(gate.run(async () => 'too many')).rejects.toBeInstanceOf(PasswordChecksBusyError);

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
    const gate = new PasswordCheckGate({ concurrent: 1, queued: 0 });
    await expect(gate.run(() => Promise.reject(new Error('scrypt failed')))).rejects.toThrow('scrypt failed');
    await expect(gate.run(async () => 'next')).resolves.toBe('next');
  });
});

describe('a burst of failed sign-ins', () => {
  it('answers the checks beyond the bound at once with 503 and Retry-After, and a correct sign-in gets through after', async () => {
    // Costlier hashes than the other tests use, so the checks overlap as a real burst's would.
    const testApp = await createDemoApp({
      passwordHashParams: { N: 2 ** 14, r: 8, p: 1 },
      loginRateLimit: { perAccountAndIp: null, perIp: null, windowSeconds: 60 },
    });
    try {
      const http = () => request(testApp.app.handler);
      const burst = await Promise.all(
        Array.from({ length: 40 }, (_, index) =>
          http()
            .post('/login')
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
});
