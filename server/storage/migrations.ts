/** One schema step. Versions are applied in ascending order, each once, inside its own transaction. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * The schema, as ordered steps. Never edit a released step: append a new one, so every existing database file
 * reaches the same schema.
 */
export const MIGRATIONS: readonly Migration[] = Object.freeze([
  {
    version: 1,
    name: 'users, tenants, memberships, sessions, records',
    sql: `
      CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        username TEXT NOT NULL UNIQUE COLLATE NOCASE,
        display_name TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE tenants (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL
      );
      CREATE TABLE memberships (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        PRIMARY KEY (user_id, tenant_id)
      );
      CREATE TABLE sessions (
        sid TEXT PRIMARY KEY,
        sess TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX sessions_expires_at ON sessions (expires_at);
      CREATE TABLE records (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        resource TEXT NOT NULL,
        data TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX records_tenant_resource ON records (tenant_id, resource, id);
    `,
  },
  {
    version: 2,
    name: 'accounts can be disabled',
    // NULL: enabled. A time: disabled then (npm run user:disable); the account can neither sign in nor keep a session.
    sql: `ALTER TABLE users ADD COLUMN disabled_at INTEGER;`,
  },
]);
