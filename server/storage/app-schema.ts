import type { Generated } from 'kysely';

/**
 * The tables the stores query, as both engines hold them (see migrations.ts). Times are milliseconds since the
 * epoch (INTEGER in SQLite, BIGINT in PostgreSQL, read back as numbers); record data is JSON text in both.
 */
export interface AppSchema {
  users: UsersTable;
  tenants: TenantsTable;
  memberships: MembershipsTable;
  user_permissions: UserPermissionsTable;
  records: RecordsTable;
  deleted_records: DeletedRecordsTable;
  deleted_record_deleters: DeletedRecordDeletersTable;
  record_creations: RecordCreationsTable;
  remote_releases: RemoteReleasesTable;
  remote_rollouts: RemoteRolloutsTable;
  remote_rollout_plans: RemoteRolloutPlansTable;
  remote_tokens: RemoteTokensTable;
  remote_audit: RemoteAuditTable;
  remote_config_reloads: RemoteConfigReloadsTable;
  slot_load_stats: SlotLoadStatsTable;
  slot_load_anonymous_stats: SlotLoadStatsTable;
  slot_load_visitors: SlotLoadVisitorsTable;
  feature_flags: FeatureFlagsTable;
  placement_revisions: PlacementRevisionsTable;
  placement_draft: PlacementDraftTable;
  placement_audit: PlacementAuditTable;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  display_name: string;
  password_hash: string;
  created_at: number;
  updated_at: number;
  /** NULL: enabled. A time: disabled then. */
  disabled_at: number | null;
  /** A time: sessions opened before it are not the account's (set when it is disabled); NULL: none refused so. */
  sessions_since: number | null;
  /** NULL: no role (an editor). `viewer`, `editor`, `operator`: shared/staff-roles.ts. */
  role: string | null;
  /**
   * The credential stamp the account's sessions carry from before a sign-in hashed its password again with stronger
   * parameters (user-store.ts's rehashPassword), kept while `stamp_kept_while` is the row's own stamp. NULL: none.
   */
  stamp_kept: string | null;
  /** The row's own stamp (its hash and `sessions_since`) right after that sign-in: any change since voids `stamp_kept`. */
  stamp_kept_while: string | null;
  /**
   * The account's password generation (user-store.ts's passwordGeneration, which keys its sign-in counts) from before
   * a sign-in hashed its password again with stronger parameters, kept while `generation_kept_while` is the digest of
   * the row's hash. NULL: none.
   */
  generation_kept: string | null;
  /** The digest of the hash that sign-in wrote: a new hash since voids `generation_kept`. */
  generation_kept_while: string | null;
}

export interface TenantsTable {
  id: string;
  name: string;
}

export interface MembershipsTable {
  user_id: number;
  tenant_id: string;
  /** NULL: the account's own role applies in this tenant. Else `viewer`, `editor`, `operator`, which wins there. */
  role: string | null;
}

/** A permission granted to an account on top of its roles' (shared/staff-permissions.ts), in every tenant. */
export interface UserPermissionsTable {
  user_id: number;
  permission: string;
}

export interface RecordsTable {
  id: Generated<number>;
  tenant_id: string;
  resource: string;
  data: string;
  created_at: number;
  updated_at: number;
}

/** A deleted record, restorable with its id until RECORD_RESTORE_WINDOW_MS after `deleted_at`. */
export interface DeletedRecordsTable {
  id: number;
  tenant_id: string;
  resource: string;
  data: string;
  created_at: number;
  updated_at: number;
  deleted_at: number;
}

/**
 * The account that deleted a deleted record (schema step 18), gone with the deleted row (restored or let go). None
 * for a record deleted before that step, by no account, by a host of an earlier release, or by an account removed
 * since.
 */
export interface DeletedRecordDeletersTable {
  record_id: number;
  deleted_by: number;
}

/**
 * A record created by a request that carried an Idempotency-Key: the same key from the same account answers this
 * record again rather than creating another (record-creations.ts). `record_id` is set in the creating transaction.
 */
export interface RecordCreationsTable {
  tenant_id: string;
  resource: string;
  user_id: number;
  key: string;
  /** A digest of the validated values created, so that the key sent again with other values is refused. */
  request_hash: string;
  record_id: number | null;
  created_at: number;
}

