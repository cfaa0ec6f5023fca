/**
 * Releases of remotes, on the wire: what a team publishes, which release is in force for whom (the rollout), and
 * the audit trail of every change. A release is immutable once published; the rollout only points at releases.
 */
import type { JsonValue } from './json';
import type { JsonSchema } from './wire';

/** A remote's version as its team names it: semver, a build id, a date (letters, digits, `.`, `_`, `+`, `-`). */
export const RELEASE_VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/;

/**
 * How the versions of the releases REMOTES_CONFIG's entries make begin (`config-<hash of the entry>`), kept for
 * them: a team that published one could otherwise have its own files made the release in force when the operator's
 * file came to name that entry, with no operator's activation.
 */
export const CONFIG_RELEASE_PREFIX = 'config-';

/** What is wrong with `version` as the version of a release a team or an operator publishes; null: nothing. */
export function releaseVersionProblem(version: string): string | null {
  if (!RELEASE_VERSION_PATTERN.test(version)) {
    return 'a version begins with a letter or a digit, followed by letters, digits, ".", "_", "+" or "-", 64 characters at most';
  }
  if (version.toLowerCase().startsWith(CONFIG_RELEASE_PREFIX)) {
    return `versions beginning with "${CONFIG_RELEASE_PREFIX}" are kept for the releases REMOTES_CONFIG makes`;
  }
  return null;
}

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
  /** The remote kit that built it (RemoteDescriptorFile `kit`); absent when its descriptor did not say. */
  kit?: string;
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
  /**
   * Shown to an operator who lacks releases:manage in some tenant (and so may read but not change releases): how many
   * of the canary's tenants are not theirs, left out of `tenants`, as which tenants exist beyond one's own is not for
   * them to learn. Absent when there are none.
   */
  otherTenants?: number;
}

/** Which release of a remote is in force. */
export interface RemoteRollout {
  remote: string;
  /** The release everyone gets unless a canary or a preview says otherwise; null before the first activation. */
  active: string | null;
  canary: CanaryRollout | null;
}

/**
 * The rollout a caller saw when it chose a change (`?active=<version>&canary=<version>` on activate, rollback,
 * deactivate, canary and its end; an empty value for none): given, the change is refused with 409 (`conflict`) and
 * nothing is changed once the rollout has moved since (another operator, a rollout plan's step, an automatic
 * rollback), rather than made over what the caller never saw. Not given, the change is made whatever is in force.
 */
export interface RolloutSeen {
  active: string | null;
  /** The canary's version; its share and tenants are not compared. */
  canary: string | null;
}

/** The query parameters that carry a {@link RolloutSeen}, given together. */
export const ROLLOUT_SEEN_PARAMETERS = { active: 'active', canary: 'canary' } as const;

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
  /**
   * Each release the server rolled back automatically (its canary, or its plan's, was worse), the last time for each,
   * newest first: offered again, it is one that failed its visitors before.
   */
  automaticRollbacks?: AutomaticRollback[];
  /** The remote's progressive rollout plan, the last one started (running, paused or ended), or null. */
  plan: RolloutPlan | null;
}

/** One step of a progressive rollout: the canary's share, held at least `minutes` and until `visitors` saw it. */
export interface RolloutStep {
  /** 1 to 100, above the step before; the last step is 100 (the release is activated). */
  share: number;
  /** The least time at this share before the next step (0 to 10080; fractions allowed). */
  minutes: number;
  /** The least distinct visitors of the canary at this step before the next one (default 0). */
  visitors?: number;
}

/** `POST /api/remotes/<name>/rollouts`: an operator's session, or the remote's team token where allowed. */
export interface StartRolloutRequest {
  version: string;
  steps: RolloutStep[];
}

/**
 * Where a plan is: `running` (advanced by the server while the canary is no worse), `paused` (held at its step),
 * `done` (its last step activated the release), `promoted` (activated at once by an operator), `aborted` (rolled back
 * to the stable release by an operator), `rolled-back` (the canary was worse), `stopped` (the rollout was changed by
 * other means: an activation, a canary ended or changed, the canary's automatic rollback).
 */
export const ROLLOUT_PLAN_STATES = [
  'running',
  'paused',
  'done',
  'promoted',
  'aborted',
  'rolled-back',
  'stopped',
] as const;
export type RolloutPlanState = (typeof ROLLOUT_PLAN_STATES)[number];

/** `GET /api/remotes/<name>/rollouts/current`, and the answer of every change of a plan. */
export interface RolloutPlan {
  remote: string;
  version: string;
  steps: RolloutStep[];
  /** The index in `steps` of the step in force (the last one reached, once ended). */
  step: number;
  /** The canary's share at that step (the step's share). */
  share: number;
  state: RolloutPlanState;
  /** ISO 8601: when the step in force began (or was resumed). */
  stepStartedAt: string;
  startedBy: string;
  /** ISO 8601. */
  startedAt: string;
  /** Why it ended or what holds it, when the server says (e.g. the verdict on a worse canary). */
  reason: string | null;
  /**
   * A running step held for want of visitors, as the host answering last found it: the canary's distinct signed-in
   * visitors since the step began, and how many it needs (the step's `visitors` or the canary watch's own minimum,
   * whichever is higher). Absent when the step is not waiting for visitors, or nothing judged it yet (releases list only).
   */
  waitingForVisitors?: { visitors: number; needed: number };
}

/** `POST /api/remotes/<name>/rollouts/current/<action>`. */
export const ROLLOUT_PLAN_ACTIONS = ['pause', 'resume', 'promote', 'abort'] as const;
export type RolloutPlanAction = (typeof ROLLOUT_PLAN_ACTIONS)[number];

/**
 * The plan a caller saw when it chose an action (`?version=<version>&startedAt=<ISO 8601>&state=<state>`, given
 * together): once another plan was started since, or this one was paused, resumed or ended, the action is refused
 * with 409 (`conflict`) and nothing is changed, rather than promote a release the operator never saw rolling out or
 * over a colleague's pause. Its step is not compared: the server advances a running plan by itself. Not given, the
 * action is made on whatever plan is current.
 */
export type RolloutPlanSeen = Pick<RolloutPlan, 'version' | 'startedAt' | 'state'>;

/** The query parameters that carry a {@link RolloutPlanSeen}, given together. */
export const ROLLOUT_PLAN_SEEN_PARAMETERS = { version: 'version', startedAt: 'startedAt', state: 'state' } as const;

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
  /** A progressive rollout: started (its first share), advanced a step, held, let go, activated now, rolled back. */
  | 'rollout-start'
  | 'rollout-step'
  | 'rollout-pause'
  | 'rollout-resume'
  | 'rollout-promote'
  | 'rollout-abort'
  /** The plan's canary was worse than its stable release: the server ended it. */
  | 'rollout-rolled-back'
  /** The plan's rollout was changed by other means (an activation, a canary ended): the plan stops, as it is. */
  | 'rollout-stop'
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
