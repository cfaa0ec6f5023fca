/**
 * The wire contract between server, host and remotes. Every payload the server sends and every prop the host
 * hands to a slot component is typed here once; the resource API's (definitions, records, lists, and the record a
 * record page's action slots are handed) in resource-wire.ts.
 */
import type { JsonObject, JsonValue } from './json';
import type { SlotLocationValue } from './slot-location';
import type { ShownVisibilityRule } from './slot-placement';

// ---------------------------------------------------------------------------------------------- slots

/** Children of a slot: text, or slots rendered through the same registry. */
export type SlotContent = string | SlotEntry | SlotEntry[];

/** One slot as delivered to the frontend. `content` is present only when the slot has some. */
export interface SlotEntry {
  component: string;
  props: JsonObject;
  content?: SlotContent;
}

/** Location name -> slots in registration order. A location with no slot is absent. */
export type SlotMap = Partial<Record<SlotLocationValue, SlotEntry[]>>;

/** `GET /slots`: public locations only, no session needed. */
export interface SlotsPayload {
  slots: SlotMap;
}

// ---------------------------------------------------------------------------------------------- meta

export interface DashboardCard {
  title: string;
  value: string | number;
}

export interface Dashboard {
  name: string;
  label: string;
  cards: DashboardCard[];
  /**
   * Its cards could not be worked out this time (the application's `cards()` failed or took too long; the server
   * logged why): no cards, and the page says so. Asked for again a few seconds later.
   */
  unavailable?: true;
}

export interface NavigationLink {
  name: string;
  label: string;
}

/** A navigation group: a label and links to resources (`modules` on the wire). */
export interface NavigationModule {
  name: string;
  label: string;
  resources: NavigationLink[];
}

/** `GET /meta`: every location, session required. */
export interface MetaPayload {
  dashboards: Dashboard[];
  modules: NavigationModule[];
  slots: SlotMap;
}

// ---------------------------------------------------------------------------------------------- auth

export interface Tenant {
  id: string;
  name: string;
}

export interface CurrentUser {
  username: string;
  displayName: string;
  tenants: Tenant[];
  /** Id of the tenant the session currently works in. */
  currentTenant: string;
  /**
   * The roles the account holds in the current tenant: its membership's role there, else its own (staff-roles.ts);
   * empty or absent: none, an editor. A tenant switch answers them anew.
   */
  roles?: string[];
  /**
   * What the account may do in the current tenant (staff-permissions.ts): its role's permissions and those granted
   * to the account. The shell asks `userMay`; absent (payloads made without a server): derived from `roles`.
   */
  permissions?: string[];
}

/** `GET /me`, `POST /login`, `POST /tenant`. */
export interface MePayload {
  user: CurrentUser;
  /**
   * How long the session has left as of this answer. The server always sends it; optional for payloads made
   * without a session (a remote's tests, an emulated host), where `GET /session` answers instead.
   */
  session?: SessionTimePayload;
}

/**
 * `GET /session`: how long the signed-in session has left, without extending it (asking is not using it);
 * `POST /session`: extend it now ("stay signed in"), answering the same. The server decides: both limits are
 * enforced there whatever a page believes.
 */
export interface SessionTimePayload {
  /** Milliseconds until the session ends for being unused, as of this answer. */
  idleEndsInMs: number;
  /** Milliseconds until it ends for its age, however busy; staying signed in cannot move this one. */
  absoluteEndsInMs: number;
  /** The idle limit: what staying signed in gives back. */
  idleTimeoutMs: number;
}

export const SESSION_TIME_PATH = '/session';

export interface LoginRequest {
  username: string;
  password: string;
  /**
   * The tenant to work in, when the account belongs to it (else its first, as without it): a page signing in again
   * after its session ended asks for the tenant it showed, so its work comes back where it was.
   */
  tenant?: string;
}

export interface TenantSwitchRequest {
  tenant: string;
}

// ---------------------------------------------------------------------------------------------- slot props

export type FormMode = 'create' | 'edit';

/** What a form slot can see and change of the form it sits in. */
export interface FormContext {
  mode: FormMode;
  values: Readonly<Record<string, JsonValue>>;
  errors: Readonly<Record<string, string>>;
  setValue(name: string, value: JsonValue): void;
}

/** Props a form slot component receives: `resource`, `formContext`, then the slot's own props. */
export type FormSlotProps<P extends object = JsonObject> = P & {
  resource: string;
  formContext: FormContext;
};

// ---------------------------------------------------------------------------------------------- remotes

