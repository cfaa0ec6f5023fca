/**
 * The SQLite count reads the sessions' index alone, never a stored session's JSON (what made a scrape hold the
 * server's only thread for about 200 ms with 100,000 sessions), and counts the sessions a file held before the
 * index existed.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import type { SessionData } from 'express-session';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { credentialStampOf } from './user-store';
import { AppDatabase } from '../storage/app-database';
import { migrate } from '../storage/migrate';
import { MIGRATIONS } from '../storage/migrations';
import { registerSqliteSortFold } from '../storage/sort-fold';
import { SqliteSessionStore } from '../storage/sqlite-session-store';
import { SQLITE_SESSION_COUNT, sqliteSessionCount } from './sqlite-session-count';

const HOUR_MS = 3_600_000;

interface Instruction {
  opcode: string;
  p1: number;
  p2: number;
  p4: unknown;
}

let dir: TempDir;
beforeEach(() => {
  dir = makeTempDir('slots-session-count-');
});
afterEach(() => dir.remove());

/** Adds an account and `sessions` sessions signed in to it with its stamp, through the product's session store. */
function signIn(db: Database.Database, username: string, sessions: number): void {
  const passwordHash = `hash-of-${username}`;
  const { lastInsertRowid } = db
    .prepare('INSERT INTO users (username, display_name, password_hash, created_at, updated_at) VALUES (?, ?, ?, 0, 0)')
    .run(username, username, passwordHash);
  const store = new SqliteSessionStore(db, { fallbackTtlMs: HOUR_MS, cleanupIntervalMs: 0 });
  for (let n = 0; n < sessions; n++) {
    const data = {
      cookie: { originalMaxAge: HOUR_MS, expires: new Date(Date.now() + HOUR_MS) },
      passport: { user: { id: Number(lastInsertRowid), credentials: credentialStampOf(passwordHash, null) } },
    };
    store.set(`${username}-${n}`, data as unknown as SessionData);
  }
}

describe('sqliteSessionCount', () => {
  it('reads every column of the sessions it needs from the index `sessions_signed_in`, no stored session', () => {
    const file = AppDatabase.open(path.join(dir.path, 'app.db'));
    try {
      const { db } = file;
      signIn(db, 'ada', 2);
      // Registers the stamp function the statement calls.
      expect(sqliteSessionCount(db)()).toBe(2);

      const rootPage = (name: string) =>
        db.prepare<[string], number>('SELECT rootpage FROM sqlite_master WHERE name = ?').pluck().get(name);
      const program = db.prepare(`EXPLAIN ${SQLITE_SESSION_COUNT}`).all(0) as Instruction[];
      const cursorOn = (page: number | undefined) =>
        program.find((step) => step.opcode === 'OpenRead' && step.p2 === page)?.p1;
      const table = cursorOn(rootPage('sessions'));
      expect(cursorOn(rootPage('sessions_signed_in'))).toBeDefined();
      // The table's cursor, if SQLite opens one, is never read: no column, no row, no JSON function.
      const readsOfTable = program.filter(
        (step) => ['Column', 'Rowid', 'SeekRowid', 'NotExists'].includes(step.opcode) && step.p1 === table,
      );
      expect(readsOfTable).toEqual([]);
      expect(program.filter((step) => String(step.p4).startsWith('json'))).toEqual([]);
    } finally {
      file.close();
    }
  });

  it('counts the sessions stored before the upgrade that made the index', () => {
    const databasePath = path.join(dir.path, 'app.db');
    const before = new Database(databasePath);
    try {
      registerSqliteSortFold(before);
      migrate(
        before,
        MIGRATIONS.filter((step) => step.version < 13),
      );
      signIn(before, 'ada', 2);
      signIn(before, 'grace', 1);
    } finally {
      before.close();
    }
    const file = AppDatabase.open(databasePath);
    try {
      expect(sqliteSessionCount(file.db)()).toBe(3);
    } finally {
      file.close();
    }
  });
});
