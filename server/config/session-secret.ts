import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Name of the file, beside the database, that keeps the generated cookie secret. */
export const SESSION_SECRET_FILE = 'session-secret';

/**
 * The secret that signs session cookies when SESSION_SECRET is not set: generated once and kept (mode 600) beside
 * the database, so sessions survive restarts. Created with `wx`, so two processes starting at once agree on one; one
 * found readable by others (copied in, restored from a backup) is made 600 again.
 */
export function loadOrCreateSessionSecret(databasePath: string): { secret: string; created: boolean; file: string } {
  const file = path.join(path.dirname(databasePath), SESSION_SECRET_FILE);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    const secret = randomBytes(32).toString('base64url');
    fs.writeFileSync(file, `${secret}\n`, { flag: 'wx', mode: 0o600 });
    return { secret, created: true, file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Whoever can read it can sign any session cookie: group and world access go, as they do from the database file.
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  const secret = fs.readFileSync(file, 'utf8').trim();
  if (secret.length < 16) {
    throw new Error(
      `${file} holds no usable secret (empty or shorter than 16 characters). Delete it to make a new one.`,
    );
  }
  return { secret, created: false, file };
}