/** A federated remote as the server describes it to the host. */
export interface RemoteDescriptor {
  /** The remote's name (the Module Federation name its build registers). */
  name: string;
  /** URL of the remote's `mf-manifest.json` (absolute, or relative to the host origin). */
  entry: string;
  /** Component names it provides to the SlotComponentRegistry (each exposed as `./<name>`). */
  components: string[];
  /** The subset of `components` registered in the global component registry, for resource forms. */
  formComponents: string[];
  /**
   * For a remote served through one of its releases: that release's version, signed by the server
   * (`<version>.<signature>`). The page's slot events carry it back, so that they count under the release the page
   * runs, even after the release in force changed. Opaque to the host.
   */
  releaseTag?: string;
  /**
   * The release of this remote the session previews (an operator's `POST /api/remotes/<name>/preview`), when it is the
   * one served: only this session's pages load it. The host says so on every page, with a way to stop the preview.
   */
  previewedVersion?: string;
  /**
   * A remote served by `slots-remote dev`: where it announces rebuilds (server-sent events), relative to its
   * descriptor. A development server passes it on to the host, whose pages reload after each rebuild; a production
   * server never does.
   */
  devEvents?: string;
}

/** `GET /api/remotes` */
export interface RemotesPayload {
  remotes: RemoteDescriptor[];
  /**
   * Whether the host may show what failed (placeholders naming components, remotes and errors): true only when the
   * server does not run with `NODE_ENV=production`. The server decides, not the host's build mode, so a
   * development build served in production never shows internal names; absent means no.
   */
  showSlotDetails?: boolean;
}

// ---------------------------------------------------------------------------------------------- slot inspector

/**
 * Who placed a slot, as the inspector and the location catalogue say: `code`, `registerSlots` (or a resource's
 * `fields()`); `configuration`, a REMOTES_CONFIG entry's `"slots"` or `"forms"`; `placements`, the placements
 * revision in force (published with the placements editor).
 */
export type SlotPlacedBy = 'code' | 'configuration' | 'placements';

/** One slot as the inspector shows it: where it comes from, who provides it, and what stops it from rendering. */
export interface InspectedSlot {
  component: string;
  /** null when no page of the user carries this slot (left out): its props are then not shown. */
  props: JsonObject | null;
  /** The remote that provides the component; null when no known remote does. */
  remote: string | null;
  source: SlotPlacedBy;
  visibility: 'public' | 'protected';
  /** Empty when the slot is served; otherwise why it cannot render (it is then left out or will fail). */
  problems: string[];
  /** Its id at its location (given, or derived from the component name): what `before`/`after` name. */
  id?: string;
  /** Its `visibleWhen` rule, when it has one, as the user asking may read it (ShownVisibilityRule). */
  visibleWhen?: ShownVisibilityRule;
  /** Why the signed-in user asking does not get this slot: its rule fails for them (its props are then not shown). */
  hiddenByRule?: string;
}

/** One remote as the inspector shows it. */
export interface InspectedRemote {
  name: string;
  entry: string;
  /**
   * `built`: built into this server's dist/; `listed`: its components are listed in REMOTES_CONFIG; `disabled`:
   * `"enabled": false` in REMOTES_CONFIG. A remote served from another origin: what the last request to it (for the
   * descriptor beside the entry served, every 30 s) came to: `answered`; `down`: no connection (refused, reset, no
   * such host); `timed-out`: no full answer within the timeout; `bad-answer`: an answer, but not a usable descriptor
   * (an error status, invalid JSON, another remote's file) — see `reason`. `released`: served from its release in
   * force, its origin not asked yet; `waiting`: not asked yet.
   */
  status: 'built' | 'listed' | 'answered' | 'released' | 'waiting' | 'down' | 'timed-out' | 'bad-answer' | 'disabled';
  /** The version of the release in force that serves it, if one does (its entry and components are the release's). */
  release?: string;
  reason?: string;
  components: string[];
  formComponents: string[];
  /** The components that declare a props schema (a plain remoteEntry.js remote has none: props checked as JSON). */
  schemaComponents: string[];
}

/**
 * A slot among a resource form's fields as the inspector shows it (for signed-in staff): from code (`fields()`), from
 * configuration (a REMOTES_CONFIG entry's `"forms"`), or from the placements revision in force (its `"forms"`).
 */
export interface InspectedFormSlot extends InspectedSlot {
  /**
   * Code's: its index among the form's items, fields and slots together, in `fields()` order. Configuration's and the
   * placements': its index among the items the form is sent with; -1 when it is left out (see `problems`).
   */
  position: number;
}

/**
 * `GET /api/slots/inspect` (signed-in staff): every location's slots, every form slot (by resource name, only
 * resources whose form has one) and every remote, with what is wrong.
 */
export interface SlotInspectionPayload {
  locations: Record<string, InspectedSlot[]>;
  forms: Record<string, InspectedFormSlot[]>;
  remotes: InspectedRemote[];
}

// ---------------------------------------------------------------------------------------------- location catalogue

