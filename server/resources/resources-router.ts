/*
 * Above 300 lines for one reason: a resource's records API is one set of routes (resources, list and count, create,
 * bulk, deleted and restore, read, save and delete) sharing one lookup of the resource, one permission check and
 * one set of messages (RESOURCE_MESSAGES).
 */
import express, { type Request, type Router } from 'express';
import {
  isPlainObject,
  RECORD_BULK_QUERY_MAX,
  RECORD_CREATION_KEY_HEADER,
  RECORD_CREATION_REPLAYED_HEADER,
  RECORD_RESTORE_WINDOW_MS,
  RECORD_TOTAL_BOUND,
  RECORDS_READ,
  RECORDS_WRITE,
  type BulkRecordPayload,
  type BulkRecordQuery,
  type JsonObject,
  type JsonValue,
  type DeletedRecordsPayload,
  type RecordDeletedPayload,
  type RecordListPayload,
  type RecordPayload,
  type RecordUpdateRequest,
  type RelationBlock,
  type ResourceListPayload,
  type ResourcePayload,
  type ResourceRecord,
} from '../../shared';
import { requirePermission } from '../auth/require-permission';
import { HttpError } from '../http/http-error';
import { jsonRoute, type HttpMethod, type MethodRefusal } from '../http/json-route';
import { requireJsonBody } from '../http/require-json-body';
import { recordBodyLimitBytes } from './record-body-limit';
import { currentTenant } from '../auth/current-tenant';
import type { TenantStore } from '../tenants/tenant-store';
import { DeletedRecordError } from './deleted-record-error';
import { deletedRecordsCursor, parseDeletedRecordsQuery } from './parse-deleted-records-query';
import { parseRecordListQuery, type ParsedRecordListQuery } from './parse-record-list-query';
import { parseBulkRequest, RECORD_BULK_MESSAGES, runBulk } from './record-bulk';
import { assertNotReferred, RECORD_DELETE_MESSAGES } from './record-delete-guard';
import { CreationKeyReusedError, creationKeyOf, RECORD_CREATION_MESSAGES } from './record-creations';
import { isRecordId } from './record-id';
import { listRelatedRecords } from './list-related-records';
import { missingReferencesRefusal, missingRelatedRecords, relatedReferences } from './missing-related-records';
import { RECORD_CSV_BOM, RECORD_CSV_FORMAT, writeRecordsCsv } from './record-csv';
import { encodeRecordCursor } from './record-list-cursor';
import { listTimesField, timesField } from './record-times';
import type { RecordPage } from '../storage/record-page-query';
import {
  MissingReferencesError,
  ReferredRecordError,
  type DeletedRecordWithDeleter,
  type RecordSource,
} from './record-source';
import type { RegisteredResource } from './registered-resource';
import type { ResourceRegistry } from './resource-registry';
import { assertUnchanged, takeUnchangedFields, type UnchangedFields } from './unchanged-fields';
import { validateRecordUpdate } from './validate-record-update';

export interface ResourcesRouterOptions {
  resources: ResourceRegistry;
  records: RecordSource;
  tenants: TenantStore;
  bodyLimitBytes: number;
}

/**
 * How long after deleting a record the same account's DELETE of it answers as the first time (200, the same body)
 * rather than 404: a client resending it after a lost answer does so within seconds, while one met later (another
 * tab left open, the deleted record found again) is told it was deleted, and where to restore it.
 */
export const RESENT_DELETE_WINDOW_MS = 60_000;

export const RESOURCE_MESSAGES = {
  unknownResource: (name: string) => `There is no resource "${name}".`,
  unknownRecord: (resource: string, id: string) => `There is no ${resource} record ${id}.`,
  createNotAllowed: (label: string) => `${label} records cannot be created.`,
  format: `format must be "${RECORD_CSV_FORMAT}" (a list in CSV) or left out (a page in JSON).`,
  bom:
    `bom must be "${RECORD_CSV_BOM}" beside format=${RECORD_CSV_FORMAT} (the file starts with a byte-order mark, ` +
    'for spreadsheets) or left out.',
} as const;

/**
 * The resource API of the admin, every route behind the session and scoped to the current tenant: a record of
 * another tenant is answered exactly like one that does not exist (404).
 */
