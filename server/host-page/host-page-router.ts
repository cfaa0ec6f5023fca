import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type RequestHandler, type Router } from 'express';
import {
  ERROR_STATUS,
  pageComponents,
  SERVICE_STATUS_PATH,
  SLOT_INSPECTOR_PATH,
  LOCATIONS_PAGE_PATH,
  SIGN_IN_PATH,
  SIGN_OUT_PATH,
  RELEASES_PAGE_PATH,
  PLACEMENTS_PAGE_PATH,
  type ErrorBody,
  type RemoteDescriptor,
  type SlotMap,
} from '../../shared';
import { builtRemoteEntry } from '../remotes/built-remotes';
import { serveBuildOutput } from '../http/build-output-files';
import { HttpError } from '../http/http-error';
import { isPageNavigation } from '../http/page-navigation';
import { bootData, registeredRemotes, renderBootData } from './boot-data';
import { bootHints, renderBootHints, replaceHintsMarker } from './boot-hints';
import { createBuiltRemoteFilesCache } from './built-remote-files-cache';
import {
  insertAtHeadEnd,
  NOBODY_SIGNED_IN,
  renderSessionBootData,
  renderSignedOutBootData,
  SIGNED_OUT_BOOT_DATA,
  type SignedInPage,
} from './session-boot-data';

export { bootHints, renderBootHints, replaceHintsMarker, type BootHint, type BootHintInput } from './boot-hints';
export { bootData, renderBootData } from './boot-data';
export { renderSessionBootData, type SignedInPage } from './session-boot-data';
export { readBuiltRemoteFiles, type BuiltRemoteFiles } from './built-remote-files';

export interface HostPageRouterOptions {
  /** Serve the host's source maps (`*.map`). */
  sourceMaps: boolean;
  /** Root of the build output; the host shell lives in `<distDir>/host/`. */
  distDir: string;
  /**
   * The remotes the host is told about (GET /api/remotes). With `publicSlots`, a federated host's index.html
   * carries what it needs to start loading the remote modules of the page's public slots at once: the remote descriptors and
   * those components (boot-data.ts), and resource hints for their files (boot-hints.ts). Without both, index.html
   * is served as built, and the host asks GET /api/remotes.
   */
  remotes?: (req: Request) => readonly RemoteDescriptor[];
  /** Whether failed slots may show details on the page (the server does not run in production). */
  showSlotDetails?: boolean;
  /**
   * The public slots now, read per request: the map the slots payload already built (for the hints and boot data),
   * and the bytes GET /slots sends (its cached body), which the page of a request without a session carries.
   */
  publicSlots?: () => { readonly publicSlots: SlotMap; readonly publicBody: Buffer };
  /**
   * The signed-in user of a page request (the session loaded before this router); NOBODY_SIGNED_IN for a request
   * without a session; null when that is not known (a user of no tenant, the database down: the page asks GET /me).
   * A user's page carries what GET /me and GET /meta would answer them, and the hints and boot data of every slot
   * the page renders for them; it goes out `private, no-store`. Pages for anyone else carry public data only, and
   * say when nobody is signed in.
   */
  signedIn?: (req: Request) => Promise<SignedInPage | typeof NOBODY_SIGNED_IN | null>;
}

/** The client routes of the host (sign-in, sign-out, service status, dashboard, resource pages), answered with index.html. */
export const CLIENT_ROUTES = [
  '/',
  SIGN_IN_PATH,
  SIGN_OUT_PATH,
  SERVICE_STATUS_PATH,
  SLOT_INSPECTOR_PATH,
  LOCATIONS_PAGE_PATH,
  RELEASES_PAGE_PATH,
  PLACEMENTS_PAGE_PATH,
  '/resources/*splat',
];

export const HOST_NOT_BUILT_MESSAGE =
  'The admin interface has not been built yet, or the server is not pointed at its build (FRONTEND_DIR). Run ' +
  '`npm run build` (or `npm start`, which builds first), then reload.';

/** The 405 of a page's address asked with a method other than GET or HEAD; those two go on to the page. */
const refuseOtherThanRead: RequestHandler = (req, res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') {
    next();
    return;
  }
  res.setHeader('Allow', 'GET, HEAD');
  next(new HttpError('method_not_allowed', `${req.method} is not allowed here. Allowed: GET, HEAD.`));
};

/** Paths that belong to machines: an unknown one is a JSON 404 even when a browser opens it. */
const API_PATHS = /^\/(api|remotes)(\/|$)/;

/**
 * Serves the built host shell: its assets (a year of cache for hashed files) and `index.html` (`no-cache`) for the
 * client routes. A browser navigation to any other address (a GET that asks for HTML before JSON, outside `/api/`
 * and `/remotes/`) gets `index.html` too with status 404, so the app shows its own "page not found" with its
 * header and a way back; API clients, and anything else unknown, fall through to the JSON 404. Before a build the
 * client routes answer 503 with a JSON error saying how to build.
 */
