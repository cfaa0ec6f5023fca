import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import pino from 'pino';
import { makeTempDir } from '../../testing/temp-dir';
import { createLogger } from '../logger';
import { API_SECURITY_HEADERS } from '../security/api-security-headers';
import { StartProgress, StartStopped } from '../process/start-progress';
import { StartingGate } from './starting-gate';
import { START_STOPPED_MESSAGE, StartingListener } from './starting-listener';

describe('StartingListener.abandon', () => {
  it('exits a start stopped by a signal once its last line is written', async () => {
    const folder = makeTempDir();
    const file = path.join(folder.path, 'server.log');
    // The server's own stdout stream (sonic-boom), which writes asynchronously.
    const logger = createLogger('production', 'info', pino.destination({ dest: file, sync: false }));
    let linesAtExit: string[] | undefined;
    const exit = jest.spyOn(process, 'exit').mockImplementation((() => {
      linesAtExit = fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { msg: string }).msg);
    }) as typeof process.exit);
    try {
      const gate = new StartingGate(API_SECURITY_HEADERS);
      const starting = new StartingListener(http.createServer(), gate, new StartProgress(), logger, {
        host: '127.0.0.1',
        port: 0,
      });
      logger.info('starting');
      await starting.abandon(new StartStopped('SIGTERM'), async () => undefined);
      expect(exit).toHaveBeenCalledWith(0);
      expect(linesAtExit).toEqual(['starting', START_STOPPED_MESSAGE]);
    } finally {
      exit.mockRestore();
      folder.remove();
    }
  });
});
