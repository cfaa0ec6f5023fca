/**
 * @jest-environment node
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeTempDir } from '../../testing/temp-dir';
import { startDevServer } from './dev-server';

describe('startDevServer', () => {
  it('says a port in use in words, with the option that picks another', async () => {
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    const dir = makeTempDir('slots-dev-server-');
    try {
      await expect(startDevServer({ dir: dir.path, port, host: '127.0.0.1' })).rejects.toThrow(
        `Port ${port} of 127.0.0.1 is in use, by another server (another slots-remote dev, say): stop it, or ` +
          'serve on another port with npm run dev -- --port <port>.',
      );
    } finally {
      dir.remove();
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
