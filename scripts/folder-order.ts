/**
 * The declared folder order: for each product folder that has one, its top-level rooms (sub-folders, written with a
 * trailing `/`, and files) in layers from the lowest to the highest. A room imports only rooms of lower layers; an
 * import to its own layer or a higher one, or a room named nowhere here, fails `npm run lint`
 * (scripts/import-boundaries.ts checks it; docs/decisions/0012-folder-order.md says why).
 *
 * This list is the only place the order is written. To place a new concept: find the highest room it imports,
 * put it in a layer above that one and below every room that will import it, with a line saying why.
 *
 * Below the top level nothing is declared, but at every folder level the imports between sibling rooms (e.g.
 * `host/pages/records/` and `host/pages/placements/`) may form no cycle. `shared/` has no order (it is flat): like
 * every folder, it may hold no import circle between files.
 */

/** One folder's order: `layers[0]` is the lowest. A layer is the rooms that sit side by side and never import each other. */
export interface FolderOrder {
  /** The product folder, e.g. `server`. */
  folder: string;
  layers: readonly (readonly string[])[];
}

export const SERVER_ORDER: FolderOrder = {
  folder: 'server',
  layers: [
    // The server's readiness checks by name (readiness-checks.ts): the modules that report one, the app-module's
    // shape of a report, /readyz and the metric read them, and it knows nothing of theirs.
    ['readiness-checks.ts'],
    // The one logger every room writes to, and the shape of a concept's module (app-module.ts): they know no concept.
    ['logger.ts', 'app-module.ts'],
    // The database engines, migrations and stores' plumbing: every concept keeps its data through it.
    ['storage/'],
    // Reading and checking settings: each concept's settings are read in its own terms, above what it is stored in.
    ['config/'],
    // The process: listeners, signals, TLS, shutdown.
    ['process/'],
    // HTTP plumbing shared by every router (errors, body limits, headers); it knows no concept.
    ['http/'],
    // Metrics and traces as a service: features register theirs with it; it imports no feature.
    ['observability/'],
    // Origins, CSP, cross-site checks, applied to the routes of every concept above; and /healthz, /readyz.
    ['security/', 'health/'],
    // Feature flags: read by visibility rules and the features, they depend on no concept.
    ['flags/'],
    // Tenants: every signed-in concept works within one.
    ['tenants/'],
    // Accounts, sign-in, sessions, roles and permissions: every protected concept asks it who is asking.
    ['auth/'],
    // The slot registry and its contract: what may go where, before any remote is known.
    ['slots/'],
    // Resources (records): their definitions place form slots, so they sit above slots/.
    ['resources/'],
    // The remote registry and descriptors: remotes provide the components that slots and forms name.
    ['remotes/'],
    // The slot check: slots and form slots against the remotes' descriptors, so above both.
    ['slot-check/'],
    // Releases of remotes (activate, canary, roll back): they change what the remote registry serves.
    ['releases/'],
    // Placements as data: slots placed from the database, checked by the slot check against released remotes.
    ['placements/'],
    // GET /meta: every location's slots, with dashboards and navigation, for a session.
    ['meta/'],
    // Slot events: counts per release and the canary's judgement, which rolls a release back.
    ['slot-events/'],
    // index.html with boot and session data: reads slots, remotes, releases and meta.
    ['host-page/'],
    // The composition at the top, from the options' reader to the entry points, each above what it assembles.
    ['app-options.ts'],
    // The shared pipeline (app-routes.ts) mounts the modules; the environment's reader gives the app its options.
    ['app-routes.ts', 'env-config.ts'],
    ['app.ts'],
    ['start-message.ts'],
    ['start-server.ts'],
    // The public API of the package.
    ['index.ts'],
    // Command-line tools and the demo content drive the public API.
    ['cli/'],
    ['demo/'],
    // The process entry: the only file that listens.
    ['main.ts'],
  ],
};

export const HOST_ORDER: FolderOrder = {
  folder: 'host',
  // Declaration files (`assets.d.ts`, `bundler-env.d.ts`) are not rooms: they declare globals and modules for every
  // room and import nothing, so they stay out of the order.
  layers: [
    // Before React: the API client, stores and the remote loader. The lowest: everything reads through them.
    ['loader/'],
    // Before React: reads boot and session data and starts the loader's work.
    ['startup/'],
    // How the interface writes values for people (an instant in English, in the reader's zone): imports nothing of
    // the host's, and every form, chrome and page writes through it.
    ['text/'],
    // The React side's mechanism: registries, slot rendering, boundaries, the slot status.
    ['core/'],
    // Hooks every page, form and layout uses (API calls, unsaved changes, media queries).
    ['hooks/'],
    // Resource forms, made of core's form slots and the hooks.
    ['forms/'],
    // The chrome around pages: navigation, sign-in guard.
    ['layout/'],
    // One folder per feature's pages, inside the layout.
    ['pages/'],
    // The shell: routes to the pages inside the layout.
    ['app/'],
    // React's entry, loaded behind the async boundary.
    ['bootstrap.tsx'],
    // The entry script: starts the host, then crosses the async boundary to bootstrap.tsx.
    ['index.ts'],
  ],
};

/** Every declared order; `shared/`, `build/` and `remotes/` have none and are checked for circles only. */
export const FOLDER_ORDERS: readonly FolderOrder[] = [SERVER_ORDER, HOST_ORDER];

/** Where a room stands in its folder's order: its layer's index, or undefined when it is not declared. */
export function layerOf(order: FolderOrder, room: string): number | undefined {
  const index = order.layers.findIndex((layer) => layer.includes(room));
  return index === -1 ? undefined : index;
}
