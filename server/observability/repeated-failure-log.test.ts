import { Writable } from 'node:stream';
import pino from 'pino';
import { repeatedFailureLog } from './repeated-failure-log';

interface Line {
  level: number;
  msg: string;
  err?: { message: string; stack?: string };
  reader?: string;
  store?: string;
  cause?: string;
  failedSinceLastLine?: number;
}

function sink(level: string) {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: pino({ level }, stream) };
}

const READER = 'releases: reading the rollouts failed; asked again';
const refusedAt = (second: number) =>
  Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:${5400 + second}`), { code: 'ECONNREFUSED' });

it('logs the first failure, then one line per interval counting the others, each naming reader, store and cause', () => {
  const { lines, logger } = sink('info');
  let clock = 0;
  const failed = repeatedFailureLog(logger, READER, { store: 'PostgreSQL', intervalMs: 30_000, now: () => clock });

  for (let second = 0; second < 65; second++) {
    clock = second * 1000;
    failed(refusedAt(second));
  }
  expect(lines.map(({ level, msg, failedSinceLastLine }) => [level, msg, failedSinceLastLine])).toEqual([
    [40, `${READER} (PostgreSQL: connect ECONNREFUSED 127.0.0.1:5400)`, undefined],
    [40, `${READER} (PostgreSQL: connect ECONNREFUSED 127.0.0.1:5430; 29 more failures since the last line)`, 29],
    [40, `${READER} (PostgreSQL: connect ECONNREFUSED 127.0.0.1:5460; 29 more failures since the last line)`, 29],
  ]);
  expect(lines[0]).toMatchObject({ reader: READER, store: 'PostgreSQL', cause: 'connect ECONNREFUSED 127.0.0.1:5400' });
  // One line each, no stack: the outage itself is logged on its own.
  for (const line of lines) expect(line).not.toHaveProperty('err');
});

it('logs the stack at debug level only', () => {
  const { lines, logger } = sink('debug');
  const failed = repeatedFailureLog(logger, 'placements: reading the newest revision failed; asked again', {
    store: 'SQLite /data/app.db',
  });
  failed(new Error('Query read timeout'));
  expect(lines.map(({ level, msg }) => [level, msg])).toEqual([
    [40, 'placements: reading the newest revision failed; asked again (SQLite /data/app.db: Query read timeout)'],
    [20, 'placements: reading the newest revision failed; asked again (SQLite /data/app.db: Query read timeout)'],
  ]);
  expect(lines[0]).not.toHaveProperty('err');
  expect(lines[1]?.err?.stack).toContain('Query read timeout');
});
