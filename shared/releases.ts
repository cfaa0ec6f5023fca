/**
 * Releases of remotes, on the wire: what a team publishes, which release is in force for whom (the rollout), and
 * the audit trail of every change. A release is immutable once published; the rollout only points at releases.
 */
import type { JsonValue } from './json';
import type { JsonSchema } from './wire';

/** A remote's version as its team names it: semver, a build id, a date (letters, digits, `.`, `_`, `+`, `-`). */
export const RELEASE_VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

export { OPERATOR_ROLE, type StaffRole } from './staff-roles';

/** The host's page of remotes and their releases, for operators (not under `/remotes/`: the remotes' files are). */
export const RELEASES_PAGE_PATH = '/releases';

/** `POST /api/remotes/<name>/releases`, sent with `Authorization: Bearer <team token>` of that remote. */
export interface PublishReleaseRequest {
  /** The team's version; unique per remote. */
  version: string;
  /** The URL of the release's `mf-manifest.json`; its descriptor file is read beside it when publishing. */
  entry: string;
}

/** One immutable release of a remote, as it was published. */
export interface RemoteRelease {
  remote: string;
  version: string;
  entry: string;
  /** The descriptor read from the entry at publish time: what a restart uses, never what the origin serves later. */
  components: string[];
  formComponents: string[];
  props: Record<string, JsonSchema>;
  /** Who published it: `token:<id>` (a team token), a username, or `config` (a REMOTES_CONFIG entry). */
  publishedBy: string;
  /** ISO 8601. */
  publishedAt: string;
}

/** A share of the users given another release than the active one, sticky per user. */
export interface CanaryRollout {
  version: string;
  /** 0 to 100: users whose hash of (user id, remote) falls below it get the canary. */
  percent: number;
  /** Tenants whose every user gets the canary, whatever the percentage. */
  tenants: string[];
}

/** Which release of a remote is in force. */
export interface RemoteRollout {
  remote: string;
  /** The release everyone gets unless a canary or a preview says otherwise; null before the first activation. */
  active: string | null;
  canary: CanaryRollout | null;
}

/** `POST /api/remotes/<name>/activate` and `POST /api/remotes/<name>/rollback` (operators). */
export interface ActivateReleaseRequest {
  version: string;
}

/** `POST /api/remotes/<name>/canary` (operators); `DELETE` on the same path ends the canary. */
export interface CanaryRequest {
  version: string;
  /** 0 to 100; 0 with tenants: those tenants only. */
  percent: number;
  tenants?: string[];
}

/** `POST /api/remotes/<name>/preview` (operators, their own session only); `DELETE` ends the preview. */
export interface PreviewRequest {
  version: string;
}

/** A canary the server ended on its own: its slot loads failed more than the stable release's. */
export interface AutomaticRollback {
  version: string;
  /** ISO 8601. */
  at: string;
  /** What was measured, as audited (e.g. the two failure rates and their loads). */
  reason: string;
}

/** One remote on the operators' page: its rollout, its releases (newest first), and the session's preview. */
export interface RemoteReleases {
  remote: string;
  rollout: RemoteRollout;
  releases: RemoteRelease[];
  /** The version this session previews, if any. */
  preview: string | null;
  /** The rollout's last change when it was an automatic rollback (until the next change of the rollout), or null. */
  automaticRollback: AutomaticRollback | null;
}

/** `GET /api/remotes/releases` (operators). */
export interface RemoteReleasesPayload {
  remotes: RemoteReleases[];
  /**
   * Why the user asking may not change rollouts (activate, roll back, a canary): their account lacks releases:manage
   * in another tenant, and a rollout reaches every tenant. Absent when they may. A preview (their own session only)
   * needs the permission in the current tenant alone.
   */
  changesRefused?: string;
}

/** `canary-auto-rollback`: the server ended a canary whose failure rate exceeded the stable release's (slot events). */
export type AuditAction =
  | 'publish'
  | 'activate'
  | 'rollback'
  /** The release in force taken away: the remote's own build (REMOTES_CONFIG or built in) is served again. */
  | 'deactivate'
  | 'canary'
  | 'canary-end'
  | 'canary-auto-rollback'
  | 'token-add'
  | 'token-revoke';

/** One change to a remote's releases, rollout or tokens. */
export interface AuditEntry {
  id: number;
  remote: string;
  action: AuditAction;
  /** A username, `token:<id>`, `config`, or `cli` (a command run on the server's machine). */
  actor: string;
  /** ISO 8601. */
  at: string;
  /** What it was and what it became (a rollout, a release's version, a token's id); null where nothing was. */
  before: JsonValue;
  after: JsonValue;
}

/** `GET /api/remotes/<name>/history` (operators): newest first. */
export interface RemoteHistoryPayload {
  remote: string;
  entries: AuditEntry[];
}

/**
 * A release refused because it would break a current placement (a slot of code, of REMOTES_CONFIG or of a resource
 * form): the 400 error's `problems`, one line per placement broken, its problems joined by `; `.
 */
export interface ReleaseProblems {
  problems: string[];
}
