import express, { type Request, type Router } from 'express';
import {
  PLACEMENTS_API_PATH,
  PLACEMENTS_PREVIEW_PATH,
  placementsFrameProblem,
  STAFF_ROLES,
  type ErrorBody,
  type JsonValue,
  type PlacementAuditPayload,
  type PlacementPreviewChoices,
  type PlacementRevisionsPayload,
  type PlacementsDiffPayload,
  type PlacementsDraftPayload,
  type PlacementsPayload,
  type PlacementsPreviewPayload,
  type PlacementsPublishRequest,
  PLACEMENTS_EDIT,
} from '../../shared';
import { PLACEMENTS_BODY_LIMIT, PLACEMENTS_BODY_LIMIT_BYTES } from '../../shared/placements-limits';
import { unknownTopKeysMessage } from '../../shared/placements-file-keys';
import { everyTenantRefusal, requirePermission } from '../auth/require-permission';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import { HttpError } from '../http/http-error';
import { jsonRoute } from '../http/json-route';
import { requireJsonBody } from '../http/require-json-body';
import type { TenantStore } from '../tenants/tenant-store';
import { placementsOfFile } from './placements-document';
import { placementProblemLine } from './placement-problem-line';
import { PlacementsRefusedError, revisionNumber, type PlacementsService } from './placements-service';
import { DraftMovedError, RevisionMovedError, type PlacementsStore } from './placements-store';
import { previewViewer, readPreviewRequest } from './preview-request';

/**
 * The deepest a saved document may nest: a placement is a few levels (document, remotes, entry, slots, list, slot,
 * props...) and props hold plain data; far deeper is no placement, and would not survive being written back as JSON.
 */
const MAX_DOCUMENT_DEPTH = 64;

export interface PlacementsRouterOptions {
  service: PlacementsService;
  store: PlacementsStore;
  /** Whose permissions the routes check, in the current tenant; the tenants a preview's context may name. */
  tenants: TenantStore;
  /** The flags on for each tenant, for a preview's context. */
  flags: FeatureFlagStore;
}

/**
 * The placements API, an operator's only (401 without a session, 403 for other staff; a cross-site write is refused
 * before it, as every write): the draft with its problems, saving it, its diff against the revision in force,
 * publishing it, the revisions, rolling back to one, the audit trail, export and import in REMOTES_CONFIG's JSON, and
 * the preview of a document for a chosen viewer (what their `/meta` would carry, and what it would leave out).
 * Reference: docs/operators/placements-editor.md.
 */
