/**
 * PostgreSQL restarted under two hosts (a fast shutdown, then the same server again on the same port and data):
 * both hosts tell the load balancer they are not ready while it is away and become ready again by themselves, and
 * no update a host acknowledged (2xx) before, during or after the restart is missing at the end.
 */
import type { RecordListPayload, RecordPayload } from '../../shared';
import { PostgresServer, describeWithPostgres } from '../../testing/server/postgres-server';
import { DEMO_PASSWORD, DEMO_USERNAME, type AppServer } from '../../testing/system/app-server';
import { readinessWithin } from '../multi-instance/support/readiness';
import { requestJson, signIn } from '../multi-instance/support/session-client';
import { startPostgresHost } from './support/postgres-host';

jest.setTimeout(120_000);

const describePostgres = describeWithPostgres();

/** Each update gets its own label, so the final state shows which one a record holds. */
const labelOf = (sequence: number): string => `restart-update-${sequence}`;
const sequenceOf = (label: string): number => Number(/^restart-update-(\d+)$/.exec(label)?.[1] ?? -1);
/** A PUT left without an answer this long counts as not acknowledged; the loop goes on. */
const UPDATE_TIMEOUT_MS = 3_000;

/** A host that died has no readiness to poll: fail with what it printed instead of a refused connection. */
async function assertStillRunning(host: AppServer): Promise<void> {
  const exit = await Promise.race([host.process.exited, new Promise<null>((resolve) => setImmediate(resolve, null))]);
  if (exit !== null) {
    throw new Error(
      `The host at ${host.url} exited (code ${exit.code}, signal ${exit.signal}).\n` +
        `--- stdout ---\n${host.process.stdout().slice(-4000)}\n--- stderr ---\n${host.process.stderr().slice(-4000)}`,
    );
  }
}

interface UpdateLog {
  sent: number;
  /** Per record id: the sequence number of the last update acknowledged with a 2xx. */
  lastAcknowledged: Map<number, number>;
  acknowledged: number;
  refused: number;
  /** The HTTP statuses of the refusals (a timed-out PUT has none). */
  refusalStatuses: Set<number>;
}

describePostgres('PostgreSQL restarted under two hosts', () => {
  let postgres: PostgresServer | undefined;
  let hosts: AppServer[] = [];

  beforeAll(async () => {
    postgres = await PostgresServer.start();
    const databaseUrl = await postgres.createDatabase('restart_test');
    hosts.push(await startPostgresHost(databaseUrl));
    hosts.push(await startPostgresHost(databaseUrl));
  });

  afterAll(async () => {
    await Promise.all(hosts.map((host) => host.stop()));
    hosts = [];
    await postgres?.remove();
  });

  it('reports PostgreSQL among the readiness checks while it answers', async () => {
    for (const host of hosts) {
      const ready = await requestJson(host.url, '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ status: 'ok', checks: { database: 'ok' } });
    }
  });

  it('answers 503 on both hosts while PostgreSQL is down, 200 by itself after, and loses no acknowledged update', async () => {
    const server = postgres as PostgresServer;
    const cookie = await signIn(hosts[0]!.url, DEMO_USERNAME, DEMO_PASSWORD);
    const list = await requestJson(hosts[1]!.url, '/api/resources/articles/records', { cookie });
    expect(list.status).toBe(200);
    const recordIds = (list.body as RecordListPayload).records.map((record) => record.id);
    expect(recordIds.length).toBeGreaterThan(0);

    const log: UpdateLog = {
      sent: 0,
      lastAcknowledged: new Map(),
      acknowledged: 0,
      refused: 0,
      refusalStatuses: new Set(),
    };
    let keepWriting = true;
    // Sequential PUTs, round robin over the two hosts and the records, until told to stop.
    const writer = (async () => {
      while (keepWriting) {
        const sequence = log.sent;
        log.sent += 1;
        const id = recordIds[sequence % recordIds.length]!;
        const host = hosts[sequence % hosts.length]!;
        try {
          const response = await fetch(`${host.url}/api/resources/articles/records/${id}`, {
            method: 'PUT',
            headers: { Cookie: cookie, 'Content-Type': 'application/json', Accept: 'application/json' },
            body: JSON.stringify({ label: labelOf(sequence) }),
            signal: AbortSignal.timeout(UPDATE_TIMEOUT_MS),
          });
          await response.arrayBuffer();
          if (response.ok) {
            log.acknowledged += 1;
            log.lastAcknowledged.set(id, sequence);
          } else {
            log.refused += 1;
            log.refusalStatuses.add(response.status);
          }
        } catch {
          log.refused += 1;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    try {
      const waitForAcknowledged = async (count: number, timeoutMs: number): Promise<void> => {
        const deadline = Date.now() + timeoutMs;
        while (log.acknowledged < count && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      };
      await waitForAcknowledged(10, 10_000);
      const acknowledgedBefore = log.acknowledged;
      expect(acknowledgedBefore).toBeGreaterThanOrEqual(10);

      await server.stop();
      for (const host of hosts) {
        await assertStillRunning(host);
        const down = await readinessWithin(host.url, 503, 15_000);
        expect(down.status).toBe(503);
        expect(down.body).toMatchObject({ status: 'unavailable', checks: { database: 'failing' } });
        // The process itself is fine: liveness must not ask for a restart.
        expect((await requestJson(host.url, '/healthz')).status).toBe(200);
      }
      // Keep it away while the writer tries a few more times, so updates are attempted during the outage too.
      const refusedAtOutage = log.refused;
      const outageDeadline = Date.now() + 5_000;
      while (log.refused < refusedAtOutage + 3 && Date.now() < outageDeadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const refusedWhileDown = log.refused;

      await server.resume();
      for (const host of hosts) {
        await assertStillRunning(host);
        const back = await readinessWithin(host.url, 200, 20_000);
        expect(back.status).toBe(200);
        expect(back.body).toMatchObject({ status: 'ok', checks: { database: 'ok' } });
      }
      const acknowledgedAtReturn = log.acknowledged;
      await waitForAcknowledged(acknowledgedAtReturn + 10, 15_000);
      expect(log.acknowledged).toBeGreaterThanOrEqual(acknowledgedAtReturn + 10);
      // The outage was seen by the writer, not slept through.
      expect(refusedWhileDown).toBeGreaterThanOrEqual(refusedAtOutage + 3);
      // Unavailable, to be retried: not a server error.
      expect([...log.refusalStatuses]).toEqual([503]);
    } catch (error) {
      // A refused connection usually means a host died: its own output says why.
      await new Promise((resolve) => setTimeout(resolve, 200));
      for (const host of hosts) await assertStillRunning(host);
      throw error;
    } finally {
      keepWriting = false;
      await writer;
    }

    // The session itself lived through the restart (it is stored in PostgreSQL too).
    for (const id of recordIds) {
      const answers = await Promise.all(
        hosts.map((host) => requestJson(host.url, `/api/resources/articles/records/${id}`, { cookie })),
      );
      const labels = answers.map((answer) => {
        expect(answer.status).toBe(200);
        return (answer.body as RecordPayload).record.label;
      });
      expect(labels[1]).toBe(labels[0]);
      // A later update may have been applied without its answer arriving; an older value would be a lost one.
      const acknowledged = log.lastAcknowledged.get(id);
      if (acknowledged !== undefined) {
        expect(sequenceOf(labels[0]!)).toBeGreaterThanOrEqual(acknowledged);
        expect(sequenceOf(labels[0]!)).toBeLessThan(log.sent);
      }
    }
    expect(log.lastAcknowledged.size).toBe(recordIds.length);
  });
});
