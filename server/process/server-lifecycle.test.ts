import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { ServerLifecycle } from './server-lifecycle';

const servers: http.Server[] = [];
const agent = new http.Agent({ keepAlive: true });

afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

afterAll(() => agent.destroy());

async function listen(listener: http.RequestListener): Promise<number> {
  const server = http.createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function appWith(lifecycle: ServerLifecycle): express.Express {
  const app = express();
  app.use(lifecycle.connectionCloser);
  app.get('/ok', (_req, res) => {
    res.json({ ok: true });
  });
  return app;
}

/** The `Connection` header of the answer to a keep-alive request. */
function connectionOf(port: number, path = '/ok'): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.headers.connection));
      })
      .on('error', reject);
  });
}

describe('ServerLifecycle.connectionCloser', () => {
  it('keeps connections alive until draining, then answers with Connection: close', async () => {
    const lifecycle = new ServerLifecycle();
    const port = await listen(appWith(lifecycle));
    expect(await connectionOf(port)).toBe('keep-alive');
    lifecycle.startDraining();
    expect(await connectionOf(port)).toBe('close');
  });

  it('drains only its own app, though both run in one process', async () => {
    const draining = new ServerLifecycle();
    const serving = new ServerLifecycle();
    const drainingPort = await listen(appWith(draining));
    const servingPort = await listen(appWith(serving));
    expect(await connectionOf(drainingPort)).toBe('keep-alive');
    expect(await connectionOf(servingPort)).toBe('keep-alive');
    draining.startDraining();
    expect(await connectionOf(drainingPort)).toBe('close');
    expect(await connectionOf(servingPort)).toBe('keep-alive');
  });

  it('works on a bare Node server too, without touching the answers of other servers', async () => {
    const lifecycle = new ServerLifecycle();
    lifecycle.startDraining();
    const closerPort = await listen((req, res) => {
      lifecycle.connectionCloser(req as express.Request, res as express.Response, () => res.end('x'));
    });
    const otherPort = await listen((_req, res) => res.end('y'));
    expect(await connectionOf(closerPort, '/')).toBe('close');
    expect(await connectionOf(otherPort, '/')).toBe('keep-alive');
  });
});

describe('ServerLifecycle.closeConnectionsOf', () => {
  it('closes the connections of an app whose response prototype it watches, from the start of draining', async () => {
    const lifecycle = new ServerLifecycle();
    const app = express();
    lifecycle.closeConnectionsOf(app.response);
    lifecycle.closeConnectionsOf(app.response);
    app.get('/ok', (_req, res) => {
      res.json({ ok: true });
    });
    const port = await listen(app);
    expect(await connectionOf(port)).toBe('keep-alive');
    lifecycle.startDraining();
    expect(await connectionOf(port)).toBe('close');
  });
});