export function createResourcesRouter(options: ResourcesRouterOptions): Router {
  const { resources, records, tenants } = options;
  const router = express.Router();
  // Every route here reads records, and every one that is not a read changes them (create, save, delete, restore,
  // bulk): records:write in the current tenant, which a viewer there does not have.
  const mayRead = requirePermission(RECORDS_READ, tenants);
  const mayWrite = requirePermission(RECORDS_WRITE, tenants);
  router.use('/api/resources', (req, res, next) => {
    const reading = req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS';
    (reading ? mayRead : mayWrite)(req, res, next);
  });

  const resourceOf = (req: Request): RegisteredResource => {
    const name = String(req.params.name);
    const found = resources.get(name);
    if (!found) throw HttpError.notFound(RESOURCE_MESSAGES.unknownResource(name));
    return found;
  };

  /** What a path refuses for its resource, as `refuse` says of its definition (json-route.ts's `refuse`). */
  const refusedBy =
    (refuse: (resource: RegisteredResource) => MethodRefusal | undefined) =>
    (req: Request): MethodRefusal | undefined => {
      const resource = resources.get(String(req.params.name));
      return resource ? refuse(resource) : undefined;
    };
  const refusedUnlessCreatable = refusedBy((resource) =>
    resource.definition.canCreate
      ? undefined
      : { methods: ['POST'], message: RESOURCE_MESSAGES.createNotAllowed(resource.label) },
  );
  const refusedUnlessDeletable = (...methods: HttpMethod[]) =>
    refusedBy((resource) =>
      resource.definition.canDelete
        ? undefined
        : { methods, message: RECORD_DELETE_MESSAGES.notAllowed(resource.label) },
    );

  // A record's body may be larger than the API's usual limit: as large as its resource's long text fields need.
  const recordBody = requireJsonBody((req) => {
    const resource = resources.get(String(req.params.name));
    return resource ? recordBodyLimitBytes(resource, options.bodyLimitBytes) : options.bodyLimitBytes;
  });

  const recordIdOf = (req: Request, resource: RegisteredResource): number => {
    const raw = String(req.params.id);
    const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : NaN;
    if (!isRecordId(id)) throw HttpError.notFound(RESOURCE_MESSAGES.unknownRecord(resource.name, raw));
    return id;
  };

  const recordPayload = async (
    tenant: string,
    resource: RegisteredResource,
    record: ResourceRecord,
  ): Promise<RecordPayload> => ({
    record,
    relations: await Promise.all(
      resource.relations.map(async (relation): Promise<RelationBlock> => {
        let related: ResourceRecord[];
        if (relation.kind === 'belongsTo') {
          const key = record[relation.foreignKey];
          const target = isRecordId(key) ? await records.get(tenant, relation.resource, key) : undefined;
          related = target ? [target] : [];
        } else {
          related = await records.findBy(tenant, relation.resource, relation.foreignKey, record.id);
        }
        return { ...relation.toDefinition(), records: related };
      }),
    ),
    ...timesField(records, record),
  });

  /**
   * The 404 of a record the tenant does not have. For one deleted within the window (and so restorable) it says so,
   * until when, and where to restore it; for a save (`asked`), that the changes were not saved.
   */
  const missingRecord = async (
    tenant: string,
    resource: RegisteredResource,
    id: number,
    asked: 'read' | 'save',
  ): Promise<HttpError> => missingRecordError(resource, id, asked, await deletedRecord(tenant, resource, id));

  /** The record `id` deleted within the window, when the resource's records can be deleted at all. */
  const deletedRecord = async (
    tenant: string,
    resource: RegisteredResource,
    id: number,
  ): Promise<DeletedRecordWithDeleter | undefined> =>
    resource.definition.canDelete ? await records.getDeleted(tenant, resource.name, id) : undefined;

  /** missingRecord's 404, given what deletedRecord found. */
  const missingRecordError = (
    resource: RegisteredResource,
    id: number,
    asked: 'read' | 'save',
    deleted: DeletedRecordWithDeleter | undefined,
  ): HttpError => {
    if (!deleted) return HttpError.notFound(RESOURCE_MESSAGES.unknownRecord(resource.name, String(id)));
    const say = asked === 'read' ? RECORD_DELETE_MESSAGES.deleted : RECORD_DELETE_MESSAGES.deletedMeanwhile;
    const { recordLabel = 'record' } = resource.definition;
    const title = deleted.record.title || `#${id}`;
    return new DeletedRecordError(say(recordLabel, title, resource.label, deleted.restorableUntil), {
      resource: resource.name,
      id,
      restorableUntil: deleted.restorableUntil,
    });
  };

  /** A write refused because a record it points at went meanwhile: the 400 the check before it would give. */
  const refusedReferences = (error: unknown): never => {
    throw error instanceof MissingReferencesError ? missingReferencesRefusal(resources, error) : error;
  };

  /**
   * The answer to a DELETE of a record that is gone: the first answer again when `deletedBy` deleted it at most
   * RESENT_DELETE_WINDOW_MS ago (its client sending the DELETE again after losing that answer, through any host), else
   * the 404 that says it was deleted, with where to restore it (another tab, another account, a bulk delete). A record
   * deleted by no account known (before schema step 18, by a host of an earlier release, by an account removed
   * since) answers that 404 to every account: none can be told apart as the one sending it again.
   */
  const alreadyDeleted = async (
    tenant: string,
    resource: RegisteredResource,
    id: number,
    deletedBy: number | null,
  ): Promise<RecordDeletedPayload> => {
    const deleted = await deletedRecord(tenant, resource, id);
    if (deleted && deletedBy !== null && deleted.deletedBy === deletedBy) {
      if (Date.now() - deleted.deletedAt <= RESENT_DELETE_WINDOW_MS) {
        return { deleted: deleted.record, restorableUntil: deleted.restorableUntil };
      }
    }
    throw missingRecordError(resource, id, 'read', deleted);
  };

  /** A delete by `deletedBy` (null: no account), refused while records refer to the record; what DELETE answers. */
  const deleteRecord = async (
    tenant: string,
    resource: RegisteredResource,
    id: number,
    deletedBy: number | null,
  ): Promise<RecordDeletedPayload> => {
    const record = await records.get(tenant, resource.name, id);
    if (!record) return alreadyDeleted(tenant, resource, id, deletedBy);
    await assertNotReferred(resources, records, tenant, resource.name, record);
    const deletedAt = Date.now();
    const referrers = resources.referrersOf(resource.name);
    const deleted = await records
      .delete(tenant, resource.name, id, { referrers, now: deletedAt, deletedBy })
      .catch(async (error: unknown) => {
        if (!(error instanceof ReferredRecordError)) throw error;
        // A record was pointed at this one after the check above: refused as that check refuses.
        await assertNotReferred(resources, records, tenant, resource.name, record);
        throw new HttpError(
          'conflict',
          RECORD_DELETE_MESSAGES.referred(record.title || `#${record.id}`, ['a record'], 1),
        );
      });
    // Deleted meanwhile, by this account's other request, say.
    if (!deleted) return alreadyDeleted(tenant, resource, id, deletedBy);
    return { deleted, restorableUntil: deletedAt + RECORD_RESTORE_WINDOW_MS };
  };

  /** Brings back a record deleted within the window; what `.../restore` and a bulk restore do for each record. */
  const restoreRecord = async (tenant: string, resource: RegisteredResource, id: number): Promise<ResourceRecord> => {
    let title = '';
    const referencesOf = (record: ResourceRecord) => {
      title = record.title || `#${record.id}`;
      return relatedReferences(resource, record);
    };
    const restored = await records.restore(tenant, resource.name, id, { referencesOf }).catch((error: unknown) => {
      if (!(error instanceof MissingReferencesError)) throw error;
      // Restored, it would point at a record that is gone: what a delete is refused for, the other way round.
      const gone = error.references.map(
        (reference) => `${resources.get(reference.resource)?.definition.recordLabel ?? 'record'} #${reference.id}`,
      );
      throw new HttpError('conflict', RECORD_DELETE_MESSAGES.relatedGone(title, gone));
    });
    if (!restored) {
      throw HttpError.notFound(RECORD_DELETE_MESSAGES.notRestorable(resource.definition.recordLabel ?? 'record', id));
    }
    return restored;
  };

  jsonRoute(router, '/api/resources', {
    GET: (_req, res) => {
      const payload: ResourceListPayload = { resources: resources.summaries() };
      res.json(payload);
    },
  });

  jsonRoute(router, '/api/resources/:name', {
    GET: (req, res) => {
      const payload: ResourcePayload = { resource: resourceOf(req).definition };
      res.json(payload);
    },
  });

  jsonRoute(
    router,
    '/api/resources/:name/records',
    {
      GET: async (req, res) => {
        const resource = resourceOf(req);
        const tenant = (await currentTenant(req, tenants)).current.id;
        const { format, bom, ...listQuery } = req.query as Record<string, unknown>;
        if (format !== undefined && format !== RECORD_CSV_FORMAT) {
          throw HttpError.invalidRequest(RESOURCE_MESSAGES.format);
        }
        if (bom !== undefined && (bom !== RECORD_CSV_BOM || format !== RECORD_CSV_FORMAT)) {
          throw HttpError.invalidRequest(RESOURCE_MESSAGES.bom);
        }
        const query = parseRecordListQuery(resource, listQuery);
        if (format === RECORD_CSV_FORMAT) {
          await writeRecordsCsv(res, records, tenant, resource, query.source, { byteOrderMark: bom !== undefined });
          return;
        }
        const [found, counted] = await Promise.all([
          records.page(tenant, resource.name, query.source),
          records.countPage(tenant, resource.name, query.source, RECORD_TOTAL_BOUND),
        ]);
        const offset = pageOffset(query, found, counted);
        const related = await listRelatedRecords(records, tenant, resource, found.records);
        const payload: RecordListPayload = {
          records: found.records,
          page: {
            sort: query.sort,
            order: query.order,
            limit: query.source.limit,
            q: query.q,
            search: query.search,
            filters: query.filters,
            total: { count: Math.min(counted, RECORD_TOTAL_BOUND), exact: counted <= RECORD_TOTAL_BOUND },
            ...(offset === undefined ? {} : { offset }),
            ...(found.next
              ? {
                  next: encodeRecordCursor(
                    query,
                    found.next,
                    offset === undefined ? offset : offset + found.records.length,
                  ),
                }
              : {}),
            ...(found.previous ? { previous: encodeRecordCursor(query, found.previous, offset) } : {}),
          },
          ...(related ? { related } : {}),
          ...listTimesField(records, found.records),
        };
        res.json(payload);
      },
      POST: [
        ...recordBody,
        async (req, res) => {
          const resource = resourceOf(req);
          const key = creationKeyOf(req.get(RECORD_CREATION_KEY_HEADER));
          if (key === null) throw HttpError.invalidRequest(RECORD_CREATION_MESSAGES.invalidKey);
          const tenant = (await currentTenant(req, tenants)).current.id;
          const missing = await missingRelatedRecords(resources, records, tenant, resource, req.body);
          const data = validateRecordUpdate(resource.fields, null, req.body, {}, missing);
          const references = relatedReferences(resource, req.body);
          if (key === undefined) {
            const created = await records.insert(tenant, resource.name, data, references).catch(refusedReferences);
            res.status(201).json(await recordPayload(tenant, resource, created));
            return;
          }
          const creation = { userId: req.user!.id, key };
          const made = await records
            .insertOnce(tenant, resource.name, data, references, creation)
            .catch(refusedReferences)
            .catch((error: unknown) => {
              throw error instanceof CreationKeyReusedError ? new HttpError('conflict', error.message) : error;
            });
          if (!made.record) throw await missingRecord(tenant, resource, made.id, 'read');
          if (made.replayed) res.set(RECORD_CREATION_REPLAYED_HEADER, 'true');
          res.status(201).json(await recordPayload(tenant, resource, made.record));
        },
      ],
    },
    { refuse: refusedUnlessCreatable },
  );

  /**
   * An update of one record, merged again if another write lands meanwhile; what PUT saves. `missing`: the relation
   * fields of `body` whose record is not there (missingRelatedRecords, asked once for a bulk update). `changedFrom`
   * is given the record as it was before the change (a bulk update answers its earlier values, for its undo).
   */
  const updateRecord = async (
    tenant: string,
    resource: RegisteredResource,
    id: number,
    body: unknown,
    missing: Readonly<Record<string, string>>,
    unchanged: UnchangedFields | null = null,
    changedFrom?: (current: ResourceRecord) => void,
  ): Promise<ResourceRecord> => {
    const saved = await records
      .update(
        tenant,
        resource.name,
        id,
        (current) => {
          const saved = new Set(isPlainObject(body) ? Object.keys(body) : []);
          let next: JsonObject;
          try {
            next = validateRecordUpdate(resource.fields, id, body, current, missing);
          } catch (invalid) {
            // Stale as well as invalid: the 409 (with the record as stored now) wins over the 400, since the fields
            // fixed and sent again would only meet it. The values as sent stand for those the save would set.
            if (unchanged && isPlainObject(body)) {
              assertUnchanged(resource.fields, unchanged, current, { saved, next: body as JsonObject });
            }
            throw invalid;
          }
          if (unchanged) assertUnchanged(resource.fields, unchanged, current, { saved, next });
          // Called on each attempt: the last call is of the record the write that landed replaced.
          changedFrom?.(current);
          return next;
        },
        relatedReferences(resource, body),
      )
      .catch(refusedReferences);
    if (!saved) throw await missingRecord(tenant, resource, id, 'save');
    return saved;
  };

  /**
   * The ids of every record of `tenant` a list with `query`'s search, sort and filters shows, found here with the
   * list's own parser and walk (so its checks and tenant, and the column its `q` starts), by id; refused past
   * RECORD_BULK_QUERY_MAX, and when they are no longer as many as staff confirmed.
   */
  const idsMatching = async (tenant: string, resource: RegisteredResource, query: BulkRecordQuery) => {
    const {
      after: _after,
      before: _before,
      relevance: _relevance,
      ...list
    } = parseRecordListQuery(resource, query.list).source;
    const found = await records.page(tenant, resource.name, { ...list, limit: RECORD_BULK_QUERY_MAX + 1 });
    if (found.records.length > RECORD_BULK_QUERY_MAX) {
      throw HttpError.invalidRequest(RECORD_BULK_MESSAGES.tooMany(`more than ${RECORD_BULK_QUERY_MAX}`));
    }
    if (found.records.length !== query.count) {
      throw new HttpError('conflict', RECORD_BULK_MESSAGES.countChanged(query.count, found.records.length));
    }
    return found.records.map((record) => record.id).sort((a, b) => a - b);
  };

  jsonRoute(router, '/api/resources/:name/records/bulk', {
    POST: [
      ...recordBody,
      async (req, res) => {
        const resource = resourceOf(req);
        const bulk = parseBulkRequest(req.body);
        if (bulk.action !== 'update' && !resource.definition.canDelete) {
          throw new HttpError('method_not_allowed', RECORD_DELETE_MESSAGES.notAllowed(resource.label));
        }
        const tenant = (await currentTenant(req, tenants)).current.id;
        const ids = 'ids' in bulk.named ? bulk.named.ids : await idsMatching(tenant, resource, bulk.named.query);
        let payload: BulkRecordPayload;
        if (bulk.action === 'delete') {
          // Until when every record deleted here can be restored: the earliest of their deadlines, each from its
          // stored deletion time, so a bulk delete sent again (its records answered as deleted before) answers the
          // deadline the first answer gave, not one counted from now.
          const deadlines: number[] = [];
          const results = await runBulk(ids, async (id) => {
            const { deleted, restorableUntil } = await deleteRecord(tenant, resource, id, req.user?.id ?? null);
            deadlines.push(restorableUntil);
            return { record: deleted };
          });
          payload = {
            results,
            restorableUntil: deadlines.length > 0 ? Math.min(...deadlines) : Date.now() + RECORD_RESTORE_WINDOW_MS,
          };
        } else if (bulk.action === 'restore') {
          payload = {
            results: await runBulk(ids, async (id) => ({ record: await restoreRecord(tenant, resource, id) })),
          };
        } else {
          // As for PUT, each record is changed only while its fields of `$ifUnchanged` hold those values (an undo's
          // guard against replacing a colleague's later save).
          const taken = takeUnchangedFields(resource.fields, bulk.values);
          // What parseBulkRequest found an object of field values, less its precondition.
          const values = taken.values as RecordUpdateRequest;
          const missing = await missingRelatedRecords(resources, records, tenant, resource, values);
          payload = {
            results: await runBulk(ids, async (id) => {
              const previous: Record<string, JsonValue> = {};
              const record = await updateRecord(tenant, resource, id, values, missing, taken.unchanged, (current) => {
                for (const name of Object.keys(values)) previous[name] = current[name] ?? null;
              });
              return { record, previous };
            }),
          };
        }
        res.json(payload);
      },
    ],
  });

  // Before `/records/:id`, which would read `deleted` as a record id.
  jsonRoute(
    router,
    '/api/resources/:name/records/deleted',
    {
      GET: async (req, res) => {
        const resource = resourceOf(req);
        const { limit, before } = parseDeletedRecordsQuery(req.query as Record<string, unknown>);
        const tenant = (await currentTenant(req, tenants)).current.id;
        // One more than shown: whether older deletions were left out.
        const found = await records.listDeleted(tenant, resource.name, {
          limit: limit + 1,
          ...(before ? { before } : {}),
        });
        const deleted = found.slice(0, limit);
        const last = deleted.at(-1);
        const more = found.length > limit;
        const payload: DeletedRecordsPayload = {
          deleted,
          limit,
          more,
          ...(more && last ? { next: deletedRecordsCursor({ deletedAt: last.deletedAt, id: last.record.id }) } : {}),
        };
        res.json(payload);
      },
    },
    { refuse: refusedUnlessDeletable('GET') },
  );

  jsonRoute(
    router,
    '/api/resources/:name/records/:id/restore',
    {
      POST: async (req, res) => {
        const resource = resourceOf(req);
        const id = recordIdOf(req, resource);
        const tenant = (await currentTenant(req, tenants)).current.id;
        res.json(await recordPayload(tenant, resource, await restoreRecord(tenant, resource, id)));
      },
    },
    { refuse: refusedUnlessDeletable('POST') },
  );

  jsonRoute(
    router,
    '/api/resources/:name/records/:id',
    {
      GET: async (req, res) => {
        const resource = resourceOf(req);
        const id = recordIdOf(req, resource);
        const tenant = (await currentTenant(req, tenants)).current.id;
        const record = await records.get(tenant, resource.name, id);
        if (!record) throw await missingRecord(tenant, resource, id, 'read');
        res.json(await recordPayload(tenant, resource, record));
      },
      PUT: [
        ...recordBody,
        async (req, res) => {
          const resource = resourceOf(req);
          const id = recordIdOf(req, resource);
          const { values, unchanged } = takeUnchangedFields(resource.fields, req.body);
          const tenant = (await currentTenant(req, tenants)).current.id;
          const missing = await missingRelatedRecords(resources, records, tenant, resource, values);
          const saved = await updateRecord(tenant, resource, id, values, missing, unchanged);
          res.json(await recordPayload(tenant, resource, saved));
        },
      ],
      DELETE: async (req, res) => {
        const resource = resourceOf(req);
        const id = recordIdOf(req, resource);
        const tenant = (await currentTenant(req, tenants)).current.id;
        const payload = await deleteRecord(tenant, resource, id, req.user?.id ?? null);
        res.json(payload);
      },
    },
    { refuse: refusedUnlessDeletable('DELETE') },
  );

  return router;
}

/**
 * How many records of the list precede this page: none on the first page (no cursor, or a page before which none
 * is left), else what the cursor carries (see encodeRecordCursor), less the page's own records for a page before
 * the cursor; undefined for a cursor that carries none. Never more than the records counted leave room for (a
 * cursor kept while earlier records were deleted would say "26 to 35 of 33").
 */
function pageOffset(query: ParsedRecordListQuery, found: RecordPage, counted: number): number | undefined {
  const { after, before } = query.source;
  if ((!after && !before) || (before && !found.previous)) return 0;
  if (query.cursorOffset === undefined) return undefined;
  const carried = before ? query.cursorOffset - found.records.length : query.cursorOffset;
  const room = counted <= RECORD_TOTAL_BOUND ? counted - found.records.length : carried;
  return Math.max(0, Math.min(carried, room));
}
