import fs from 'node:fs';
import path from 'node:path';
import { loadOrCreateSessionSecret, SESSION_SECRET_FILE } from './session-secret';
import { makeTempDir } from '../../testing/temp-dir';

describe('loadOrCreateSessionSecret', () => {
  it('generates a secret once beside the database (mode 600) and reads the same one afterwards', () => {
    const dir = makeTempDir();
    try {
      const databasePath = path.join(dir.path, 'data', 'app.db');
      const first = loadOrCreateSessionSecret(databasePath);
      expect(first.created).toBe(true);
      expect(first.file).toBe(path.join(dir.path, 'data', SESSION_SECRET_FILE));
      expect(first.secret.length).toBeGreaterThanOrEqual(32);
      expect(fs.statSync(first.file).mode & 0o777).toBe(0o600);
      const second = loadOrCreateSessionSecret(databasePath);
      expect(second).toEqual({ ...first, created: false });
    } finally {
      dir.remove();
    }
  });

  it('takes group and world access away from a secret file found readable by others', () => {
    const dir = makeTempDir();
    try {
      const databasePath = path.join(dir.path, 'app.db');
      const { file, secret } = loadOrCreateSessionSecret(databasePath);
      fs.chmodSync(file, 0o644);
      expect(loadOrCreateSessionSecret(databasePath).secret).toBe(secret);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      dir.remove();
    }
  });

  it('refuses an empty secret file with a message saying what to do', () => {
    const dir = makeTempDir();
    try {
      fs.writeFileSync(path.join(dir.path, SESSION_SECRET_FILE), '\n');
      expect(() => loadOrCreateSessionSecret(path.join(dir.path, 'app.db'))).toThrow(/Delete it to make a new one/);
    } finally {
      dir.remove();
    }
  });
});
