import net from 'node:net';

/**
 * A TCP port that was free a moment ago on `host`: the OS picks it (listen on port 0), then it is released for the
 * caller. Used when a child process needs its port before it starts (PORT=...).
 */
export function getFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen({ host, port: 0, exclusive: true }, () => {
      const address = probe.address();
      if (address === null || typeof address === 'string') {
        probe.close();
        reject(new Error(`Could not read the port the OS picked on ${host}.`));
        return;
      }
      const { port } = address;
      probe.close((error) => (error ? reject(error) : resolve(port)));
    });
  });
}
