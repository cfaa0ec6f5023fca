/**
 * An account whose stored password hash cannot be read (a hand-edited row, another tool's hash, parameters scrypt
 * refuses), signed in through the real POST /login on a real SQLite file: refused as a wrong password, byte for byte
 * and at a wrong password's cost, never a 500, and logged once for operators with the account's name.
 */
import Database from 'better-sqlite3';
import pino from 'pino';
import request from 'supertest';
import { ERROR_MESSAGES } from '../../shared';
import { scryptDerivationsDuring } from '../../testing/server/scrypt-derivations';
import { comparableAnswer } from '../../testing/server/comparable-answer';
import { addUser, createTestApp, type TestApp } from '../../testing/server/test-app';

const INVALID_CREDENTIALS = { error: { code: 'unauthenticated', message: ERROR_MESSAGES.invalidCredentials } };
/** Not the default parameters, which a hash that could not be read was checked at. */
const SLOW = { N: 2 ** 14, r: 8, p: 1 };
const KEY = 'A'.repeat(86) + '==';
/** What an operator could find in the column. */
const UNREADABLE = {
  garbage: 'not a hash at all',
  bcrypt: '$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW',
  // Within the module's limits, but scrypt itself refuses N=2^17 with r=1 (it threw, answered 500).
  refusedByScrypt: `scrypt$N=131072,r=1,p=1$c2FsdHNhbHRzYWx0c2FsdA==$${KEY}`,
};

jest.setTimeout(60_000);

describe('sign-in of an account whose stored hash cannot be read', () => {
  let testApp: TestApp;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    testApp = await createTestApp({ passwordHashParams: SLOW, logger });
    await addUser(testApp.app, 'eve', 'eve-password-1', ['acme'], SLOW);
    for (const name of Object.keys(UNREADABLE)) await addUser(testApp.app, name, 'its-password-1', ['acme'], SLOW);
    // Edited by hand, from another connection to the file, as an operator with sqlite3 would.
    const db = new Database(testApp.databasePath);
    try {
      for (const [name, hash] of Object.entries(UNREADABLE)) {
        expect(db.prepare('UPDATE users SET password_hash = ? WHERE username = ?').run(hash, name).changes).toBe(1);
      }
    } finally {
      db.close();
    }
  });

  afterAll(async () => {
    await testApp.close();
  });

  const signIn = (username: string, password: string) =>
    request(testApp.app.handler).post('/login').send({ username, password });

  it.each(Object.keys(UNREADABLE))(
    'refuses %s as a wrong password, byte for byte, whatever the password',
    async (name) => {
      const wrong = await signIn('eve', 'not-the-password');
      for (const password of ['its-password-1', 'not-the-password']) {
        const refused = await signIn(name, password);
        expect(refused.body).toEqual(INVALID_CREDENTIALS);
        expect(comparableAnswer(refused)).toEqual(comparableAnswer(wrong));
      }
    },
  );

  it("costs what a wrong password costs: one derivation at today's parameters", async () => {
    expect(await scryptDerivationsDuring(() => signIn('eve', 'not-the-password'))).toEqual([SLOW]);
    for (const name of Object.keys(UNREADABLE)) {
      expect(await scryptDerivationsDuring(() => signIn(name, 'its-password-1'))).toEqual([SLOW]);
    }
  });

  it('logs each such account once, by name, without its hash', () => {
    const reports = lines.filter((line) => String(line.msg).includes('cannot be read'));
    expect(reports.map((line) => line.user).sort()).toEqual(Object.keys(UNREADABLE).sort());
    expect(reports.every((line) => line.level === 50)).toBe(true);
    const text = JSON.stringify(reports);
    for (const hash of Object.values(UNREADABLE)) expect(text).not.toContain(hash);
  });
});