/** A slot as the location catalogue lists it: what fills the location now, in resolved order. */
export interface CatalogueSlot {
  /** Its id at the location: given, or derived (the component name, `Name#2` for the second of that name). */
  id: string;
  component: string;
  /**
   * The remote that provides the component (the one it is placed for, for a slot of REMOTES_CONFIG or of the
   * placements editor); null when none.
   */
  remote: string | null;
  source: SlotPlacedBy;
  /** Its priority: the one given, else the default (50). */
  priority: number;
  before?: string;
  after?: string;
  /** As the user asking may read it: other tenants' ids counted, not named (ShownVisibilityRule). */
  visibleWhen?: ShownVisibilityRule;
  /** Whether the signed-in user asking passes its rule (true without a rule). */
  visibleToYou: boolean;
}

/** One location of the catalogue. */
export interface CatalogueLocation {
  location: SlotLocationValue;
  visibility: 'public' | 'protected';
  /** The props the host adds to each slot here (`resource`, `resourceId`, `record` at the action locations). */
  contextProps: string[];
  /** The remotes whose slots may fill it; null when any remote may. */
  allowedRemotes: string[] | null;
  slots: CatalogueSlot[];
}

/** `GET /api/locations` (signed-in staff): every location, in table order. */
export interface LocationsPayload {
  locations: CatalogueLocation[];
}

// ---------------------------------------------------------------------------------------------- health

export interface HealthPayload {
  status: 'ok' | 'unavailable';
  checks?: Record<string, 'ok' | 'failing'>;
}

// ---------------------------------------------------------------------------------------------- remote builds

/**
 * File each remote's build writes beside its `mf-manifest.json`: what the remote declares about itself. The server
 * reads it to list the remote at `GET /api/remotes` (adding the entry URL), so the list is never kept by hand twice.
 */
export const REMOTE_DESCRIPTOR_FILE = 'slots-remote.json';

/**
 * A JSON Schema (draft 2020-12 / draft 7 subset) as it crosses the wire: plain JSON. The remote kit writes one per
 * component from the team's TypeBox declaration; the server validates slot props against it with a compiled
 * validator, the host (in development) with an interpretive one.
 */
export type JsonSchema = { [keyword: string]: JsonValue };

/**
 * The annotation of a props schema that says a prop names a field of the form its component sits in (`true`): the
 * server holds such a prop of a form slot against the fields of its resource, and refuses a name it lacks. Every JSON
 * Schema validator of the product (the server's, the host's, the kit's) leaves it alone. The kit's `formFieldName()`
 * writes it.
 */
export const FORM_FIELD_KEYWORD = 'x-form-field';

/**
 * Content of {@link REMOTE_DESCRIPTOR_FILE}: a {@link RemoteDescriptor} without the entry URL (known only when
 * served), plus the props schema of each component. `props` is absent in descriptors written before schemas existed;
 * a component without a schema has its props checked as JSON only.
 */
export type RemoteDescriptorFile = Omit<RemoteDescriptor, 'entry'> & {
  /** Component name -> JSON Schema of the props a slot gives it (its own props, not the host's context props). */
  props?: Record<string, JsonSchema>;
  /**
   * The version of the remote kit whose build wrote the file (`1.2.3`, {@link KIT_VERSION_PATTERN}): a release keeps
   * it, so operators and teams know which contract a build was made and tested against. Absent in files written by
   * kits before 0.8.1 or by other tooling.
   */
  kit?: string;
};

/**
 * What {@link RemoteDescriptorFile}'s `kit` must look like: a semantic version, with a pre-release part
 * (`0.9.0-rc.1`) and build metadata (`0.9.0+3f2a1c`) allowed, as a kit built from a branch names itself.
 */
export const KIT_VERSION_PATTERN = /^\d{1,9}\.\d{1,9}\.\d{1,9}(-[0-9A-Za-z.-]{1,40})?(\+[0-9A-Za-z.-]{1,40})?$/;

/**
 * `GET /api/slots/schemas` (development servers only; 404 in production): the props schema of every component known
 * now, so the host can check a slot's props before rendering it and say in the placeholder what is wrong.
 */
export interface SlotSchemasPayload {
  schemas: Record<string, JsonSchema>;
  /** Signed out: only the schemas of the components the public slots name (a sign-in brings the others). */
  partial?: true;
}

// ---------------------------------------------------------------------------------------------- host page boot

/**
 * `name` of the `<meta>` element a federated host's index.html carries where the server puts what the page needs
 * from the remotes before it has asked for anything: resource hints for the remote files of the page's public
 * slots, and the {@link BootData} element. Written by the host build, replaced by the server.
 */
export const REMOTE_HINTS_MARKER = 'slots-remote-hints';

