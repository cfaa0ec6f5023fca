/**
 * The password hash `npm run user:add` writes is made with the parameters the server checks against: a server
 * started on that database (start-server.ts gives createApp no `passwordHashParams`, and no environment variable sets
 * them) signs the account in without making its hash again. A host's own entry may give createApp others, in its code
 * only: the command cannot follow them, and its help says so.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import request from 'supertest';
import { DEFAULT_SCRYPT_PARAMS, needsRehash } from '../auth/password-hash';
import { createTestApp } from '../../testing/server/test-app';
import { makeTempDir } from '../../testing/temp-dir';
import { runServerCommand } from '../../testing/server/run-server-command';
import { USER_ADD_HASH_NOTE } from './user-add-args';

jest.setTimeout(60_000);

const PASSWORD = 'hash-check-password-1';

it('hashes with the server’s parameters: the first sign-in keeps the hash the command wrote', async () => {
  const dir = makeTempDir('slots-user-add-hash-');
  const env = { DATABASE_PATH: path.join(dir.path, 'app.db') };
  const storedHash = () => {
    const db = new Database(env.DATABASE_PATH, { readonly: true });
    try {
      return (
        db.prepare('SELECT password_hash FROM users WHERE username = ?').get('hasher') as { password_hash: string }
      ).password_hash;
    } finally {
      db.close();
    }
  };
  try {
    expect((await runServerCommand('tenant-add.ts', ['acme'], env, '')).code).toBe(0);
    const added = await runServerCommand('user-add.ts', ['hasher', '--tenant', 'acme'], env, `${PASSWORD}\n`);
    expect([added.code, added.stderr]).toEqual([0, '']);
    const written = storedHash();
    const { N, r, p } = DEFAULT_SCRYPT_PARAMS;
    expect(written).toMatch(new RegExp(`^scrypt\\$N=${N},r=${r},p=${p}\\$`));

    // The server's own parameters, as a start from the environment gives them (none: the built-in ones).
    const server = await createTestApp({ dir, passwordHashParams: undefined });
    try {
      expect(server.app.auth.passwordHashParams).toEqual(DEFAULT_SCRYPT_PARAMS);
      expect(needsRehash(written, server.app.auth.passwordHashParams)).toBe(false);
      const signedIn = await request(server.app.handler)
        .post('/login')
        .send({ username: 'hasher', password: PASSWORD });
      expect(signedIn.status).toBe(200);
      expect(storedHash()).toBe(written);
    } finally {
      await server.close({ keepData: true });
    }
  } finally {
    dir.remove();
  }
});

it('says in its help which parameters it hashes with, and that a host entry’s own passwordHashParams do not reach it', async () => {
  const dir = makeTempDir('slots-user-add-hash-help-');
  try {
    const help = await runServerCommand('user-add.ts', ['--help'], { DATABASE_PATH: path.join(dir.path, 'app.db') });
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toContain(USER_ADD_HASH_NOTE);
    const { N, r, p } = DEFAULT_SCRYPT_PARAMS;
    expect(USER_ADD_HASH_NOTE).toContain(`(N=2^${Math.log2(N)}, r=${r}, p=${p})`);
    expect(USER_ADD_HASH_NOTE).toContain('passwordHashParams');
  } finally {
    dir.remove();
  }
});
