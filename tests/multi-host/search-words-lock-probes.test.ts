/**
 * A host started while another holds the search words lock (a host of the new release indexing them) waits for it,
 * and listens meanwhile: its liveness probe answers, readiness says why not yet, every other request is turned away
 * with a 503 to retry; once the lock is let go it starts and serves. Before, it listened only after the wait, and an
 * orchestrator's liveness probe killed it as dead.
 */
import { Client } from 'pg';
import { WORDS_VERSION } from '../../server/resources/record-words';
import { WORDS_LOCK_KEY } from '../../server/resources/record-words-backfill';
import { describeWithPostgres } from '../../testing/server/postgres-server';
import { waitUntil } from '../../testing/server/wait-until';
import { getFreePort } from '../../testing/system/free-port';
import { useHostsOnSharedPostgres } from '../../testing/system/hosts-on-shared-postgres';
import { startPostgresHost } from './support/postgres-host';
import { queryPostgres } from './support/postgres-query';

jest.setTimeout(120_000);

const describePostgres = describeWithPostgres();

describePostgres('a host waiting for the search words lock', () => {
  const shared = useHostsOnSharedPostgres('words_lock_probes_test', startPostgresHost);

  it('answers /healthz 200, /readyz 503 saying why and the rest 503 while it waits, then serves', async () => {
    // A first start makes the schema; then the database holds words of the previous version, to index anew.
    const first = await startPostgresHost(shared.databaseUrl);
    await first.stop();
    await queryPostgres(shared.databaseUrl, `UPDATE record_words_state SET words_version = ${WORDS_VERSION - 1}`);

    // Another host indexing them, as far as this one can tell: a session holding the lock.
    const holder = new Client({ connectionString: shared.databaseUrl, application_name: 'slots-server search words' });
    await holder.connect();
    let released = false;
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [WORDS_LOCK_KEY]);
      const port = await getFreePort();
      const url = `http://127.0.0.1:${port}`;
      const starting = startPostgresHost(shared.databaseUrl, { port });
      // Kept by the suite, stopped after it, however this case ends.
      void starting.then((host) => shared.started.push(host)).catch(() => undefined);
      const get = (path: string) =>
        fetch(`${url}${path}`).then(
          async (response) => ({ response, body: (await response.json()) as Record<string, unknown> }),
          () => undefined,
        );

      await waitUntil(async () => (await get('/healthz'))?.response.status === 200, 30_000, '/healthz answering 200');
      const ready = await get('/readyz');
      expect(ready?.response.status).toBe(503);
      expect(ready?.body).toMatchObject({
        status: 'unavailable',
        checks: { started: 'failing' },
        starting: expect.stringMatching(/^waiting for the search words lock, held by PostgreSQL backend \d+/) as string,
        error: { code: 'unavailable' },
      });
      const slots = await get('/slots');
      expect(slots?.response.status).toBe(503);
      expect(slots?.response.headers.get('retry-after')).toBe('5');
      expect(slots?.body).toEqual({ error: { code: 'unavailable', message: expect.any(String) as string } });
      // Still waiting: a probe's answer is no sign the start went on.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await get('/readyz'))?.response.status).toBe(503);

      await holder.query('SELECT pg_advisory_unlock($1)', [WORDS_LOCK_KEY]);
      released = true;
      const host = await starting;
      expect((await get('/readyz'))?.response.status).toBe(200);
      expect((await get('/slots'))?.response.status).toBe(200);
      const messages = host.process.logLines<{ msg?: string }>().map((line) => line.msg ?? '');
      expect(messages.filter((msg) => /^listening/.test(msg))).toEqual([
        expect.stringMatching(/^listening while starting: /) as string,
        'listening',
      ]);
    } finally {
      if (!released) await holder.query('SELECT pg_advisory_unlock($1)', [WORDS_LOCK_KEY]).catch(() => undefined);
      await holder.end();
    }
  });
});
