import { whileReady } from './start-until-ready';

/**
 * A server that listens at once and answers as one that listens while it starts: `/healthz` 200 from the first
 * request, `/readyz` 503 until READY_AFTER_MS after the first one asked it, then 200.
 */
const EARLY_LISTENER = `
const http = require('node:http');
let readyAt;
http
  .createServer((req, res) => {
    readyAt ??= performance.now() + Number(process.env.READY_AFTER_MS);
    res.statusCode = req.url === '/healthz' || performance.now() >= readyAt ? 200 : 503;
    res.end();
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
`;
const READY_AFTER_MS = 600;

describe('whileReady', () => {
  it('times the first answer and the first 200 of /readyz apart, for a start that listens before it is ready', async () => {
    const times = await whileReady(
      {
        args: ['-e', EARLY_LISTENER],
        env: { ...process.env, READY_AFTER_MS: String(READY_AFTER_MS) },
        cwd: __dirname,
        pollMs: 10,
        timeoutMs: 20_000,
      },
      async ({ answeredMs, readyMs }) => ({ answeredMs, readyMs }),
    );
    // Ready no sooner than READY_AFTER_MS after it first answered (503, less the time that answer took to come back),
    // where /healthz was 200 all along.
    expect(times.readyMs - times.answeredMs).toBeGreaterThanOrEqual(READY_AFTER_MS - 50);
    expect(times.answeredMs).toBeGreaterThan(0);
  });

  it('gives one figure twice for a start that listens once ready', async () => {
    const times = await whileReady(
      {
        args: ['-e', EARLY_LISTENER],
        env: { ...process.env, READY_AFTER_MS: '0' },
        cwd: __dirname,
        pollMs: 10,
        timeoutMs: 20_000,
      },
      async ({ answeredMs, readyMs }) => ({ answeredMs, readyMs }),
    );
    expect(times.readyMs).toBe(times.answeredMs);
  });
});
