import { Writable } from 'node:stream';
import pino from 'pino';
import { repeatedFailureLog } from './repeated-failure-log';

it('logs the first failure with its error, then one line per interval counting the others', () => {
  const lines: Array<{ msg: string; err?: { message: string }; failedSinceLastLine?: number }> = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  let clock = 0;
  const failed = repeatedFailureLog(
    pino(sink),
    'releases: reading the rollouts failed; asked again',
    30_000,
    () => clock,
  );

  for (let second = 0; second < 65; second++) {
    clock = second * 1000;
    failed(new Error(`connection refused at ${second}`));
  }
  expect(lines.map(({ msg, err, failedSinceLastLine }) => [msg, err?.message, failedSinceLastLine])).toEqual([
    ['releases: reading the rollouts failed; asked again', 'connection refused at 0', undefined],
    ['releases: reading the rollouts failed; asked again (29 more failures since)', 'connection refused at 30', 29],
    ['releases: reading the rollouts failed; asked again (29 more failures since)', 'connection refused at 60', 29],
  ]);
});
