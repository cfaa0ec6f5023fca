import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { makeTempDir } from '../testing/temp-dir';
import { createLogger, endLog } from './logger';

describe('endLog', () => {
  it('resolves once every line is written, and drops a line logged after it instead of throwing', async () => {
    const folder = makeTempDir();
    try {
      const file = path.join(folder.path, 'server.log');
      // The server's own stdout stream (sonic-boom), which writes asynchronously.
      const logger = createLogger('production', 'info', pino.destination({ dest: file, sync: false }));
      const request = logger.child({ req: 1 });
      logger.info('first');
      request.info('second');
      await endLog(logger);
      const written = () =>
        fs
          .readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(written()).toEqual(['first', 'second']);
      // A request ending, or a second exception, while the process exits.
      expect(() => logger.info('late')).not.toThrow();
      expect(() => request.warn('late too')).not.toThrow();
      await endLog(logger);
      expect(written()).toEqual(['first', 'second']);
    } finally {
      folder.remove();
    }
  });

  it('drops a line logged right after it when nothing was left to write', async () => {
    const folder = makeTempDir();
    try {
      const logger = createLogger('production', 'info', pino.destination({ dest: path.join(folder.path, 'x.log') }));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const ended = endLog(logger);
      expect(() => logger.info('at once')).not.toThrow();
      await ended;
    } finally {
      folder.remove();
    }
  });
});