export function createPlacementsRouter(options: PlacementsRouterOptions): Router {
  const { service, store } = options;
  const router = express.Router();
  // placements:edit (operators).
  const requireOperator = requirePermission(PLACEMENTS_EDIT, options.tenants, { changesReachEveryTenant: true });
  const operatorJson = [requireOperator, ...requireJsonBody(PLACEMENTS_BODY_LIMIT_BYTES)];
  const actor = (req: Request): string => (req.user as Express.User).username;
  const at = (path: string) => `${PLACEMENTS_API_PATH}${path}`;
  const noStore = (res: express.Response) => res.setHeader('Cache-Control', 'no-store');

  jsonRoute(router, at(''), {
    GET: [
      requireOperator,
      async (req, res) => {
        noStore(res);
        const changesRefused = await everyTenantRefusal(PLACEMENTS_EDIT, req.user as Express.User, options.tenants);
        const payload: PlacementsPayload = {
          ...(await service.overview()),
          ...(changesRefused === null ? {} : { changesRefused }),
        };
        res.json(payload);
      },
    ],
  });
  jsonRoute(router, at('/draft'), {
    PUT: [
      ...operatorJson,
      async (req, res) => {
        const body = req.body as { document?: unknown; expectedUpdatedAt?: unknown };
        if (typeof body !== 'object' || body === null || !('document' in body)) {
          throw HttpError.invalidRequest('Send { "document": { "remotes": [...], "locations": {...} } }.');
        }
        assertFrame(body.document);
        const payload: PlacementsDraftPayload = await service.saveDraft(
          shallowEnough(body.document),
          actor(req),
          expectedVersion(body.expectedUpdatedAt),
        );
        res.json(payload);
      },
    ],
  });
  jsonRoute(router, PLACEMENTS_PREVIEW_PATH, {
    GET: [
      requireOperator,
      async (_req, res) => {
        const [tenants, settings] = await Promise.all([options.tenants.list(), options.flags.list()]);
        const payload: PlacementPreviewChoices = {
          roles: [...STAFF_ROLES],
          tenants,
          flags: [...new Set(settings.map((setting) => setting.name))],
        };
        noStore(res);
        res.json(payload);
      },
    ],
    // Reads only, but a POST: the document previewed may be as large as a draft. Changing nothing, it needs the
    // permission in the current tenant alone (the read-only page of an operator of some tenants previews too).
    POST: [
      requirePermission(PLACEMENTS_EDIT, options.tenants),
      ...requireJsonBody(PLACEMENTS_BODY_LIMIT_BYTES),
      async (req, res) => {
        const { document, location, context } = readPreviewRequest(req.body);
        const viewer = await previewViewer(context, options.tenants, options.flags);
        const preview = await service.previewFor(
          document === undefined ? undefined : shallowEnough(document),
          viewer,
          location,
        );
        const payload: PlacementsPreviewPayload = {
          context: {
            roles: [...viewer.roles],
            permissions: [...viewer.permissions],
            tenant: context.tenant,
            flags: [...viewer.flags].sort(),
          },
          ...preview,
        };
        noStore(res);
        res.json(payload);
      },
    ],
  });
  jsonRoute(router, at('/components'), {
    GET: [
      requireOperator,
      (_req, res) => {
        noStore(res);
        res.json(service.components());
      },
    ],
  });
  jsonRoute(router, at('/diff'), {
    GET: [
      requireOperator,
      async (_req, res) => {
        noStore(res);
        const payload: PlacementsDiffPayload = await service.diff();
        res.json(payload);
      },
    ],
  });
  jsonRoute(router, at('/publish'), {
    POST: [
      ...operatorJson,
      async (req, res) => {
        const body = req.body as PlacementsPublishRequest | null;
        res.status(201).json(await service.publish(actor(req), expectedVersion(body?.expectedUpdatedAt)));
      },
    ],
  });
  jsonRoute(router, at('/rollback'), {
    POST: [
      ...operatorJson,
      async (req, res) => {
        // As a publish: the draft the page shows, which a rollback replaces (409 when saved since; left out: any).
        const body = req.body as { revision?: unknown; expectedUpdatedAt?: unknown } | null;
        res
          .status(201)
          .json(await service.rollback(body?.revision, actor(req), expectedVersion(body?.expectedUpdatedAt)));
      },
    ],
  });
  jsonRoute(router, at('/revisions'), {
    GET: [
      requireOperator,
      async (_req, res) => {
        noStore(res);
        const payload: PlacementRevisionsPayload = { revisions: await store.revisions() };
        res.json(payload);
      },
    ],
  });
  jsonRoute(router, at('/revisions/:number'), {
    GET: [
      requireOperator,
      async (req, res) => {
        const number = revisionNumber(req.params.number);
        if (number === null) {
          throw HttpError.invalidRequest(
            `A placements revision is a whole number from 1, got ${JSON.stringify(req.params.number)}.`,
          );
        }
        const revision = await store.revision(number);
        if (!revision) throw HttpError.notFound(`There is no placements revision ${req.params.number as string}.`);
        noStore(res);
        res.json(revision);
      },
    ],
  });
  jsonRoute(router, at('/audit'), {
    GET: [
      requireOperator,
      async (_req, res) => {
        noStore(res);
        const payload: PlacementAuditPayload = { entries: await store.audit() };
        res.json(payload);
      },
    ],
  });
  jsonRoute(router, at('/export'), {
    GET: [
      requireOperator,
      async (req, res) => {
        // The revision in force by default (what every host serves); `?from=draft` for the draft.
        const fromDraft = req.query.from === 'draft';
        const document = fromDraft ? (await service.draft()).document : (await service.overview()).published?.document;
        noStore(res);
        res.setHeader(
          'Content-Disposition',
          `attachment; filename="placements-${fromDraft ? 'draft' : 'published'}.json"`,
        );
        res.json(document ?? { remotes: [], locations: {} });
      },
    ],
  });
  jsonRoute(router, at('/import'), {
    POST: [
      ...operatorJson,
      async (req, res) => {
        const { document, ignored, unknown } = placementsOfFile(shallowEnough(req.body));
        // A top-level key that neither placements nor REMOTES_CONFIG have refuses the whole file, the draft unchanged,
        // rather than being dropped as the file's own keys are: it is most likely a misspelt "remotes" or "locations"
        // (whose placements a draft without them would lose, said only in a list of what was dropped), and a
        // REMOTES_CONFIG load refuses such a file too. An import replaces the whole draft: none beats a partial one.
        if (unknown.length > 0) throw HttpError.invalidRequest(unknownTopKeysMessage(unknown));
        assertFrame(document);
        // The body is the file: the draft the page shows comes as `?expectedUpdatedAt=` (empty: none was saved).
        const expected = req.query.expectedUpdatedAt;
        const version = typeof expected === 'string' ? expectedVersion(expected === '' ? null : expected) : undefined;
        const saved = await service.saveDraft(document, actor(req), version);
        const payload: PlacementsDraftPayload = { ...saved, ignored };
        res.json(payload);
      },
    ],
  });

  // A refused publish or rollback: 400 with each problem (404 for a revision that does not exist); a publish or
  // rollback that lost a race with another, or a save, publish or rollback made from a draft saved since: 409.
  // Nothing changed in either case.
  router.use(((error, _req, res, next) => {
    if (isBodyTooLarge(error)) {
      next(new HttpError('payload_too_large', tooLargeMessage(error)));
      return;
    }
    if (error instanceof DraftMovedError) {
      const body: ErrorBody = { error: { code: 'conflict', message: error.message, savedDraft: error.saved } };
      res.status(409).json(body);
      return;
    }
    if (error instanceof RevisionMovedError) {
      next(new HttpError('conflict', error.message));
      return;
    }
    if (!(error instanceof PlacementsRefusedError)) {
      next(error);
      return;
    }
    const code = error.status === 404 ? 'not_found' : 'invalid_request';
    const body: ErrorBody = { error: { code, message: error.message } };
    if (error.problems.length > 0) {
      body.error.problems = error.problems.map((problem) => placementProblemLine(problem, error.document));
      body.error.placementProblems = error.problems;
    }
    res.status(error.status).json(body);
  }) as express.ErrorRequestHandler);
  return router;
}

