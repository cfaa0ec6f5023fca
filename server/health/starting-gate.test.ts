import request from 'supertest';
import { API_SECURITY_HEADERS } from '../security/api-security-headers';
import { StartingGate, STARTING_RETRY_AFTER_SECONDS } from './starting-gate';

describe('StartingGate', () => {
  const served = (gate: StartingGate) =>
    gate.listener((_req, res) => {
      res.statusCode = 200;
      res.end('app');
    });

  it('answers the probes and turns every other request away until open, then passes everything to the app', async () => {
    const gate = new StartingGate(API_SECURITY_HEADERS);
    gate.starting('indexing the search words of 3 records (records without words)');
    const listener = served(gate);

    const alive = await request(listener).get('/healthz?probe=1');
    expect([alive.status, alive.body]).toEqual([200, { status: 'ok' }]);
    expect(alive.headers['cache-control']).toBe('no-store');
    expect(alive.headers['x-content-type-options']).toBe('nosniff');

    const ready = await request(listener).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({
      status: 'unavailable',
      checks: { started: 'failing' },
      starting: 'indexing the search words of 3 records (records without words)',
      error: { code: 'unavailable', message: expect.any(String) as string },
    });

    for (const sent of [request(listener).get('/slots'), request(listener).post('/login').send({ username: 'a' })]) {
      const refused = await sent;
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual({ error: { code: 'unavailable', message: expect.any(String) as string } });
      expect(refused.headers['retry-after']).toBe(String(STARTING_RETRY_AFTER_SECONDS));
      expect(refused.headers.connection).toBe('close');
    }
    // Not a probe: a POST to /healthz is the app's to answer (405), not the gate's 200.
    expect((await request(listener).post('/healthz')).status).toBe(503);
    expect((await request(listener).head('/healthz')).status).toBe(200);

    gate.open();
    for (const path of ['/healthz', '/readyz', '/slots']) {
      const answer = await request(listener).get(path);
      expect([answer.status, answer.text]).toEqual([200, 'app']);
    }
  });
});
