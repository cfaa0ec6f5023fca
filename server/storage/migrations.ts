import type BetterSqlite3 from 'better-sqlite3';
import { postgresSortFoldFunction } from './sort-fold';

/** One schema step. Versions are applied in ascending order, each once, inside its own transaction. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** SQLite only, after `sql` in the same transaction: what SQLite's SQL cannot say (a loop over its indexes). */
  sqliteWork?: (db: BetterSqlite3.Database) => void;
}

/** The indexes of text sort keys before they were folded (record-pager.ts names them), dropped by step 11. */
const UNFOLDED_SORT_INDEX_PREFIX = 'records_list_text_';

/**
 * The schema, as ordered steps. Never edit a released step: append a new one, so every existing database file
 * reaches the same schema. Every step exists for both engines, with the same version and name: SQLite here,
 * PostgreSQL in POSTGRES_MIGRATIONS below.
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
  {
    version: 3,
    name: 'releases of remotes, their rollout, team tokens, audit, roles',
    // Releases are immutable: rows are inserted, never updated. The rollout points at them by version.
    sql: `
      ALTER TABLE users ADD COLUMN role TEXT;
      CREATE TABLE remote_releases (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        remote TEXT NOT NULL,
        version TEXT NOT NULL,
        entry TEXT NOT NULL,
        descriptor TEXT NOT NULL,
        published_by TEXT NOT NULL,
        published_at INTEGER NOT NULL,
        UNIQUE (remote, version)
      );
      CREATE TABLE remote_rollouts (
        remote TEXT PRIMARY KEY,
        active_version TEXT,
        canary_version TEXT,
        canary_percent INTEGER NOT NULL DEFAULT 0,
        canary_tenants TEXT NOT NULL DEFAULT '[]',
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE remote_tokens (
        id TEXT PRIMARY KEY,
        remote TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER,
        revoked_at INTEGER
      );
      CREATE TABLE remote_audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        remote TEXT NOT NULL,
        action TEXT NOT NULL,
        actor TEXT NOT NULL,
        at INTEGER NOT NULL,
        before TEXT NOT NULL,
        after TEXT NOT NULL
      );
      CREATE INDEX remote_audit_remote ON remote_audit (remote, id);
      CREATE TABLE remote_config_reloads (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        requested_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: 'slot load statistics per remote release, location and component',
    // One row per key and time bucket (a minute for the 5-minute and 1-hour windows, an hour for the day): counts
    // only, never events, so the table stays bounded whatever the event rate (slot-events/slot-load-store.ts).
    sql: `
      CREATE TABLE slot_load_stats (
        span TEXT NOT NULL,
        start_at INTEGER NOT NULL,
        remote TEXT NOT NULL,
        release TEXT NOT NULL,
        location TEXT NOT NULL,
        component TEXT NOT NULL,
        rendered INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        timed_out INTEGER NOT NULL DEFAULT 0,
        hidden INTEGER NOT NULL DEFAULT 0,
        phase_manifest INTEGER NOT NULL DEFAULT 0,
        phase_entry INTEGER NOT NULL DEFAULT 0,
        phase_init INTEGER NOT NULL DEFAULT 0,
        phase_factory INTEGER NOT NULL DEFAULT 0,
        phase_render INTEGER NOT NULL DEFAULT 0,
        ms_100 INTEGER NOT NULL DEFAULT 0,
        ms_250 INTEGER NOT NULL DEFAULT 0,
        ms_500 INTEGER NOT NULL DEFAULT 0,
        ms_1000 INTEGER NOT NULL DEFAULT 0,
        ms_2500 INTEGER NOT NULL DEFAULT 0,
        ms_5000 INTEGER NOT NULL DEFAULT 0,
        ms_10000 INTEGER NOT NULL DEFAULT 0,
        ms_over INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (span, start_at, remote, release, location, component)
      );
    `,
  },
  {
    version: 5,
    name: 'deleted records kept for restoring, and the word index of records',
    // A deleted record moves to deleted_records with its id (AUTOINCREMENT never hands an id out twice), so restoring
    // puts it back as it was. record_words: the words of each record's text values, as the server splits them
    // (record-words.ts), one FTS5 row per record with the record's id as rowid. The ascii tokenizer only splits at
    // the spaces the server puts between words and keeps every other character: SQLite then holds exactly the words
    // PostgreSQL holds, and both engines answer a search alike.
    sql: `
      CREATE TABLE deleted_records (
        id INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        resource TEXT NOT NULL,
        data TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        deleted_at INTEGER NOT NULL
      );
      CREATE INDEX deleted_records_deleted_at ON deleted_records (deleted_at);
      CREATE VIRTUAL TABLE record_words USING fts5(words, tokenize = "ascii tokenchars '_'");
    `,
  },
  {
    version: 6,
    name: 'feature flags',
    // tenant '' is the global setting; a tenant's own row overrides it for that tenant.
    sql: `
      CREATE TABLE feature_flags (
        name TEXT NOT NULL,
        tenant TEXT NOT NULL DEFAULT '',
        enabled INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (name, tenant)
      );
    `,
  },
  {
    version: 7,
    name: 'placements: a draft, numbered revisions, the audit of publishes',
    // The newest revision is the one in force on every host (placements/placements-poller.ts); a rollback is a new
    // revision holding an older one's document, so the numbers only grow and the trail is never rewritten.
    sql: `
      CREATE TABLE placement_revisions (
        number INTEGER PRIMARY KEY,
        document TEXT NOT NULL,
        action TEXT NOT NULL,
        restored INTEGER,
        published_by TEXT NOT NULL,
        published_at INTEGER NOT NULL
      );
      CREATE TABLE placement_draft (
        only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
        document TEXT NOT NULL,
        updated_by TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE placement_audit (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        action TEXT NOT NULL,
        actor TEXT NOT NULL,
        at INTEGER NOT NULL,
        revision INTEGER NOT NULL,
        before TEXT NOT NULL,
        after TEXT NOT NULL
      );
    `,
  },
  {
    version: 8,
    name: 'roles per tenant membership, permissions granted to accounts',
    // A membership's role (NULL: the account's own) wins while that tenant is current: staff-access.ts. Granted
    // permissions are names of shared/staff-permissions.ts, checked when written.
    sql: `
      ALTER TABLE memberships ADD COLUMN role TEXT;
      CREATE TABLE user_permissions (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        permission TEXT NOT NULL,
        PRIMARY KEY (user_id, permission)
      );
    `,
  },
  {
    version: 9,
    name: 'the version of the words records are indexed with',
    // The server's words change with its versions (record-words.ts WORDS_VERSION; 2 folds accents). The words kept
    // say which version wrote them: a newer server indexes every record again at start-up, while the old words keep
    // answering older hosts still running (so the index is never emptied under them).
    sql: `
      CREATE TABLE record_words_state (words_version INTEGER NOT NULL);
      INSERT INTO record_words_state (words_version) VALUES (1);
    `,
  },
  {
    version: 10,
    name: 'deleted records by tenant and resource, newest deletion first',
    // A resource's Recently deleted page (GET .../records/deleted) reads its tenant's newest deletions: this index
    // serves the filter and the order, so the page reads about as many entries as it shows, whatever the other
    // tenants deleted within the day (deleted_records_deleted_at only serves letting old ones go).
    sql: `CREATE INDEX deleted_records_tenant_resource ON deleted_records (tenant_id, resource, deleted_at, id);`,
  },
  {
    version: 11,
    name: 'text sort keys folded: the unfolded indexes go',
    // Lists sort and search titles by a folded key (sort-fold.ts: "Éclair" among the e's, found by "eclair"), whose
    // indexes are made on first use under new names; the unfolded ones would only slow every write. SQLite calls the
    // fold through a function each connection registers (AppDatabase.open).
    sql: '',
    sqliteWork: (db) => {
      const names = db
        .prepare<[string], string>(`SELECT name FROM sqlite_master WHERE type = 'index' AND substr(name, 1, 18) = ?`)
        .pluck()
        .all(UNFOLDED_SORT_INDEX_PREFIX);
      for (const name of names) db.exec(`DROP INDEX IF EXISTS "${name}"`);
    },
  },
  {
    version: 12,
    name: 'sessions opened before an account was disabled stay ended when it is enabled again',
    // NULL: every session signed in with the current password is the account's. A time: sessions opened before it
    // are not (its credential stamp says which, user-store.ts): disabling sets it, so enabling again brings back no
    // session of before, such as one on a lost laptop that made no request while the account was disabled.
    sql: `ALTER TABLE users ADD COLUMN sessions_since INTEGER;`,
  },
  {
    version: 13,
    name: 'sessions by account and credential stamp, for counting those that can still be used',
    // passport's entry of a session (create-passport.ts: a whole account id and a text credential stamp) as columns
    // computed from the stored JSON, both NULL unless both are so (text that is not JSON included: nobody's session,
    // never an error), and an index on them with the expiry: `slots_sessions_active` (observability/
    // sqlite-session-count.ts) counts from the index alone instead of parsing every stored session on each scrape.
    // VIRTUAL: nothing is stored in the table, the index keeps the values; every writer of the table fills them.
    sql: `
      ALTER TABLE sessions ADD COLUMN user_id INTEGER GENERATED ALWAYS AS (
        CASE WHEN json_valid(sess) THEN
          CASE WHEN json_type(sess, '$.passport.user.id') = 'integer'
                AND json_type(sess, '$.passport.user.credentials') = 'text'
            THEN json_extract(sess, '$.passport.user.id') END
        END
      ) VIRTUAL;
      ALTER TABLE sessions ADD COLUMN credentials TEXT GENERATED ALWAYS AS (
        CASE WHEN json_valid(sess) THEN
          CASE WHEN json_type(sess, '$.passport.user.id') = 'integer'
                AND json_type(sess, '$.passport.user.credentials') = 'text'
            THEN json_extract(sess, '$.passport.user.credentials') END
        END
      ) VIRTUAL;
      CREATE INDEX sessions_signed_in ON sessions (user_id, credentials, expires_at) WHERE user_id IS NOT NULL;
    `,
  },
  {
    version: 14,
    name: 'accounts disabled before sessions_since existed keep their sessions of before ended',
    // Step 12 added the column empty, so an account disabled before it got its sessions of before back once enabled,
    // which step 12 is there to prevent: such an account's time is when it was disabled. (One enabled meanwhile has
    // them back already: nothing here can tell them apart.)
    sql: `UPDATE users SET sessions_since = disabled_at WHERE disabled_at IS NOT NULL AND sessions_since IS NULL;`,
  },
]);

/**
 * The same steps for PostgreSQL: the tables of MIGRATIONS with PostgreSQL's types (BIGINT milliseconds, identity
 * ids, a unique index on the lower-cased username for SQLite's NOCASE, a creation sequence for SQLite's rowid
 * order), plus what only a shared server needs:
 * - `sessions` in connect-pg-simple's layout (sid, sess, expire), used unless REDIS_URL is set;
 * - `login_rate_limits` in RateLimiterPostgres's layout (SQLite creates its own at start-up);
 * - `data_version`: one counter that statement triggers move on every change of users, tenants, memberships and
 *   records, by any host. It is PostgreSQL's stand-in for SQLite's `PRAGMA data_version`: the change stamp that
 *   the per-request caches compare (see PostgresEngine.changeStamp).
 */