export function createHostPageRouter(options: HostPageRouterOptions): Router {
  const hostDir = path.join(options.distDir, 'host');
  const indexFile = path.join(hostDir, 'index.html');
  const router = express.Router();
  const readRemotes = options.remotes ?? (() => []);
  const readSlots = options.publicSlots ?? null;
  const builtFiles = createBuiltRemoteFilesCache(options.distDir);
  let index: { mtimeMs: number; size: number; html: string } | null = null;

  // A page's address exists for GET and HEAD only: any other method there is a 405 naming them (it was a 404, as if
  // the address did not exist). An OPTIONS anywhere else leaves this router at once: Express answered it with
  // `200 GET, HEAD` as text, for the catch-all route below, at every address, `/api/nope` included, where the JSON
  // 404 is the answer.
  for (const clientRoute of CLIENT_ROUTES) router.all(clientRoute, refuseOtherThanRead);
  router.use((req, _res, next) => next(req.method === 'OPTIONS' ? 'router' : undefined));
  // The host's scripts and styles: one route, which metrics and spans name them by (`GET /assets/*file`).
  router.get('/assets/*file', serveBuildOutput(hostDir, { sourceMaps: options.sourceMaps }));

  /** index.html as built, re-read when the build changes it (a build made after the start is served at once). */
  function readIndex(): string | null {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(indexFile);
    } catch {
      return null;
    }
    if (index === null || index.mtimeMs !== stat.mtimeMs || index.size !== stat.size) {
      index = { mtimeMs: stat.mtimeMs, size: stat.size, html: fs.readFileSync(indexFile, 'utf8') };
    }
    return index.html;
  }

  const sendIndex: RequestHandler = async (req, res) => {
    const html = readIndex();
    if (html === null) {
      const body: ErrorBody = { error: { code: 'unavailable', message: HOST_NOT_BUILT_MESSAGE } };
      res.status(ERROR_STATUS.unavailable).setHeader('Cache-Control', 'no-store');
      res.json(body);
      return;
    }
    const session = (await options.signedIn?.(req)) ?? null;
    const signedIn = session === NOBODY_SIGNED_IN ? null : session;
    // The same address is a different page per session: a shared cache keys it by the cookie, and never keeps a
    // signed-in one (it holds that user's data).
    res.setHeader('Vary', 'Cookie');
    res.setHeader('Cache-Control', signedIn ? 'private, no-store' : 'no-cache');
    let page = html;
    if (signedIn) {
      page = replaceHintsMarker(page, bootMarkup(req, signedIn.slots, 'signed-in'));
      page = insertAtHeadEnd(page, renderSessionBootData(signedIn));
    } else {
      // One read for both: the hints and the inlined slots are of the same registry version.
      const slots = readSlots?.() ?? null;
      page = replaceHintsMarker(page, slots === null ? '' : bootMarkup(req, slots.publicSlots, 'anonymous'));
      if (session === NOBODY_SIGNED_IN) {
        // `no-cache` (above) with no validator: every use of a stored copy asks again, so no cache shows old slots.
        page = insertAtHeadEnd(page, slots === null ? SIGNED_OUT_BOOT_DATA : renderSignedOutBootData(slots.publicBody));
      }
    }
    res.type('html').send(page);
  };

  /** What replaces the host's marker: hints for the remote files of the page, then the boot data. */
  function bootMarkup(req: Request, slots: SlotMap, visitor: 'anonymous' | 'signed-in'): string {
    const components = pageComponents(req.path, slots, visitor);
    const remotes = readRemotes(req);
    // Only a remote served from this server's own build: its files are known here. Looked up once per remote and
    // page (each lookup stats the manifest), then shared by the hints and the boot data.
    const built = new Map(
      remotes.map((remote) => [
        remote,
        remote.entry === builtRemoteEntry(remote.name) ? builtFiles.get(remote.name) : null,
      ]),
    );
    const filesOf = (remote: RemoteDescriptor) => built.get(remote) ?? null;
    const hints = bootHints({ components, remotes, builtFiles: filesOf });
    const data = bootData(registeredRemotes(remotes, filesOf), components, options.showSlotDetails ?? false);
    return `${renderBootHints(hints)}${renderBootData(data)}`;
  }
  // One route per path: a route of several paths is named by all of them joined, in the metrics and on spans.
  for (const clientRoute of CLIENT_ROUTES) router.get(clientRoute, sendIndex);
  router.get('/*splat', (req, res, next) => {
    if (API_PATHS.test(req.path) || !isPageNavigation(req)) {
      next();
      return;
    }
    res.status(404);
    sendIndex(req, res, next);
  });
  return router;
}
