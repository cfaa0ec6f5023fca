import http from 'node:http';
import { startAppServer, DEMO_PASSWORD, DEMO_USERNAME, type AppServer } from '../../testing/system/app-server';

/**
 * The real server with PUBLIC_URL refuses a sign-in from a page whose name was pointed at it (DNS rebinding), also
 * when that page adds a made-up bearer token: to its browser the page is same-origin, so it may set any header, and
 * the cross-site guard lets bearer-only requests (a team's CI) through. A team's CI still reaches its routes.
 */
jest.setTimeout(60_000);

const PUBLIC_URL = 'https://slots.example.test';
let server: AppServer;

beforeAll(async () => {
  server = await startAppServer({ env: { PUBLIC_URL } });
});
afterAll(() => server?.stop());

/** A POST with the headers given as they are (Host included, which fetch would not send as written). */
function post(
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; setCookie: string[] | undefined; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port: Number(port), path, method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, setCookie: res.headers['set-cookie'], body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const SIGN_IN = JSON.stringify({ username: DEMO_USERNAME, password: DEMO_PASSWORD });

it('refuses a rebound page signing in, with or without a made-up bearer token, and opens no session', async () => {
  const rebound = {
    Host: 'evil.example',
    Origin: 'http://evil.example',
    'Sec-Fetch-Site': 'same-origin',
    'Content-Type': 'application/json',
  };
  const bearers: Array<Record<string, string>> = [
    {},
    { Authorization: 'Bearer x' },
    { Authorization: 'bearer slt_made_up' },
  ];
  for (const extra of bearers) {
    const answer = await post('/login', { ...rebound, ...extra }, SIGN_IN);
    expect([answer.status, answer.setCookie]).toEqual([403, undefined]);
    expect(JSON.parse(answer.body).error.message).toContain(`This product's pages are at ${PUBLIC_URL} (PUBLIC_URL)`);
  }
  // The product's own page signs in.
  const own = await post(
    '/login',
    {
      Host: 'slots.example.test',
      Origin: PUBLIC_URL,
      'Sec-Fetch-Site': 'same-origin',
      'Content-Type': 'application/json',
    },
    SIGN_IN,
  );
  expect(own.status).toBe(200);
});

it("lets a team's CI through to its routes, an Origin of its own or none", async () => {
  const origins: Array<Record<string, string>> = [{}, { Origin: 'https://ci.example.com' }];
  for (const origin of origins) {
    const answer = await post(
      '/api/remotes/team_records/releases',
      { Authorization: 'Bearer slt_unknown_token', 'Content-Type': 'application/json', ...origin },
      '{}',
    );
    // Past the guard: the token is checked (and unknown).
    expect(answer.status).toBe(401);
  }
});