/** One immutable release of a remote; `descriptor` is the JSON of its components, form components and props. */
export interface RemoteReleasesTable {
  id: Generated<number>;
  remote: string;
  version: string;
  entry: string;
  descriptor: string;
  published_by: string;
  published_at: number;
}

/** Which release of a remote is in force; `canary_tenants` is a JSON array of tenant ids. */
export interface RemoteRolloutsTable {
  remote: string;
  active_version: string | null;
  canary_version: string | null;
  canary_percent: number;
  canary_tenants: string;
  updated_at: number;
}

/**
 * A remote's progressive rollout plan, the last one started: its steps (JSON), the step in force and its state.
 * `revision` moves with every change, so a change is made only from the revision read (one host advances a step).
 */
export interface RemoteRolloutPlansTable {
  remote: string;
  version: string;
  steps: string;
  step: number;
  state: string;
  step_started_at: number;
  started_by: string;
  started_at: number;
  reason: string | null;
  revision: number;
}

/** A team token of one remote: only its SHA-256 hash is kept. */
export interface RemoteTokensTable {
  id: string;
  remote: string;
  hash: string;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
}

/** One change to a remote's releases, rollout or tokens; `before` and `after` are JSON. */
export interface RemoteAuditTable {
  id: Generated<number>;
  remote: string;
  action: string;
  actor: string;
  at: number;
  before: string;
  after: string;
}

/** `npm run remotes:reload`: every host re-reads its REMOTES_CONFIG when the newest id moves. */
export interface RemoteConfigReloadsTable {
  id: Generated<number>;
  requested_at: number;
}

/**
 * The slot loads of one key (remote, release, location, component) in one time bucket (`span` `minute` or `hour`
 * starting at `start_at`): counts per outcome, failures per phase, and load times per histogram bucket (ms_*).
 */
export interface SlotLoadStatsTable {
  span: 'minute' | 'hour';
  start_at: number;
  remote: string;
  release: string;
  location: string;
  component: string;
  rendered: number;
  failed: number;
  timed_out: number;
  hidden: number;
  phase_manifest: number;
  phase_entry: number;
  phase_init: number;
  phase_factory: number;
  phase_render: number;
  phase_load: number;
  ms_100: number;
  ms_250: number;
  ms_500: number;
  ms_1000: number;
  ms_2500: number;
  ms_5000: number;
  ms_10000: number;
  ms_over: number;
}

/**
 * One visitor of one slot (remote, release, location, component) in one bucket: `visitor` is a hash of the account (signed
 * in, `audience` `staff`) or of the client address (`anonymous`), never the id itself; `failed` and `code_failed` are
 * 1 once any of its loads there failed (in its code, for the latter).
 */
export interface SlotLoadVisitorsTable {
  span: 'minute' | 'hour';
  start_at: number;
  remote: string;
  release: string;
  location: string;
  component: string;
  audience: 'staff' | 'anonymous';
  visitor: string;
  failed: number;
  code_failed: number;
}

/** A feature flag's setting: global (`tenant` empty) or for one tenant, which overrides the global one. */
export interface FeatureFlagsTable {
  name: string;
  tenant: string;
  /** 1 on, 0 off. */
  enabled: number;
  updated_at: number;
}

/** A published revision of the placements document; the newest one is in force (numbers from 1, never reused). */
export interface PlacementRevisionsTable {
  number: number;
  /** The document as JSON text. */
  document: string;
  action: 'publish' | 'rollback';
  /** For a rollback: the revision whose document it restored. */
  restored: number | null;
  published_by: string;
  published_at: number;
}

/** The one draft operators edit (`only_row` is always 1). */
export interface PlacementDraftTable {
  only_row: number;
  document: string;
  updated_by: string;
  updated_at: number;
  /** The version (`updated_at`) the save that wrote the draft was made over, 0 for none (schema step 19). */
  saved_over: number | null;
  /** The version that save made: other than `updated_at` once a host of an earlier release saved the draft since. */
  saved_as: number | null;
}

/** One publish or rollback: who, when, the document before and after (JSON text; `null` before the first). */
export interface PlacementAuditTable {
  id: Generated<number>;
  action: string;
  actor: string;
  at: number;
  revision: number;
  before: string;
  after: string;
}
