/**
 * Placements in the database, on the wire: a document in the placement part of REMOTES_CONFIG's shape (per remote,
 * its `"slots"`; the `"locations"` allow-lists), one draft that operators edit, and numbered published revisions,
 * the newest of which every host serves. Operators only (docs/operators/placements-editor.md).
 */
import type { JsonValue } from './json';
import type { ShownVisibilityRule } from './slot-placement';
import type { JsonSchema, SlotEntry, Tenant } from './wire';

/** The host's page of the editor, for operators. */
export const PLACEMENTS_PAGE_PATH = '/placements';

/** The API's root; every route below it is an operator's. */
export const PLACEMENTS_API_PATH = '/api/placements';

/** What a document renders for one viewer: `GET` the context's choices, `POST` a preview. */
export const PLACEMENTS_PREVIEW_PATH = `${PLACEMENTS_API_PATH}/preview`;

/**
 * The document: `{ "remotes": [ { "name": "team_billing", "slots": { "<location>": [ { "component", "props",
 * "id", "priority", "before", "after", "visibleWhen" } ] } } ], "locations": { "<location>": ["team_billing"] } }`,
 * as a REMOTES_CONFIG file writes it (without the remotes' declarations: `entry`, `components`...).
 */
export interface PlacementsDocument {
  /** `forms`: form slots by resource, as in a REMOTES_CONFIG entry (kept as written; the editor edits `slots`). */
  remotes?: Array<{ name: string; slots?: Record<string, JsonValue[]>; forms?: Record<string, JsonValue[]> }>;
  locations?: Record<string, string[]>;
}

/**
 * Where a problem is: the slot `remotes[name].slots[location][index]` of the document, the form slot
 * `remotes[name].forms[resource][index]` (location `resource form "<resource>"`), or the document itself.
 */
export interface PlacementProblem {
  /** The remote entry, when the problem is about one of its slots (or the entry). */
  remote: string | null;
  location: string | null;
  /** The slot's index in that remote's list at that location (or in its `forms` list of that resource). */
  index: number | null;
  component: string | null;
  /** `invalid-document` for a shape error, else the slot check's kind (`props-invalid`, `remote-not-allowed`...). */
  kind: string;
  /** JSON path of the offending prop (`props.amountDue`), when the problem is one prop's. */
  path: string | null;
  message: string;
  /** Whether it refuses a publish. */
  blocking: boolean;
}

/**
 * Whether two drafts' `updatedAt` (ISO times, null for none saved) are the same instant: the draft's version, as the
 * server checks a save or publish against it and the page knows a colleague's save.
 */
export function sameDraftVersion(a: string | null, b: string | null): boolean {
  return a === null || b === null ? a === b : Date.parse(a) === Date.parse(b);
}

export interface PlacementsDraft {
  document: JsonValue;
  /** Null before anyone saved a draft (the draft is then the published document). */
  updatedBy: string | null;
  /** ISO 8601, or null. */
  updatedAt: string | null;
}

export interface PlacementRevisionSummary {
  number: number;
  action: 'publish' | 'rollback';
  /** For a rollback: the revision it restored. */
  restored: number | null;
  publishedBy: string;
  /** ISO 8601. */
  publishedAt: string;
}

export interface PlacementRevision extends PlacementRevisionSummary {
  document: JsonValue;
}

/**
 * `GET /api/placements`: the draft with its problems, and the newest revision (null before the first publish): the one
 * every host takes, and the one the diff and a publish start from (`PlacementRevisionsPayload.inForce` says whether this
 * host serves it: a host whose check fails on it keeps the one before). To
 * someone without placements:edit in every tenant (`changesRefused`), every answer of the API shows each document's
 * rules with the tenants they do not belong to counted (`{ "tenants": ["acme"], "otherTenants": 2 }`,
 * ShownVisibilityRule), and no message names such a tenant; such a document cannot be saved back (400).
 */
export interface PlacementsPayload {
  draft: PlacementsDraft;
  problems: PlacementProblem[];
  preview: PlacementPreview;
  published: PlacementRevision | null;
  /**
   * Why the user asking may not change placements (save, publish, roll back, import): their account lacks
   * placements:edit in another tenant, and a revision reaches every tenant. Absent when they may.
   */
  changesRefused?: string;
}