/** The body parser's refusal of a body over the limit (an http-errors 413 of type `entity.too.large`). */
function isBodyTooLarge(error: unknown): error is { length?: unknown } {
  return typeof error === 'object' && error !== null && (error as { type?: unknown }).type === 'entity.too.large';
}

/**
 * The 413 of a placements request, naming the limit (the generic "Request body too large." left the operator
 * guessing how much to cut) and the body's size when it came with a Content-Length.
 */
function tooLargeMessage(error: { length?: unknown }): string {
  const size =
    typeof error.length === 'number' && error.length > PLACEMENTS_BODY_LIMIT_BYTES
      ? ` (this one: ${Math.ceil(error.length / 1024)} KiB)`
      : '';
  return (
    `Request body too large: a placements request carries at most ${PLACEMENTS_BODY_LIMIT} of JSON${size}. ` +
    'Make the document smaller (fewer slots, shorter props), or import a file holding its placements only.'
  );
}

/** `value` as a document to save, refused (400) when it nests deeper than MAX_DOCUMENT_DEPTH. */
function shallowEnough(value: unknown): JsonValue {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > MAX_DOCUMENT_DEPTH) {
      throw HttpError.invalidRequest(`A placements document nests at most ${MAX_DOCUMENT_DEPTH} levels deep.`);
    }
    level = level.flatMap((item) => (typeof item === 'object' && item !== null ? Object.values(item) : []));
  }
  return value as JsonValue;
}

/** Refuses (400, nothing saved) a document no editor could open again (placementsFrameProblem). */
function assertFrame(document: unknown): void {
  const problem = placementsFrameProblem(document);
  if (problem !== null) throw HttpError.invalidRequest(`Not saved: ${problem}`);
}

/**
 * The `expectedUpdatedAt` of a draft save, publish or rollback: left out (the draft is taken as it is), null (no
 * draft saved yet), or an ISO time.
 */
function expectedVersion(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return value;
  throw HttpError.invalidRequest(
    '"expectedUpdatedAt" must be the updatedAt of the draft you loaded (an ISO 8601 time), or null when none was saved.',
  );
}
