import { startAppServer, DEMO_PASSWORD, DEMO_USERNAME, type AppServer } from '../../testing/system/app-server';

/**
 * Issue 25 point 1, the attack as the outside testers ran it, against the real server behind one proxy
 * (`TRUST_PROXY=1`, the client address in `X-Forwarded-For`) with the default limits: 31 wrong passwords for one
 * account from 31 addresses, then one guess every 0.5 s from new addresses. The owner, signing in with the right
 * password every 5 s from the address they signed in from before, gets in every time and is never locked out; the
 * attacker stays slowed down (one guess per 10 s reaches the password check). The owner on a trip (a new address) is
 * slowed down with the attacker, but those 429s do not count against them: once the attack stops they sign in after
 * a wait of seconds, not the 15 minutes the testers saw.
 */
jest.setTimeout(120_000);

const SLOWDOWN_SECONDS = 10;
const ATTACK_MS = 16_000;
const ATTACK_GUESSES = 24;
const OWNER_ADDRESS = '203.0.113.10';
const TRAVELLING_OWNER_ADDRESS = '203.0.113.77';

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer({ env: { TRUST_PROXY: '1' } });
});
afterAll(() => server?.stop());

async function signIn(address: string, password: string): Promise<Response> {
  return fetch(`${server.url}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'X-Forwarded-For': address },
    body: JSON.stringify({ username: DEMO_USERNAME, password }),
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('lets the owner sign in from their usual address during a guessing attack from many addresses', async () => {
  // The owner's usual address: they signed in from it before.
  expect((await signIn(OWNER_ADDRESS, DEMO_PASSWORD)).status).toBe(200);

  // 31 wrong passwords from 31 addresses take the account past its limit (30): the last one takes the slow-down's
  // one attempt.
  const wrong = [];
  for (let i = 1; i <= 31; i++) wrong.push((await signIn(`198.51.100.${i}`, `wrong-${i}`)).status);
  expect(wrong.filter((status) => status === 401).length).toBeGreaterThanOrEqual(30);

  // The owner on a trip is slowed down with everyone else, more often than their own limit (10) would allow.
  const travelling = [];
  for (let i = 0; i < 12; i++) travelling.push((await signIn(TRAVELLING_OWNER_ADDRESS, DEMO_PASSWORD)).status);
  expect(travelling).toEqual(Array(12).fill(429));

  // Steady guesses from new addresses; the owner signs in every 5 s from their usual address. The attack lasts
  // ATTACK_MS and at least ATTACK_GUESSES guesses, however slowly a busy machine answers them, and what it may get
  // through is counted from the time it really lasted: the pacing is the scenario, not a bet on the machine's speed.
  const guesses: number[] = [];
  const owner: number[] = [];
  const started = Date.now();
  const attacking = () => Date.now() - started < ATTACK_MS || guesses.length < ATTACK_GUESSES;
  await Promise.all([
    (async () => {
      for (let i = 0; attacking(); i++) {
        guesses.push((await signIn(`192.0.2.${i % 250}`, `guess-${i}`)).status);
        await sleep(500);
      }
    })(),
    (async () => {
      while (attacking()) {
        owner.push((await signIn(OWNER_ADDRESS, DEMO_PASSWORD)).status);
        await sleep(5_000);
      }
    })(),
  ]);
  const attackSeconds = (Date.now() - started) / 1000;
  expect(owner.length).toBeGreaterThanOrEqual(3);
  expect(owner).toEqual(Array(owner.length).fill(200));
  // The attacker stays slowed down: one guess per interval reaches the password check, the rest are refused.
  const checked = guesses.filter((status) => status === 401).length;
  expect(checked).toBeLessThanOrEqual(Math.ceil(attackSeconds / SLOWDOWN_SECONDS) + 1);
  expect(guesses.filter((status) => status === 429)).toHaveLength(guesses.length - checked);
  expect(guesses.length - checked).toBeGreaterThanOrEqual(
    ATTACK_GUESSES - Math.ceil(attackSeconds / SLOWDOWN_SECONDS) - 1,
  );

  // Afterwards the owner is not locked: from their usual address at once...
  for (let i = 0; i < 3; i++) expect((await signIn(OWNER_ADDRESS, DEMO_PASSWORD)).status).toBe(200);
  // ...and from the new address after the slow-down's few seconds, not a 15-minute lock-out.
  let answer = await signIn(TRAVELLING_OWNER_ADDRESS, DEMO_PASSWORD);
  for (let attempt = 0; answer.status === 429 && attempt < 3; attempt++) {
    const retryAfter = Number(answer.headers.get('retry-after'));
    expect(retryAfter).toBeLessThanOrEqual(SLOWDOWN_SECONDS);
    await sleep(retryAfter * 1000 + 100);
    answer = await signIn(TRAVELLING_OWNER_ADDRESS, DEMO_PASSWORD);
  }
  expect(answer.status).toBe(200);
});
