import net from 'node:net';

/**
 * Ports handed out for test servers: below Linux's ephemeral range (32768 to 60999 by default), where neither a
 * `listen(0)` nor an outgoing connection's own end is ever given a port, so nothing else takes one between the check
 * here and the child's own `listen`. Each Jest worker has its own block, so test files running side by side never
 * hand out the same port; each process starts at a random place in its block, so two runs at once rarely meet.
 */
const FIRST_PORT = 20_000;
const BLOCK_SIZE = 1_000;
const BLOCKS = 12;

const workerBlock = (Math.max(1, Number(process.env.JEST_WORKER_ID ?? '1')) - 1) % BLOCKS;
let nextInBlock = Math.floor(Math.random() * BLOCK_SIZE);

/**
 * A TCP port free on `host` now, from this worker's block (see above), for a child process that needs its port
 * before it starts (PORT=...). A port in use (by another run, or anything else) is skipped.
 */
export async function getFreePort(host = '127.0.0.1'): Promise<number> {
  for (let tried = 0; tried < BLOCK_SIZE; tried++) {
    const port = FIRST_PORT + workerBlock * BLOCK_SIZE + (nextInBlock++ % BLOCK_SIZE);
    if (await isFree(host, port)) return port;
  }
  throw new Error(`No free port on ${host} in ${FIRST_PORT + workerBlock * BLOCK_SIZE} + ${BLOCK_SIZE}.`);
}

function isFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(false) : reject(error),
    );
    probe.listen({ host, port, exclusive: true }, () =>
      probe.close((error) => (error ? reject(error) : resolve(true))),
    );
  });
}
