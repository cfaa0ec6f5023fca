/**
 * The canary watch runs on every host at every check: while the database is away its failures must read as the other
 * background readers' do, one line now and then naming the reader and the cause, not a stack per check.
 */
import pino from 'pino';
import { CanaryWatch, type CanaryWatchParts } from './canary-watch';

it('logs a failing comparison once per interval, in one line naming the cause, its stack only at debug level', async () => {
  const lines: Array<{ level: number; msg: string; err?: unknown; cause?: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  let comparisons = 0;
  const parts = {
    snapshot: { rollouts: () => [{ remote: 'team_billing', active: '1.0.0', canary: { version: '1.1.0' } }] },
    aggregator: {
      flush: () => {
        comparisons++;
        return Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432'));
      },
    },
    logger,
    database: 'PostgreSQL "slots" on 10.0.0.5:5432',
    settings: { enabled: true, checkMs: 5, windowMs: 600_000 },
  } as unknown as CanaryWatchParts;
  const watch = new CanaryWatch(parts);
  watch.start();
  try {
    while (comparisons < 5) await new Promise((resolve) => setTimeout(resolve, 5));
  } finally {
    watch.close();
  }
  expect(lines.map((line) => [line.msg, line.err, line.cause])).toEqual([
    [
      'canary watch: comparing the canaries failed; tried again ' +
        '(PostgreSQL "slots" on 10.0.0.5:5432: connect ECONNREFUSED 10.0.0.5:5432)',
      undefined,
      'connect ECONNREFUSED 10.0.0.5:5432',
    ],
  ]);
});
