/*
 * Above 300 lines for one reason: the placements editor's API is one set of routes (draft, preview, components,
 * diff, publish, rollback, revisions, audit, export, import) behind one permission check, each answer shown to the
 * user asking as shown-placements.ts decides.
 */
import express, { type Request, type Router } from 'express';
import {
  PLACEMENTS_API_PATH,
  PLACEMENTS_PREVIEW_PATH,
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
import { PLACEMENTS_BODY_LIMIT_BYTES } from '../../shared/placements-limits';
import { unknownTopKeysMessage } from '../../shared/placements-file-keys';
import { everyTenantRefusal, requirePermission } from '../auth/require-permission';
import type { FeatureFlagStore } from '../flags/feature-flag-store';
import { HttpError } from '../http/http-error';
import { jsonRoute } from '../http/json-route';
import { refuseUnknownQueryParameters } from '../http/query-parameters';
import { jsonObjectBody, requireJsonBody } from '../http/require-json-body';
import { readableTenantsFor, type ReadableTenants } from '../slots/shown-rule';
import { currentTenant } from '../auth/current-tenant';
import type { TenantStore } from '../tenants/tenant-store';
import { placementsOfFile } from './placements-document';
import { placementProblemLine } from './placement-problem-line';
import { PlacementsRefusedError, type PlacementsService } from './placements-service';
import { DraftMovedError } from './draft-version';
import { RevisionMovedError, type PlacementsStore } from './placements-store';
import {
  assertFrame,
  expectedRevision,
  expectedVersion,
  isBodyTooLarge,
  revisionNumber,
  shallowEnough,
  tooLargeMessage,
  refuseUnknownKeys,
} from './placements-request-body';
import { previewViewer, readPreviewRequest } from './preview-request';
import { refuseShownInPart, shownDocument } from './shown-placements';

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
 * before it, as every write): the draft with its problems, saving it, its diff against the newest revision,
 * publishing it, the revisions, rolling back to one, the audit trail, export and import in REMOTES_CONFIG's JSON, and
 * the preview of a document for a chosen viewer (what their `/meta` would carry, and what it would leave out).
 * Staff with placements:edit in some tenants only read it all (shown-placements.ts: no id of a tenant they do not
 * belong to) and change nothing. Reference: docs/operators/placements-editor.md.
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
  // Whose tenant ids the answers may name: every one for those who may change placements, else their own tenants'.
  const readableBy = async (req: Request): Promise<ReadableTenants> =>
    readableTenantsFor(req, await currentTenant(req, options.tenants), options.tenants);

  jsonRoute(router, at(''), {
    GET: [
      requireOperator,
      async (req, res) => {
        noStore(res);
        const changesRefused = await everyTenantRefusal(PLACEMENTS_EDIT, req.user as Express.User, options.tenants);
        const payload: PlacementsPayload = {
          ...(await service.overview(await readableBy(req))),
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
        refuseUnknownKeys(body, ['document', 'expectedUpdatedAt'], 'A draft save');
        assertFrame(body.document);
        const document = shallowEnough(body.document);
        refuseShownInPart(document, 'save');
        const payload: PlacementsDraftPayload = await service.saveDraft(
          document,
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
      async (req, res) => {
        const [tenants, settings, readable] = await Promise.all([
          options.tenants.list(),
          options.flags.list(),
          readableBy(req),
        ]);
        const payload: PlacementPreviewChoices = {
          roles: [...STAFF_ROLES],
          // The tenants a preview may be for (previewViewer): every one, or the asker's own.
          tenants: readable === null ? tenants : tenants.filter((tenant) => readable(tenant.id)),
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
        const previewed = document === undefined ? undefined : shallowEnough(document);
        refuseShownInPart(previewed, 'preview');
        const readable = await readableBy(req);
        const viewer = await previewViewer(context, options.tenants, options.flags, readable);
        const preview = await service.previewFor(previewed, viewer, location, readable);
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
      async (req, res) => {
        // It compares the saved draft with the newest revision only: `?from=1&to=2` was answered as though not sent.
        refuseUnknownQueryParameters(req, [], 'the diff');
        noStore(res);
        const payload: PlacementsDiffPayload = await service.diff(await readableBy(req));
        res.json(payload);
      },
    ],
  });
  jsonRoute(router, at('/publish'), {
    POST: [
      ...operatorJson,
      async (req, res) => {
        const sent = jsonObjectBody(req);
        refuseUnknownKeys(sent, ['expectedUpdatedAt', 'expectedRevision'], 'A publish');
        const body = sent as PlacementsPublishRequest;
        res
          .status(201)
          .json(
            await service.publish(
              actor(req),
              expectedVersion(body.expectedUpdatedAt),
              expectedRevision(body.expectedRevision),
            ),
          );
      },
    ],
  });
  jsonRoute(router, at('/rollback'), {
    POST: [
      ...operatorJson,
      async (req, res) => {
        // As a publish: the draft the page shows, which a rollback replaces (409 when saved since; left out: any).
        const body = jsonObjectBody(req) as {
          revision?: unknown;
          expectedUpdatedAt?: unknown;
          expectedRevision?: unknown;
        };
        refuseUnknownKeys(body, ['revision', 'expectedUpdatedAt', 'expectedRevision'], 'A rollback');
        res
          .status(201)
          .json(
            await service.rollback(
              body.revision,
              actor(req),
              expectedVersion(body.expectedUpdatedAt),
              expectedRevision(body.expectedRevision),
            ),
          );
      },
    ],
  });
  jsonRoute(router, at('/revisions'), {
    GET: [
      requireOperator,
      async (req, res) => {
        refuseUnknownQueryParameters(req, [], 'the list of revisions');
        noStore(res);
        const payload: PlacementRevisionsPayload = { revisions: await store.revisions(), inForce: service.revision };
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
        res.json({ ...revision, document: shownDocument(revision.document, await readableBy(req)) });
      },
    ],
  });
  jsonRoute(router, at('/audit'), {
    GET: [
      requireOperator,
      async (req, res) => {
        // The whole trail, always: a `?revision=` or `?action=` filter would be answered unfiltered as if applied.
        refuseUnknownQueryParameters(req, [], 'the audit trail');
        noStore(res);
        const [entries, readable] = await Promise.all([store.audit(), readableBy(req)]);
        const shown = (document: JsonValue) => shownDocument(document, readable);
        const payload: PlacementAuditPayload = {
          entries: entries.map((entry) => ({ ...entry, before: shown(entry.before), after: shown(entry.after) })),
        };
        res.json(payload);
      },
    ],
  });
  jsonRoute(router, at('/export'), {
    GET: [
      requireOperator,
      async (req, res) => {
        // The revision in force by default (what every host serves); `?from=draft` for the draft. Any other `from`
        // is refused: a misspelt `draft` would otherwise download the published document under the wrong belief.
        // Shown as every answer here is: an export of someone who reads some tenants' ids only counts the others.
        refuseUnknownQueryParameters(req, ['from'], 'an export');
        const from = req.query.from ?? 'published';
        if (from !== 'draft' && from !== 'published') {
          throw HttpError.invalidRequest('The parameter "from" must be "draft" or "published" (the default).');
        }
        const fromDraft = from === 'draft';
        const document = fromDraft ? (await service.draft()).document : (await store.latest())?.document;
        noStore(res);
        res.setHeader(
          'Content-Disposition',
          `attachment; filename="placements-${fromDraft ? 'draft' : 'published'}.json"`,
        );
        // Indented: the file is read, diffed and kept in version control (REMOTES_CONFIG's form), not parsed only.
        const shown = shownDocument(document ?? { remotes: [], locations: {} }, await readableBy(req));
        res.type('application/json').send(`${JSON.stringify(shown, null, 2)}\n`);
      },
    ],
  });
  jsonRoute(router, at('/import'), {
    POST: [
      ...operatorJson,
      async (req, res) => {
        // Misspelt, `expectedUpdatedAt` would be no time to check against: refused, not the check skipped.
        refuseUnknownQueryParameters(req, ['expectedUpdatedAt'], 'an import');
        const { document, ignored, unknown } = placementsOfFile(shallowEnough(req.body));
        // A top-level key that neither placements nor REMOTES_CONFIG have refuses the whole file, the draft unchanged,
        // rather than being dropped as the file's own keys are: it is most likely a misspelt "remotes" or "locations"
        // (whose placements a draft without them would lose, said only in a list of what was dropped), and a
        // REMOTES_CONFIG load refuses such a file too. An import replaces the whole draft: none beats a partial one.
        if (unknown.length > 0) throw HttpError.invalidRequest(unknownTopKeysMessage(unknown));
        assertFrame(document);
        refuseShownInPart(document, 'save');
        // The body is the file: the draft the page shows comes as `?expectedUpdatedAt=` (empty: none was saved).
        // Given twice, it is no one time to check against either.
        const expected = req.query.expectedUpdatedAt;
        if (expected !== undefined && typeof expected !== 'string') {
          throw HttpError.invalidRequest(
            'The query parameter "expectedUpdatedAt" must be given once: the updatedAt of the draft you loaded ' +
              '(empty when none was saved).',
          );
        }
        const version = expected === undefined ? undefined : expectedVersion(expected === '' ? null : expected);
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
