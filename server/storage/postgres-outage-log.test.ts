import pino from 'pino';
import { POSTGRES_STOPPED_MESSAGE, PostgresOutageLog, postgresAnswersAgainMessage } from './postgres-outage-log';

const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

function outageLog() {
  const lines: Array<{ level: number; msg: string; downForMs?: number; err?: { message: string } }> = [];
  let now = 1_000_000;
  const log = new PostgresOutageLog(
    pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) }),
    () => now,
  );
  return { log, lines, later: (ms: number) => (now += ms) };
}

describe('PostgresOutageLog', () => {
  it('says nothing while connections open', () => {
    const { log, lines } = outageLog();
    log.opened(log.attempting());
    log.opened(log.attempting());
    expect(lines).toEqual([]);
  });

  it('says once that PostgreSQL stopped answering, with the reason, however many attempts fail, and once that it answers again', () => {
    const { log, lines, later } = outageLog();
    log.opened(log.attempting());
    // Twenty requests at once, each opening a connection.
    const attempts = Array.from({ length: 20 }, () => log.attempting());
    for (const attempt of attempts) log.failed(attempt, refused);
    later(12_345);
    for (const attempt of Array.from({ length: 3 }, () => log.attempting())) log.failed(attempt, refused);
    const back = [log.attempting(), log.attempting()];
    for (const attempt of back) log.opened(attempt);
    expect(lines.map(({ level, msg }) => [level, msg])).toEqual([
      [50, POSTGRES_STOPPED_MESSAGE],
      [30, 'PostgreSQL answers again, after 12.3 s'],
    ]);
    expect(lines[0]?.err?.message).toBe('connect ECONNREFUSED 127.0.0.1:5432');
    expect(lines[1]?.downForMs).toBe(12_345);
  });

  it('starts no outage from an attempt that fails after a later one opened, nor from a failure that is no outage', () => {
    const { log, lines } = outageLog();
    const slow = log.attempting();
    log.opened(log.attempting());
    // Started before PostgreSQL answered again, timed out after.
    log.failed(slow, new Error('Connection terminated due to connection timeout'));
    // A wrong password is not PostgreSQL away (and its requests are errors of their own).
    log.failed(log.attempting(), { code: '28P01', message: 'password authentication failed for user "slots"' });
    expect(lines).toEqual([]);
  });

  it('says each outage, one after another', () => {
    const { log, lines, later } = outageLog();
    log.failed(log.attempting(), refused);
    later(1_000);
    log.opened(log.attempting());
    log.failed(log.attempting(), refused);
    later(2_000);
    log.opened(log.attempting());
    expect(lines.map(({ msg }) => msg)).toEqual([
      POSTGRES_STOPPED_MESSAGE,
      postgresAnswersAgainMessage(1_000),
      POSTGRES_STOPPED_MESSAGE,
      postgresAnswersAgainMessage(2_000),
    ]);
  });
});
