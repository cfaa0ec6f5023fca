import { startHttpFixtureServer, type HttpFixtureServer } from '../system/http-fixture-server';

/**
 * A real HTTP server in front of `target` (another origin, `http://127.0.0.1:<port>`) that answers each request as
 * `target` does, `delayMs` late: a remote's origin that is slow, not down. Closing it drops the answers still waited
 * for; `target` is the caller's to close.
 */
export async function startSlowOrigin(target: string, delayMs: number): Promise<HttpFixtureServer> {
  const waiting = new Set<NodeJS.Timeout>();
  const server = await startHttpFixtureServer((request, response) => {
    const timer = setTimeout(() => {
      waiting.delete(timer);
      fetch(`${target}${request.url ?? '/'}`)
        .then(async (answer) => {
          response.writeHead(answer.status, { 'Content-Type': answer.headers.get('content-type') ?? 'text/plain' });
          response.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch(() => response.destroy());
    }, delayMs);
    waiting.add(timer);
  });
  return {
    ...server,
    close: async () => {
      for (const timer of waiting) clearTimeout(timer);
      await server.close();
    },
  };
}
