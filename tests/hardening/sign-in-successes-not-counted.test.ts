import { startAppServer, DEMO_PASSWORD, DEMO_USERNAME, type AppServer } from '../../testing/system/app-server';

/**
 * Issue 25 point 2: only failures count. On a fresh server with the default limits, 35 correct sign-ins of one
 * account in a row from one address all succeed (the testers saw 31 × 200, then 429s that also counted against the
 * address), and afterwards the address still has every failure its limit allows.
 */
jest.setTimeout(120_000);

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer();
});
afterAll(() => server?.stop());

async function signIn(password: string): Promise<number> {
  const response = await fetch(`${server.url}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ username: DEMO_USERNAME, password }),
  });
  await response.arrayBuffer();
  return response.status;
}

it('lets 35 correct sign-ins in a row through, and counts none of them against the address', async () => {
  const statuses = [];
  for (let i = 0; i < 35; i++) statuses.push(await signIn(DEMO_PASSWORD));
  expect(statuses).toEqual(Array(35).fill(200));
  // The default limit per account+address (10 failures) is whole: the successes took nothing from it.
  const failures = [];
  for (let i = 0; i < 11; i++) failures.push(await signIn(`wrong-${i}`));
  expect(failures).toEqual([...Array(10).fill(401), 429]);
});