export const POSTGRES_MIGRATIONS: readonly Migration[] = Object.freeze([
  {
    version: 1,
    name: 'users, tenants, memberships, sessions, records',
    sql: `
      CREATE TABLE users (
        id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        username TEXT NOT NULL,
        display_name TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE UNIQUE INDEX users_username ON users (lower(username));
      CREATE TABLE tenants (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_seq BIGINT GENERATED ALWAYS AS IDENTITY UNIQUE
      );
      CREATE TABLE memberships (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        PRIMARY KEY (user_id, tenant_id)
      );
      CREATE TABLE sessions (
        sid VARCHAR NOT NULL PRIMARY KEY,
        sess JSON NOT NULL,
        expire TIMESTAMP(6) NOT NULL
      );
      CREATE INDEX sessions_expire ON sessions (expire);
      CREATE TABLE records (
        id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        resource TEXT NOT NULL,
        data TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE INDEX records_tenant_resource ON records (tenant_id, resource, id);
      CREATE TABLE login_rate_limits (
        key VARCHAR(255) PRIMARY KEY,
        points INTEGER NOT NULL DEFAULT 0,
        expire BIGINT
      );
      CREATE TABLE data_version (
        only_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),
        version BIGINT NOT NULL
      );
      INSERT INTO data_version (version) VALUES (0);
      CREATE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE data_version SET version = version + 1;
        RETURN NULL;
      END $$;
      CREATE TRIGGER users_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
        FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
      CREATE TRIGGER tenants_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON tenants
        FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
      CREATE TRIGGER memberships_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON memberships
        FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
      CREATE TRIGGER records_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON records
        FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
    `,
  },
  {
    version: 2,
    name: 'accounts can be disabled',
    sql: `ALTER TABLE users ADD COLUMN disabled_at BIGINT;`,
  },
  {
    version: 3,
    name: 'releases of remotes, their rollout, team tokens, audit, roles',
    sql: `
      ALTER TABLE users ADD COLUMN role TEXT;
      CREATE TABLE remote_releases (
        id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        remote TEXT NOT NULL,
        version TEXT NOT NULL,
        entry TEXT NOT NULL,
        descriptor TEXT NOT NULL,
        published_by TEXT NOT NULL,
        published_at BIGINT NOT NULL,
        UNIQUE (remote, version)
      );
      CREATE TABLE remote_rollouts (
        remote TEXT PRIMARY KEY,
        active_version TEXT,
        canary_version TEXT,
        canary_percent INTEGER NOT NULL DEFAULT 0,
        canary_tenants TEXT NOT NULL DEFAULT '[]',
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE remote_tokens (
        id TEXT PRIMARY KEY,
        remote TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        created_at BIGINT NOT NULL,
        expires_at BIGINT,
        revoked_at BIGINT
      );
      CREATE TABLE remote_audit (
        id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        remote TEXT NOT NULL,
        action TEXT NOT NULL,
        actor TEXT NOT NULL,
        at BIGINT NOT NULL,
        before TEXT NOT NULL,
        after TEXT NOT NULL
      );
      CREATE INDEX remote_audit_remote ON remote_audit (remote, id);
      CREATE TABLE remote_config_reloads (
        id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        requested_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 4,
    name: 'slot load statistics per remote release, location and component',
    // One row per key and time bucket (a minute for the 5-minute and 1-hour windows, an hour for the day): counts
    // only, never events, so the table stays bounded whatever the event rate (slot-events/slot-load-store.ts).
    sql: `
      CREATE TABLE slot_load_stats (
        span TEXT NOT NULL,
        start_at BIGINT NOT NULL,
        remote TEXT NOT NULL,
        release TEXT NOT NULL,
        location TEXT NOT NULL,
        component TEXT NOT NULL,
        rendered INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        timed_out INTEGER NOT NULL DEFAULT 0,
        hidden INTEGER NOT NULL DEFAULT 0,
        phase_manifest INTEGER NOT NULL DEFAULT 0,
        phase_entry INTEGER NOT NULL DEFAULT 0,
        phase_init INTEGER NOT NULL DEFAULT 0,
        phase_factory INTEGER NOT NULL DEFAULT 0,
        phase_render INTEGER NOT NULL DEFAULT 0,
        ms_100 INTEGER NOT NULL DEFAULT 0,
        ms_250 INTEGER NOT NULL DEFAULT 0,
        ms_500 INTEGER NOT NULL DEFAULT 0,
        ms_1000 INTEGER NOT NULL DEFAULT 0,
        ms_2500 INTEGER NOT NULL DEFAULT 0,
        ms_5000 INTEGER NOT NULL DEFAULT 0,
        ms_10000 INTEGER NOT NULL DEFAULT 0,
        ms_over INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (span, start_at, remote, release, location, component)
      );
    `,
  },
  {
    version: 5,
    name: 'deleted records kept for restoring, and the word index of records',
    // record_words holds the server's words as lexemes taken verbatim (array_to_tsvector, no text search parser), so
    // PostgreSQL matches exactly the words SQLite's FTS5 table holds.
    sql: `
      CREATE TABLE deleted_records (
        id INTEGER PRIMARY KEY,
        tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
        resource TEXT NOT NULL,
        data TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        updated_at BIGINT NOT NULL,
        deleted_at BIGINT NOT NULL
      );
      CREATE INDEX deleted_records_deleted_at ON deleted_records (deleted_at);
      CREATE TABLE record_words (
        record_id INTEGER PRIMARY KEY REFERENCES records(id) ON DELETE CASCADE,
        words tsvector NOT NULL
      );
      CREATE INDEX record_words_words ON record_words USING gin (words);
    `,
  },
  {
    version: 6,
    name: 'feature flags',
    sql: `
      CREATE TABLE feature_flags (
        name TEXT NOT NULL,
        tenant TEXT NOT NULL DEFAULT '',
        enabled INTEGER NOT NULL,
        updated_at BIGINT NOT NULL,
        PRIMARY KEY (name, tenant)
      );
      CREATE TRIGGER feature_flags_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON feature_flags
        FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
    `,
  },
  {
    version: 7,
    name: 'placements: a draft, numbered revisions, the audit of publishes',
    sql: `
      CREATE TABLE placement_revisions (
        number INTEGER PRIMARY KEY,
        document TEXT NOT NULL,
        action TEXT NOT NULL,
        restored INTEGER,
        published_by TEXT NOT NULL,
        published_at BIGINT NOT NULL
      );
      CREATE TABLE placement_draft (
        only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
        document TEXT NOT NULL,
        updated_by TEXT NOT NULL,
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE placement_audit (
        id INTEGER GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        action TEXT NOT NULL,
        actor TEXT NOT NULL,
        at BIGINT NOT NULL,
        revision INTEGER NOT NULL,
        before TEXT NOT NULL,
        after TEXT NOT NULL
      );
    `,
  },
  {
    version: 8,
    name: 'roles per tenant membership, permissions granted to accounts',
    sql: `
      ALTER TABLE memberships ADD COLUMN role TEXT;
      CREATE TABLE user_permissions (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        permission TEXT NOT NULL,
        PRIMARY KEY (user_id, permission)
      );
      CREATE TRIGGER user_permissions_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_permissions
        FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
    `,
  },
  {
    version: 9,
    name: 'the version of the words records are indexed with',
    sql: `
      CREATE TABLE record_words_state (words_version INTEGER NOT NULL);
      INSERT INTO record_words_state (words_version) VALUES (1);
    `,
  },
  {
    version: 10,
    name: 'deleted records by tenant and resource, newest deletion first',
    sql: `CREATE INDEX deleted_records_tenant_resource ON deleted_records (tenant_id, resource, deleted_at, id);`,
  },
  {
    version: 11,
    name: 'text sort keys folded: the unfolded indexes go',
    // The fold as an immutable SQL function (the same table as the server's and SQLite's), then the old indexes.
    sql: `
      ${postgresSortFoldFunction()}
      DO $drop$ DECLARE name text; BEGIN
        FOR name IN SELECT indexname FROM pg_indexes
          WHERE tablename = 'records' AND left(indexname, 18) = '${UNFOLDED_SORT_INDEX_PREFIX}'
        LOOP EXECUTE format('DROP INDEX IF EXISTS %I', name); END LOOP;
      END $drop$;
    `,
  },
  {
    version: 12,
    name: 'sessions opened before an account was disabled stay ended when it is enabled again',
    sql: `ALTER TABLE users ADD COLUMN sessions_since BIGINT;`,
  },
  {
    version: 13,
    name: 'sessions by account and credential stamp, for counting those that can still be used',
    // As SQLite's, STORED (PostgreSQL has no virtual columns; adding them rewrites the table once): the same values,
    // an id only when it is a whole JSON number that fits BIGINT. connect-pg-simple writes sid, sess and expire only.
    sql: `
      ALTER TABLE sessions
        ADD COLUMN user_id BIGINT GENERATED ALWAYS AS (
          CASE WHEN json_typeof(sess -> 'passport' -> 'user' -> 'id') = 'number'
                AND json_typeof(sess -> 'passport' -> 'user' -> 'credentials') = 'string'
                AND (sess -> 'passport' -> 'user' ->> 'id') ~ '^-?[0-9]{1,18}$'
            THEN (sess -> 'passport' -> 'user' ->> 'id')::bigint END
        ) STORED,
        ADD COLUMN credentials TEXT GENERATED ALWAYS AS (
          CASE WHEN json_typeof(sess -> 'passport' -> 'user' -> 'id') = 'number'
                AND json_typeof(sess -> 'passport' -> 'user' -> 'credentials') = 'string'
                AND (sess -> 'passport' -> 'user' ->> 'id') ~ '^-?[0-9]{1,18}$'
            THEN sess -> 'passport' -> 'user' ->> 'credentials' END
        ) STORED;
      CREATE INDEX sessions_signed_in ON sessions (user_id, credentials, expire) WHERE user_id IS NOT NULL;
    `,
  },
  {
    version: 14,
    name: 'accounts disabled before sessions_since existed keep their sessions of before ended',
    sql: `UPDATE users SET sessions_since = disabled_at WHERE disabled_at IS NOT NULL AND sessions_since IS NULL;`,
  },
]);