/** `id` of the `<script type="application/json">` element holding the page's {@link BootData} (data, never run). */
export const BOOT_DATA_ELEMENT_ID = 'slots-boot-data';

/** A component the page's public slots render; `media`: only where this media query matches. */
export interface BootComponent {
  component: string;
  media?: string;
}

/**
 * What the server puts into index.html, so the host can start loading remote modules at once: the remotes
 * (what `GET /api/remotes` answers) and the components the requested page renders. For anyone but a signed-in
 * session: those of the public slots only, never anything a session would be needed for. For a signed-in session
 * (a page marked `private, no-store`, with its {@link SessionBootData}): those of every slot the page renders.
 */
export interface BootData {
  remotes: RemoteDescriptor[];
  components: BootComponent[];
  /** As in {@link RemotesPayload}. */
  showSlotDetails: boolean;
}

/**
 * `id` of the `<script type="application/json">` element holding a page's {@link SessionBootData} (data, never run).
 * A signed-in session's page carries its user's, marked `private, no-store`; a page whose request carried no session
 * says so.
 */
export const SESSION_DATA_ELEMENT_ID = 'slots-session-data';

/**
 * What a signed-in page would ask for first, put into the page by the server for the session's own user: the answer
 * of `GET /me` and of `GET /meta`, so the slots can render without a round trip to the API first.
 */
export interface SessionBootData {
  me: MePayload;
  meta: MetaPayload;
}

/**
 * The session data of a page whose request carried no session: `GET /me` would answer 401, so the page does not ask
 * (a 401 in every anonymous visitor's console, and a round trip, for what the server knew). `slots`: the answer
 * `GET /slots` would give the request (its very body), so the sign-in page renders its public slots in place with the
 * form, without waiting for that request; absent from an older server's page, which the host then asks.
 */
export interface SignedOutBootData {
  me: null;
  slots?: SlotsPayload;
}

/** The session data the server put into a page: the signed-in user's first answers, or that nobody is signed in. */
export type PageSessionData = SessionBootData | SignedOutBootData;

// ---------------------------------------------------------------------------------------------- host events

/**
 * Name of the window `CustomEvent` a remote component dispatches to ask the host to reload the session and the slot
 * data, e.g. after it switched the tenant with `POST /tenant`:
 * `window.dispatchEvent(new CustomEvent(HOST_REFRESH_EVENT, { detail: { reason: 'tenant-switched' } }))`.
 */
export const HOST_REFRESH_EVENT = 'slots:host-refresh';

/** `detail` of a {@link HOST_REFRESH_EVENT}; `reason` is for logs only. */
export interface HostRefreshDetail {
  reason: string;
}

/**
 * Name of the cancelable window `CustomEvent` a remote component dispatches before it does something that replaces
 * what the page shows, e.g. before it switches the tenant. When the page holds unsaved changes the host asks the
 * user, and cancels the event if they choose to stay; so the remote goes on only when `dispatchEvent` returns true:
 * `if (window.dispatchEvent(new CustomEvent(HOST_BEFORE_LEAVE_EVENT, { cancelable: true, detail }))) { ... }`.
 */
export const HOST_BEFORE_LEAVE_EVENT = 'slots:before-leave';

/** `detail` of a {@link HOST_BEFORE_LEAVE_EVENT}; `reason` is for logs only. */
export interface HostBeforeLeaveDetail {
  reason: string;
}

/**
 * Attribute of `<html>` the host sets (to "true") while some slots on the page failed to render (a remote that is
 * off, unreachable or too slow), and removes once none has; {@link HOST_TOOLS_EVENT} tells when it changes. A
 * component that reports on the service (a status line) reads both, so it never says that all is well while the
 * page is missing tools.
 */
export const HOST_TOOLS_UNAVAILABLE_ATTRIBUTE = 'data-slots-tools-unavailable';

/** Name of the window `CustomEvent` the host dispatches when {@link HOST_TOOLS_UNAVAILABLE_ATTRIBUTE} changes. */
export const HOST_TOOLS_EVENT = 'slots:tools';

/** `detail` of a {@link HOST_TOOLS_EVENT}. */
export interface HostToolsDetail {
  unavailable: boolean;
}

/**
 * Name of the window `CustomEvent` the host dispatches when the session it shows changed: a sign-in, another tenant
 * (switched in this tab or in another: the tabs of a browser share one session), a sign-out (`user: null`). A
 * component that keeps what `GET /me` said, such as a tenant switcher, takes the user from it: otherwise it goes on
 * naming the tenant the session no longer works in, and what is created there lands in the other one.
 */
export const HOST_SESSION_EVENT = 'slots:session';

/** `detail` of a {@link HOST_SESSION_EVENT}: the signed-in user as `GET /me` gives it now, or null. */
export interface HostSessionDetail {
  user: CurrentUser | null;
}