/** Body of `POST /api/placements/publish`. */
export interface PlacementsPublishRequest {
  /**
   * The `updatedAt` of the saved draft the editor shows (null: none was saved): a draft saved since (by another
   * operator, a rollback, an import) refuses the publish with 409 (`error.savedDraft`), so that nobody publishes a
   * draft they have not seen. Left out: the saved draft is published as it is.
   */
  expectedUpdatedAt?: string | null;
  /**
   * The newest published revision the editor shows (0: none yet): one published since (the same draft by another
   * operator, a rollback) refuses the publish with 409, naming it, rather than publish a revision nobody compared
   * with what is in force. Left out: any.
   */
  expectedRevision?: number;
}

export interface PlacementsDraftSaveRequest {
  document: JsonValue;
  /**
   * The `updatedAt` of the draft the editor loaded (null: none was saved yet): a draft saved since refuses the save
   * with 409 (`error.savedDraft` says by whom and when). Left out: the last save wins.
   */
  expectedUpdatedAt?: string | null;
}

/** `PUT /api/placements/draft` and `POST /api/placements/import` answer the saved draft with its problems. */
export interface PlacementsDraftPayload {
  draft: PlacementsDraft;
  problems: PlacementProblem[];
  preview: PlacementPreview;
  /** Import only: the keys of the imported file that are not placements (`entry`, `allowedOrigins`...), dropped. */
  ignored?: string[];
}

/** One change of the draft against the published revision. */
export interface PlacementChange {
  /**
   * `forms`: the form slots a remote places in one resource's form, compared as a list (before, after). `order`: the
   * slots both documents place at a location are served in another order (before, after: every slot's id there, in
   * the order served, code's and the file's included).
   */
  change: 'added' | 'removed' | 'changed' | 'allow-list' | 'forms' | 'order';
  /** The location, or for `forms` the form: `resource form "<resource>"`. */
  location: string;
  /** The remote whose slot it is (null for an allow-list or an order). */
  remote: string | null;
  /**
   * The slot's id at its location, as the editor's order names it (`PlacementPreview`): given, or derived from the
   * component among every slot placed there, code's and the file's first (`Callout`, `Callout#2`...). A removed
   * slot's is its id in the published revision. Null for an allow-list or an order.
   */
  id: string | null;
  before: JsonValue;
  after: JsonValue;
}

/** `GET /api/placements/diff`. */
export interface PlacementsDiffPayload {
  /** The published revision compared with (0: none yet). */
  revision: number;
  /**
   * The saved draft compared: who saved it, when. A page whose draft is another (`updatedAt`) is behind a colleague's
   * save: its publish would be refused, and these changes are not the ones it shows.
   */
  draft: Pick<PlacementsDraft, 'updatedBy' | 'updatedAt'>;
  /**
   * Null when the saved draft has a shape problem (a slot or form slot that cannot be read, named in the draft's
   * problems): what publishing it would change is unknown, and publishing it is refused until it is mended.
   */
  changes: PlacementChange[] | null;
}

/** `GET /api/placements/revisions`: newest first. */
export interface PlacementRevisionsPayload {
  revisions: PlacementRevisionSummary[];
  /**
   * The revision in force on the host answering (0: none). Behind the newest when this host could not take it (its
   * check fails here, e.g. after an upgrade removed a location it uses: the log names the problems); the revision
   * in force before stays until a newer one passes.
   */
  inForce: number;
}

/** `POST /api/placements/rollback`. */
export interface PlacementRollbackRequest {
  revision: number;
  /**
   * The `updatedAt` of the saved draft the editor shows (null: none was saved), as for a publish: a rollback makes
   * the revision's document the draft, so a draft saved since (whose changes it would replace unseen) refuses it with
   * 409 (`error.savedDraft`). Left out: the saved draft is replaced whatever it holds.
   */
  expectedUpdatedAt?: string | null;
  /** As for a publish: the newest revision the editor shows (0: none); one published since refuses it (409). */
  expectedRevision?: number;
}

/** One publish or rollback of placements, as audited. */
export interface PlacementAuditEntry {
  id: number;
  action: 'publish' | 'rollback';
  actor: string;
  /** ISO 8601. */
  at: string;
  /** The revision it made. */
  revision: number;
  /**
   * For a rollback: the revision whose document it published again (as `restored` in the revisions); null for a
   * publish. Without it the audit trail said that a rollback happened, not to what.
   */
  restored: number | null;
  /** The document in force before (null before the first publish) and after. */
  before: JsonValue;
  after: JsonValue;
}

/** `GET /api/placements/audit`: newest first. */
export interface PlacementAuditPayload {
  entries: PlacementAuditEntry[];
}

/** `GET /api/placements/components`: what a slot may name, per remote known now, with each props schema (or null). */
export interface PlacementComponentsPayload {
  remotes: Array<{
    name: string;
    /** `form`: listed among the remote's form components, so a `"forms"` entry may name it. */
    components: Array<{ name: string; schema: JsonSchema | null; form: boolean }>;
  }>;
}

/** Location -> every slot it would hold with the draft published, in the server's order (rules not applied). */
export type PlacementPreview = Record<
  string,
  Array<{ id: string; component: string; remote: string | null; source: 'code' | 'file' | 'draft' }>
>;

/**
 * Who a preview is for, as an operator picks it ("a viewer in tenant acme"): what `visibleWhen` rules are evaluated
 * against, as `/meta` evaluates them for a signed-in account with these roles in this tenant.
 */
export interface PlacementPreviewContext {
  /**
   * The account's roles (`viewer`, `editor`, `operator`, or any a rule names; at most 16). Seen as a real account's
   * are: one that may change records (no role, or `operator`) also holds `editor` (staff-permissions.ts
   * `rolesForRules`).
   */
  roles: string[];
  /**
   * Permissions granted to the account on top of its roles' (`records:write`...: shared/staff-permissions.ts); left
   * out: none. Rules over `permissions` see these with the roles' own.
   */
  permissions?: string[];
  /**
   * The tenant the account works in: the id of a tenant that exists; for someone without placements:edit in every
   * tenant, one they belong to (what another is served is not theirs to learn).
   */
  tenant: string;
  /** The feature flags on (names, at most 64); left out: those on for the tenant now, as `/meta` reads them. */
  flags?: string[];
}

/** `POST /api/placements/preview`. */
export interface PlacementsPreviewRequest {
  /** The document to preview (the editor's, saved or not); left out: the saved draft. */
  document?: JsonValue;
  /** The one location to preview; left out: every location that holds a slot. */
  location?: string;
  context: PlacementPreviewContext;
}

/** One slot of a previewed location, in the server's order, and whether the context sees it. */
export interface PreviewedSlot {
  /** Its id at the location (given, or derived from the component name). */
  id: string;
  component: string;
  /** The remote whose configured slot it is (null for a slot of code). */
  remote: string | null;
  source: 'code' | 'file' | 'draft';
  /**
   * `shown`: in the context's `/meta` (its entry is in `slots`); `hidden`: its `visibleWhen` rule fails for the
   * context; `left-out`: no host would serve it now (its remote does not answer, lacks the component, or its props
   * fail the schema). Left-out slots follow the others: they have no place in the order.
   */
  outcome: 'shown' | 'hidden' | 'left-out';
  /**
   * Its rule; to someone without placements:edit in every tenant, with the tenants they do not belong to counted
   * (`otherTenants`), as the location catalogue shows rules.
   */
  visibleWhen?: ShownVisibilityRule;
  /**
   * Why it is not shown: its rule in words (`role operator`, `tenant acme or 2 tenants hidden from you`), or what
   * leaves it out.
   */
  reason?: string;
}

/** One location as the context would see it with the document published. */
export interface PreviewedLocation {
  /** The entries the context's `/meta` would carry here, in order, with their props: what the editor renders. */
  slots: SlotEntry[];
  /** Every slot placed here (code's, the file's, the document's), with its outcome. */
  placed: PreviewedSlot[];
}

/** The answer of `POST /api/placements/preview`. */
export interface PlacementsPreviewPayload {
  /** The context as the rules saw it: roles as a real account's are seen, its permissions, the flags that were on. */
  context: { roles: string[]; permissions: string[]; tenant: string; flags: string[] };
  locations: Record<string, PreviewedLocation>;
  /** What of the document could not be read (its shape): those parts are not in the preview. */
  problems: PlacementProblem[];
}

/** `GET /api/placements/preview`: what a preview's context is picked from. */
export interface PlacementPreviewChoices {
  roles: string[];
  /** Every tenant; to someone without placements:edit in every tenant, those they belong to. */
  tenants: Tenant[];
  /** Every flag name set anywhere (on or off, globally or for a tenant). */
  flags: string[];
}
